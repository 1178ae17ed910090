// Solves levels 0..max_n one after another, keeping every level in memory. The driver for
// tests, benchmarks and small databases; `owaredb generate` adds files and resumption.
#pragma once

#include "retro/retrograde.hpp"

#include <vector>

namespace owaredb {

template <RetroGame Game>
std::vector<ValueArray> solve_in_memory(const Game& game, int max_n, int threads) {
    std::vector<ValueArray> levels;
    std::vector<const int8_t*> smaller;
    for (int n = 0; n <= max_n; ++n) {
        RetrogradeSolver<Game> solver(game, smaller, threads);
        levels.push_back(solver.solve(n));
        smaller.push_back(levels.back().data());
    }
    return levels;
}

} // namespace owaredb
