// owaredb game model: the rules of Oware as the probe library plays them, with no database.
//
// Contract
// - The same rules as the databases' (solver/oware, docs/rules.md): one copy of them, which
//   the Tablebase, `owaredb probe`, `owaredb serve` and Python's owaredb.Position all use.
// - A position is 2P pit counts on a board of P = 1..8 pits a side (12 on the standard
//   board), pits 0..P-1 the side to move's, in sowing order, as everywhere in this library.
//   It may hold up to 48 seeds, or on a board of 7 or 8 pits its own start (4 a pit: 56,
//   64), beyond what any database holds.
// - A position knows no history: the seeds each side has captured so far and the positions
//   seen before are the caller's (Python's owaredb.Game keeps them).
// - Errors are values, as in probe.hpp: InvalidRules for an unknown rule set,
//   InvalidPosition for a count that is no board's or too many seeds. No function reads a
//   file; every one is thread-safe.
#pragma once

#include "owaredb/api.h"
#include "owaredb/probe.hpp"

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace owaredb {

/// Why the game is over in a position, or that it is not.
enum class GameEnd {
    None = 0,        ///< the side to move has a legal move
    MoverHasNoSeeds, ///< the side to move has no seeds: the opponent takes the seeds left
    NoMoveFeeds,     ///< no move gives the empty opponent a seed: the mover takes the seeds left
};

/// Stable lower-case words for an ending: "" for None, "the side to move has no seeds",
/// "no move feeds the opponent".
OWAREDB_API const char* to_string(GameEnd end);

/// One legal move and its outcome.
struct GameMove {
    int pit = 0;      ///< 1..P, from the mover's left
    int captured = 0; ///< seeds this move captures
    BoardPits child;  ///< the position after the move, opponent to move (rotated)
};

/// A position under a rule set: its legal moves, or why the game is over.
struct GameState {
    int seeds = 0;               ///< seeds on the board
    std::vector<GameMove> moves; ///< every legal move, in pit order; empty: the game is over
    GameEnd end = GameEnd::None;
    /// When the game is over: what the side to move gets of the seeds left minus what its
    /// opponent gets, +seeds or -seeds (the Tablebase's value of the position); else 0.
    int final_value = 0;
};

/// The legal moves of `position` under the rule set `rules` ("abapa", "awari"), with what
/// each captures and the position it leads to; or why no move is legal. InvalidRules for
/// an unknown rule set; InvalidPosition for a count of pits that is not 2P, P = 1..8, or
/// more seeds than the board may hold (see the contract).
OWAREDB_API ProbeResult<GameState> game_state(std::string_view rules,
                                              std::span<const uint8_t> position);

} // namespace owaredb
