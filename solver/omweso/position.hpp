// An Omweso position: both players' circuits, whose turn it is, and the flags the opening
// rules need.
//
// Text forms (both accepted by `parse_position`):
//  * circuit form, two lines of 16 counts: the mover's circuit k = 0..15, then the
//    opponent's circuit k = 0..15 (circuit indexing in board.hpp);
//  * board form, four lines of 8 counts as seen from South's side, top to bottom:
//    North back row, North front row, South front row, South back row, each left to right.
//    South is to move.
// Counts are separated by blanks or commas; lines by newlines or ';' (so a position fits in
// one shell argument). Parsing yields a mid-game position: no first turn pending and a
// capture already happened, so the opening rules stay out of the way unless the flags are
// set afterwards.
#pragma once

#include "omweso/board.hpp"

#include <array>
#include <stdexcept>
#include <string>
#include <string_view>

namespace owaredb::omweso {

enum Player : int { South = 0, North = 1 };

struct Position {
    std::array<Packed, 2> pits{}; // pits[player], circuit indexing
    int to_move = South;
    // Whether each player's first turn is still to come (no captures in it; docs/rules.md,
    // Omweso: Opening).
    std::array<bool, 2> first_turn_pending{false, false};
    // Whether any capture happened yet in the game (the 3-seed opening is allowed before).
    bool capture_happened = true;

    Packed mover() const { return pits[std::size_t(to_move)]; }
    Packed opponent() const { return pits[std::size_t(1 - to_move)]; }
    bool operator==(const Position&) const = default;
};

// The customary start: 4 seeds in each back-row pit of both players, South to move, both
// first turns pending and no capture yet.
Position initial_position();

struct ParseError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Parses either text form; throws ParseError with a one-line message naming what is wrong
// (line, count, total) on bad input. Each pit holds 0..64 seeds and the board at most 64.
Position parse_position(std::string_view text);

// Circuit form, mover first, two lines ending in '\n'.
std::string to_circuit_text(const Position& p);

// The 4 x 8 board as seen from South's side, with row labels and the mover marked.
std::string to_board_text(const Position& p);

// A circuit as 16 space-separated counts.
std::string circuit_string(Packed c);

} // namespace owaredb::omweso
