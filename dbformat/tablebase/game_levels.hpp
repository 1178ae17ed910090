// Which levels a run builds: every level 0..N, or exactly the levels a game of k seeds in
// every pit reaches. Such a game starts with 12k seeds (2Pk on a board of P pits a side)
// and its first capture takes at least 2, so it never has 12k - 1 seeds on the board:
// levels 0..12k-2 and 12k (Romein & Bal's Awari database leaves out 47 for this reason;
// docs/values.md). No level needs level 12k - 1 either: a capture from 12k reaches 12k - 2
// at most.
#pragma once

#include <string>

namespace owaredb {

struct GameLevels {
    int max_level = 0; ///< the largest level
    int skipped = -1;  ///< the one level left out, or -1
    int pits = 12;     ///< pits on the board (2P): a start position has pits * k seeds

    /// Every level 0..n.
    static GameLevels up_to(int n, int pits_per_side) { return {n, -1, 2 * pits_per_side}; }
    /// The levels of a game of k seeds per pit (k >= 1) on a board of P pits a side:
    /// 0..2Pk-2 and 2Pk.
    static GameLevels of_game(int k, int pits_per_side) {
        const int seeds = 2 * pits_per_side * k;
        return {seeds, seeds - 1, 2 * pits_per_side};
    }

    /// The levels a directory holding the levels `present` (ascending, not empty) was built
    /// for: a game's when its largest level is 2Pk and level 2Pk - 1 is missing (what
    /// `generate --game k` leaves), else every level up to the largest.
    template <class Levels>
    static GameLevels of_directory(const Levels& present, int pits_per_side) {
        const int board = 2 * pits_per_side;
        int top = -1;
        bool has_below = false;
        for (int n : present) top = n > top ? n : top;
        for (int n : present) has_below = has_below || n == top - 1;
        if (top >= board && top % board == 0 && !has_below)
            return of_game(top / board, pits_per_side);
        return up_to(top, pits_per_side);
    }

    bool contains(int n) const { return n >= 0 && n <= max_level && n != skipped; }
    /// Why level n is not built: "not part of a game of 3 seeds per pit (it never has 35
    /// seeds)"; empty when it is.
    std::string why_not(int n) const {
        if (n != skipped) return {};
        const int k = max_level / pits;
        return "not part of a game of " + std::to_string(k) + (k == 1 ? " seed" : " seeds") +
               " per pit (it never has " + std::to_string(n) + " seeds)";
    }
};

} // namespace owaredb
