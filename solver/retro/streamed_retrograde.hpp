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
// children, which lie in smaller levels on disk. One process gathers them before the first
// pass by pushing: every smaller level k that a capture can reach (n - k between the
// game's kMinCapture and kMaxCapture) is read once, in index order, and each of its
// positions gives (n - k) - its value to its capture parents in level n (the game's
// un-captures), which keep the best, in the bytes that become the words afterwards. The
// exits then go to the store in one sequential write, and the first pass proper (quiet
// move counts, terminal and all-capture positions) turns each exit into its word in place.
// Each smaller file is thus decompressed once per level; asking for the children instead
// decompresses every block of every smaller level once per batch of requests, and the
// batches that fit in memory shrink against the levels as n grows (at level 36, about 400
// reads of 44 G smaller positions with 1 GiB of requests).
//
// A distributed rank still asks (its slice of the level is small, so its batches are few,
// and pushing would make every rank read every smaller level whole): it goes a segment at
// a time; every thread generates the moves of its chunks, keeps a request (child level,
// child index, position) per capture, sorts its requests and reads the values in that
// order (each block of a level file is decompressed once per run of requests that falls
// in it), and takes the best exit per position; then the segment's words are set and its
// exits appended to the store. The segment size bounds the requests' memory (16 bytes a
// capture).
//
// Checkpoints: the gathering has safe points of its own, after each run of chunks of a
// smaller level: the bytes then hold the exits found so far, and the point says how many
// smaller positions have given theirs (first_pass_done 0, engine_data that count); max is
// commutative, so going on from there ends with the same exits.
#pragma once

#include "retro/bellman.hpp"
#include "retro/game.hpp"
#include "retro/rank_link.hpp"
#include "retro/streamed_sources.hpp"
#include "retro/sweep.hpp"
#include "retro/value_array.hpp"

#include <omp.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <exception>
#include <mutex>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace owaredb {

