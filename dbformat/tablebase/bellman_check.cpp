#include "tablebase/bellman_check.hpp"

#include "retro/bellman.hpp"
#include "tablebase/level_dir.hpp"

namespace owaredb {

uint64_t first_bellman_mismatch(const OwareGame& game, int n, const std::vector<ValueArray>& levels,
                                int threads) {
    return first_mismatch(game.level_size(n), threads, [&](uint64_t i) {
        const int v = bellman_value(game, n, game.unrank(n, i), [&](int level, const Position& c) {
            return int(levels[level][game.rank(c)]);
        });
        return v != levels[n][i];
    });
}

} // namespace owaredb
