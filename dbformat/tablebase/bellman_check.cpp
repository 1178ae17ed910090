#include "tablebase/bellman_check.hpp"

#include "retro/bellman.hpp"
#include "retro/parallel.hpp"
#include "tablebase/level_dir.hpp"
#include "tablebase/streamed_bellman.hpp"

#include <omp.h>

#include <atomic>
#include <numeric>
#include <stdexcept>
#include <vector>

namespace owaredb {

namespace {

// first_bellman_mismatch over `range` in one go; `none` when all agree.
template <int P>
uint64_t first_bellman_mismatch_in(const BasicOwareGame<P>& game, int n,
                                   const std::vector<ValueArray>& levels, int threads,
                                   IndexRange range, uint64_t none) {
    const uint64_t begin = range.begin, end = range.end;
    // A chunk of positions per thread at a time, each in rank order (one unrank a chunk,
    // game.next after), valued in batches whose children's loads overlap (BatchedBellman).
    constexpr uint64_t kChunk = 1 << 14;
    using Position = BasicPosition<P>;
    std::atomic<uint64_t> first{none};
    parallel::for_chunks(threads, begin, std::max(begin, end), kChunk, [&](uint64_t b, uint64_t e) {
        if (b >= first.load(std::memory_order_relaxed)) return;
        uint64_t i = b; // the index of the next value computed
        BatchedBellman bellman(
            game, n, [&](int level) { return levels[size_t(level)].data(); },
            [&](const Position&, int v) {
                if (v != levels[size_t(n)][i]) {
                    parallel::atomic_min(first, i);
                    return false;
                }
                ++i;
                return true;
            });
        for_each_in_rank_order(game, n, b, e,
                               [&](uint64_t, const Position& state) { bellman.add(state); });
        bellman.flush();
    });
    return first.load();
}

} // namespace

template <int P>
uint64_t first_bellman_mismatch(const BasicOwareGame<P>& game, int n,
                                const std::vector<ValueArray>& levels, const CheckRun& run,
                                uint64_t slice) {
    const uint64_t size = game.level_size(n);
    const uint64_t begin = std::min(run.range.begin, size),
                   end = std::max(begin, std::min(run.range.end, size));
    if (!run.progress)
        return first_bellman_mismatch_in(game, n, levels, run.threads, {begin, end}, size);
    if (slice == 0) slice = std::max(kBellmanCheckSlice, (end - begin) / 64);
    for (uint64_t b = begin; b < end; b += std::min(slice, end - b)) {
        const uint64_t e = b + std::min(slice, end - b);
        const uint64_t bad = first_bellman_mismatch_in(game, n, levels, run.threads, {b, e}, size);
        if (bad < size) return bad;
        run.progress(e - begin, end - begin);
    }
    return size;
}

namespace {

// The stored values of [begin, end) read in order, a chunk per thread at a time, against
// their Bellman values `best`: the first that differs, or `none`.
uint64_t first_difference(const SmallerLevelValues& files, int n, int threads, uint64_t begin,
                          std::span<const int8_t> best, uint64_t none) {
    constexpr uint64_t kChunk = 1 << 14;
    std::atomic<uint64_t> first{none};
    parallel::for_chunks(threads, 0, best.size(), kChunk, [&](uint64_t from, uint64_t to) {
        thread_local std::vector<uint64_t> indices;
        thread_local std::vector<int8_t> stored;
        indices.resize(to - from);
        std::iota(indices.begin(), indices.end(), begin + from);
        stored.resize(to - from);
        files.read(n, indices, stored);
        for (uint64_t slot = from; slot < to; ++slot) {
            if (best[slot] == stored[slot - from]) continue;
            parallel::atomic_min(first, begin + slot);
            break;
        }
    });
    return first.load();
}

} // namespace

template <int P>
uint64_t first_streamed_bellman_mismatch(const BasicOwareGame<P>& game, int n,
                                         const SmallerLevelValues& files, const CheckRun& run,
                                         uint64_t batch_positions) {
    const uint64_t size = game.level_size(n);
    const uint64_t first = std::min(run.range.begin, size);
    const uint64_t end = std::max(first, std::min(run.range.end, size));
    const int threads = std::max(1, run.threads);
    BasicStreamedBellman<P> bellman(game, n, files, threads, batch_positions);
    batch_positions = bellman.batch_positions();
    for (uint64_t begin = first; begin < end; begin += batch_positions) {
        const uint64_t last = std::min(end, begin + batch_positions);
        const std::span<const int8_t> best = bellman.values_of_ranks(begin, last - begin);
        const uint64_t bad = first_difference(files, n, threads, begin, best, size);
        if (bad < size) return bad;
        if (run.progress) run.progress(last - first, end - first);
    }
    return size;
}

#define OWAREDB_INSTANTIATE(P)                                                                     \
    template uint64_t first_bellman_mismatch(                                                      \
        const BasicOwareGame<P>&, int, const std::vector<ValueArray>&, const CheckRun&, uint64_t); \
    template uint64_t first_streamed_bellman_mismatch(                                             \
        const BasicOwareGame<P>&, int, const SmallerLevelValues&, const CheckRun&, uint64_t);
OWAREDB_FOR_EACH_PITS_PER_SIDE(OWAREDB_INSTANTIATE)
#undef OWAREDB_INSTANTIATE

} // namespace owaredb