template <RetroGame Game> class StreamedRetrogradeSolver {
  public:
    /// Identifies this engine's working bytes in checkpoint files.
    static constexpr uint32_t kCheckpointFormat = 4;
    /// The largest level the byte encoding holds.
    static constexpr int kMaxLevel = 59;
    /// Bytes of first-pass request buffer per capture move (for the segment size).
    static constexpr uint64_t kRequestBytes = 16;
    /// Distributed: the ranks' slices are multiples of this many positions (slice_bounds).
    /// The scans' chunks count from a slice's start, so any unit would do; a small one
    /// splits even small levels between the ranks.
    static constexpr uint64_t kSliceUnit = 64;
    /// Distributed: the most chunks a rank scans between two message exchanges (which
    /// bounds the messages they make: message_bytes()).
    static constexpr uint64_t kRoundChunks = 256;
    /// Distributed: a scan takes at least this many rounds (small rounds keep the message
    /// buffers small; the exchanges cost little against a round's work).
    static constexpr uint64_t kRoundsPerScan = 64;
    /// Distributed: the bytes of message buffers of one of `ranks` ranks holding `slice`
    /// positions. Four rounds' worth are alive at once: the outboxes being filled, the
    /// exchange in flight (sent and being received) and the messages being delivered; 8
    /// bytes a message, at most about 3.5 messages a position scanned for a parent that
    /// lies elsewhere, which it does (ranks - 1) / ranks of the time (3.0-3.4 measured
    /// over whole levels).
    static uint64_t message_bytes(uint64_t slice, int ranks) {
        const uint64_t round = std::min(slice / kRoundsPerScan, kRoundChunks * sweep::kChunk);
        return ranks < 2 ? 0 : 4 * 8 * 7 * round / 2 * uint64_t(ranks - 1) / uint64_t(ranks);
    }

    /// `segment_positions`: positions per first-pass segment (rounded to whole chunks;
    /// 0: the sweep's default, about 1/256 of the level). Each thread holds one request per
    /// capture move of the chunks it takes from a segment. `link`: the other ranks of a
    /// distributed solve (nullptr: this process solves whole levels); the exit store is
    /// then this rank's alone.
    StreamedRetrogradeSolver(const Game& game, const SmallerLevelValues& smaller, ExitStore& exits,
                             int threads, uint64_t segment_positions = 0, RankLink* link = nullptr)
        : game_(game), smaller_(smaller), exits_(exits), threads_(std::max(1, threads)),
          segment_chunks_((segment_positions + sweep::kChunk - 1) / sweep::kChunk), link_(link) {}

    /// The values of every position of level n, indexed by rank (as RetrogradeSolver::solve);
    /// distributed, those of this rank's slice, slice(n) (every rank calls solve(n)).
    /// Checkpoints are for one process only (a distributed solve passes none).
    ValueArray solve(int n, const ProgressFn& progress = {}, LevelStats* stats = nullptr,
                     SweepCheckpoint* checkpoint = nullptr);

    /// Tests only: propagation stacks of `limit` entries, so that small levels overflow them
    /// and take the rescan path that only large levels take otherwise (same values).
    void set_stack_limit(size_t limit) { stack_limit_ = limit; }

    /// The positions of level n this process solves: [first, second).
    std::pair<uint64_t, uint64_t> slice(int n) const {
        if (!link_) return {0, game_.level_size(n)};
        const auto bounds = slice_bounds(game_.level_size(n), link_->ranks(), kSliceUnit);
        return {bounds[size_t(link_->rank())], bounds[size_t(link_->rank()) + 1]};
    }

  private:
    using Sweep = sweep::BasicState<uint8_t>;
    using Stack = sweep::StackFor<Game>;
    static constexpr int kNoExit = ExitStore::kNoExit;
    static constexpr uint8_t kEligible = 8;
    static constexpr uint8_t kAssigned = 16;
    static constexpr int kLevelShift = kRequestLevelShift; // request key: level << 40 | index
    static_assert(Game::kMaxMoves <= 7, "the move counter has 3 bits");

    struct Request {
        uint64_t key;  ///< child level << kLevelShift | child index
        uint32_t slot; ///< the position's offset in its segment
        int32_t unused = 0;
        bool operator<(const Request& o) const { return key < o.key; }
    };
    static_assert(sizeof(Request) == kRequestBytes);

    static bool assigned(uint8_t w) { return w >= kAssigned; }
    static uint8_t assigned_word(int v, bool pending) {
        return static_cast<uint8_t>(kAssigned + 2 * (v + kMaxLevel) + (pending ? 1 : 0));
    }
    static int value(uint8_t w) { return ((w - kAssigned) >> 1) - kMaxLevel; }
    static bool pending(uint8_t w) { return (w - kAssigned) & 1; }
    static int counter(uint8_t w) { return w & 7; }
    /// A position's first-pass word from its moves' word (terminal: assigned; else its quiet
    /// moves) and its best exit e. Every move captures: the value is e, known now, which
    /// propagates when the sweep reaches its threshold (`missing`: no exit, which the game's
    /// moves make impossible). No exit: eligible at once (below every -t).
    static uint8_t with_exit(uint8_t w, int e, bool& missing) {
        if (assigned(w)) return w;
        if (counter(w) == 0) {
            missing = missing || e == kNoExit;
            return assigned_word(e, e != 0);
        }
        return e == kNoExit ? static_cast<uint8_t>(w | kEligible) : w;
    }

    void first_segment(Sweep& s, uint64_t begin, uint64_t end) const;
    uint64_t gather_positions(int n) const;
    void gather_exits(Sweep& s, uint64_t from, const ProgressFn& progress, double share,
                      SweepCheckpoint* checkpoint) const;
    void words_from_exits(Sweep& s, uint64_t begin, uint64_t end) const;
    void resolve(int n, std::vector<Request>& requests, std::span<int8_t> exits) const;
    template <class Route>
    void scan_chunk(Sweep& s, uint64_t begin, uint64_t end, int t, Stack& stack,
                    Route&& route) const;
    bool try_assign(Sweep& s, uint64_t index, int value, bool pending) const;
    auto visit(Sweep& s) const;
    template <class Route>
    void propagate(Sweep& s, uint64_t index, int value, Stack& stack, Route&& route) const;
    template <class AddDone>
    uint64_t threshold_rounds(Sweep& s, int t, AddDone&& add_done, LevelStats& tally) const;

    const Game& game_;
    const SmallerLevelValues& smaller_;
    ExitStore& exits_;
    int threads_;
    size_t stack_limit_ = sweep::kStackLimit;
    uint64_t segment_chunks_;
    RankLink* link_;
};

