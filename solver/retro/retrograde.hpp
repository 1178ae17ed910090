// The exact parallel retrograde analyser: values of every position of one level.
//
// For a level n (all positions with n seeds in the database), given the finished smaller
// levels, it computes V(p) = max over legal moves (captured - V(child)), with terminal
// values from the game, and 0 for endless play without captures.
//
// Method (one pass per threshold). For t >= 1 let W_t = {V >= t} and L_t = {V <= -t}.
// Endless play is worth 0 < t, so a side only gets t or more by forcing a capture worth
// it in finite time: W_t and L_t are the attractors
//     W_t: some capture exit is worth >= t, or some quiet child is in L_t;
//     L_t: every capture exit is worth <= -t and every quiet child is in W_t
// (and terminal positions by their value). Both grow as t goes down, so sweeping t from n
// to 1, a position that first enters W_t has V = t and one that first enters L_t has
// V = -t; what never enters has V = 0. Each position is assigned exactly once, at its
// threshold, and each position with V != 0 propagates once, through its un-moves:
//   - a child entering L_t makes every unassigned parent a W_t member (value t);
//   - a child entering W_t decrements its parents' counters of quiet moves not yet known
//     to lead into W; at zero, a parent whose best exit is <= -t joins L_t (value -t).
// A parent whose counter reached zero earlier but whose best exit was still too high is
// picked up by the scan at t = -best exit. The sets are unique fixed points, so the
// result does not depend on thread count or scheduling.
//
// Working state: one 16-bit word per position (2 bytes, the memory budget):
//   bits 0-6  value code: value + 64; while unassigned, the best capture exit
//             (code 0 = no capture move, i.e. minus infinity)
//   bits 7-9  quiet moves whose child is not yet known to be in W_t
//   bit 10    assigned
//   bit 11    pending: assigned, still to propagate at t = |value| (terminal and
//             all-capture positions from the first pass, and propagation overflow)
// Propagation is depth-first from a bounded per-thread stack; what does not fit is marked
// pending and handled by another scan at the same threshold.
#pragma once

#include "retro/bellman.hpp"
#include "retro/game.hpp"
#include "retro/sweep.hpp"
#include "retro/value_array.hpp"

#include <omp.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace owaredb {

template <RetroGame Game> class RetrogradeSolver {
  public:
    /// Identifies this engine's working words in checkpoint files (retro/checkpoint.hpp):
    /// change it whenever the word encoding changes, so old checkpoints are refused.
    static constexpr uint32_t kCheckpointFormat = 1;

    /// `smaller[k]` points to the values of level k for every k < n of the level solved.
    RetrogradeSolver(const Game& game, std::vector<const int8_t*> smaller, int threads)
        : game_(game), smaller_(std::move(smaller)), threads_(std::max(1, threads)) {}

    /// The values of every position of level n, indexed by rank.
    /// With a `checkpoint`, resumes from what it restores and offers it the working words at
    /// every safe point (retro/checkpoint.hpp); the result is the same.
    ValueArray solve(int n, const ProgressFn& progress = {}, LevelStats* stats = nullptr,
                     SweepCheckpoint* checkpoint = nullptr);

    /// For progress only (the values do not depend on it): each threshold's share of the
    /// thresholds' time at the next solve() (threshold_shares(), retro/progress.hpp).
    void set_threshold_shares(std::vector<double> shares) { threshold_shares_ = std::move(shares); }

    /// Tests only: propagation stacks of `limit` entries, so that small levels overflow them
    /// and take the rescan path that only large levels take otherwise (same values).
    void set_stack_limit(size_t limit) { stack_limit_ = limit; }

    /// One forward pass over level n: every legal move generated, every child ranked,
    /// every capture child's value read. The yardstick for the analyser's cost.
    uint64_t forward_pass(int n) const;

  private:
    static constexpr uint16_t kCodeMask = 0x7F;
    static constexpr int kCounterShift = 7;
    // The count of unresolved quiet moves: 3 bits for games of up to 7 moves (Oware's 6
    // pits a side: the words, and so the checkpoints, of those games keep this layout), 4
    // bits for 8..15 (8 pits a side).
    static constexpr int kCounterBits = Game::kMaxMoves <= 7 ? 3 : 4;
    static_assert(Game::kMaxMoves <= 15, "the move counter has at most 4 bits");
    static constexpr uint16_t kCounterMask = ((1u << kCounterBits) - 1) << kCounterShift;
    static constexpr uint16_t kAssigned = 1u << (kCounterShift + kCounterBits);
    static constexpr uint16_t kPending = kAssigned << 1;
    static constexpr int kNoExit = -64;
    static constexpr uint64_t kChunk = sweep::kChunk;

    static uint16_t code(int v) { return static_cast<uint16_t>(v + 64); }
    static int decode(uint16_t w) { return static_cast<int>(w & kCodeMask) - 64; }
    static int counter(uint16_t w) { return (w & kCounterMask) >> kCounterShift; }

    using Sweep = sweep::State; // per-level shared state

    void first_pass_words(int n, uint64_t begin, uint64_t end, uint16_t* words) const;
    bool try_assign(Sweep& s, uint64_t index, int value, bool pending) const;
    using Stack = sweep::StackFor<Game>;
    auto visit(Sweep& s) const;
    void propagate(Sweep& s, uint64_t index, int value, Stack& stack) const;

    const Game& game_;
    std::vector<const int8_t*> smaller_;
    int threads_;
    size_t stack_limit_ = sweep::kStackLimit;
    std::vector<double> threshold_shares_;
};

