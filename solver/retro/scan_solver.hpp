// What the engines over a scan store share as a class: the nibble engine (4 bits a position,
// nibble_retrograde.hpp) and the WLD engine (2 bits, wld_retrograde.hpp) derive from
// ScanSolver<Engine, Game, Bits>, which holds the level's packed words and runs its sweep
// (gathering, first pass, thresholds, safe points that pin the store's generation, resume)
// and reads its values; the engine supplies its own steps:
//   - `static constexpr const char* kName` (in messages), `kMaxLevel`;
//   - `void first_pass(sweep::SweepProgress&)`: the words and generation 1 (it records the
//     generation's checksum in sums_);
//   - `uint64_t threshold(int t, sweep::SweepProgress&)`: threshold t's scans (and passes
//     over the store, recording in sums_ the checksum of each generation it ends); returns
//     the scans; the pass that writes t's bitmap (generation bitmap_generation(t, n))
//     counts the positions it puts there, won and lost (count_decided());
//   - `static constexpr int kLowestBitmap`: the lowest threshold with a bitmap (a decided
//     position in no bitmap was decided at threshold 1);
//   - `static uint32_t decided_words(uint64_t container)`, `lost_words(container)`: the
//     masks of a container's decided words (bit k: word k of the 64 / Bits) and of its lost
//     ones, at a safe point or once the level is solved;
//   - `void chunk_values(uint64_t first, std::span<int8_t> values) const`: once the level
//     is solved, the values of the chunk's positions first.. from the words and the store
//     (thread-safe);
//   - `static std::vector<scan::GenerationShape> generations_needed(int thresholds_done,
//     int n, uint64_t size)`: the generations a safe point after that many thresholds of
//     level n (of `size` positions) goes with: the exits (generation 1) for every point but
//     the last (all n thresholds done), which the solver then drops once a checkpoint holds
//     that point. A point records the chain of their checksums, chain_checksum(), in
//     that order.
#pragma once

#include "retro/checkpoint.hpp"
#include "retro/game.hpp"
#include "retro/parallel.hpp"
#include "retro/progress.hpp"
#include "retro/scan_passes.hpp"
#include "retro/scan_store.hpp"
#include "retro/streamed_sources.hpp"
#include "retro/sweep.hpp"
#include "retro/value_array.hpp"
#include "retro/word_store.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace owaredb {

template <class Engine, RetroGame Game, unsigned Bits> class ScanSolver {
  public:
    /// The sweep state: Bits bits a position.
    using Sweep = sweep::BasicState<sweep::PackedWords<Bits>>;

    /// `gather_positions`: positions of the level whose exits are gathered at once (one
    /// byte each, rounded up to whole chunks; 0: the whole level).
    ScanSolver(const Game& game, const SmallerLevelValues& smaller, ScanStore& store, int threads,
               uint64_t gather_positions)
        : game_(game), smaller_(smaller), store_(store), threads_(std::max(1, threads)),
          gather_positions_(gather_positions) {}

    /// Solves level n: its values are then those read_values() reads, from the store's
    /// generations and the words, which the solver keeps until the next solve() or
    /// release().
    void solve(int n, const ProgressFn& progress = {}, LevelStats* stats = nullptr,
               SweepCheckpoint* checkpoint = nullptr);

    /// out[k] = the value of position begin + k of the level solved last. Thread-safe;
    /// reads whole chunks of the store, so reading in order, chunk-aligned, is cheapest.
    void read_values(uint64_t begin, std::span<int8_t> out) const {
        if (!words_ || begin + out.size() > s_.size)
            throw std::logic_error(std::string(Engine::kName) +
                                   ": reading values past the level solved");
        const Engine& engine = static_cast<const Engine&>(*this);
        // In parallel over the chunks: the level's writer reads millions of values at a
        // time from one thread, and each chunk's values decode on their own (from every
        // threshold's generation).
        parallel::for_chunks(threads_, begin, begin + out.size(), kChunk,
                             [&](uint64_t b, uint64_t e) {
                                 scan::read_chunk_values(s_.size, b, out.subspan(b - begin, e - b),
                                                         [&](uint64_t first, std::span<int8_t> v) {
                                                             engine.chunk_values(first, v);
                                                         });
                             });
    }
    /// The positions of each value (index: the value as uint8_t) of the level solved last,
    /// without reading its values: the commit passes counted the positions of each
    /// threshold's bitmap as they wrote them (a resumed level counts those of the
    /// thresholds done before from their bitmaps, once), and one pass over the words counts
    /// the decided ones (the rest is value 0; decided but in no bitmap, +-1).
    std::array<uint64_t, 256> value_counts() const;
    /// Positions of the level solved last.
    uint64_t size() const { return s_.size; }
    /// The values of the level solved last, in memory (tests, small levels).
    ValueArray values() const {
        ValueArray out(s_.size);
        read_values(0, {out.data(), out.size()});
        return out;
    }
    /// Gives back the words of the level solved last.
    void release() { words_.reset(); }

    /// For progress only (threshold_shares(), retro/progress.hpp).
    void set_threshold_shares(std::vector<double> shares) { threshold_shares_ = std::move(shares); }
    /// Tests only: propagation stacks of `limit` entries, so that small levels spill.
    void set_stack_limit(size_t limit) { stack_limit_ = limit; }
    /// Tests only: spilled entries a thread holds in memory before the rest goes to the
    /// store's spill space (spill.hpp), so that small levels spill there.
    void set_spill_memory(size_t entries) { spill_memory_ = entries; }
    /// The most spilled parents one thread held at once in the last level (statistics).
    uint64_t spilled_peak() const { return spilled_peak_.load(); }

  protected:
    using Stack = sweep::StackFor<Game>;
    static constexpr uint64_t kChunk = sweep::kChunk;

    /// The bitmap of threshold t of level n: a generation of the store.
    static uint64_t bitmap_generation(int t, int n) { return uint64_t(n - t) + 2; }
    /// A commit pass's part of threshold t's bitmap: `won` and `lost` positions (thread-safe).
    void count_decided(int t, uint64_t won, uint64_t lost) {
        std::atomic_ref<uint64_t>(won_at_[std::size_t(t)])
            .fetch_add(won, std::memory_order_relaxed);
        std::atomic_ref<uint64_t>(lost_at_[std::size_t(t)])
            .fetch_add(lost, std::memory_order_relaxed);
    }

    const Game& game_;
    const SmallerLevelValues& smaller_;
    ScanStore& store_;
    int threads_;
    uint64_t gather_positions_;
    size_t stack_limit_ = sweep::kStackLimit;
    size_t spill_memory_ = kSpillMemoryEntries;
    std::vector<double> threshold_shares_;
    std::map<uint64_t, uint64_t> sums_;      // the checksum of each generation ended or resumed
    std::vector<uint64_t> won_at_, lost_at_; // [t]: positions of t's bitmap, won and lost
    std::atomic<uint64_t> spilled_peak_{0};
    Sweep s_;                         // the words of the level solved last ...
    std::optional<ValueArray> words_; // ... which own them

  private:
    /// Counts the positions of the bitmaps of thresholds n..n - thresholds_done + 1 (those
    /// a restored point went with).
    void recount_decided(int thresholds_done);
};