// ---------------------------------------------------------------------------------------

template <RetroGame Game>
void StreamedRetrogradeSolver<Game>::first_segment(Sweep& s, uint64_t begin, uint64_t end) const {
    const int n = s.n;
    constexpr uint64_t kChunk = sweep::kChunk;
    std::vector<int8_t> exits(end - begin, static_cast<int8_t>(kNoExit));
    std::exception_ptr failure;
    std::mutex failure_mutex;
    auto fail = [&] {
        std::lock_guard lock(failure_mutex);
        if (!failure) failure = std::current_exception();
    };
#pragma omp parallel num_threads(threads_)
    {
        // Moves of this thread's chunks: words without their exits, and the requests.
        std::vector<Request> requests;
#pragma omp for schedule(dynamic, 1)
        for (uint64_t c = begin / kChunk; c < (end + kChunk - 1) / kChunk; ++c) {
            try {
                // In rank order: one unrank, then successors (game.next).
                auto state = game_.unrank(n, s.base + c * kChunk);
                for (uint64_t i = c * kChunk; i < std::min(end, (c + 1) * kChunk); ++i) {
                    if (i != c * kChunk) state = game_.next(state);
                    int quiet = 0;
                    const int moves =
                        game_.for_each_move(state, [&](int captured, const auto& child) {
                            if (captured == 0)
                                ++quiet;
                            else
                                requests.push_back(
                                    {uint64_t(n - captured) << kLevelShift | game_.rank(child),
                                     static_cast<uint32_t>(i - begin)});
                        });
                    if (moves == 0) {
                        const int v = game_.terminal_value(state);
                        s.words[i] = assigned_word(v, v != 0);
                    } else {
                        s.words[i] = static_cast<uint8_t>(quiet); // count 0: every move captures
                    }
                }
            } catch (...) {
                fail();
            }
        }
        // The capture children's values, read in (level, index) order.
        try {
            std::sort(requests.begin(), requests.end());
            resolve(n, requests, exits);
        } catch (...) {
            fail();
        }
    }
    if (failure) std::rethrow_exception(failure);

    // The words, now that the exits are known.
    bool missing_exit = false;
#pragma omp parallel for schedule(static) num_threads(threads_) reduction(|| : missing_exit)
    for (uint64_t i = begin; i < end; ++i)
        s.words[i] = with_exit(s.words[i], exits[i - begin], missing_exit);
    if (missing_exit)
        throw std::logic_error("streamed retrograde: a position whose every move captures has "
                               "no capture exit (the game's moves are inconsistent)");
    exits_.append(exits);
}

template <RetroGame Game> uint64_t StreamedRetrogradeSolver<Game>::gather_positions(int n) const {
    uint64_t total = 0;
    for (int c = Game::kMinCapture; c <= Game::kMaxCapture && c <= n; ++c)
        total += game_.level_size(n - c);
    return total;
}

