// Un-capture generation: the parents of a position in larger databases, through capturing
// moves. The streamed generator's first pass (retro/streamed_retrograde.hpp) reads each
// smaller level once, in order, and hands every position's value to its capture parents
// here, instead of asking the smaller levels' files for each capture child at random.
//
// A capture parent of p for c seeds is a position q of D_{p.seeds() + c} with a legal move
// that captures exactly c seeds and leads to p. Seen from q's side, p's board ("after") is
// q's after that move's sowing and capture. The sowing emptied an origin pit z of q's row
// and, when it reached the opponent's row, put a seed in every mover pit after z, which
// therefore hold seeds in `after`: z is the last empty pit of q's row there. Its last
// seed landed in an opponent pit L, after m full laps of the 11 other pits (s = L - z +
// 11 m seeds): every pit but z got m seeds, the pits z + 1..L one more. The chain L,
// L - 1, ..., L - r + 1 (r >= 1, never below pit 6) held 2 or 3 seeds each after the
// sowing, c in all, and was emptied; the opponent pit before it, if any, held neither 2
// nor 3. A chain pit refilled with v seeds held v - m - 1 >= 0 before the sowing, so
// m <= 2, and every other pit must have held its seeds less the sown ones, >= 0. So the
// parents are found without search: for each empty L, each chain of empty pits ending
// there and summing to c in 2s and 3s, and each m the pits allow, one q.
//
// Such a move is always legal when it leaves the opponent seeds (it feeds). When it takes
// all of them (a grand slam: p's mover row is empty), it captures nothing under abapa, so
// there is no capture parent, and under awari it is legal only when every move of q
// starves: the forward generator decides that case.
//
// The numbers above are those of the standard board (P = 6 pits per side); on a board of
// P, read 2P - 1 for the 11 other pits, P..2P-1 for the opponent's pits 6..11, and at most
// P pits in a chain.
#pragma once

#include "oware/position.hpp"
#include "oware/rules.hpp"

#include <algorithm>
#include <array>
#include <bit>

namespace owaredb {

/// The fewest and the most seeds one move captures, under every rule set: a chain of one
/// to P opponent pits holding 2 or 3 each.
inline constexpr int kMinCapture = 2;
template <int P> inline constexpr int kMaxCaptureOf = 3 * P;
inline constexpr int kMaxCapture = kMaxCaptureOf<6>;

/// Whether `q`'s move from `origin` is legal, captures exactly `captured` seeds and leads
/// to `child` (the forward generator's verdict, for grand slams under awari).
template <int P>
bool is_capture_move(const Rules& rules, const BasicPosition<P>& q, int origin, int captured,
                     const BasicPosition<P>& child);

namespace detail {
/// Bits set in 0..255 (std::popcount is a library call without -mpopcnt).
inline constexpr auto kOnes = [] {
    std::array<int8_t, 1 << kMaxPitsPerSide> ones{};
    for (unsigned m = 0; m < ones.size(); ++m) ones[m] = static_cast<int8_t>(std::popcount(m));
    return ones;
}();
} // namespace detail

/// Calls f(q) for every capture parent q of p for `captured` seeds (see above), once per
/// such move, in no particular order. `p` may be any position.
template <int P, class F>
void for_each_capture_parent(const Rules& rules, const BasicPosition<P>& p, int captured, F&& f) {
    using Board = BasicPosition<P>;
    constexpr int kPits = Board::kPits;
    constexpr int kPitsPerSide = P;
    if (captured < kMinCapture || captured > kMaxCaptureOf<P>) return;
    const Board after = p.rotated(); // q's orientation: q's opponent row is p's mover row
    const bool grand_slam = after.opponent_seeds() == 0;
    if (grand_slam && rules.grand_slam == GrandSlam::CapturesNothing) return;
    int z = kPitsPerSide - 1; // the origin: the last empty pit of q's row
    while (z >= 0 && after.pits[z] != 0) --z;
    if (z < 0) return;
    constexpr int kNone = 255;                     // the minimum of no pits
    int mover_after = kNone, mover_before = kNone; // pits z + 1..P-1 and 0..z - 1
    for (int k = z + 1; k < kPitsPerSide; ++k)
        mover_after = std::min<int>(mover_after, after.pits[k]);
    for (int k = 0; k < z; ++k) mover_before = std::min<int>(mover_before, after.pits[k]);
    // upto[j]: the fewest seeds in opponent pits P..j (kNone for j = P-1); from[j]: in
    // j..2P-1.
    std::array<int, kPits + 1> upto{}, from{};
    upto[kPitsPerSide - 1] = kNone;
    for (int j = kPitsPerSide; j < kPits; ++j) upto[j] = std::min<int>(upto[j - 1], after.pits[j]);
    from[kPits] = kNone;
    for (int j = kPits - 1; j >= kPitsPerSide; --j)
        from[j] = std::min<int>(from[j + 1], after.pits[j]);
    for (int last = kPitsPerSide; last < kPits; ++last) {
        for (int r = 1; last - r + 1 >= kPitsPerSide && after.pits[last - r + 1] == 0; ++r) {
            const int threes = captured - 2 * r;
            if (threes < 0) break; // longer chains capture at least 2 a pit
            if (threes > r) continue;
            const int before = last - r; // the chain must stop there
            if (before >= kPitsPerSide && (after.pits[before] == 2 || after.pits[before] == 3))
                continue;
            // Laps the other pits allow: those sown m + 1 times (z + 1..before) hold at
            // least m + 1, those sown m times (0..z - 1, last + 1..2P-1) at least m; the
            // chain's pits allow 2 laps only if they all held 3.
            const int laps = std::min({mover_after - 1, upto[before] - 1, mover_before,
                                       from[last + 1], threes == r ? 2 : 1});
            for (int m = 0; m <= laps; ++m) {
                for (unsigned mask = 0; mask < (1u << r); ++mask) {
                    if (detail::kOnes[mask] != threes) continue;
                    // Every pit but z less m, those of z + 1..last one more (one loop: GCC's
                    // -Wstringop-overflow cannot see that `last` stays below 2P).
                    Board q;
                    for (int k = 0; k < kPits; ++k)
                        q.pits[k] = static_cast<uint8_t>(after.pits[k] - (k == z ? 0 : m) -
                                                         (k > z && k <= last ? 1 : 0));
                    for (int j = 0; j < r; ++j)
                        q.pits[last - j] = static_cast<uint8_t>((mask >> j & 1 ? 3 : 2) - m - 1);
                    q.pits[z] = static_cast<uint8_t>(last - z + (kPits - 1) * m);
                    if (!q.in_database()) continue;
                    if (grand_slam && !is_capture_move(rules, q, z, captured, p)) continue;
                    f(static_cast<const Board&>(q));
                }
            }
        }
    }
}

} // namespace owaredb
