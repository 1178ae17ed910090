// Convention-free bounds: the seeds each side can force, whatever the rule for endless play
// (docs/values.md, Convention-free bounds).
//
// For a state b of level n let gM(b) be the units the side to move can make sure of
// capturing by play that ends by itself, and gN(b) the same for its opponent. They are the
// LEAST fixed point of
//     gM(b) = max over moves m of ( captured(m) + gN(child(m)) )
//     gN(b) = min over moves m of gM(child(m))
// with a terminal state of value v (terminal_value) split as gM = (n + v) / 2,
// gN = (n - v) / 2 (the mover takes (n + v) / 2 of the n units, the opponent the rest).
// Every gM, gN lies in 0..n and gM + gN <= n (both hold for the bottom, 0, and are kept by
// the equations: captured + gN(child) + gM(child') <= c + (n - c) for the minimising move,
// by induction over the iterates). Where gM + gN = n the split is exact under every rule
// for endless play.
//
// Method: thresholds, exactly like RetrogradeSolver (retrograde.hpp).
//
// 1. Thresholds. For t = 1..n let X_t = {gM >= t} and Y_t = {gN >= t}. Write F for the
//    operator on the right-hand side above. Kleene iteration from the bottom gives the
//    least fixed point: (gM, gN) = lim F^k(0). Thresholding commutes with F:
//        F(gM, gN)_M(b) >= t  iff  some move m has captured(m) + gN(child) >= t
//        F(gM, gN)_N(b) >= t  iff  every move m has gM(child) >= t
//    (max >= t iff some term >= t; min >= t iff every term >= t). So the threshold sets of
//    the Kleene iterates are the Kleene iterates, from the empty sets, of the boolean
//    operator F_t:
//        b in X  iff  some capture move has captured + gN(child) >= t   (child in a smaller
//                     level: known), or some quiet move's child is in Y;
//        b in Y  iff  every capture move has gM(child) >= t, and every quiet move's child
//                     is in X;
//        terminals by their split (X iff gM >= t, Y iff gN >= t).
//    Both sequences stop after finitely many steps, so X_t, Y_t are the least fixed point
//    of F_t: the attractor computed by un-move propagation with move counters, the same
//    shape as W_t (some quiet child in L_t) and L_t (all quiet children in W_t) in
//    retrograde.hpp, with X in the role of W and Y in that of L.
// 2. Sweep. F_t grows pointwise as t falls, so X_{t+1} is contained in X_t and Y_{t+1}
//    in Y_t; the least fixed point of F_t is reached from (X_{t+1}, Y_{t+1}) (a set below
//    it that F_t does not shrink). Sweeping t = n..1, a state enters X once, at t = gM, and
//    Y once, at t = gN; one that never enters has 0. Per threshold:
//      - seeds: unentered states whose best capture exit (max of captured + gN(child)) is
//        t enter X_t; states with every quiet child in X (counter 0) whose worst capture
//        exit (min of gM(child), none = infinity) is >= t enter Y_t;
//      - a state entering Y_t makes every parent (a state with a quiet move into it) enter
//        X_t, unless it already is in X;
//      - a state entering X_t decrements each parent's counter of quiet moves whose child
//        is not yet known to be in X; at zero the parent enters Y_t if its worst capture
//        exit is >= t, and otherwise it waits for the scan at t = that exit.
//    Every member enters by one of these rules, and every rule is a consequence of F_t, so
//    the result is the least fixed point: it does not depend on threads or scheduling.
// 3. Cost: each state enters each set once and propagates once per set, through its
//    un-moves: about twice the propagation of a value level (which propagates once).
//
// Working state: one 16-bit word per state (2 bytes, as the value engine):
//   bits 0-5    x: while not in X, the best capture exit max(captured + gN(child)), 0 for
//               none; once in X, gM
//   bits 6-11   y: the worst capture exit min(gM(child)), 63 for none; once the counter
//               reaches 0 at threshold t, min(exit, t), and once in Y, gN
//   bits 12-14  quiet moves whose child is not yet known to be in X (0..6); 7 = in Y
//   bit 15      in X
// A state with x = t not in X, or with counter 0 and y = t, is entered by the scan of
// threshold t (or by a propagation that gets there first: the CAS that sets "in X" or
// counter 7 decides who propagates). Entering sets the flag or the counter 7, so there is
// no separate pending bit: when the propagation stack is full, a state is given x = t (or
// counter 0 and y = t) without the flag, and a rescan of the same threshold enters it.
// Terminal and all-capture states get their final x and y in the first pass and enter at
// the scans of their thresholds. This needs kMaxMoves <= 6 (the counter code 7) and
// n <= 62 (so that 63 is above every threshold; Oware stops at 48).
//
// Result: two bytes per state, interleaved: byte 2i = gM, byte 2i + 1 = gN of state i (in
// place of the 16-bit word i). The solver takes the smaller levels in the same form.
#pragma once

#include "retro/game.hpp"
#include "retro/retrograde.hpp"
#include "retro/sweep.hpp"
#include "retro/value_array.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace owaredb {