template <RetroGame Game>
void StreamedRetrogradeSolver<Game>::gather_exits(Sweep& s, uint64_t from,
                                                  const ProgressFn& progress, double share,
                                                  SweepCheckpoint* checkpoint) const {
    using Clock = std::chrono::steady_clock;
    constexpr uint64_t kChunk = sweep::kChunk;
    // A safe point after each segment of a smaller level: the first pass's segment size if
    // one was given (tests), else 4096 chunks (64 Mi positions).
    const uint64_t segment_chunks = segment_chunks_ ? segment_chunks_ : 4096;
    // Parent updates wait in a batch of this many, prefetched, before they are applied:
    // the parents lie anywhere in the level, so each update is a cache (and TLB) miss.
    constexpr size_t kBatch = 32;
    const int n = s.n;
    const uint64_t total = gather_positions(n);
    int8_t* exits = reinterpret_cast<int8_t*>(s.words);
    std::exception_ptr failure;
    std::mutex failure_mutex;
    std::mutex report_mutex;
    auto last_report = Clock::now();
    std::atomic<uint64_t> done{from};
    auto report = [&](uint64_t finished) {
        if (!progress) return;
        std::unique_lock lock(report_mutex, std::try_to_lock);
        if (!lock.owns_lock() || Clock::now() - last_report < std::chrono::seconds(1)) return;
        last_report = Clock::now();
        const double pass = double(finished) / double(std::max<uint64_t>(1, total));
        LevelProgress p{n, 0, finished, total, share * pass};
        p.gathering = true;
        progress(p);
    };
    // Smaller levels from the largest; `at` counts the smaller positions before level k's.
    uint64_t at = 0;
    for (int c = Game::kMinCapture; c <= Game::kMaxCapture && c <= n; ++c) {
        const int k = n - c;
        const uint64_t size = game_.level_size(k);
        const uint64_t chunks = (size + kChunk - 1) / kChunk;
        // (`from` is a multiple of kChunk within its level, or a level's end.)
        const uint64_t first_chunk = from >= at + size ? chunks
                                     : from > at       ? (from - at) / kChunk
                                                       : 0;
        for (uint64_t seg = first_chunk; seg < chunks; seg += segment_chunks) {
            const uint64_t seg_end = std::min(chunks, seg + segment_chunks);
#pragma omp parallel num_threads(threads_)
            {
                std::vector<int8_t> values(kChunk);
                std::array<std::pair<uint64_t, int8_t>, kBatch> batch;
                size_t pending = 0;
                auto apply = [&] {
                    for (size_t b = 0; b < pending; ++b) {
                        std::atomic_ref<int8_t> slot(exits[batch[b].first]);
                        int8_t old = slot.load(std::memory_order_relaxed);
                        while (batch[b].second > old &&
                               !slot.compare_exchange_weak(old, batch[b].second,
                                                           std::memory_order_relaxed)) {
                        }
                    }
                    pending = 0;
                };
#pragma omp for schedule(dynamic, 1)
                for (uint64_t ch = seg; ch < seg_end; ++ch) {
                    try {
                        const uint64_t begin = ch * kChunk;
                        const uint64_t end = std::min(size, begin + kChunk);
                        values.resize(end - begin);
                        smaller_.read_range(k, begin, values);
                        auto child = game_.unrank(k, begin);
                        for (uint64_t j = begin; j < end; ++j) {
                            if (j != begin) child = game_.next(child);
                            const auto term = static_cast<int8_t>(c - values[j - begin]);
                            game_.for_each_capture_parent(child, c, [&](const auto& parent) {
                                const uint64_t i = game_.rank(parent) - s.base;
                                if (i >= s.size) return; // outside this process's slice
                                __builtin_prefetch(exits + i, 1);
                                batch[pending++] = {i, term};
                                if (pending == kBatch) apply();
                            });
                        }
                        apply();
                        done.fetch_add(end - begin, std::memory_order_relaxed);
                        report(done.load(std::memory_order_relaxed));
                    } catch (...) {
                        std::lock_guard lock(failure_mutex);
                        if (!failure) failure = std::current_exception();
                    }
                }
            }
            if (failure) std::rethrow_exception(failure);
            if (checkpoint) {
                SweepPoint point; // first_pass_done 0: a point of the gathering
                point.engine_data = at + std::min(size, seg_end * kChunk);
                checkpoint->reached(point, std::span<const uint8_t>(s.words, s.size));
            }
        }
        at += size;
    }
}

template <RetroGame Game>
void StreamedRetrogradeSolver<Game>::words_from_exits(Sweep& s, uint64_t begin,
                                                      uint64_t end) const {
    // In place: the byte of position i holds its exit (gather_exits) until it gets its word.
    const int n = s.n;
    constexpr uint64_t kChunk = sweep::kChunk;
    bool missing_exit = false;
    std::exception_ptr failure;
    std::mutex failure_mutex;
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads_) reduction(|| : missing_exit)
    for (uint64_t c = begin / kChunk; c < (end + kChunk - 1) / kChunk; ++c) {
        try {
            auto state = game_.unrank(n, s.base + c * kChunk);
            for (uint64_t i = c * kChunk; i < std::min(end, (c + 1) * kChunk); ++i) {
                if (i != c * kChunk) state = game_.next(state);
                const int e = static_cast<int8_t>(s.words[i]);
                int quiet = 0;
                const int moves = game_.for_each_move(state, [&](int captured, const auto&) {
                    if (captured == 0) ++quiet;
                });
                uint8_t w = static_cast<uint8_t>(quiet);
                if (moves == 0) {
                    const int v = game_.terminal_value(state);
                    w = assigned_word(v, v != 0);
                }
                s.words[i] = with_exit(w, e, missing_exit);
            }
        } catch (...) {
            std::lock_guard lock(failure_mutex);
            if (!failure) failure = std::current_exception();
        }
    }
    if (failure) std::rethrow_exception(failure);
    if (missing_exit)
        throw std::logic_error("streamed retrograde: a position whose every move captures has "
                               "no capture exit (the game's moves and un-captures disagree)");
}