template <class Engine, RetroGame Game, unsigned Bits>
void ScanSolver<Engine, Game, Bits>::recount_decided(int thresholds_done) {
    const int n = s_.n, last = std::max(Engine::kLowestBitmap, n - thresholds_done + 1);
    if (last > n) return;
    constexpr uint64_t kPerContainer = 64 / Bits;
    parallel::for_chunks(threads_, 0, s_.size, kChunk, [&](uint64_t b, uint64_t e) {
        thread_local std::vector<uint8_t> open;
        std::vector<uint64_t> won(std::size_t(n) + 1), lost(std::size_t(n) + 1);
        scan::read_threshold_bitmaps(
            store_, b, e - b, n, last, [n](int t) { return bitmap_generation(t, n); }, open,
            [&](uint64_t j, int t) {
                const uint64_t i = b + j;
                const uint64_t c = std::atomic_ref<uint64_t>(s_.containers[i / kPerContainer])
                                       .load(std::memory_order_relaxed);
                ++(Engine::lost_words(c) >> (i % kPerContainer) & 1 ? lost : won)[std::size_t(t)];
            });
        for (int t = last; t <= n; ++t) count_decided(t, won[std::size_t(t)], lost[std::size_t(t)]);
    });
}

template <class Engine, RetroGame Game, unsigned Bits>
std::array<uint64_t, 256> ScanSolver<Engine, Game, Bits>::value_counts() const {
    if (!words_) throw std::logic_error(std::string(Engine::kName) + ": no level solved");
    constexpr uint64_t kPerContainer = 64 / Bits;
    static_assert(kChunk % kPerContainer == 0, "a chunk holds whole containers");
    uint64_t decided_won = 0, decided_lost = 0;
    parallel::for_chunks(threads_, 0, s_.size, kChunk, [&](uint64_t b, uint64_t e) {
        uint64_t won = 0, lost = 0;
        for (uint64_t k = b / kPerContainer; k * kPerContainer < e; ++k) {
            const uint64_t c =
                std::atomic_ref<uint64_t>(s_.containers[k]).load(std::memory_order_relaxed);
            const uint64_t left = e - k * kPerContainer; // the level's words from word 0 on
            const uint32_t in_level = left >= 32 ? ~0u : (1u << left) - 1;
            const uint32_t decided = Engine::decided_words(c) & in_level;
            if (!decided) continue;
            const uint32_t lost_ones = Engine::lost_words(c) & decided;
            won += unsigned(std::popcount(decided & ~lost_ones));
            lost += unsigned(std::popcount(lost_ones));
        }
        std::atomic_ref<uint64_t>(decided_won).fetch_add(won, std::memory_order_relaxed);
        std::atomic_ref<uint64_t>(decided_lost).fetch_add(lost, std::memory_order_relaxed);
    });
    std::array<uint64_t, 256> counts{};
    uint64_t in_bitmaps_won = 0, in_bitmaps_lost = 0;
    for (int t = 1; t <= s_.n; ++t) {
        counts[uint8_t(int8_t(t))] = won_at_[std::size_t(t)];
        counts[uint8_t(int8_t(-t))] = lost_at_[std::size_t(t)];
        in_bitmaps_won += won_at_[std::size_t(t)];
        in_bitmaps_lost += lost_at_[std::size_t(t)];
    }
    if (in_bitmaps_won > decided_won || in_bitmaps_lost > decided_lost)
        throw std::logic_error(std::string(Engine::kName) +
                               ": the bitmaps hold more positions than the words decided");
    // Decided in no bitmap: at threshold 1 (the 2-bit engine's; none in the 4-bit one).
    if (s_.n >= 1) {
        counts[1] += decided_won - in_bitmaps_won;
        counts[uint8_t(int8_t(-1))] += decided_lost - in_bitmaps_lost;
    }
    counts[0] = s_.size - decided_won - decided_lost;
    return counts;
}

