#include "tablebase/bellman_check.hpp"

#include "retro/bellman.hpp"

#include <atomic>

namespace owaredb {

uint64_t first_bellman_mismatch(const OwareGame& game, int n, const std::vector<ValueArray>& levels,
                                int threads) {
    const uint64_t size = game.level_size(n);
    std::atomic<uint64_t> first{size};
#pragma omp parallel for schedule(dynamic, 4096) num_threads(threads)
    for (uint64_t i = 0; i < size; ++i) {
        if (i >= first.load(std::memory_order_relaxed)) continue;
        const int v = bellman_value(game, n, game.unrank(n, i), [&](int level, const Position& c) {
            return int(levels[level][game.rank(c)]);
        });
        if (v != levels[n][i]) {
            uint64_t cur = first.load();
            while (i < cur && !first.compare_exchange_weak(cur, i)) {
            }
        }
    }
    return first.load();
}

} // namespace owaredb
