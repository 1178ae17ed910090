// The scaffolding shared by the threshold-sweep engines (RetrogradeSolver in
// retrograde.hpp, BoundsSolver in bounds.hpp): the per-level working state, the chunked
// parallel loops with progress reports, the first pass and the threshold scans with their
// overflow rescans, and the timing. The engines supply what is their own (the first-pass
// word, the scan of one position, propagation and the final compaction) as inlined
// callables, so the hot loops stay as tight as if they were written out in each engine.
#pragma once

#include "retro/checkpoint.hpp"
#include "retro/game.hpp"
#include "retro/value_array.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace owaredb {

/// What the analyser is doing, for progress displays. Calls come from worker threads,
/// one at a time, at most about once a second.
struct LevelProgress {
    int level = 0;
    int threshold = 0;        ///< 0 during the first pass (moves and captures)
    uint64_t done = 0;        ///< positions scanned in the current pass
    uint64_t total = 0;       ///< positions in the level
    double pass_fraction = 0; ///< estimated fraction of the whole level done
    /// The streamed engine's step before the first pass: reading the smaller levels for
    /// the capture exits (threshold is 0; done and total count smaller positions).
    bool gathering = false;
};
using ProgressFn = std::function<void(const LevelProgress&)>;

struct LevelStats {
    double first_pass_seconds = 0;
    double sweep_seconds = 0;
    uint64_t scans = 0;      ///< threshold scans, including overflow rescans
    uint64_t propagated = 0; ///< positions whose parents were generated
    uint64_t messages = 0;   ///< distributed: propagation messages this rank sent
    uint64_t rounds = 0;     ///< distributed: message exchanges
};