template <RetroGame Game>
void StreamedRetrogradeSolver<Game>::resolve(int n, std::vector<Request>& requests,
                                             std::span<int8_t> exits) const {
    std::vector<uint64_t> indices;
    std::vector<int8_t> values;
    fold_child_values(smaller_, n, std::span<const Request>(requests), exits, indices, values);
    std::vector<Request>().swap(requests); // give the memory back before the next step
}

template <RetroGame Game>
bool StreamedRetrogradeSolver<Game>::try_assign(Sweep& s, uint64_t index, int value,
                                                bool pending) const {
    return sweep::claim(s, index, assigned_word(value, pending), assigned);
}

template <RetroGame Game> auto StreamedRetrogradeSolver<Game>::visit(Sweep& s) const {
    // As RetrogradeSolver's parent update, with the eligible bit standing for "exit <= -t".
    const int t = s.t;
    return sweep::value_visit(
        s, assigned, [t](bool full) { return assigned_word(t, full); },
        [t](uint8_t old, bool full) {
            const bool lost = counter(old) == 1 && (old & kEligible);
            return std::pair{lost ? assigned_word(-t, full) : static_cast<uint8_t>(old - 1), lost};
        });
}

template <RetroGame Game>
template <class Route>
void StreamedRetrogradeSolver<Game>::propagate(Sweep& s, uint64_t index, int value, Stack& stack,
                                               Route&& route) const {
    sweep::propagate(game_, s, index << 1 | (value < 0), stack, visit(s), route);
}

template <RetroGame Game>
template <class Route>
void StreamedRetrogradeSolver<Game>::scan_chunk(Sweep& s, uint64_t begin, uint64_t end, int t,
                                                Stack& stack, Route&& route) const {
    // begin, end: offsets in this process's words; i: the position's index in the level.
    thread_local std::vector<int8_t> exits;
    exits.resize(end - begin);
    exits_.read(begin, exits);
    for (uint64_t i = s.base + begin; i < s.base + end; ++i) {
        uint8_t w = s.word(i).load(std::memory_order_relaxed);
        if (assigned(w)) {
            if (pending(w) && std::abs(value(w)) == t) {
                uint8_t old = w;
                if (s.word(i).compare_exchange_strong(old, static_cast<uint8_t>(w - 1),
                                                      std::memory_order_relaxed))
                    propagate(s, i, value(w), stack, route);
            }
            continue;
        }
        const int e = exits[i - s.base - begin];
        if (e == t) {
            if (try_assign(s, i, t, false)) propagate(s, i, t, stack, route);
        } else if (e != kNoExit && e <= -t && !(w & kEligible)) {
            // Eligible from now on; lost at once if no quiet move is left open.
            auto word = s.word(i);
            while (!assigned(w)) {
                const bool lost = counter(w) == 0;
                const uint8_t nw =
                    lost ? assigned_word(-t, false) : static_cast<uint8_t>(w | kEligible);
                if (word.compare_exchange_weak(w, nw, std::memory_order_relaxed)) {
                    if (lost) propagate(s, i, -t, stack, route);
                    break;
                }
            }
        }
    }
    sweep::drain(game_, s, stack, visit(s), route); // the roots still waiting for a batch
}

