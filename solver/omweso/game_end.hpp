// Game end, points and the match to 12 (docs/rules.md, Omweso: End of the game and points).
//
// Interpretation (the seeds and docs/rules.md are terse; this is what the engine implements):
//  * The game ends when the side to move has no pit with 2 or more seeds; the player who
//    made the last turn wins it.
//  * 12 points ("grand slam"): that last turn captured and left the loser with no seed at
//    all ("taking every opponent seed ... ending with a capture").
//  * otherwise 2 points: the loser's whole front row (pits 8..15) is empty, or all four of
//    its corner pits (0 and 7 of the back row, 8 and 15 of the front row) are empty;
//  * otherwise 1 point.
// A match is played until a player has 12 points or more.
#pragma once

#include "omweso/position.hpp"
#include "omweso/turn.hpp"

#include <array>
#include <optional>

namespace owaredb::omweso {

inline constexpr int kMatchPoints = 12;

// Whether a circuit has a legal move (a pit with >= 2 seeds).
bool can_move(Packed circuit);

struct GameResult {
    int winner = South;
    int points = 1; // 1, 2 or 12
};

// The result if the game is over in `pos` (whose side to move cannot move), where
// `last_turn_captured` says whether the turn that led to it captured.
std::optional<GameResult> game_result(const Position& pos, bool last_turn_captured);

// Convenience: the result after a finite turn (nullopt if the game goes on).
std::optional<GameResult> game_result(const Turn& finished_turn);

class Match {
  public:
    void record(const GameResult& r) { points_[std::size_t(r.winner)] += r.points; }
    int points(int player) const { return points_[std::size_t(player)]; }
    bool over() const { return points_[0] >= kMatchPoints || points_[1] >= kMatchPoints; }
    // The match winner; only meaningful when over().
    int winner() const { return points_[0] >= kMatchPoints ? South : North; }

  private:
    std::array<int, 2> points_{};
};

} // namespace owaredb::omweso
