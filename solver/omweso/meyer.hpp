// The "Meyer test": analytic pre-tests that decide quickly that a move ends, without
// simulating it (docs/rules.md, Omweso: Never-ending moves). The name follows the seeds,
// after the "Mayer test" for never-ending moves in Bao: T. Kronenburg, H. H. L. M. Donkers,
// A. J. de Voogt, "Never-Ending Moves in Bao", ICGA Journal 29(2):74-78, 2006. A pre-test
// may only ever say "ends": a never-ending verdict always needs the cycle proof of
// turn.hpp / relay.hpp.
//
// Pre-test 1, the seed-count bound: on a 16-pit circuit every pure relay with fewer than
// kMeyerSeedBound = 11 seeds on the circuit (seeds in hand included) ends.
//   Proof. A pure relay is invariant under rotating the circuit, and every state between two
//   laps is "lift pit p, which holds >= 2 seeds" (a relayed pit holds its old seeds plus the
//   last one dropped). Rotating p to pit 0, every such state is one of the C(S+13, 15)
//   distributions of S seeds with >= 2 in pit 0 that the census enumerates, and the census
//   decides each one exactly (it ends, or Brent's algorithm proves a repeated state). For
//   S = 2..10 (735,471 boards in all) none is never-ending; the test
//   "Meyer seed bound is exact" re-runs that enumeration. The bound is tight: the reference
//   11-seed board 2 0 1 0 1 0 1 0 1 0 1 0 1 0 2 1 (docs/rules.md, Omweso: Reference cases)
//   sows forever from pit 0.
//   The same sweep on smaller circuits gives the bound for each circuit size (tests).
//
// Pre-test 2, the capture bound: at most kMaxCapturesPerTurn = 8 captures happen in a turn.
//   Proof. A capture needs both opponent pits of one column occupied and empties both.
//   During the mover's turn nothing is ever sown into the opponent's pits, so an emptied
//   column never qualifies again: each of the 8 columns is captured at most once.
//   Consequently the mover never holds more than its own seeds plus the seeds of the
//   opponent columns that are capturable (both pits occupied) when the turn starts, and
//   an endless turn ends in a pure relay cycle after its last capture.
//
// Combined (meyer_test): if the mover's seeds plus those capturable seeds are fewer than 11,
// every relay stretch of the turn ends, and with at most 8 captures the turn ends.
#pragma once

#include "omweso/board.hpp"
#include "omweso/position.hpp"
#include "omweso/rules.hpp"

namespace owaredb::omweso {

inline constexpr int kMeyerSeedBound = 11;
inline constexpr int kMaxCapturesPerTurn = 8;

// Pre-test 1 for a pure relay on a 16-pit circuit holding `seeds` seeds in all.
inline constexpr bool meyer_relay_ends(int seeds) {
    return seeds < kMeyerSeedBound;
}

// Seeds of the opponent (of `mover_circuit`'s owner) that a turn could capture: those of
// the columns whose front and back pits are both occupied.
int capturable_seeds(Packed opponent);

enum class MeyerVerdict { Ends, Undecided };

// The combined pre-test for every turn of the side to move: Ends means each of them ends
// (whatever pit and choices), Undecided means simulate (turn.hpp) to know.
MeyerVerdict meyer_test(const Position& pos, const Rules& rules = {});

} // namespace owaredb::omweso
