// Oware on a board of P pits per side, written again from docs/rules.md for the tests and
// sharing no code with solver/oware: boards are vectors, the rules are spelled out one seed
// at a time, values are found by value iteration over maps. Slow and obvious on purpose;
// it checks the engine's templated geometry (solver/oware) on boards the engine was not
// first written for.
#pragma once

#include "oware/rules.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <vector>

namespace owaredb::test {

using Board = std::vector<int>; // 2P pit counts, pits 0..P-1 the mover's

struct ReferenceMove {
    int pit = 0;
    int captured = 0;
    Board child; // rotated: the opponent to move
};

// Every legal move of `b` (pits in order), or none when the game is over.
inline std::vector<ReferenceMove> reference_moves(const Rules& rules, const Board& b) {
    const int pits = int(b.size()), half = pits / 2;
    std::vector<ReferenceMove> feeding, starving;
    for (int origin = 0; origin < half; ++origin) {
        if (b[origin] == 0) continue;
        Board a = b;
        int seeds = a[origin], at = origin;
        a[origin] = 0;
        while (seeds > 0) { // one seed at a time, never into the origin
            at = (at + 1) % pits;
            if (at == origin) continue;
            ++a[at];
            --seeds;
        }
        int captured = 0;
        std::vector<int> chain;
        for (int q = at; q >= half && (a[q] == 2 || a[q] == 3); --q) {
            captured += a[q];
            chain.push_back(q);
        }
        const int opponent = std::accumulate(a.begin() + half, a.end(), 0);
        if (captured == opponent && captured > 0 && rules.grand_slam == GrandSlam::CapturesNothing)
            captured = 0, chain.clear(); // a grand slam captures nothing
        for (int q : chain) a[q] = 0;
        Board child(pits);
        for (int i = 0; i < pits; ++i) child[i] = a[(i + half) % pits];
        const bool feeds = std::accumulate(a.begin() + half, a.end(), 0) > 0;
        (feeds ? feeding : starving).push_back({origin, captured, child});
    }
    if (!feeding.empty()) return feeding;
    if (rules.all_moves_starve == AllMovesStarve::MovesAreLegal) return starving;
    return {};
}

// The value of a board without moves: the mover takes what is left when it has seeds,
// the opponent takes it otherwise.
inline int reference_terminal(const Board& b) {
    const int half = int(b.size()) / 2;
    const int mover = std::accumulate(b.begin(), b.begin() + half, 0);
    const int all = std::accumulate(b.begin(), b.end(), 0);
    return mover > 0 ? all : -all;
}

inline uint64_t reference_perft(const Rules& rules, const Board& b, int depth) {
    if (depth == 0) return 1;
    uint64_t nodes = 0;
    for (const auto& m : reference_moves(rules, b))
        nodes += reference_perft(rules, m.child, depth - 1);
    return nodes;
}

// Every board of n seeds on 2P pits with an empty pit among P..2P-1 (the positions a move
// can reach), in no particular order.
inline std::vector<Board> reference_level(int pits_per_side, int n) {
    const int pits = 2 * pits_per_side;
    std::vector<Board> out;
    Board b(pits, 0);
    auto place = [&](auto&& self, int pit, int left) -> void {
        if (pit == pits - 1) {
            b[pit] = left;
            if (std::count(b.begin() + pits_per_side, b.end(), 0) > 0) out.push_back(b);
            return;
        }
        for (int v = 0; v <= left; ++v) {
            b[pit] = v;
            self(self, pit + 1, left - v);
        }
    };
    place(place, 0, n);
    return out;
}

// Exact values of levels 0..max_n by value iteration from 0 (V_k = the game cut off after k
// plies, the rest scored 0; it stops changing at the exact value, endless play 0): one map
// per level from board to value.
inline std::vector<std::map<Board, int>> reference_values(const Rules& rules, int pits_per_side,
                                                          int max_n) {
    std::vector<std::map<Board, int>> levels;
    for (int n = 0; n <= max_n; ++n) {
        std::map<Board, int> cur;
        for (const Board& b : reference_level(pits_per_side, n)) cur[b] = 0;
        for (bool changed = true; changed;) {
            changed = false;
            std::map<Board, int> next;
            for (const auto& [b, old] : cur) {
                const auto moves = reference_moves(rules, b);
                int v = reference_terminal(b);
                if (!moves.empty()) {
                    v = -1000;
                    for (const auto& m : moves) {
                        const int child =
                            m.captured ? levels[n - m.captured].at(m.child) : cur.at(m.child);
                        v = std::max(v, m.captured - child);
                    }
                }
                next[b] = v;
                changed |= v != old;
            }
            cur.swap(next);
        }
        levels.push_back(std::move(cur));
    }
    return levels;
}

} // namespace owaredb::test
