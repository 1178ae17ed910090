// An Oware position: 2P pit counts, the side to move owning pits 0..P-1.
//
// Pits are numbered 0..2P-1 in sowing (counter-clockwise) order; after every move the
// board is rotated by P so that the new mover again owns 0..P-1. Captured seeds are not
// part of a position. The standard board has P = 6 pits per side (`Position`); the
// geometry is a template parameter so that other boards (P = 1..8) share every rule
// while P = 6 keeps its constants. See docs/rules.md, Board and pits; Notation.
#pragma once

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

namespace owaredb {

/// Seeds on a board at most, whatever its size (pit counts and values fit a byte).
inline constexpr int kMaxSeeds = 48;
/// The board sizes the rules are defined for: pits per side.
inline constexpr int kMinPitsPerSide = 1;
inline constexpr int kMaxPitsPerSide = 8;

/// The board sizes as messages and help texts write them: "1..8".
inline std::string board_sizes_text() {
    return std::to_string(kMinPitsPerSide) + ".." + std::to_string(kMaxPitsPerSide);
}

/// The most seeds a position of a board of P pits a side may hold: the 48 of the standard
/// game (no database level is larger), or on a larger board its own game's start of 4
/// seeds a pit (56 on seven pits, 64 on eight), so that every board's start parses.
template <int P> inline constexpr int kMaxSeedsOnBoard = 8 * P > kMaxSeeds ? 8 * P : kMaxSeeds;

/// Calls X(P) for every board size: the one list from which each rule's .cpp file
/// instantiates its templates.
#define OWAREDB_FOR_EACH_PITS_PER_SIDE(X) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8)

template <int P> struct BasicPosition {
    static_assert(P >= kMinPitsPerSide && P <= kMaxPitsPerSide, "1..8 pits per side");
    static constexpr int kPitsPerSide = P;
    static constexpr int kPits = 2 * P;

    std::array<uint8_t, kPits> pits{};

    int seeds() const;
    int mover_seeds() const;    ///< seeds in pits 0..P-1
    int opponent_seeds() const; ///< seeds in pits P..2P-1
    /// True when the side that just moved (pits P..2P-1) has an empty pit: exactly the
    /// positions stored in the databases (every position reached by a move has one).
    bool in_database() const;
    /// The same board seen from the other side (pits rotated by P).
    BasicPosition rotated() const;
    /// The start position with k seeds in every pit.
    static BasicPosition start(int seeds_per_pit);

    friend bool operator==(const BasicPosition&, const BasicPosition&) = default;
    friend auto operator<=>(const BasicPosition&, const BasicPosition&) = default;
};

/// The standard board: six pits per side.
using Position = BasicPosition<6>;
inline constexpr int kPits = Position::kPits;
inline constexpr int kPitsPerSide = Position::kPitsPerSide;

/// Calls f(std::integral_constant<int, P>{}) for the board size P given at run time (the
/// one bridge from a `--pits` option to the templates) and returns what f returns.
/// Throws std::invalid_argument naming the range for a P outside 1..8.
template <class F> decltype(auto) with_pits_per_side(int pits_per_side, F&& f) {
    switch (pits_per_side) {
#define OWAREDB_PITS_CASE(P)                                                                       \
    case P:                                                                                        \
        return f(std::integral_constant<int, P>{});
        OWAREDB_FOR_EACH_PITS_PER_SIDE(OWAREDB_PITS_CASE)
#undef OWAREDB_PITS_CASE
    }
    throw std::invalid_argument("a board has " + board_sizes_text() + " pits a side, not " +
                                std::to_string(pits_per_side));
}

/// Result of parsing: a position, or a message saying what is wrong with the text.
template <int P> struct BasicParseResult {
    bool ok = false;
    BasicPosition<P> position;
    std::string error;
};
using ParseResult = BasicParseResult<6>;

/// Parses the text form: 2P non-negative integers (12 on the standard board) separated by
/// spaces and/or commas, pits 0..2P-1, at most kMaxSeedsOnBoard<P> seeds in all (48 on the
/// standard board). Never throws; errors name the problem.
template <int P> BasicParseResult<P> parse_position(std::string_view text);

/// Like parse_position but throws std::invalid_argument with the error message.
template <int P> BasicPosition<P> parse_position_or_throw(std::string_view text);

/// The text form: "4 4 4 4 4 4 4 4 4 4 4 4" (2P numbers for P pits per side).
template <int P> std::string to_string(const BasicPosition<P>& p);

/// A board drawing: the opponent's row on top from right to left (pits 2P-1..P), the
/// mover's row below from left to right (pits 0..P-1), as seen from the mover's seat.
template <int P> std::string to_board(const BasicPosition<P>& p);

} // namespace owaredb