/// gM and gN of one state, and whether they settle it exactly (gM + gN = n).
struct BoundPair {
    int gm = 0;
    int gn = 0;
};

/// The bound pair of state `index` in an interleaved level array (byte 2i = gM, 2i+1 = gN).
inline BoundPair bound_pair(const int8_t* level, uint64_t index) {
    return {level[2 * index], level[2 * index + 1]};
}

/// The split of a terminal state of level n worth v to its mover: gM = (n+v)/2, gN = (n-v)/2.
/// Throws std::logic_error when n + v is odd or |v| > n (no integral split).
inline BoundPair terminal_split(int n, int v) {
    if (v < -n || v > n || (n + v) % 2 != 0)
        throw std::logic_error("bounds: terminal value " + std::to_string(v) + " at level " +
                               std::to_string(n) + " has no integral split");
    return {(n + v) / 2, (n - v) / 2};
}

/// The right-hand side of the bound equations for one state: gM = max(captured +
/// gN(child)), gN = min(gM(child)), or the terminal split. `child_bounds(level, child)`
/// returns the BoundPair of a child of `level` (n - captured).
template <RetroGame Game, class ChildBounds>
BoundPair bounds_equation(const Game& game, int n, const typename Game::State& s,
                          ChildBounds&& child_bounds) {
    int gm = -1, gn = 1 << 20;
    const int moves = game.for_each_move(s, [&](int captured, const typename Game::State& child) {
        const BoundPair c = child_bounds(n - captured, child);
        gm = std::max(gm, captured + c.gn);
        gn = std::min(gn, c.gm);
    });
    if (moves == 0) return terminal_split(n, game.terminal_value(s));
    return {gm, gn};
}

template <RetroGame Game> class BoundsSolver {
  public:
    /// Identifies this engine's working words in checkpoint files (retro/checkpoint.hpp):
    /// change it whenever the word encoding changes, so old checkpoints are refused.
    static constexpr uint32_t kCheckpointFormat = 2;

    /// `smaller[k]` points to the interleaved bounds (2 bytes per state) of level k, k < n.
    BoundsSolver(const Game& game, std::vector<const int8_t*> smaller, int threads)
        : game_(game), smaller_(std::move(smaller)), threads_(std::max(1, threads)) {}

    /// gM and gN of every state of level n, interleaved, indexed by rank (2 * size bytes).
    /// With a `checkpoint`, resumes from what it restores and offers it the working words at
    /// every safe point (retro/checkpoint.hpp); the result is the same.
    ValueArray solve(int n, const ProgressFn& progress = {}, LevelStats* stats = nullptr,
                     SweepCheckpoint* checkpoint = nullptr);

    /// Tests only: propagation stacks of `limit` entries, so that small levels overflow them
    /// and take the rescan path that only large levels take otherwise (same values).
    void set_stack_limit(size_t limit) { stack_limit_ = limit; }

  private:
    static constexpr uint16_t kXMask = 0x3F;
    static constexpr int kYShift = 6;
    static constexpr uint16_t kYMask = 0x3F << kYShift;
    static constexpr int kCounterShift = 12;
    static constexpr uint16_t kCounterMask = 0x7 << kCounterShift;
    static constexpr int kInY = 7;
    static constexpr uint16_t kInX = 1 << 15;
    static constexpr int kNoExit = 63; // worst capture exit of a state without captures
    static_assert(Game::kMaxMoves <= 6, "the bounds solver's move counter keeps code 7");

    static int xf(uint16_t w) { return w & kXMask; }
    static int yf(uint16_t w) { return (w & kYMask) >> kYShift; }
    static int counter(uint16_t w) { return (w & kCounterMask) >> kCounterShift; }
    static uint16_t with_x(uint16_t w, int x) { return static_cast<uint16_t>((w & ~kXMask) | x); }
    static uint16_t with_y(uint16_t w, int y) {
        return static_cast<uint16_t>((w & ~kYMask) | (y << kYShift));
    }
    static uint16_t with_counter(uint16_t w, int c) {
        return static_cast<uint16_t>((w & ~kCounterMask) | (c << kCounterShift));
    }

    using Sweep = sweep::State; // per-level shared state

    uint16_t first_pass_word(int n, const typename Game::State& s) const;
    bool enter_x(Sweep& s, uint64_t index) const;
    bool enter_y(Sweep& s, uint64_t index) const;
    using Stack = sweep::StackFor<Game>;
    auto visit(Sweep& s) const;
    void propagate(Sweep& s, uint64_t entry, Stack& stack) const;

    const Game& game_;
    std::vector<const int8_t*> smaller_;
    int threads_;
    size_t stack_limit_ = sweep::kStackLimit;
};

// ---------------------------------------------------------------------------------------

