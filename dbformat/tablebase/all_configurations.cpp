#include "tablebase/all_configurations.hpp"

#include "oware/ranking.hpp"
#include "retro/bellman.hpp"
#include "retro/parallel.hpp"
#include "tablebase/streamed_bellman.hpp"

#include <mutex>

namespace owaredb {

namespace {

void add(ValueCounts& to, const ValueCounts& from) {
    for (size_t v = 0; v < to.size(); ++v) to[v] += from[v];
}

constexpr uint64_t kChunk = 1 << 14;

} // namespace

template <int P>
ValueCounts outside_value_counts(const BasicOwareGame<P>& game, int n,
                                 const std::vector<ValueArray>& levels, int threads) {
    ValueCounts counts{};
    std::mutex merge;
    parallel::for_chunks(threads, 0, outside_size<P>(n), kChunk, [&](uint64_t begin, uint64_t end) {
        ValueCounts local{};
        BatchedBellman bellman(
            game, n, [&](int level) { return levels[size_t(level)].data(); },
            [&](const BasicPosition<P>&, int v) {
                ++local[size_t(v + kMaxSeeds)];
                return true;
            });
        for (uint64_t i = begin; i < end; ++i) bellman.add(unrank_outside<P>(n, i));
        bellman.flush();
        const std::lock_guard lock(merge);
        add(counts, local);
    });
    return counts;
}

template <int P>
ValueCounts
streamed_outside_value_counts(const BasicOwareGame<P>& game, int n, const SmallerLevelValues& files,
                              int threads, uint64_t batch_positions,
                              const std::function<void(uint64_t done, uint64_t total)>& progress) {
    ValueCounts counts{};
    const uint64_t total = outside_size<P>(n);
    BasicStreamedBellman<P> bellman(game, n, files, threads, batch_positions);
    batch_positions = bellman.batch_positions();
    for (uint64_t begin = 0; begin < total; begin += batch_positions) {
        const uint64_t size = std::min(batch_positions, total - begin);
        for (int8_t v : bellman.values(
                 size, [&](uint64_t slot) { return unrank_outside<P>(n, begin + slot); }))
            ++counts[size_t(v + kMaxSeeds)];
        if (progress) progress(begin + size, total);
    }
    return counts;
}

#define OWAREDB_INSTANTIATE(P)                                                                     \
    template ValueCounts outside_value_counts(const BasicOwareGame<P>&, int,                       \
                                              const std::vector<ValueArray>&, int);                \
    template ValueCounts streamed_outside_value_counts(                                            \
        const BasicOwareGame<P>&, int, const SmallerLevelValues&, int, uint64_t,                   \
        const std::function<void(uint64_t, uint64_t)>&);
OWAREDB_FOR_EACH_PITS_PER_SIDE(OWAREDB_INSTANTIATE)
#undef OWAREDB_INSTANTIATE

} // namespace owaredb
