#include "tablebase/bellman_check.hpp"

#include "retro/bellman.hpp"
#include "tablebase/level_dir.hpp"

namespace owaredb {

uint64_t first_bellman_mismatch(const OwareGame& game, int n, const std::vector<ValueArray>& levels,
                                int threads, IndexRange range) {
    const uint64_t size = game.level_size(n);
    return first_mismatch(
        std::min(range.begin, size), std::min(range.end, size), size, threads, [&](uint64_t i) {
            const int v =
                bellman_value(game, n, game.unrank(n, i), [&](int level, const Position& c) {
                    return int(levels[level][game.rank(c)]);
                });
            return v != levels[n][i];
        });
}

} // namespace owaredb
