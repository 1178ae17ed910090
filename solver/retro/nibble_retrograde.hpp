// The nibble engine: the values of the streamed engine (streamed_retrograde.hpp), and so of
// RetrogradeSolver, with 4 bits of working state a position in memory, for levels whose
// 1-byte words do not fit the memory budget. Everything else a level needs is read and
// written in order, a chunk at a time: the smaller levels (as the streamed engine reads
// them) and one byte a position in a scan store (scan_store.hpp).
//
// The method is the streamed engine's threshold sweep, with its state split differently:
//   - the word (nibble_word.hpp) keeps a position's open quiet moves and its eligible bit
//     while it is undecided, and only "won" or "lost" and the parity of the threshold once
//     it is decided;
//   - the store byte keeps the position's best capture exit (or terminal value) while it is
//     undecided, and its value once committed.
// Step by step:
//   1. Gathering (generation 0 of the store): the capture exits, pushed from the smaller
//      levels as the streamed engine pushes them (exit_gathering.hpp), into a byte array of
//      one slice of the level at a time (`gather_positions`; each slice reads the smaller
//      levels once), then written to the store.
//   2. First pass (generation 1): each position's word from its moves and its exit. A
//      position with no quiet move (terminal, or every move captures) stays undecided with
//      no move open, its value (terminal value or exit) in the byte; the streamed engine
//      assigns it at once, but nothing visits it (no quiet move leads to it, and a visit
//      goes to the parents by quiet un-moves), and the scan of threshold |value| decides it
//      exactly when the streamed engine's scan would propagate it.
//   3. Thresholds t = n..1 (generation n - t + 2): the scan of t reads each chunk's bytes,
//      and for each position
//        - decided at t + 1 (decided, parity (t + 1) % 2, byte not committed): commits its
//          value +-(t + 1) to the byte. Every position decided at u was decided by the end
//          of threshold u, before the scan of u - 1 began, and that scan commits it: so a
//          decided word with an uncommitted byte is decided at t + 1 if its parity is
//          (t + 1) % 2, and at t (by this threshold's propagation, ahead of the scan) if it
//          is t % 2;
//        - undecided: exactly the streamed engine's scan (exit t: won; exit <= -t: eligible,
//          or lost if no quiet move is open), with propagation through the same parent
//          updates, the decided words marked with t's parity;
//      then writes the chunk's bytes to the next generation. A full propagation stack
//      spills its parents (sweep::BasicState::spill) instead of leaving them pending for a
//      rescan, since the word has no room for a pending mark; the scan drains them.
//   4. The values, read in order by the level's writer (read_values()) from the last
//      generation and the words: a committed value, +-1 for the positions decided at
//      threshold 1 (the last, whose values no later scan commits), 0 for the undecided.
// So the sets W_t and L_t, and the values, are the streamed engine's: the files are
// byte-identical (tests/retro/nibble_test.cpp).
//
// Memory ordering: a word changes only by compare-exchange on its 64-bit container, with
// the streamed engine's relaxed order: each parent update reads the word's latest value in
// the container's modification order, so no closed move is lost and exactly one thread
// sees a counter reach zero, or wins a claim; the scans of two thresholds are separated by
// the parallel loop's barrier, so a scan sees every word decided at earlier thresholds.
//
// Checkpoints: safe points after the first pass and after each threshold record the
// generation's checksum (SweepPoint::exit_checksum; the generation is thresholds_done + 1);
// a saved point pins its generation in the store, and a resumed level starts afresh unless
// the store still holds it intact.
#pragma once

#include "retro/checkpoint.hpp"
#include "retro/exit_gathering.hpp"
#include "retro/game.hpp"
#include "retro/nibble_word.hpp"
#include "retro/parallel.hpp"
#include "retro/progress.hpp"
#include "retro/scan_passes.hpp"
#include "retro/scan_store.hpp"
#include "retro/streamed_sources.hpp"
#include "retro/sweep.hpp"
#include "retro/value_array.hpp"
#include "retro/word_store.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <vector>

