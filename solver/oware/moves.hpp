// Legal move generation and move application for Oware (docs/rules.md, Sowing and capturing;
// Rule sets).
#pragma once

#include "oware/position.hpp"
#include "oware/rules.hpp"

#include <array>
#include <cstdint>

namespace owaredb {

/// One legal move and its outcome.
template <int P> struct BasicMove {
    uint8_t pit = 0;        ///< 0..P-1 (written 1..P for people)
    uint8_t captured = 0;   ///< seeds captured by the move
    BasicPosition<P> child; ///< resulting position, rotated: the opponent is now to move
};
using Move = BasicMove<6>;

/// At most P moves; a fixed array so generation never allocates.
template <int P> struct BasicMoveList {
    std::array<BasicMove<P>, P> moves;
    int count = 0;
    const BasicMove<P>* begin() const { return moves.data(); }
    const BasicMove<P>* end() const { return moves.data() + count; }
    int size() const { return count; }
    bool empty() const { return count == 0; }
    const BasicMove<P>& operator[](int i) const { return moves[i]; }
};
using MoveList = BasicMoveList<6>;

/// Sows the seeds of `pit` on `board` in place (no rotation, no capture): one seed into
/// each following pit, skipping the emptied origin on laps of 2P or more. Returns the pit
/// the last seed landed in. Precondition: board.pits[pit] > 0.
template <int P> int sow(BasicPosition<P>& board, int pit);

/// Seeds a sowing that ended in `last` would capture on `board` (already sown, not
/// rotated): the chain of pits holding 2 or 3 going backwards from `last`, never past
/// pit P (the opponent's first). Zero when `last` is on the mover's side.
template <int P> int capture_chain(const BasicPosition<P>& board, int last);

/// Seeds a sowing that ended in `last` captures under `rules` (board as capture_chain's):
/// capture_chain's, but none for a grand slam that captures nothing
/// (GrandSlam::CapturesNothing). The one place both move generators ask.
template <int P> int captured_under(const Rules& rules, const BasicPosition<P>& board, int last) {
    const int captured = capture_chain(board, last);
    return captured > 0 && captured == board.opponent_seeds() &&
                   rules.grand_slam == GrandSlam::CapturesNothing
               ? 0
               : captured;
}

/// The legal moves of `p` under `rules`, in pit order. Empty exactly when the game is
/// over in `p` (see terminal_value).
template <int P> BasicMoveList<P> legal_moves(const Rules& rules, const BasicPosition<P>& p);

/// False only when no move of `p` can capture under any rules: a cheap necessary condition
/// that skips move generation for most positions. A sowing of s < 2P - 1 seeds from pit i
/// puts one seed in each of pits i+1..i+s, so it can capture only if its last pit i+s is
/// the opponent's and held 1 or 2 seeds; longer sowings count as "may capture".
template <int P> bool may_capture(const BasicPosition<P>& p);

/// The value for the side to move of a position without legal moves: -n when the mover
/// has no seeds (the opponent takes them all), +n otherwise (no move can feed the empty
/// opponent, the mover takes them all). n = p.seeds().
template <int P> int terminal_value(const BasicPosition<P>& p);

} // namespace owaredb