template <RetroGame Game>
template <class AddDone>
uint64_t StreamedRetrogradeSolver<Game>::threshold_rounds(Sweep& s, int t, AddDone&& add_done,
                                                          LevelStats& tally) const {
    constexpr uint64_t kChunk = sweep::kChunk;
    const int ranks = link_->ranks();
    const std::vector<uint64_t> bounds = slice_bounds(game_.level_size(s.n), ranks, kSliceUnit);
    const uint64_t chunks = (s.size + kChunk - 1) / kChunk;
    // Chunks per round: enough to keep the threads busy and the exchanges few, few enough
    // that the outboxes stay small: a round's messages are about its positions' parents
    // that lie elsewhere (3-3.5 a position measured), so at most kRoundChunks chunks make
    // about 30 M messages, 235 MB each way, whatever the slice's size (message_bytes()).
    const uint64_t per_round = std::max<uint64_t>(uint64_t(4) * uint64_t(threads_),
                                                  std::min(chunks / kRoundsPerScan, kRoundChunks));
    uint64_t scans = 0;
    std::exception_ptr failure;
    std::mutex failure_mutex;
    auto fail = [&] {
        std::lock_guard lock(failure_mutex);
        if (!failure) failure = std::current_exception();
    };
    bool overflow = false;
    do {
        ++scans;
        s.overflow.store(false);
        // While this rank has chunks to scan, round i's exchange travels during round
        // i + 1's scan and is ended after it: what it brought is delivered in round i + 2.
        // Once its chunks are done there is nothing to overlap with, so it ends each
        // exchange at once and delivers in the next round. Termination
        // (docs/distributed.md): each rank's count for an exchange is its chunks left, the
        // messages it sends in it and the messages it holds undelivered; when the sum over
        // the ranks is zero there is no work anywhere and nothing in flight.
        std::vector<uint64_t> to_deliver; // received, not yet delivered
        bool in_flight = false;
        auto finish = [&](uint64_t sent, uint64_t next) {
            auto got = link_->finish_exchange();
            in_flight = false;
            if (got.count_sum == 0) {
                if (sent != 0 || !got.messages.empty() || !to_deliver.empty() || next != chunks)
                    throw std::logic_error("distributed retrograde: work found after the "
                                           "ranks agreed that a threshold was done");
                return true;
            }
            to_deliver.insert(to_deliver.end(), got.messages.begin(), got.messages.end());
            return false;
        };
        for (uint64_t next = 0;;) {
            const uint64_t last = std::min(chunks, next + per_round);
            std::vector<std::vector<uint64_t>> outboxes(static_cast<size_t>(ranks));
            std::mutex merge_mutex;
#pragma omp parallel num_threads(threads_)
            {
                // Thread 0 is the thread that started the exchange in flight.
                const bool starter = omp_get_thread_num() == 0;
                auto advance = [&] {
                    if (starter && in_flight) link_->progress();
                };
                Stack stack;
                std::vector<std::vector<uint64_t>> mine(static_cast<size_t>(ranks));
                auto route = [&](uint64_t k, bool tag) {
                    if (k - s.base < s.size) return false;
                    mine[size_t(owner_of(bounds, k))].push_back(k << 1 | (tag ? 1 : 0));
                    return true;
                };
#pragma omp for schedule(dynamic, 1) nowait
                for (uint64_t c = next; c < last; ++c) {
                    const uint64_t end = std::min(s.size, (c + 1) * kChunk);
                    try {
                        scan_chunk(s, c * kChunk, end, t, stack, route);
                        advance();
                    } catch (...) {
                        fail();
                    }
                    add_done(end - c * kChunk);
                }
                const auto update = visit(s);
                constexpr size_t kDeliverBatch = 4096;
#pragma omp for schedule(dynamic, 1)
                for (size_t b = 0; b < to_deliver.size(); b += kDeliverBatch) {
                    try {
                        for (size_t m = b; m < std::min(to_deliver.size(), b + kDeliverBatch); ++m)
                            sweep::deliver(game_, s, to_deliver[m], stack, update, route);
                        sweep::drain(game_, s, stack, update, route);
                        advance();
                    } catch (...) {
                        fail();
                    }
                }
                std::lock_guard lock(merge_mutex);
                for (size_t r = 0; r < mine.size(); ++r)
                    outboxes[r].insert(outboxes[r].end(), mine[r].begin(), mine[r].end());
            }
            if (failure) std::rethrow_exception(failure);
            to_deliver.clear();
            next = last;
            uint64_t sent = 0;
            for (const auto& box : outboxes) sent += box.size();
            if (in_flight && finish(sent, next)) break;
            tally.messages += sent;
            ++tally.rounds;
            link_->start_exchange(std::move(outboxes), (chunks - next) + sent + to_deliver.size());
            in_flight = true;
            if (next == chunks && finish(sent, next)) break;
        }
        overflow = link_->sum(s.overflow.load() ? 1 : 0) > 0;
    } while (overflow);
    return scans;
}