namespace owaredb {

/// The sweep state of the nibble engine: 4 bits a position.
using NibbleSweep = sweep::BasicState<sweep::PackedWords<4>>;

template <RetroGame Game> class NibbleRetrogradeSolver {
    static_assert(Game::kMaxMoves <= NibbleWord::kMaxMoves, "the 4-bit word holds 6 moves");

  public:
    /// Identifies this engine's working words in checkpoint files.
    static constexpr uint32_t kCheckpointFormat = 5;
    static constexpr int kMaxLevel = NibbleWord::kMaxLevel;

    /// `gather_positions`: positions of the level whose exits are gathered at once (one
    /// byte each, rounded up to whole chunks; 0: the whole level).
    NibbleRetrogradeSolver(const Game& game, const SmallerLevelValues& smaller, ScanStore& store,
                           int threads, uint64_t gather_positions = 0)
        : game_(game), smaller_(smaller), store_(store), threads_(std::max(1, threads)),
          gather_positions_(gather_positions) {}

    /// Solves level n: its values are then those read_values() reads, from the store's
    /// last generation (n + 1) and the words, which the solver keeps until the next
    /// solve() or release().
    void solve(int n, const ProgressFn& progress = {}, LevelStats* stats = nullptr,
               SweepCheckpoint* checkpoint = nullptr);

    /// out[k] = the value of position begin + k of the level solved last. Thread-safe;
    /// reads whole chunks of the store, so reading in order, chunk-aligned, is cheapest.
    void read_values(uint64_t begin, std::span<int8_t> out) const;
    /// Positions of the level solved last.
    uint64_t size() const { return s_.size; }
    /// The values of the level solved last, in memory (tests, small levels).
    ValueArray values() const;
    /// Gives back the words of the level solved last.
    void release() { words_.reset(); }

    /// For progress only (threshold_shares(), retro/progress.hpp).
    void set_threshold_shares(std::vector<double> shares) { threshold_shares_ = std::move(shares); }
    /// Tests only: propagation stacks of `limit` entries, so that small levels spill.
    void set_stack_limit(size_t limit) { stack_limit_ = limit; }
    /// The most spilled parents one thread held at once in the last level (statistics).
    uint64_t spilled_peak() const { return spilled_peak_.load(); }

  private:
    using W = NibbleWord;
    using Stack = sweep::StackFor<Game>;
    static constexpr uint64_t kChunk = sweep::kChunk;

    std::optional<SweepPoint> restore(NibbleSweep& s, SweepCheckpoint* checkpoint) const;
    void gather(int n, const ProgressFn& progress, double share) const;
    void first_pass(NibbleSweep& s, sweep::SweepProgress& progress);
    void scan_chunk(NibbleSweep& s, uint64_t begin, uint64_t end, int t, Stack& stack);
    auto visit(NibbleSweep& s) const;

    const Game& game_;
    const SmallerLevelValues& smaller_;
    ScanStore& store_;
    int threads_;
    uint64_t gather_positions_;
    size_t stack_limit_ = sweep::kStackLimit;
    std::vector<double> threshold_shares_;
    uint64_t checksum_ = 0; // of the generation read
    std::atomic<uint64_t> spilled_peak_{0};
    NibbleSweep s_;                   // the words of the level solved last ...
    std::optional<ValueArray> words_; // ... which own them
};

// ---------------------------------------------------------------------------------------

template <RetroGame Game>
void NibbleRetrogradeSolver<Game>::gather(int n, const ProgressFn& progress, double share) const {
    scan::gather_exits(game_, smaller_, store_, threads_, gather_positions_, n, progress, share);
}

template <RetroGame Game>
void NibbleRetrogradeSolver<Game>::first_pass(NibbleSweep& s, sweep::SweepProgress& progress) {
    bool too_many = false;
    scan::first_scan_pass(game_, s, store_, threads_, progress, "nibble retrograde", too_many,
                          [](uint8_t w) { return w; });
    if (too_many)
        throw std::logic_error("nibble retrograde: a position with a capture exit has 6 quiet "
                               "moves (more than 6 moves)");
    checksum_ = store_.end();
}

template <RetroGame Game> auto NibbleRetrogradeSolver<Game>::visit(NibbleSweep& s) const {
    // The streamed engine's parent update, with no pending mark (the stack spills instead).
    const int t = s.t;
    return sweep::value_visit(
        s, W::decided, [t](bool) { return W::decided_word(t, false); },
        [t](uint8_t old, bool) {
            const bool lost = W::eligible(old) && W::counter(old) == 1;
            return std::pair{lost ? W::decided_word(t, true) : static_cast<uint8_t>(old - 1), lost};
        });
}

template <RetroGame Game>
void NibbleRetrogradeSolver<Game>::scan_chunk(NibbleSweep& s, uint64_t begin, uint64_t end, int t,
                                              Stack& stack) {
    const auto update = visit(s);
    auto propagate = [&](uint64_t i, bool lost) {
        sweep::propagate(game_, s, i << 1 | (lost ? 1 : 0), stack, update);
    };
    thread_local std::vector<int8_t> bytes;
    bytes.resize(end - begin);
    store_.read(begin / kChunk, bytes);
    const int previous = (t + 1) & 1;
    for (uint64_t i = begin; i < end; ++i) {
        int8_t& byte = bytes[i - begin];
        uint8_t w = s.word(i).load(std::memory_order_relaxed);
        if (W::decided(w)) {
            if (W::parity(w) == previous && !W::committed(byte))
                byte = W::commit(W::lost(w) ? -(t + 1) : t + 1);
            continue;
        }
        const int e = byte;
        if (e == t) {
            if (sweep::claim(s, i, W::decided_word(t, false), W::decided)) propagate(i, false);
        } else if (e != W::kNoExit && e <= -t && !W::eligible(w)) {
            // Eligible from now on; lost at once if no quiet move is open.
            auto word = s.word(i);
            while (!W::decided(w)) {
                const bool lost = W::counter(w) == 0;
                const uint8_t nw =
                    lost ? W::decided_word(t, true) : W::undecided(W::counter(w), true);
                if (word.compare_exchange_weak(w, nw, std::memory_order_relaxed)) {
                    if (lost) propagate(i, true);
                    break;
                }
            }
        }
    }
    store_.write(begin / kChunk, bytes);
    // The roots still waiting for a batch, then what full stacks spilled, until none is left.
    scan::drain_spilled(game_, s, stack, update, spilled_peak_);
}

template <RetroGame Game>
void NibbleRetrogradeSolver<Game>::read_values(uint64_t begin, std::span<int8_t> out) const {
    if (!words_ || begin + out.size() > s_.size)
        throw std::logic_error("nibble retrograde: reading values past the level solved");
    scan::read_scan_values(store_, s_, begin, out, [](uint8_t w, int8_t byte) {
        return !W::decided(w)       ? 0
               : W::committed(byte) ? W::committed_value(byte)
               : W::lost(w)         ? -1 // decided at threshold 1
                                    : 1;
    });
}

template <RetroGame Game>
std::optional<SweepPoint> NibbleRetrogradeSolver<Game>::restore(NibbleSweep& s,
                                                                SweepCheckpoint* checkpoint) const {
    return scan::restore_scan_point(
        store_, s, checkpoint, [](const SweepPoint& p) { return uint64_t(p.thresholds_done) + 1; });
}

template <RetroGame Game>
void NibbleRetrogradeSolver<Game>::solve(int n, const ProgressFn& progress, LevelStats* stats,
                                         SweepCheckpoint* checkpoint) {
    sweep::check_level("nibble retrograde", n, kMaxLevel, static_cast<size_t>(n));
    std::optional<scan::PinningCheckpoint> pinning;
    if (checkpoint) pinning.emplace(*checkpoint, store_);
    SweepCheckpoint* const safe_points = pinning ? &*pinning : nullptr;
    const uint64_t size = game_.level_size(n);
    NibbleSweep& s = s_;
    s.stack_limit = stack_limit_;
    s.spill = true;
    spilled_peak_.store(0);
    std::optional<ValueArray>& words = words_;
    words.reset();
    words.emplace(sweep::start(s, n, size));
    std::optional<SweepPoint> saved = restore(s, safe_points);
    // Shares of the level's time, for progress: as the streamed engine's.
    constexpr double kGatherShare = 0.25, kFirstShare = 0.15;
    using Clock = std::chrono::steady_clock;
    const auto t0 = Clock::now();
    if (!saved) {
        words.reset(); // the gathering's slice takes the words' place
        gather(n, progress, kGatherShare);
        words.emplace(sweep::start(s, n, size));
    } else {
        checksum_ = saved->exit_checksum;
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
        {.first_segment = [&](uint64_t, uint64_t, sweep::SweepProgress& p) { first_pass(s, p); },
         .threshold = [&](int t, sweep::SweepProgress& p) -> uint64_t {
             store_.begin(uint64_t(n - t) + 2, size, kChunk);
             const uint64_t scans = sweep::scan_level<Stack>(
                 s, threads_, t, p, [&](uint64_t begin, uint64_t end, int t, Stack& stack) {
                     scan_chunk(s, begin, end, t, stack);
                 });
             checksum_ = store_.end();
             return scans;
         },
         .finish = [] {}, // the values are read from the words and the store
         .at_safe_point = [&](SweepPoint& point) { point.exit_checksum = checksum_; }});
    if (stats) stats->first_pass_seconds += std::chrono::duration<double>(t1 - t0).count();
}

template <RetroGame Game> ValueArray NibbleRetrogradeSolver<Game>::values() const {
    ValueArray out(s_.size);
    read_values(0, {out.data(), out.size()});
    return out;
}

} // namespace owaredb
