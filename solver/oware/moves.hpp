// Legal move generation and move application for Oware (docs/rules.md, Sowing and capturing;
// Rule sets).
#pragma once

#include "oware/position.hpp"
#include "oware/rules.hpp"

#include <array>
#include <cstdint>

namespace owaredb {

/// One legal move and its outcome.
struct Move {
    uint8_t pit = 0;      ///< 0..5 (written 1..6 for people)
    uint8_t captured = 0; ///< seeds captured by the move
    Position child;       ///< resulting position, rotated: the opponent is now to move
};

/// At most six moves; a fixed array so generation never allocates.
struct MoveList {
    std::array<Move, kPitsPerSide> moves;
    int count = 0;
    const Move* begin() const { return moves.data(); }
    const Move* end() const { return moves.data() + count; }
    int size() const { return count; }
    bool empty() const { return count == 0; }
    const Move& operator[](int i) const { return moves[i]; }
};

/// Sows the seeds of `pit` on `board` in place (no rotation, no capture): one seed into
/// each following pit, skipping the emptied origin on laps of 12 or more. Returns the pit
/// the last seed landed in. Precondition: board.pits[pit] > 0.
int sow(Position& board, int pit);

/// Seeds a sowing that ended in `last` would capture on `board` (already sown, not
/// rotated): the chain of pits holding 2 or 3 going backwards from `last`, never past
/// pit 6. Zero when `last` is on the mover's side.
int capture_chain(const Position& board, int last);

/// The legal moves of `p` under `rules`, in pit order. Empty exactly when the game is
/// over in `p` (see terminal_value).
MoveList legal_moves(const Rules& rules, const Position& p);

/// False only when no move of `p` can capture under any rules: a cheap necessary condition
/// that skips move generation for most positions. A sowing of s < 11 seeds from pit i puts
/// one seed in each of pits i+1..i+s, so it can capture only if its last pit i+s is the
/// opponent's and held 1 or 2 seeds; sowings of 11 or more seeds count as "may capture".
bool may_capture(const Position& p);

/// The value for the side to move of a position without legal moves: -n when the mover
/// has no seeds (the opponent takes them all), +n otherwise (no move can feed the empty
/// opponent, the mover takes them all). n = p.seeds().
int terminal_value(const Position& p);

} // namespace owaredb
