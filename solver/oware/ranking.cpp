#include "oware/ranking.hpp"

#include <array>

namespace owaredb {
namespace {

// tail(k, s, z): number of ways to fill the last k pits (of 0..11) with exactly s seeds so
// that the finished position has an empty pit among 6..11, given z = "an empty pit among
// 6..11 was already placed".
//
// prefix[i][s][z][v]: sum over u < v of tail(11 - i, s - u, z'), z' = z or (i >= 6 and u == 0):
// the number of valid completions that put fewer than v seeds into pit i.
struct RankTables {
    std::array<std::array<std::array<uint64_t, 2>, kMaxSeeds + 1>, kPits + 1> tail{};
    std::array<std::array<std::array<std::array<uint64_t, kMaxSeeds + 2>, 2>, kMaxSeeds + 1>, kPits>
        prefix{};

    RankTables() {
        for (int z = 0; z < 2; ++z) tail[0][0][z] = z; // all pits placed: valid iff z
        for (int k = 1; k <= kPits; ++k) {
            int i = kPits - k; // the pit placed first when k pits remain
            for (int s = 0; s <= kMaxSeeds; ++s)
                for (int z = 0; z < 2; ++z) {
                    uint64_t sum = 0;
                    for (int u = 0; u <= s; ++u) {
                        int z2 = z | (i >= kPitsPerSide && u == 0);
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
                            sum += tail[kPits - 1 - i][s - v][z | (i >= kPitsPerSide && v == 0)];
                        prefix[i][s][z][v + 1] = sum;
                    }
                }
    }
};

const RankTables& tables() {
    static const RankTables t;
    return t;
}

} // namespace

uint64_t level_size(int n) {
    return tables().tail[kPits][n][0];
}

uint64_t rank(const Position& p) {
    const RankTables& t = tables();
    uint64_t r = 0;
    int s = p.seeds();
    int z = 0;
    for (int i = 0; i < kPits; ++i) {
        int v = p.pits[i];
        r += t.prefix[i][s][z][v];
        s -= v;
        z |= (i >= kPitsPerSide && v == 0);
    }
    return r;
}

Position unrank(int n, uint64_t index) {
    const RankTables& t = tables();
    Position p;
    int s = n;
    int z = 0;
    for (int i = 0; i < kPits; ++i) {
        const auto& row = t.prefix[i][s][z];
        // Largest v <= s with row[v] <= index (row is non-decreasing in v). A linear scan:
        // pits hold few seeds, and it predicts far better than a binary search.
        int v = 0;
        while (v < s && row[v + 1] <= index) ++v;
        index -= row[v];
        p.pits[i] = static_cast<uint8_t>(v);
        s -= v;
        z |= (i >= kPitsPerSide && v == 0);
    }
    return p;
}

Position next_in_level(Position p) {
    // Rank order is lexicographic in pits 0..11 over the valid positions, and the smallest
    // way to finish a prefix puts every remaining seed into pit 11. So the successor raises
    // the pit before the last non-empty pit k >= 1 by one and moves what is left of pit k
    // into pit 11: (..., a, b) -> (..., a+1, b-1), (..., a, b, 0, .., 0) -> (..., a+1, 0,
    // .., b-1).
    int k = kPits - 1;
    while (p.pits[k] == 0) --k; // k >= 1: p is not the last position (n, 0, ..., 0)
    const uint8_t rest = static_cast<uint8_t>(p.pits[k] - 1);
    p.pits[k] = 0;
    ++p.pits[k - 1];
    p.pits[kPits - 1] = static_cast<uint8_t>(p.pits[kPits - 1] + rest);
    // Invalid (pits 6..11 all non-empty): pits 6..10 are then non-empty, and the next
    // valid position with the same pits 0..9 is the one that moves pit 11 into pit 10.
    if (!p.in_database()) {
        p.pits[kPits - 2] = static_cast<uint8_t>(p.pits[kPits - 2] + p.pits[kPits - 1]);
        p.pits[kPits - 1] = 0;
    }
    return p;
}

uint64_t outside_size(int n) {
    return n < kPitsPerSide ? 0 : binomial(n - kPitsPerSide + kPits - 1, kPits - 1);
}

namespace {

// distributions[s][k] = C(s + k - 1, k - 1): the ways to put s seeds into k pits.
constexpr auto kDistributions = [] {
    std::array<std::array<uint64_t, kPits + 1>, kMaxSeeds + 1> t{};
    for (int s = 0; s <= kMaxSeeds; ++s)
        for (int k = 1; k <= kPits; ++k) t[s][k] = binomial(s + k - 1, k - 1);
    return t;
}();

} // namespace

Position unrank_outside(int n, uint64_t index) {
    // Take one seed from each of pits 6..11: what is left is any distribution of n - 6
    // seeds over 12 pits, C(s + k - 1, k - 1) of them for s seeds over k pits, in the same
    // lexicographic order. Pit by pit, skip the distributions that put fewer seeds there.
    Position p;
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

} // namespace owaredb
