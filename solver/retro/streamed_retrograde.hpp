// The streamed retrograde analyser: the same values as RetrogradeSolver (retrograde.hpp),
// with one byte of working state per position and no smaller level in memory, for levels
// whose in-memory build does not fit the memory budget.
//
// The method is RetrogradeSolver's threshold sweep, with its state split in two:
//   - in memory, one byte per position:
//       0..15    unassigned: bits 0-2 count the quiet moves whose child is not yet known
//                to be in W_t, bit 3 ("eligible") says the best capture exit is <= -t,
//                i.e. the position joins L_t as soon as the count reaches zero;
//       16..255  assigned: 16 + 2 * (value + 59) + pending (values -59..59);
//   - in the exit store (a scratch file beside the level), the best capture exit of every
//     position, one byte each, written once by the first pass and read in order, a chunk
//     at a time, by every threshold scan.
// The 2-byte engine keeps the exit in the word because propagation compares it with -t
// when a counter reaches zero. Here the scan at threshold t sets the eligible bit of the
// positions whose exit is <= -t as it passes them (their exit is then known to stay <= -t
// for every later, smaller threshold), and a counter that reaches zero before the scan
// has passed is caught by the scan itself (count zero and exit <= -t: lost), exactly as
// the 2-byte engine's scan catches a position whose exit was still too high. Both orders
// end with the position in L_t, so the sets, and the values, are those of the 2-byte
// engine: the files are byte-identical (tests/retro/streamed_test.cpp, tests/tools).
//
// The first pass needs the best capture exit of every position: the values of capture
// children, which lie in smaller levels on disk. One process pushes them from the smaller
// levels before the first pass (exit_gathering.hpp), into the bytes that become the words;
// the exits then go to the store in one sequential write, and the first pass proper (quiet
// move counts, terminal and all-capture positions) turns each exit into its word in place.
// A distributed rank asks for them instead, a segment at a time (rank_requests.hpp), and
// its thresholds are rounds of scans and message exchanges with the other ranks
// (distributed_rounds.hpp).
//
// Checkpoints (one process): the gathering has safe points of its own (exit_gathering.hpp);
// the first pass's and the thresholds' safe points record the exit file's checksum, and a
// resumed level starts afresh unless the exit file still matches it.
#pragma once

#include "retro/checkpoint.hpp"
#include "retro/distributed_rounds.hpp"
#include "retro/exit_gathering.hpp"
#include "retro/game.hpp"
#include "retro/parallel.hpp"
#include "retro/progress.hpp"
#include "retro/rank_link.hpp"
#include "retro/rank_requests.hpp"
#include "retro/streamed_sources.hpp"
#include "retro/streamed_word.hpp"
#include "retro/sweep.hpp"
#include "retro/value_array.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>

