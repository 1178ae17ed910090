// Packed 16-pit circuits and the geometry of the Omweso board.
//
// Circuit indexing (docs/rules.md, Omweso: Circuits): each player owns 16 pits, indexed
// k = 0..15 along the counter-clockwise sowing direction: k = 0..7 is the back (outer) row
// from the player's left, k = 8..15 the front (inner) row from the player's right to the
// left. Counter-clockwise is k + 1, clockwise k - 1 (mod 16).
//
// Column relation (both players use the same formula, the board is point-symmetric).
// Seen from South's side the board has columns c = 0..7 from South's left, and rows
//     North back   : North k = 7 - c      (North's left is South's right)
//     North front  : North k = 8 + c
//     South front  : South k = 15 - c
//     South back   : South k = c
// So the mover's front pit k (8..15) stands in column c = 15 - k, facing the opponent's
// front pit 23 - k and, behind it, the opponent's back pit k - 8. Example: the mover's
// front-right pit k = 8 faces the opponent's front-left pit 15 and back-left pit 0.
#pragma once

#include <cstdint>

namespace owaredb::omweso {

inline constexpr int kPits = 16;   // pits per circuit
inline constexpr int kColumns = 8; // columns of the board
inline constexpr int kSeeds = 64;  // seeds of a full game

// A circuit packed one byte per pit: byte k holds pit k. Sowing never overflows a byte
// (at most 64 seeds exist), so whole-circuit additions are plain 128-bit additions: a
// byte never carries into its neighbour.
__extension__ typedef unsigned __int128 Packed;

inline constexpr Packed kOnes = (Packed(0x0101010101010101ULL) << 64) | 0x0101010101010101ULL;

inline constexpr int get_pit(Packed b, int k) {
    return int((b >> (8 * k)) & 0xFF);
}
inline constexpr Packed clear_pit(Packed b, int k) {
    return b & ~(Packed(0xFF) << (8 * k));
}
inline constexpr Packed set_pit(Packed b, int k, int v) {
    return clear_pit(b, k) | (Packed(v & 0xFF) << (8 * k));
}
inline constexpr Packed add_pit(Packed b, int k, int v) {
    return b + (Packed(v) << (8 * k));
}

// Sum of all 16 pits (no byte can overflow during the horizontal sum: the total is <= 64).
inline constexpr int total(Packed b) {
    std::uint64_t s = std::uint64_t(b) + std::uint64_t(b >> 64);
    s = (s & 0x00FF00FF00FF00FFULL) + ((s >> 8) & 0x00FF00FF00FF00FFULL);
    s = s + (s >> 16);
    s = s + (s >> 32);
    return int(s & 0xFFFF);
}

inline constexpr bool is_front(int k) {
    return k >= 8;
}
// Column of a player's pit k counted from that player's own left (0..7); for South this is
// the column c above, for North it is 7 - c.
inline constexpr int column_of(int k) {
    return k < 8 ? k : 15 - k;
}
// Opponent pits facing the mover's front pit k (8..15): see the column relation above.
inline constexpr int facing_front(int k) {
    return 23 - k;
}
inline constexpr int facing_back(int k) {
    return k - 8;
}
// The four leftmost pits of a player (two of each row), where a reverse capture may start.
inline constexpr bool is_leftmost(int k) {
    return k == 0 || k == 1 || k == 14 || k == 15;
}

} // namespace owaredb::omweso