template <RetroGame Game>
uint16_t BoundsSolver<Game>::first_pass_word(int n, const typename Game::State& s) const {
    int best = 0, worst = kNoExit, quiet = 0;
    const int moves = game_.for_each_move(s, [&](int captured, const auto& child) {
        if (captured == 0) {
            ++quiet;
            return;
        }
        const BoundPair c = bound_pair(smaller_[n - captured], game_.rank(child));
        best = std::max(best, captured + c.gn);
        worst = std::min(worst, c.gm);
    });
    if (moves == 0) {
        // Over: gM and gN are the split; the scans at t = gM and t = gN enter it.
        const BoundPair split = terminal_split(n, game_.terminal_value(s));
        best = split.gm;
        worst = split.gn;
    }
    return static_cast<uint16_t>(best | (worst << kYShift) | (quiet << kCounterShift));
}

template <RetroGame Game> bool BoundsSolver<Game>::enter_x(Sweep& s, uint64_t index) const {
    auto w = s.word(index);
    uint16_t old = w.load(std::memory_order_relaxed);
    while (!(old & kInX) && xf(old) == s.t)
        if (w.compare_exchange_weak(old, static_cast<uint16_t>(old | kInX),
                                    std::memory_order_relaxed))
            return true;
    return false;
}

template <RetroGame Game> bool BoundsSolver<Game>::enter_y(Sweep& s, uint64_t index) const {
    auto w = s.word(index);
    uint16_t old = w.load(std::memory_order_relaxed);
    while (counter(old) == 0 && yf(old) == s.t)
        if (w.compare_exchange_weak(old, with_counter(old, kInY), std::memory_order_relaxed))
            return true;
    return false;
}

template <RetroGame Game> auto BoundsSolver<Game>::visit(Sweep& s) const {
    // Tag 1: the state entered Y_t, 0: it entered X_t.
    const int t = s.t;
    return [&s, t](bool entered_y, uint64_t k, bool full) {
        auto w = s.word(k);
        uint16_t old = w.load(std::memory_order_relaxed);
        if (entered_y) {
            // A quiet move into Y_t: the parent is in X_t (x <= t while it is not).
            while (!(old & kInX)) {
                const uint16_t nw = static_cast<uint16_t>(with_x(old, t) | (full ? 0 : kInX));
                if (w.compare_exchange_weak(old, nw, std::memory_order_relaxed)) return true;
            }
            return false;
        }
        // One more quiet move known to lead into X. The parent's counter is >= 1: this
        // edge has not been counted, and a state joins Y only at counter 0.
        while (counter(old) != 0 && counter(old) != kInY) {
            const int left = counter(old) - 1;
            const bool joins = left == 0 && yf(old) >= t;
            uint16_t nw = with_counter(old, left);
            if (joins) nw = with_counter(with_y(old, t), full ? 0 : kInY);
            if (w.compare_exchange_weak(old, nw, std::memory_order_relaxed)) return joins;
        }
        return false;
    };
}

template <RetroGame Game>
void BoundsSolver<Game>::propagate(Sweep& s, uint64_t entry, Stack& stack) const {
    sweep::propagate(game_, s, entry, stack, visit(s));
}

template <RetroGame Game>
ValueArray BoundsSolver<Game>::solve(int n, const ProgressFn& progress, LevelStats* stats,
                                     SweepCheckpoint* checkpoint) {
    sweep::check_level("bounds", n, 62, smaller_.size());
    Sweep s;
    s.stack_limit = stack_limit_;
    // Word i becomes bytes 2i (gM) and 2i + 1 (gN).
    ValueArray result = sweep::start(s, n, game_.level_size(n));

    sweep::run<Stack>(
        s,
        {.threads = threads_,
         .progress = progress,
         .first_share = 0.4,
         .stats = stats,
         .checkpoint = checkpoint},
        [&](uint64_t begin, uint64_t end) {
            for_each_in_rank_order(game_, n, begin, end, [&](uint64_t i, const auto& state) {
                s.words[i] = first_pass_word(n, state);
            });
        },
        [&](uint64_t i, int t, Stack& stack) {
            const uint16_t w = s.word(i).load(std::memory_order_relaxed);
            if (!(w & kInX) && xf(w) == t && enter_x(s, i)) propagate(s, i << 1, stack);
            if (counter(w) == 0 && yf(w) == t && enter_y(s, i)) propagate(s, i << 1 | 1, stack);
        },
        [&](Stack& stack) { sweep::drain(game_, s, stack, visit(s)); },
        [&] {
            // Word i -> bytes 2i (gM) and 2i + 1 (gN), in place.
            int8_t* out = result.data();
#pragma omp parallel for schedule(static) num_threads(threads_)
            for (uint64_t i = 0; i < s.size; ++i) {
                const uint16_t w = s.words[i];
                const int8_t gm = static_cast<int8_t>((w & kInX) ? xf(w) : 0);
                const int8_t gn = static_cast<int8_t>(counter(w) == kInY ? yf(w) : 0);
                out[2 * i] = gm;
                out[2 * i + 1] = gn;
            }
        });
    return result;
}

/// Bounds of levels 0..max_n one after another, all in memory (tests, small databases).
template <RetroGame Game>
std::vector<ValueArray> solve_bounds_in_memory(const Game& game, int max_n, int threads) {
    return sweep::solve_levels_in_memory<BoundsSolver>(game, max_n, threads);
}

} // namespace owaredb
