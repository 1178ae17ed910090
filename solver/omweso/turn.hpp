// Complete Omweso turns: relay sowing with captures and resowing (docs/rules.md, Omweso,
// items 1-5), with exact never-ending detection.
//
// A turn is a sequence of laps. A lap sows the seeds in hand one per pit, starting with the
// pit after its origin, in its direction. Where the last seed falls:
//  * an empty pit: the turn ends;
//  * an occupied front pit whose two facing opponent pits (board.hpp) are both occupied,
//    while captures are allowed: those two pits are emptied into the hand and sown from
//    the same origin (the pit after the one the capturing lap was lifted from);
//  * any other occupied pit: its seeds, the new one too, are lifted and sown from there
//    counter-clockwise (a relay).
// Reverse captures: a lap may go clockwise only if its origin is one of the four leftmost
// pits and that very lap captures (items 4 and the seeds' "combine forward relay laps and
// reverse capture laps whenever the conditions are met"): the first lap of a turn, and any
// sowing of captured seeds. Such choices make a turn branch; `turns` lists every branch.
//
// Never-ending turns: between two captures a turn is deterministic; a capture strictly
// lowers the opponent's seed count, which nothing raises again during the turn, so at most
// 8 captures happen (one per column: a column needs both pits occupied and pits never
// refill) and an endless turn ends in a pure counter-clockwise relay that repeats a state
// (board, origin, seeds in hand, direction; the current pit is the origin between laps).
// Brent's algorithm finds that repetition with O(1) extra memory; no lap or seed cap.
#pragma once

#include "omweso/position.hpp"
#include "omweso/rules.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace owaredb::omweso {

// The state of a turn between two laps (the mover's view).
struct SowState {
    Packed mine = 0;   // the mover's circuit
    Packed theirs = 0; // the opponent's circuit
    int origin = 0;    // seeds in hand are sown starting with the pit after this one
    int hand = 0;      // seeds in hand
    int dir = 1;       // +1 counter-clockwise, -1 clockwise
    bool operator==(const SowState&) const = default;
};

// Proof that a turn never ends: after `entry_lap` laps of the turn it is in `state`, and
// `period_laps` laps later, having sown `period_seeds` seeds, it is in `state` again.
struct CycleProof {
    std::uint64_t entry_lap = 0;
    std::uint64_t period_laps = 0;
    std::uint64_t period_seeds = 0;
    SowState state;
};

enum class Start : std::uint8_t {
    Forward, // counter-clockwise
    Reverse, // clockwise, capturing directly (item 4)
    Opening, // the 3-seed opening sowing (item 5)
};

struct Turn {
    int pit = 0;
    Start start = Start::Forward;
    // One entry per capture: whether its seeds were sown clockwise.
    std::vector<bool> reversed_after_capture;
    int captures = 0;
    int captured_seeds = 0;
    // Laps and seeds sown: for a finite turn in all; for a never-ending one up to the
    // cycle start (the proof's entry lap).
    std::uint64_t laps = 0;
    std::uint64_t seeds_sown = 0;
    int last_pit = 0; // finite turns: where the last seed fell
    // Finite turns: the position after the turn (the opponent to move, flags updated).
    // Never-ending turns: the position at the cycle start, the mover still to move.
    Position final;
    std::optional<CycleProof> never_ending;
    std::uint64_t work_laps = 0; // laps simulated to decide this turn, all passes (benchmarks)
};

// Every complete turn of the side to move, in order of pit, start kind, then choices
// (counter-clockwise before clockwise). Empty when the side to move cannot move.
std::vector<Turn> turns(const Position& pos, const Rules& rules = {});

// The turns starting at `pit` with the given start kind; empty if that start is illegal.
std::vector<Turn> turns_from(const Position& pos, int pit, Start start, const Rules& rules = {});

// Why that start is illegal, or an empty string if it is legal.
std::string illegal_start_reason(const Position& pos, int pit, Start start, const Rules& rules);

// Whether captures are allowed in the mover's current turn.
bool captures_allowed(const Position& pos, const Rules& rules);

// Sows one lap of `s` (used by the engine and by proof replays). Returns the landing pit.
// Afterwards the caller classifies the landing with `get_pit(s.mine, landing)`.
int sow_lap(SowState& s);

// Whether landing on the mover's pit `l` (already sown into) captures.
bool is_capture_landing(const SowState& s, int l);

// Independent check of a proof: replays `period_laps` laps from the proof's state with a
// naive one-seed-at-a-time sower that knows nothing of the engine, and checks that no lap
// ends the turn or captures (with captures allowed or not) and the same state returns.
bool replay_proof(const CycleProof& proof, bool captures_on);

} // namespace owaredb::omweso