namespace owaredb {

template <RetroGame Game> class StreamedRetrogradeSolver {
  public:
    /// Identifies this engine's working bytes in checkpoint files.
    static constexpr uint32_t kCheckpointFormat = 4;
    /// The largest level the byte encoding holds.
    static constexpr int kMaxLevel = StreamedWord::kMaxLevel;

    /// `segment_positions`: positions per first-pass segment (rounded to whole chunks;
    /// 0: the sweep's default, about 1/256 of the level), and of the gathering's segments.
    /// A distributed rank's threads hold one request per capture move of the chunks they
    /// take from a segment. `link`: the other ranks of a distributed solve (nullptr: this
    /// process solves whole levels); the exit store is then this rank's alone.
    StreamedRetrogradeSolver(const Game& game, const SmallerLevelValues& smaller, ExitStore& exits,
                             int threads, uint64_t segment_positions = 0, RankLink* link = nullptr)
        : game_(game), smaller_(smaller), exits_(exits), threads_(std::max(1, threads)),
          segment_chunks_((segment_positions + sweep::kChunk - 1) / sweep::kChunk), link_(link) {}

    /// The values of every position of level n, indexed by rank (as RetrogradeSolver::solve);
    /// distributed, those of this rank's slice, slice(n) (every rank calls solve(n)).
    /// Checkpoints are for one process only (a distributed solve passes none).
    ValueArray solve(int n, const ProgressFn& progress = {}, LevelStats* stats = nullptr,
                     SweepCheckpoint* checkpoint = nullptr);

    /// Distributed: this rank's message rounds of the last level solved.
    distributed::RoundStats round_stats() const { return rounds_; }

    /// For progress only (the values do not depend on it): each threshold's share of the
    /// thresholds' time at the next solve() (threshold_shares(), retro/progress.hpp).
    void set_threshold_shares(std::vector<double> shares) { threshold_shares_ = std::move(shares); }

    /// Tests only: propagation stacks of `limit` entries, so that small levels overflow them
    /// and take the rescan path that only large levels take otherwise (same values).
    void set_stack_limit(size_t limit) { stack_limit_ = limit; }

    /// The positions of level n this process solves: [first, second).
    std::pair<uint64_t, uint64_t> slice(int n) const {
        if (!link_) return {0, game_.level_size(n)};
        const auto bounds =
            slice_bounds(game_.level_size(n), link_->ranks(), distributed::kSliceUnit);
        return {bounds[size_t(link_->rank())], bounds[size_t(link_->rank()) + 1]};
    }

  private:
    using W = StreamedWord;
    using Sweep = StreamedSweep;
    using Stack = sweep::StackFor<Game>;

    std::optional<SweepPoint> restore(Sweep& s, SweepCheckpoint* checkpoint) const;
    void words_from_exits(Sweep& s, uint64_t begin, uint64_t end) const;
    template <class Route>
    void scan_chunk(Sweep& s, uint64_t begin, uint64_t end, int t, Stack& stack,
                    Route&& route) const;
    auto visit(Sweep& s) const;

    const Game& game_;
    const SmallerLevelValues& smaller_;
    ExitStore& exits_;
    int threads_;
    size_t stack_limit_ = sweep::kStackLimit;
    uint64_t segment_chunks_;
    std::vector<double> threshold_shares_;
    RankLink* link_;
    distributed::RoundStats rounds_;
};

// ---------------------------------------------------------------------------------------

template <RetroGame Game>
void StreamedRetrogradeSolver<Game>::words_from_exits(Sweep& s, uint64_t begin,
                                                      uint64_t end) const {
    // In place: the byte of position i holds its exit (exit_gathering.hpp) until it gets
    // its word.
    std::atomic<bool> missing_exit{false};
    parallel::for_chunks(threads_, begin, end, sweep::kChunk, [&](uint64_t b, uint64_t e) {
        bool missing = false;
        for_each_in_rank_order(
            game_, s.n, s.base + b, s.base + e, [&](uint64_t i, const auto& state) {
                uint8_t& byte = s.words[i - s.base];
                const int exit = static_cast<int8_t>(byte);
                byte = W::with_exit(W::from_moves(game_, state, [](int, const auto&) {}), exit,
                                    missing);
            });
        if (missing) missing_exit.store(true, std::memory_order_relaxed);
    });
    if (missing_exit)
        throw std::logic_error("streamed retrograde: a position whose every move captures has "
                               "no capture exit (the game's moves and un-captures disagree)");
}

template <RetroGame Game> auto StreamedRetrogradeSolver<Game>::visit(Sweep& s) const {
    // As RetrogradeSolver's parent update, with the eligible bit standing for "exit <= -t".
    const int t = s.t;
    return sweep::value_visit(
        s, W::assigned, [t](bool full) { return W::assigned_word(t, full); },
        [t](uint8_t old, bool full) {
            const bool lost = W::counter(old) == 1 && (old & W::kEligible);
            return std::pair{lost ? W::assigned_word(-t, full) : static_cast<uint8_t>(old - 1),
                             lost};
        });
}

template <RetroGame Game>
template <class Route>
void StreamedRetrogradeSolver<Game>::scan_chunk(Sweep& s, uint64_t begin, uint64_t end, int t,
                                                Stack& stack, Route&& route) const {
    // begin, end: offsets in this process's words; i: the position's index in the level.
    const auto update = visit(s);
    auto propagate = [&](uint64_t i, int value) {
        sweep::propagate(game_, s, i << 1 | (value < 0), stack, update, route);
    };
    thread_local std::vector<int8_t> exits;
    exits.resize(end - begin);
    exits_.read(begin, exits);
    for (uint64_t i = s.base + begin; i < s.base + end; ++i) {
        uint8_t w = s.word(i).load(std::memory_order_relaxed);
        if (W::assigned(w)) {
            if (W::pending(w) && std::abs(W::value(w)) == t) {
                uint8_t old = w;
                if (s.word(i).compare_exchange_strong(old, static_cast<uint8_t>(w - 1),
                                                      std::memory_order_relaxed))
                    propagate(i, W::value(w));
            }
            continue;
        }
        const int e = exits[i - s.base - begin];
        if (e == t) {
            if (sweep::claim(s, i, W::assigned_word(t, false), W::assigned)) propagate(i, t);
        } else if (e != W::kNoExit && e <= -t && !(w & W::kEligible)) {
            // Eligible from now on; lost at once if no quiet move is left open.
            auto word = s.word(i);
            while (!W::assigned(w)) {
                const bool lost = W::counter(w) == 0;
                const uint8_t nw =
                    lost ? W::assigned_word(-t, false) : static_cast<uint8_t>(w | W::kEligible);
                if (word.compare_exchange_weak(w, nw, std::memory_order_relaxed)) {
                    if (lost) propagate(i, -t);
                    break;
                }
            }
        }
    }
    sweep::drain(game_, s, stack, update, route); // the roots still waiting for a batch
}

template <RetroGame Game>
std::optional<SweepPoint>
StreamedRetrogradeSolver<Game>::restore(Sweep& s, SweepCheckpoint* checkpoint) const {
    if (!checkpoint) return std::nullopt;
    std::optional<SweepPoint> saved = checkpoint->restore(s.bytes());
    if (!saved) return std::nullopt;
    if (saved->first_pass_done == 0) {
        // A point of the gathering: the bytes hold the exits gathered so far.
        if (saved->exits_gathered <=
            ExitGathering<Game>(game_, smaller_, threads_, 0).positions(s.n))
            return saved;
        checkpoint->note("the checkpoint's capture-exit count is past the level's; the level "
                         "starts afresh");
        return std::nullopt;
    }
    // A point of the first pass or of the thresholds: the exit file must hold every exit.
    if (exits_.resume(s.size, saved->exit_checksum)) return saved;
    checkpoint->note("the exit file does not match the checkpoint (missing, short or "
                     "changed); the level starts afresh");
    return std::nullopt;
}

template <RetroGame Game>
ValueArray StreamedRetrogradeSolver<Game>::solve(int n, const ProgressFn& progress,
                                                 LevelStats* stats, SweepCheckpoint* checkpoint) {
    sweep::check_level("streamed retrograde", n, kMaxLevel, static_cast<size_t>(n));
    if (link_ && checkpoint)
        throw std::invalid_argument("streamed retrograde: a distributed solve takes no checkpoint");
    const auto [first, last] = slice(n);
    Sweep s;
    s.stack_limit = stack_limit_;
    ValueArray result = sweep::start(s, n, last - first);
    s.base = first;
    using Clock = std::chrono::steady_clock;
    const auto t0 = Clock::now();

    // One process: the exits are pushed from the smaller levels first, unless a checkpoint
    // is past that.
    const bool push = link_ == nullptr;
    // Shares of the level's time, for progress (docs/results.md has the measured phases).
    const double gather_share = push ? 0.25 : 0.0;
    const double first_share = push ? 0.15 : 0.5;
    std::optional<SweepPoint> saved = restore(s, checkpoint);
    if (push && (!saved || saved->first_pass_done == 0)) {
        const uint64_t from = saved ? saved->exits_gathered : 0;
        if (!saved) std::fill_n(s.words, s.size, static_cast<uint8_t>(W::kNoExit));
        ExitGathering<Game>(game_, smaller_, threads_, segment_chunks_)
            .run(s, from, progress, gather_share, checkpoint);
        exits_.reset();
        exits_.append(std::span<const int8_t>(reinterpret_cast<const int8_t*>(s.words), s.size));
        exits_.sync();
        saved.reset(); // the first pass from its start
    }
    const auto t1 = Clock::now();

    ProgressFn rest = progress;
    if (progress && gather_share > 0)
        rest = [&progress, gather_share](const LevelProgress& p) {
            LevelProgress q = p;
            q.pass_fraction = gather_share + (1 - gather_share) * p.pass_fraction;
            progress(q);
        };
    const RankRequests<Game> requests(game_, smaller_, exits_, threads_);
    std::optional<DistributedRounds<Game>> rounds;
    if (link_) rounds.emplace(game_, *link_, threads_);
    sweep::run_segments(
        s, saved.value_or(SweepPoint{}),
        {.threads = threads_,
         .progress = rest,
         .first_share = first_share / (1 - gather_share),
         .threshold_shares = threshold_shares_,
         .segment_chunks = segment_chunks_,
         .stats = stats,
         .checkpoint = checkpoint},
        {.first_segment =
             [&](uint64_t begin, uint64_t end, sweep::SweepProgress& p) {
                 if (push)
                     words_from_exits(s, begin, end);
                 else
                     requests.first_segment(s, begin, end);
                 p.add(end - begin);
             },
         .threshold = [&](int t, sweep::SweepProgress& p) -> uint64_t {
             if (rounds)
                 return rounds->template threshold<Stack>(
                     s, p,
                     [&](uint64_t begin, uint64_t end, Stack& stack, auto& route) {
                         scan_chunk(s, begin, end, t, stack, route);
                     },
                     visit(s));
             return sweep::scan_level<Stack>(
                 s, threads_, t, p, [&](uint64_t begin, uint64_t end, int t, Stack& stack) {
                     scan_chunk(s, begin, end, t, stack, sweep::OwnsAll{});
                 });
         },
         .finish =
             [&] {
                 int8_t* out = result.data();
                 for (uint64_t i = 0; i < s.size; ++i) {
                     const uint8_t w = s.words[i];
                     out[i] = static_cast<int8_t>(W::assigned(w) ? W::value(w) : 0);
                 }
             },
         .at_safe_point = [&](SweepPoint& point) { point.exit_checksum = exits_.sync(); }});
    if (stats) // the gathering is part of the first pass (it finds the capture exits)
        stats->first_pass_seconds += std::chrono::duration<double>(t1 - t0).count();
    if (rounds) rounds_ = rounds->stats();
    return result;
}

} // namespace owaredb
