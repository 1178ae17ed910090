// The game as the retrograde engine sees it (docs/values.md, Generation), and nothing more.
//
// A game is split into levels n = 0, 1, 2, ...; level n holds `level_size(n)` states,
// ranked 0..level_size(n)-1. Each state has at most kMaxMoves legal moves; a move that
// captures c > 0 units leads into level n - c (solved earlier), a move that captures
// nothing stays in level n. Un-moves enumerate the parents of a state within its level
// (the states with a quiet legal move into it); un-captures enumerate its parents in a
// larger level (the states with a legal move capturing a given amount into it), for the
// streamed engine, which pushes smaller levels' values to their parents. A state without legal
// moves is over and worth terminal_value to its side to move. Values are margins for the side to
// move, in -n..n; endless play is worth 0.
//
// Oware (oware/oware_game.hpp) and the toy game of tests/retro model this concept; the
// engine (retrograde.hpp, bellman.hpp, solve_in_memory.hpp) is written against it alone.
#pragma once

#include <concepts>
#include <cstdint>

namespace owaredb {

template <class G>
concept RetroGame = requires(const G& game, const typename G::State& s, int n, uint64_t index) {
    typename G::State;
    /// At most this many legal moves per state: up to 15 for the in-memory engine (a 3-bit
    /// move counter up to 7, 4 bits above); the streamed engine (a byte a position) takes
    /// up to 7 and the bounds solver up to 6, which their static_asserts say.
    requires G::kMaxMoves >= 1 && G::kMaxMoves <= 15;
    { game.level_size(n) } -> std::same_as<uint64_t>;
    { game.unrank(n, index) } -> std::same_as<typename G::State>;
    /// Rank of a state within its own level.
    { game.rank(s) } -> std::same_as<uint64_t>;
    /// The state ranked one after s in its level (s is not the last): what a pass over a
    /// level in rank order uses instead of unranking every index.
    { game.next(s) } -> std::same_as<typename G::State>;
    /// Calls f(captured, child) for every legal move and returns their number (0: over).
    {
        game.for_each_move(s, [](int, const typename G::State&) {})
        } -> std::same_as<int>;
    /// Calls f(parent) for every parent within the level.
    game.for_each_parent(s, [](const typename G::State&) {});
    /// Every move that captures takes between kMinCapture and kMaxCapture units.
    requires G::kMinCapture >= 1 && G::kMaxCapture >= G::kMinCapture;
    /// Calls f(parent) for every state of level (s's level + n) with a legal move that
    /// captures exactly n units into s, once per such move.
    game.for_each_capture_parent(s, n, [](const typename G::State&) {});
    { game.terminal_value(s) } -> std::same_as<int>;
};

/// A game that also finds a state's quiet children (its legal moves capturing nothing) one
/// at a time, without generating the others: next_quiet_child(s, move, child) finds the
/// first legal quiet move numbered `move` or more (moves are numbered 0..kMaxMoves-1 in
/// for_each_move's order), sets `child` to its child and `move` to its number and returns
/// true, or returns false if there is none; the next call, from move + 1, finds the next
/// one. The 2-bit engine's check stops at the first child not won and resumes where it
/// stopped (wld_retrograde.hpp).
template <class G>
concept QuietChildrenOneAtATime = RetroGame<G> &&
    requires(const G& game, const typename G::State& s, int& move, typename G::State& child) {
    { game.next_quiet_child(s, move, child) } -> std::same_as<bool>;
};

/// f(index, state) for every state of level n with an index in [begin, end), in rank
/// order: one unrank, then game.next, which takes a few steps where unrank searches, as
/// every pass over a level goes.
template <RetroGame Game, class F>
void for_each_in_rank_order(const Game& game, int n, uint64_t begin, uint64_t end, F&& f) {
    if (begin >= end) return;
    auto state = game.unrank(n, begin);
    for (uint64_t i = begin;;) {
        f(i, state);
        if (++i == end) return;
        state = game.next(state);
    }
}

} // namespace owaredb
