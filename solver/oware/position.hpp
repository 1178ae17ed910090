// An Oware position: 12 pit counts, the side to move owning pits 0..5.
//
// Pits are numbered 0..11 in sowing (counter-clockwise) order; after every move the
// board is rotated by six so that the new mover again owns 0..5. Captured seeds are not
// part of a position. See docs/rules.md, Board and pits; Notation.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace owaredb {

inline constexpr int kPits = 12;
inline constexpr int kPitsPerSide = 6;
inline constexpr int kMaxSeeds = 48;

struct Position {
    std::array<uint8_t, kPits> pits{};

    int seeds() const;
    int mover_seeds() const;    ///< seeds in pits 0..5
    int opponent_seeds() const; ///< seeds in pits 6..11
    /// True when the side that just moved (pits 6..11) has an empty pit: exactly the
    /// positions stored in the databases (every position reached by a move has one).
    bool in_database() const;
    /// The same board seen from the other side (pits rotated by six).
    Position rotated() const;
    /// The start position with k seeds in every pit.
    static Position start(int seeds_per_pit);

    friend bool operator==(const Position&, const Position&) = default;
    friend auto operator<=>(const Position&, const Position&) = default;
};

/// Result of parsing: a position, or a message saying what is wrong with the text.
struct ParseResult {
    bool ok = false;
    Position position;
    std::string error;
};

/// Parses the text form: 12 non-negative integers separated by spaces and/or commas,
/// pits 0..11, at most 48 seeds in all. Never throws; errors name the problem.
ParseResult parse_position(std::string_view text);

/// Like parse_position but throws std::invalid_argument with the error message.
Position parse_position_or_throw(std::string_view text);

/// The text form: "4 4 4 4 4 4 4 4 4 4 4 4".
std::string to_string(const Position& p);

/// A board drawing: the opponent's row on top from right to left (pits 11..6), the
/// mover's row below from left to right (pits 0..5), as seen from the mover's seat.
std::string to_board(const Position& p);

} // namespace owaredb
