#include "oware/ranking.hpp"

#include <algorithm>
#include <array>

namespace owaredb {
namespace {

// The pits are visited in an order (pits 0..2P-1 for our rank, 2P-1..0 for Romein & Bal's);
// a position is valid when one of pits P..2P-1 is empty, which in visit order is a set of
// visit steps: `constrained(i)` says whether the pit visited at step i is one of them.
//
// tail(k, s, z): number of ways to fill the last k visit steps (of 0..2P-1) with exactly s
// seeds so that the finished position has an empty constrained pit, given z = "an empty
// constrained pit was already placed".
//
// prefix[i][s][z][v]: sum over u < v of tail(2P-1 - i, s - u, z'), z' = z or
// (constrained(i) and u == 0): the number of valid completions that put fewer than v seeds
// at step i.
template <int P, bool kConstrainedFirst> struct RankTables {
    static constexpr int kPits = 2 * P;
    static constexpr int kPitsPerSide = P;
    // A constant, so that rank() and unrank(), which every pass of the solver calls, test
    // it for free.
    static constexpr bool constrained(int i) {
        return kConstrainedFirst ? i < kPitsPerSide : i >= kPitsPerSide;
    }
    std::array<std::array<std::array<uint64_t, 2>, kMaxSeeds + 1>, kPits + 1> tail{};
    std::array<std::array<std::array<std::array<uint64_t, kMaxSeeds + 2>, 2>, kMaxSeeds + 1>, kPits>
        prefix{};

    RankTables() {
        for (int z = 0; z < 2; ++z) tail[0][0][z] = z; // all pits placed: valid iff z
        for (int k = 1; k <= kPits; ++k) {
            int i = kPits - k; // the step taken first when k steps remain
            for (int s = 0; s <= kMaxSeeds; ++s)
                for (int z = 0; z < 2; ++z) {
                    uint64_t sum = 0;
                    for (int u = 0; u <= s; ++u) {
                        int z2 = z | (constrained(i) && u == 0);
                        sum += tail[k - 1][s - u][z2];
                    }
                    tail[k][s][z] = sum;
                }
        }
        for (int i = 0; i < kPits; ++i)
            for (int s = 0; s <= kMaxSeeds; ++s)
                for (int z = 0; z < 2; ++z) {
                    uint64_t sum = 0;
                    prefix[i][s][z][0] = 0;
                    for (int v = 0; v <= kMaxSeeds; ++v) {
                        if (v <= s)
                            sum += tail[kPits - 1 - i][s - v][z | (constrained(i) && v == 0)];
                        prefix[i][s][z][v + 1] = sum;
                    }
                }
    }

    // The rank of the pit counts `visit` (in visit order).
    uint64_t rank(const std::array<uint8_t, kPits>& visit) const {
        uint64_t r = 0;
        int s = 0;
        for (uint8_t v : visit) s += v;
        int z = 0;
        for (int i = 0; i < kPits; ++i) {
            const int v = visit[i];
            r += prefix[i][s][z][v];
            s -= v;
            z |= (constrained(i) && v == 0);
        }
        return r;
    }

    // The pit counts, in visit order, of rank `index` among n seeds.
    std::array<uint8_t, kPits> unrank(int n, uint64_t index) const {
        std::array<uint8_t, kPits> visit{};
        int s = n;
        int z = 0;
        for (int i = 0; i < kPits; ++i) {
            const auto& row = prefix[i][s][z];
            // Largest v <= s with row[v] <= index (row is non-decreasing in v). A linear
            // scan: pits hold few seeds, and it predicts far better than a binary search.
            int v = 0;
            while (v < s && row[v + 1] <= index) ++v;
            index -= row[v];
            visit[i] = static_cast<uint8_t>(v);
            s -= v;
            z |= (constrained(i) && v == 0);
        }
        return visit;
    }
};

template <int P> const RankTables<P, false>& tables() {
    static const RankTables<P, false> t;
    return t;
}

const RankTables<6, true>& published_tables() {
    static const RankTables<6, true> t;
    return t;
}

std::array<uint8_t, kPits> reversed(std::array<uint8_t, kPits> pits) {
    std::reverse(pits.begin(), pits.end());
    return pits;
}

} // namespace

template <int P> uint64_t level_size(int n) {
    return tables<P>().tail[2 * P][n][0];
}

uint64_t level_size(int pits_per_side, int n) {
    return with_pits_per_side(pits_per_side, [n](auto p) { return level_size<p()>(n); });
}

template <int P> uint64_t rank(const BasicPosition<P>& p) {
    return tables<P>().rank(p.pits);
}

template <int P> BasicPosition<P> unrank(int n, uint64_t index) {
    BasicPosition<P> p;
    p.pits = tables<P>().unrank(n, index);
    return p;
}

uint64_t published_rank(const Position& p) {
    return published_tables().rank(reversed(p.pits));
}

Position published_unrank(int n, uint64_t index) {
    Position p;
    p.pits = reversed(published_tables().unrank(n, index));
    return p;
}

template <int P> BasicPosition<P> next_in_level(BasicPosition<P> p) {
    constexpr int kPits = 2 * P;
    // Rank order is lexicographic in pits 0..2P-1 over the valid positions, and the
    // smallest way to finish a prefix puts every remaining seed into pit 2P-1. So the
    // successor raises the pit before the last non-empty pit k >= 1 by one and moves what
    // is left of pit k into pit 2P-1: (..., a, b) -> (..., a+1, b-1), (..., a, b, 0, .., 0)
    // -> (..., a+1, 0, .., b-1).
    int k = kPits - 1;
    while (p.pits[k] == 0) --k; // k >= 1: p is not the last position (n, 0, ..., 0)
    const uint8_t rest = static_cast<uint8_t>(p.pits[k] - 1);
    p.pits[k] = 0;
    ++p.pits[k - 1];
    p.pits[kPits - 1] = static_cast<uint8_t>(p.pits[kPits - 1] + rest);
    // Invalid (pits P..2P-1 all non-empty): pits P..2P-2 are then non-empty, and the next
    // valid position with the same pits 0..2P-3 is the one that moves pit 2P-1 into pit
    // 2P-2.
    if (!p.in_database()) {
        p.pits[kPits - 2] = static_cast<uint8_t>(p.pits[kPits - 2] + p.pits[kPits - 1]);
        p.pits[kPits - 1] = 0;
    }
    return p;
}

template <int P> uint64_t outside_size(int n) {
    return n < P ? 0 : binomial(n - P + 2 * P - 1, 2 * P - 1);
}

namespace {

// distributions[s][k] = C(s + k - 1, k - 1): the ways to put s seeds into k pits.
constexpr auto kDistributions = [] {
    std::array<std::array<uint64_t, 2 * kMaxPitsPerSide + 1>, kMaxSeeds + 1> t{};
    for (int s = 0; s <= kMaxSeeds; ++s)
        for (int k = 1; k <= 2 * kMaxPitsPerSide; ++k) t[s][k] = binomial(s + k - 1, k - 1);
    return t;
}();

} // namespace

template <int P> BasicPosition<P> unrank_outside(int n, uint64_t index) {
    constexpr int kPits = 2 * P;
    constexpr int kPitsPerSide = P;
    // Take one seed from each of pits P..2P-1: what is left is any distribution of n - P
    // seeds over 2P pits, C(s + k - 1, k - 1) of them for s seeds over k pits, in the same
    // lexicographic order. Pit by pit, skip the distributions that put fewer seeds there.
    BasicPosition<P> p;
    int s = n - kPitsPerSide;
    for (int i = 0; i < kPits - 1; ++i) {
        const int rest = kPits - 1 - i; // pits after i
        int v = 0;
        for (;; ++v) {
            const uint64_t with_v = kDistributions[s - v][rest];
            if (index < with_v) break;
            index -= with_v;
        }
        p.pits[i] = static_cast<uint8_t>(v + (i >= kPitsPerSide ? 1 : 0));
        s -= v;
    }
    p.pits[kPits - 1] = static_cast<uint8_t>(s + 1);
    return p;
}

#define OWAREDB_INSTANTIATE(P)                                                                     \
    template uint64_t level_size<P>(int);                                                          \
    template uint64_t rank(const BasicPosition<P>&);                                               \
    template BasicPosition<P> unrank<P>(int, uint64_t);                                            \
    template BasicPosition<P> next_in_level(BasicPosition<P>);                                     \
    template uint64_t outside_size<P>(int);                                                        \
    template BasicPosition<P> unrank_outside<P>(int, uint64_t);
OWAREDB_FOR_EACH_PITS_PER_SIDE(OWAREDB_INSTANTIATE)
#undef OWAREDB_INSTANTIATE

} // namespace owaredb
