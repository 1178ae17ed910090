// Solves levels 0..max_n one after another, keeping every level in memory. The driver for
// tests, benchmarks and small databases; `owaredb generate` adds files and resumption.
#pragma once

#include "retro/retrograde.hpp"

#include <vector>

namespace owaredb {

template <RetroGame Game>
std::vector<ValueArray> solve_in_memory(const Game& game, int max_n, int threads) {
    return sweep::solve_levels_in_memory<RetrogradeSolver>(game, max_n, threads);
}

} // namespace owaredb