namespace streamed_detail {

/// The checkpoint as run_segments sees it once the streamed engine has restored it: the
/// words are in place already, so restore() only hands back the point.
class Restored final : public SweepCheckpoint {
  public:
    Restored(SweepCheckpoint* inner, std::optional<SweepPoint> point)
        : inner_(inner), point_(point) {}
    std::optional<SweepPoint> restore(std::span<uint8_t>) override { return point_; }
    void reached(const SweepPoint& point, std::span<const uint8_t> words) override {
        inner_->reached(point, words);
    }
    void note(const std::string& what) override { inner_->note(what); }

  private:
    SweepCheckpoint* inner_;
    std::optional<SweepPoint> point_;
};

} // namespace streamed_detail

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
    LevelStats tally;
    const std::span<uint8_t> bytes(s.words, s.size);
    using Clock = std::chrono::steady_clock;
    const auto t0 = Clock::now();

    // One process: the exits are gathered first (pushed from the smaller levels), unless a
    // checkpoint is past that.
    const bool push = link_ == nullptr;
    // Shares of the level's time, for progress (measured here, abapa levels 26 and 28: the
    // gathering 27 and 23 %, the first pass 17 and 12 %, the thresholds the rest).
    const double gather_share = push ? 0.25 : 0.0;
    const double first_share = push ? 0.15 : 0.5;
    std::optional<SweepPoint> saved;
    if (checkpoint) saved = checkpoint->restore(bytes);
    if (saved && saved->first_pass_done == 0 && !push) saved.reset();
    if (saved && saved->first_pass_done == 0 && saved->engine_data > gather_positions(n)) {
        checkpoint->note("the checkpoint's capture-exit count is past the level's; the level "
                         "starts afresh");
        saved.reset();
    }
    if (saved && saved->first_pass_done > 0 && push && !exits_.resume(s.size, saved->engine_data)) {
        checkpoint->note("the exit file does not match the checkpoint (missing, short or "
                         "changed); the level starts afresh");
        saved.reset();
    }
    if (push && (!saved || saved->first_pass_done == 0)) {
        uint64_t from = 0;
        if (saved)
            from = saved->engine_data; // the bytes hold the exits gathered so far
        else
            std::fill(bytes.begin(), bytes.end(), static_cast<uint8_t>(kNoExit));
        gather_exits(s, from, progress, gather_share, checkpoint);
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
    streamed_detail::Restored restored(checkpoint, saved);
    sweep::run_segments<Stack>(
        s, threads_, rest, first_share / (1 - gather_share), 1 - first_share / (1 - gather_share),
        stats, checkpoint ? &restored : nullptr, segment_chunks_,
        [&](uint64_t begin, uint64_t end, auto&& add_done) {
            if (push) {
                words_from_exits(s, begin, end);
            } else {
                if (begin == 0) exits_.reset(); // a level from its start
                first_segment(s, begin, end);
            }
            add_done(end - begin);
        },
        [&](uint64_t begin, uint64_t end, int t, Stack& stack) {
            scan_chunk(s, begin, end, t, stack, sweep::OwnsAll{});
        },
        [&] {
            int8_t* out = result.data();
            for (uint64_t i = 0; i < s.size; ++i) {
                const uint8_t w = s.words[i];
                out[i] = static_cast<int8_t>(assigned(w) ? value(w) : 0);
            }
        },
        [&](SweepPoint& point) { point.engine_data = exits_.sync(); },
        [&](SweepPoint& point) {
            if (push) return true; // checked above
            if (exits_.resume(point.first_pass_done, point.engine_data)) return true;
            checkpoint->note("the exit file does not match the checkpoint (missing, short or "
                             "changed); the level starts afresh");
            return false;
        },
        [&](int t, auto&& scan_here, auto&& restart_count, auto&& add_done) -> uint64_t {
            if (!link_) return scan_here(t);
            restart_count();
            return threshold_rounds(s, t, add_done, tally);
        });
    if (stats) {
        // The gathering is part of the first pass (it finds the capture exits).
        stats->first_pass_seconds += std::chrono::duration<double>(t1 - t0).count();
        stats->messages = tally.messages;
        stats->rounds = tally.rounds;
    }
    return result;
}

} // namespace owaredb