// ---------------------------------------------------------------------------------------

template <RetroGame Game>
void RetrogradeSolver<Game>::first_pass_words(int n, uint64_t begin, uint64_t end,
                                              uint16_t* words) const {
    // A batch of positions at a time: their moves are generated first, with a prefetch of
    // each capture child's value (a random byte of a smaller level, gigabytes at large n),
    // and the best exits are taken after, so that the loads overlap (as in propagation,
    // sweep::drain).
    constexpr int kBatch = 16;
    struct Capture {
        const int8_t* value;
        int captured;
        int position; // in the batch
    };
    std::array<Capture, kBatch * Game::kMaxMoves> captures;
    std::array<int, kBatch> quiet, moves, terminal;
    int count = 0, captures_made = 0;
    uint64_t first = begin; // the batch's first position
    auto fold = [&] {
        std::array<BestMove, kBatch> exits; // the best capture exit of each position
        for (int c = 0; c < captures_made; ++c)
            exits[captures[c].position].add(captures[c].captured, *captures[c].value);
        for (int j = 0; j < count; ++j) {
            uint16_t& w = words[first + static_cast<uint64_t>(j)];
            if (moves[j] == 0 || quiet[j] == 0) {
                // Terminal, or every move captures: the value is known now; it propagates
                // when the sweep reaches its threshold.
                const int v = moves[j] == 0 ? terminal[j] : exits[j].value();
                w = static_cast<uint16_t>(kAssigned | code(v) | (v != 0 ? kPending : 0));
            } else {
                w = static_cast<uint16_t>(code(exits[j].empty() ? kNoExit : exits[j].value()) |
                                          (quiet[j] << kCounterShift));
            }
        }
        first += static_cast<uint64_t>(count);
        count = captures_made = 0;
    };
    for_each_in_rank_order(game_, n, begin, end, [&](uint64_t, const auto& s) {
        const int j = count++;
        int q = 0;
        moves[j] = game_.for_each_move(s, [&](int captured, const auto& child) {
            if (captured == 0) {
                ++q;
                return;
            }
            const int8_t* value = smaller_[n - captured] + game_.rank(child);
            __builtin_prefetch(value);
            captures[captures_made++] = {value, captured, j};
        });
        quiet[j] = q;
        terminal[j] = moves[j] == 0 ? game_.terminal_value(s) : 0;
        if (count == kBatch) fold();
    });
    if (count > 0) fold();
}

template <RetroGame Game>
bool RetrogradeSolver<Game>::try_assign(Sweep& s, uint64_t index, int value, bool pending) const {
    return sweep::claim(s, index,
                        static_cast<uint16_t>(kAssigned | code(value) | (pending ? kPending : 0)),
                        [](uint16_t w) { return (w & kAssigned) != 0; });
}