template <class Engine, RetroGame Game, unsigned Bits>
void ScanSolver<Engine, Game, Bits>::solve(int n, const ProgressFn& progress, LevelStats* stats,
                                           SweepCheckpoint* checkpoint) {
    Engine& engine = static_cast<Engine&>(*this);
    sweep::check_level(Engine::kName, n, Engine::kMaxLevel, static_cast<size_t>(n));
    std::optional<scan::PinningCheckpoint> pinning;
    if (checkpoint) pinning.emplace(*checkpoint, store_, n);
    SweepCheckpoint* const safe_points = pinning ? &*pinning : nullptr;
    const uint64_t size = game_.level_size(n);
    Sweep& s = s_;
    s.stack_limit = stack_limit_;
    s.spill = &store_.spill_space(); // the words have no room for a pending mark
    s.spill_memory = spill_memory_;
    spilled_peak_.store(0);
    sums_.clear();
    won_at_.assign(std::size_t(n) + 1, 0);
    lost_at_.assign(std::size_t(n) + 1, 0);
    words_.reset();
    words_.emplace(sweep::start(s, n, size));
    std::optional<scan::RestoredPoint> restored =
        scan::restore_scan_point(store_, s, safe_points, [n, size](const SweepPoint& p) {
            return Engine::generations_needed(p.thresholds_done, n, size);
        });
    std::optional<SweepPoint> saved;
    if (restored) saved = restored->point;
    // Shares of the level's time, for progress: as the streamed engine's.
    constexpr double kGatherShare = 0.25, kFirstShare = 0.15;
    using Clock = std::chrono::steady_clock;
    const auto t0 = Clock::now();
    if (!saved) {
        words_.reset(); // the gathering's slice takes the words' place
        scan::gather_exits(game_, smaller_, store_, threads_, gather_positions_, n, progress,
                           kGatherShare);
        words_.emplace(sweep::start(s, n, size));
    } else {
        sums_ = restored->sums;
        recount_decided(saved->thresholds_done);
    }
    const auto t1 = Clock::now();
    ProgressFn rest = progress;
    if (progress)
        rest = [&progress](const LevelProgress& p) {
            LevelProgress q = p;
            q.pass_fraction = kGatherShare + (1 - kGatherShare) * p.pass_fraction;
            progress(q);
        };
    const uint64_t chunks = std::max<uint64_t>(1, (size + kChunk - 1) / kChunk);
    sweep::run_segments(
        s, saved.value_or(SweepPoint{}),
        {.threads = threads_,
         .progress = rest,
         .first_share = kFirstShare / (1 - kGatherShare),
         .threshold_shares = threshold_shares_,
         .segment_chunks = chunks, // one segment: the first pass writes one generation
         .stats = stats,
         .checkpoint = safe_points},
        {.first_segment = [&](uint64_t, uint64_t,
                              sweep::SweepProgress& p) { engine.first_pass(p); },
         .threshold = [&](int t, sweep::SweepProgress& p) { return engine.threshold(t, p); },
         .finish = [] {}, // the values are read from the words and the store
         .at_safe_point =
             [&](SweepPoint& point) {
                 uint64_t chain = 0;
                 for (const auto& g : Engine::generations_needed(point.thresholds_done, n, size))
                     chain = chain_checksum(chain, sums_.at(g.generation));
                 point.exit_checksum = chain;
             }});
    // The exits serve the scans only: once the checkpoint holds the last safe point, which
    // does not need them (generations_needed()), no resume needs them, and the level's
    // file is written without them on disk (the largest scan generation, 2.0-2.2 bits a
    // position).
    if (pinning && pinning->last_saved()) store_.drop(1);
    if (stats) {
        stats->first_pass_seconds += std::chrono::duration<double>(t1 - t0).count();
        stats->spilled_peak = spilled_peak_.load();
    }
}

} // namespace owaredb