namespace sweep {

inline constexpr uint64_t kChunk = 1 << 14;    ///< positions per parallel work item
inline constexpr size_t kStackLimit = 1 << 18; ///< propagation stack entries per thread

/// Per-level shared state of a sweep: one working word per position (16 bits for the
/// in-memory engines, 8 for the streamed one).
template <class Word> struct BasicState {
    using WordType = Word;
    int n = 0;
    int t = 0;
    Word* words = nullptr; ///< words[i] is position base + i
    uint64_t size = 0;     ///< positions held: base .. base + size - 1
    uint64_t base = 0;     ///< 0, or where a rank's slice of the level starts (rank_link.hpp)
    /// Propagation stack entries per thread before parents are left to a rescan (tests
    /// lower it so that the rescans run on small levels).
    size_t stack_limit = kStackLimit;
    std::atomic<bool> overflow{false};
    std::atomic<uint64_t> propagated{0};
    /// The word of position i of the level (base <= i < base + size).
    std::atomic_ref<Word> word(uint64_t i) const { return std::atomic_ref<Word>(words[i - base]); }
    /// Asks for the word of position i to be brought into the cache (for writing).
    void prefetch(uint64_t i) const { __builtin_prefetch(words + (i - base), 1, 1); }
};
using State = BasicState<uint16_t>;

/// Checks that level n can be solved by `engine` (named in the message): n at most
/// `max_n` (what the word encoding holds) and every smaller level given.
inline void check_level(const char* engine, int n, int max_n, size_t smaller_levels) {
    if (n > max_n)
        throw std::invalid_argument(std::string(engine) + ": levels above " +
                                    std::to_string(max_n) + " do not fit the encoding");
    if (static_cast<int>(smaller_levels) < n)
        throw std::invalid_argument(std::string(engine) + ": level " + std::to_string(n) +
                                    " needs every smaller level");
}

/// Sets `s` up for level n of `size` positions and returns the result array, which owns
/// the working words from the start (so they are freed on exceptions): word i is bytes
/// i * sizeof(Word) onwards. The engine's `finish` turns the words into the level's bytes
/// in place.
template <class Word> ValueArray start(BasicState<Word>& s, int n, uint64_t size) {
    s.n = n;
    s.size = size;
    ValueArray result(size * sizeof(Word));
    s.words = reinterpret_cast<Word*>(result.data());
    return result;
}

/// Routes no parent elsewhere: the whole level is this process's.
struct OwnsAll {
    bool operator()(uint64_t, bool) const { return false; }
};

/// Positions whose un-moves are generated before their parents are visited (drain()),
/// and roots that wait before a drain starts (propagate()).
inline constexpr size_t kPropagationBatch = 16;

/// A thread's propagation work: positions that joined a set at this threshold and whose
/// parents are still to be visited, each with its state (so that a position reached by
/// propagation is not unranked again), and the parents of a batch. Entries are
/// index << 1 | tag, where the tag says which of the engine's two sets the position joined.
template <class GameState> struct PropagationStack {
    struct Entry {
        uint64_t entry;
        GameState state;
    };
    std::vector<Entry> entries; ///< the stack, depth first
    std::vector<Entry> parents; ///< a batch's parents, generated and not yet visited
    bool empty() const { return entries.empty(); }
};
/// The propagation stack of the engines for Game.
template <RetroGame Game> using StackFor = PropagationStack<typename Game::State>;

/// Propagation from the positions on `stack` through their un-moves, until none is left.
/// A parent that joins because of a child joins the other set (a parent of a lost
/// position is won, and so on). `visit(tag, parent_index, full)` updates the parent's word
/// and returns whether the parent joined; `full` says the stack is at its limit, in which
/// case the engine marks the parent for a rescan instead, and this sets s.overflow so that
/// the rescan happens. A distributed solve's `route(parent_index, tag)` takes the parents
/// that another rank holds (it sends them there and returns true) before they are visited
/// here.
///
/// Locality: a parent's word is a random byte (or word) of the level, gigabytes at large
/// levels, and a visit made as soon as the parent is generated waits for memory (perf on
/// abapa level 21 streamed: three quarters of the time of parent generation sat on that
/// load). So the un-moves of up to kPropagationBatch positions are generated first, each
/// parent's word prefetched, and the parents visited after: the loads overlap each other
/// and the generation. The order of the visits changes, not the sets: they are fixed
/// points whatever the order (retrograde.hpp), so the values are the same.
template <RetroGame Game, class SweepState, class Visit, class Route = OwnsAll>
void drain(const Game& game, SweepState& s, StackFor<Game>& stack, Visit&& visit,
           Route&& route = Route{}) {
    auto& entries = stack.entries;
    auto& batch = stack.parents;
    uint64_t count = 0;
    while (!entries.empty()) {
        batch.clear();
        for (size_t b = 0; b < kPropagationBatch && !entries.empty(); ++b) {
            const auto child = entries.back();
            entries.pop_back();
            ++count;
            const uint64_t tag = child.entry & 1;
            game.for_each_parent(child.state, [&](const auto& parent) {
                const uint64_t k = game.rank(parent);
                if (route(k, tag != 0)) return;
                s.prefetch(k);
                batch.push_back({k << 1 | tag, parent});
            });
        }
        for (const auto& p : batch) {
            const bool tag = p.entry & 1;
            const uint64_t k = p.entry >> 1;
            const bool full = entries.size() >= s.stack_limit;
            if (!visit(tag, k, full)) continue;
            if (full)
                s.overflow.store(true, std::memory_order_relaxed); // a rescan enters it
            else
                entries.push_back({k << 1 | (tag ? 0 : 1), p.state});
        }
    }
    s.propagated.fetch_add(count, std::memory_order_relaxed);
}

/// Propagation from one position that joined a set at this threshold (entry = index << 1
/// | tag), found by a scan: it waits on the thread's `stack` with the other roots until
/// kPropagationBatch of them are there, and then they propagate together (drain()), so
/// that even roots with few parents are visited in batches. The scan that found it calls
/// drain() before it ends (run_segments checks that no stack is left with work).
template <RetroGame Game, class SweepState, class Visit, class Route = OwnsAll>
void propagate(const Game& game, SweepState& s, uint64_t entry, StackFor<Game>& stack,
               Visit&& visit, Route&& route = Route{}) {
    stack.entries.push_back({entry, game.unrank(s.n, entry >> 1)});
    if (stack.entries.size() >= kPropagationBatch) drain(game, s, stack, visit, route);
}

/// A message from another rank's propagation, (parent index << 1 | tag) as route() got
/// it: the parent is visited here, and if it joined it is a root of propagation here
/// (propagate(): drain() after the messages).
template <RetroGame Game, class SweepState, class Visit, class Route>
void deliver(const Game& game, SweepState& s, uint64_t message, StackFor<Game>& stack,
             Visit&& visit, Route&& route) {
    const bool tag = message & 1;
    const uint64_t k = message >> 1;
    if (visit(tag, k, false)) propagate(game, s, k << 1 | (tag ? 0 : 1), stack, visit, route);
}

/// Sets word `index` to `word` unless the word found is `assigned` already; returns whether
/// it did (of threads racing for one position, exactly one wins).
template <class SweepState, class Assigned>
bool claim(SweepState& s, uint64_t index, typename SweepState::WordType word, Assigned&& assigned) {
    auto w = s.word(index);
    auto old = w.load(std::memory_order_relaxed);
    while (!assigned(old))
        if (w.compare_exchange_weak(old, word, std::memory_order_relaxed)) return true;
    return false;
}

/// The parent update of the value engines (in memory and streamed) at threshold t = s.t,
/// for propagate(): every unassigned parent of a lost position (tag 1) is won (its word
/// becomes `won_word(full)`); every unassigned parent of a won position (tag 0) has one
/// quiet move closed: `close(old, full)` returns its new word and whether that makes it
/// lost (its last open move closed and its best exit <= -t). `assigned(word)` tells words
/// that are final.
template <class SweepState, class Assigned, class WonWord, class Close>
auto value_visit(SweepState& s, Assigned assigned, WonWord won_word, Close close) {
    return [&s, assigned, won_word, close](bool child_lost, uint64_t k, bool full) {
        if (child_lost) return claim(s, k, won_word(full), assigned); // a move into L_t wins t
        auto w = s.word(k);
        auto old = w.load(std::memory_order_relaxed);
        while (!assigned(old)) {
            const auto [word, lost] = close(old, full);
            if (w.compare_exchange_weak(old, word, std::memory_order_relaxed)) return lost;
        }
        return false;
    };
}

/// Runs one level's sweep over `s` (set up by start()), in the steps an engine supplies:
///   - the first pass, a segment of whole chunks at a time: `first_segment(begin, end,
///     add_done)` fills words [begin, end) (with its own parallel loops) and calls the
///     thread-safe `add_done(k)` as it finishes k positions, for progress;
///   - for t = n..1, `threshold_pass(t, scan_here, restart_count, add_done)`, which returns
///     the number of scans it made: in one process it calls scan_here(t), the scans of
///     every chunk, `scan_chunk(begin, end, t, stack)` in parallel with a per-thread
///     propagation stack (of type Stack, which scan_chunk leaves empty: it drains what it
///     propagates), repeated while a propagation overflowed (run_threshold_here); a
///     distributed engine does its own rounds (restart_count() before each scan,
///     add_done(k) as it finishes k positions);
///   - `finish()`, the compaction of the words into the result.
/// Segments hold `segment_chunks` chunks (0: about 1/256 of the level, at least 16 chunks
/// per thread). A safe point follows each segment and each threshold; there, before the
/// checkpoint sees the words, `at_safe_point(point)` may record the engine's own state in
/// point.engine_data, and after a restore `restored(point)` says whether the engine's own
/// state still matches (false: the level starts afresh). An exception thrown by a step is
/// rethrown from here once the threads have stopped.
template <class Stack, class SweepState, class FirstSegment, class ScanChunk, class Finish,
          class AtSafePoint, class Restored, class ThresholdPass>
void run_segments(SweepState& s, int threads, const ProgressFn& progress, double first_share,
                  double sweep_share, LevelStats* stats, SweepCheckpoint* checkpoint,
                  uint64_t segment_chunks, FirstSegment&& first_segment, ScanChunk&& scan_chunk,
                  Finish&& finish, AtSafePoint&& at_safe_point, Restored&& restored,
                  ThresholdPass&& threshold_pass) {
    using Clock = std::chrono::steady_clock;
    using Word = typename SweepState::WordType;
    const int n = s.n;
    const uint64_t chunks = (s.size + kChunk - 1) / kChunk;
    const std::span<uint8_t> bytes(reinterpret_cast<uint8_t*>(s.words), s.size * sizeof(Word));

    SweepPoint point;
    if (checkpoint)
        if (std::optional<SweepPoint> restored_point = checkpoint->restore(bytes)) {
            point = *restored_point;
            if (!restored(point)) point = SweepPoint{};
        }
    s.propagated.store(point.propagated);
    auto reached = [&] {
        point.propagated = s.propagated.load();
        if (!checkpoint) return;
        at_safe_point(point);
        checkpoint->reached(point, bytes);
    };

    std::mutex report_mutex;
    auto last_report = Clock::now();
    std::atomic<uint64_t> done{0};
    auto report = [&](int threshold, uint64_t finished) {
        if (!progress) return;
        std::unique_lock lock(report_mutex, std::try_to_lock);
        if (!lock.owns_lock() || Clock::now() - last_report < std::chrono::seconds(1)) return;
        last_report = Clock::now();
        double pass = static_cast<double>(finished) / std::max<uint64_t>(1, s.size);
        double frac = threshold == 0 ? first_share * pass
                                     : first_share + sweep_share * ((n - threshold) + pass) / n;
        progress({n, threshold, finished, s.size, frac});
    };
    auto add_done = [&](int threshold, uint64_t k) {
        report(threshold, done.fetch_add(k, std::memory_order_relaxed) + k);
    };

    // The first pass, in segments of whole chunks (a safe point after each): by default
    // about 1/256 of the level, so that a checkpoint is never far away even on the largest
    // levels, but at least 16 chunks per thread, so that the threads idling at the end of a
    // segment cost little (at most about one chunk in 32 of the work).
    auto t0 = Clock::now();
    if (segment_chunks == 0)
        segment_chunks =
            std::max<uint64_t>(chunks / 256, uint64_t(16) * static_cast<uint64_t>(threads));
    done.store(point.first_pass_done);
    // (first_pass_done is a multiple of kChunk, or the level's size once the pass is done.)
    for (uint64_t first = (point.first_pass_done + kChunk - 1) / kChunk; first < chunks;
         first += segment_chunks) {
        const uint64_t last = std::min(chunks, first + segment_chunks);
        first_segment(first * kChunk, std::min(s.size, last * kChunk),
                      [&](uint64_t k) { add_done(0, k); });
        point.first_pass_done = std::min(s.size, last * kChunk);
        reached();
    }
    auto t1 = Clock::now();

    // One threshold's scans in this process: every chunk in parallel, again while a
    // propagation overflowed; returns the number of scans.
    std::exception_ptr failure;
    std::mutex failure_mutex;
    auto scan_here = [&](int t) {
        uint64_t scans = 0;
        do {
            ++scans;
            s.overflow.store(false);
            done.store(0);
#pragma omp parallel num_threads(threads)
            {
                Stack stack;
#pragma omp for schedule(dynamic, 1)
                for (uint64_t c = 0; c < chunks; ++c) {
                    const uint64_t end = std::min(s.size, (c + 1) * kChunk);
                    try {
                        scan_chunk(c * kChunk, end, t, stack);
                        // Roots wait on the stack for a batch (propagate()): one left here
                        // would be a position whose parents never learn of it.
                        if (!stack.empty())
                            throw std::logic_error("sweep: a scan left propagation undone");
                    } catch (...) {
                        std::lock_guard lock(failure_mutex);
                        if (!failure) failure = std::current_exception();
                    }
                    add_done(t, end - c * kChunk);
                }
            }
            if (failure) std::rethrow_exception(failure);
        } while (s.overflow.load());
        return scans;
    };
    for (int t = n - point.thresholds_done; t >= 1; --t) {
        s.t = t;
        point.scans += threshold_pass(
            t, scan_here, [&] { done.store(0); }, [&](uint64_t k) { add_done(t, k); });
        point.thresholds_done = n - t + 1;
        reached();
    }

    finish();
    auto t2 = Clock::now();
    if (stats) {
        stats->first_pass_seconds = std::chrono::duration<double>(t1 - t0).count();
        stats->sweep_seconds = std::chrono::duration<double>(t2 - t1).count();
        stats->scans = point.scans;
        stats->propagated = s.propagated.load();
    }
}

/// The threshold pass of an engine that holds the whole level (run_segments).
inline constexpr auto run_threshold_here = [](int t, auto&& scan_here, auto&&, auto&&) {
    return scan_here(t);
};

/// run_segments for the in-memory engines: the first pass calls `first_words(begin, end)`,
/// which sets words [begin, end), on parallel chunks (a std::logic_error it throws is
/// rethrown after the segment), and a scan calls `scan(i, t, stack)` for every position of
/// a chunk, then `drain(stack)`.
template <class Stack, class FirstWords, class Scan, class Drain, class Finish>
void run(State& s, int threads, const ProgressFn& progress, double first_share, double sweep_share,
         LevelStats* stats, SweepCheckpoint* checkpoint, FirstWords&& first_words, Scan&& scan,
         Drain&& drain, Finish&& finish) {
    run_segments<Stack>(
        s, threads, progress, first_share, sweep_share, stats, checkpoint, 0,
        [&](uint64_t begin, uint64_t end, auto&& add_done) {
            std::atomic<bool> failed{false};
            std::string failure;
            std::mutex failure_mutex;
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
            for (uint64_t c = begin / kChunk; c < (end + kChunk - 1) / kChunk; ++c) {
                const uint64_t last = std::min(end, (c + 1) * kChunk);
                try {
                    first_words(c * kChunk, last);
                } catch (const std::logic_error& e) {
                    std::lock_guard lock(failure_mutex);
                    failed = true;
                    failure = e.what();
                }
                add_done(last - c * kChunk);
            }
            if (failed) throw std::logic_error(failure);
        },
        [&](uint64_t begin, uint64_t end, int t, Stack& stack) {
            for (uint64_t i = begin; i < end; ++i) scan(i, t, stack);
            drain(stack);
        },
        finish, [](SweepPoint&) {}, [](SweepPoint&) { return true; }, run_threshold_here);
}

/// Levels 0..max_n solved one after another by Solver<Game>, all in memory; each level's
/// result is the next solvers' smaller level.
template <template <class> class Solver, RetroGame Game>
std::vector<ValueArray> solve_levels_in_memory(const Game& game, int max_n, int threads) {
    std::vector<ValueArray> levels;
    std::vector<const int8_t*> smaller;
    for (int n = 0; n <= max_n; ++n) {
        Solver<Game> solver(game, smaller, threads);
        levels.push_back(solver.solve(n));
        smaller.push_back(levels.back().data());
    }
    return levels;
}

} // namespace sweep
} // namespace owaredb