template <RetroGame Game> auto RetrogradeSolver<Game>::visit(Sweep& s) const {
    // Values at threshold t are exactly +-t.
    const int t = s.t;
    return sweep::value_visit(
        s, [](uint16_t w) { return (w & kAssigned) != 0; },
        [t](bool full) {
            return static_cast<uint16_t>(kAssigned | code(t) | (full ? kPending : 0));
        },
        [t](uint16_t old, bool full) {
            const int left = counter(old) - 1;
            const bool lost = left == 0 && decode(old) <= -t;
            const uint16_t nw =
                lost ? static_cast<uint16_t>(kAssigned | code(-t) | (full ? kPending : 0))
                     : static_cast<uint16_t>((old & ~kCounterMask) | (left << kCounterShift));
            return std::pair{nw, lost};
        });
}

template <RetroGame Game>
void RetrogradeSolver<Game>::propagate(Sweep& s, uint64_t index, int value, Stack& stack) const {
    // Tag 1: the position is lost (-t), 0: won (+t).
    sweep::propagate(game_, s, index << 1 | (value < 0), stack, visit(s));
}

template <RetroGame Game>
ValueArray RetrogradeSolver<Game>::solve(int n, const ProgressFn& progress, LevelStats* stats,
                                         SweepCheckpoint* checkpoint) {
    sweep::check_level("retrograde", n, 63, smaller_.size());
    Sweep s;
    s.stack_limit = stack_limit_;
    // The result ends up holding the compacted values in its first half.
    ValueArray result = sweep::start(s, n, game_.level_size(n));

    // Progress: the first pass takes about a quarter of the level's time, the n thresholds
    // the rest (evenly, or as the caller's shares say; docs/results.md measures both).
    sweep::run<Stack>(
        s,
        {.threads = threads_,
         .progress = progress,
         .first_share = 0.25,
         .threshold_shares = threshold_shares_,
         .stats = stats,
         .checkpoint = checkpoint},
        [&](uint64_t begin, uint64_t end) { first_pass_words(n, begin, end, s.words); },
        [&](uint64_t i, int t, Stack& stack) {
            const uint16_t w = s.word(i).load(std::memory_order_relaxed);
            if (!(w & kAssigned)) {
                const int best = decode(w);
                if (best == t) {
                    if (try_assign(s, i, t, false)) propagate(s, i, t, stack);
                } else if (counter(w) == 0 && best <= -t) {
                    if (try_assign(s, i, -t, false)) propagate(s, i, -t, stack);
                }
            } else if ((w & kPending) && std::abs(decode(w)) == t) {
                uint16_t old = w;
                if (s.word(i).compare_exchange_strong(old, static_cast<uint16_t>(w & ~kPending),
                                                      std::memory_order_relaxed))
                    propagate(s, i, decode(w), stack);
            }
        },
        [&](Stack& stack) { sweep::drain(game_, s, stack, visit(s)); },
        [&] {
            // Compact the 2-byte words into 1-byte values in place (byte i <= word i's
            // offset, so a forward sequential pass never overwrites a word it has yet to
            // read), then shrink.
            int8_t* out = reinterpret_cast<int8_t*>(s.words);
            for (uint64_t i = 0; i < s.size; ++i) {
                const uint16_t w = s.words[i];
                out[i] = static_cast<int8_t>((w & kAssigned) ? decode(w) : 0);
            }
            result.shrink(s.size);
        });
    return result;
}

template <RetroGame Game> uint64_t RetrogradeSolver<Game>::forward_pass(int n) const {
    const uint64_t size = game_.level_size(n);
    uint64_t checksum = 0;
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads_) reduction(+ : checksum)
    for (uint64_t c = 0; c < (size + kChunk - 1) / kChunk; ++c) {
        // In rank order, as the first pass goes.
        for_each_in_rank_order(
            game_, n, c * kChunk, std::min(size, (c + 1) * kChunk), [&](uint64_t, const auto& s) {
                game_.for_each_move(s, [&](int captured, const auto& child) {
                    const uint64_t k = game_.rank(child);
                    checksum += captured ? static_cast<uint64_t>(smaller_[n - captured][k]) : k;
                });
            });
    }
    return checksum;
}

} // namespace owaredb
