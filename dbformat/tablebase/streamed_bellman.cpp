#include "tablebase/streamed_bellman.hpp"

#include "retro/game.hpp"
#include "retro/parallel.hpp"

#include <boost/sort/spreadsort/integer_sort.hpp>
#include <omp.h>

#include <algorithm>
#include <climits>
#include <stdexcept>
#include <string>
#include <vector>

namespace owaredb {

namespace {

struct Request {
    uint64_t key;  // child level << kRequestLevelShift | child index
    uint64_t slot; // the position's offset in its batch
    bool operator<(const Request& o) const { return key < o.key; }
};

constexpr int8_t kNoMoveYet = INT8_MIN;

} // namespace

template <int P> struct BasicStreamedBellman<P>::Batch {
    static constexpr size_t kPartitions = 16; // a thread, at least
    // Requests a partition holds at most, about (P moves a position): small sorts, in cache.
    static constexpr uint64_t kPartitionRequests = uint64_t(1) << 18;
    static constexpr uint64_t kChunk = 1 << 14;

    Batch(const BasicOwareGame<P>& game, int n, const SmallerLevelValues& files, int threads,
          uint64_t batch_positions)
        : game(game), n(n), files(files), threads(std::max(1, threads)),
          capacity(std::max<uint64_t>(batch_positions, 1)),
          partitions(std::max<size_t>(size_t(this->threads) * kPartitions,
                                      size_t(capacity * P / kPartitionRequests))),
          parts(size_t(this->threads), std::vector<std::vector<Request>>(partitions)),
          level_offset(size_t(n) + 1) {
        // A request keeps a child's index in kRequestLevelShift bits: the levels a capture
        // reaches are smaller than level n, so n's size bounds them all.
        if (game.level_size(n) > uint64_t(1) << kRequestLevelShift)
            throw std::length_error("StreamedBellman: level " + std::to_string(n) + " has " +
                                    std::to_string(game.level_size(n)) +
                                    " positions, over the 2^40 a request can name");
        for (int k = 0; k <= n; ++k) {
            level_offset[size_t(k)] = total;
            total += game.level_size(k);
        }
    }

    size_t partition_of(int level, uint64_t index) const {
        return size_t((level_offset[size_t(level)] + index) * partitions / total);
    }

    // A batch of `size` positions, none valued yet.
    void start(uint64_t size) {
        if (size > capacity)
            throw std::logic_error("StreamedBellman: a batch of " + std::to_string(size) +
                                   " positions, over the " + std::to_string(capacity) +
                                   " it holds");
        best.assign(size, kNoMoveYet);
    }

    // The moves of every position: a terminal position gets its value at once, the others
    // a request per move. for_chunk(begin, end, f) calls f(slot, position) for the slots
    // begin..end - 1.
    template <class ForChunk> void make_requests(uint64_t size, ForChunk&& for_chunk) {
        parallel::FirstFailure failure;
#pragma omp parallel num_threads(threads)
        {
            auto& mine = parts[size_t(omp_get_thread_num())];
            for (auto& part : mine) part.clear();
#pragma omp for schedule(dynamic, 1)
            for (uint64_t c = 0; c < (size + kChunk - 1) / kChunk; ++c)
                failure.guard([&] {
                    for_chunk(
                        c * kChunk, std::min(size, (c + 1) * kChunk),
                        [&](uint64_t slot, const BasicPosition<P>& p) {
                            const int moves = game.for_each_move(
                                p, [&](int captured, const BasicPosition<P>& child) {
                                    const int level = n - captured;
                                    const uint64_t index = game.rank(child);
                                    mine[partition_of(level, index)].push_back(
                                        {uint64_t(level) << kRequestLevelShift | index, slot});
                                });
                            if (moves == 0)
                                best[slot] = static_cast<int8_t>(game.terminal_value(p));
                        });
                });
        }
        failure.rethrow();
    }

    // best[slot] = max(best[slot], (n - level) - value) for every request, a partition at a
    // time, read in sorted order.
    void resolve() {
        parallel::FirstFailure failure;
#pragma omp parallel num_threads(threads)
        {
            std::vector<Request> run;
            std::vector<uint64_t> indices;
            std::vector<int8_t> values;
#pragma omp for schedule(dynamic, 1)
            for (size_t p = 0; p < partitions; ++p)
                failure.guard([&] {
                    run.clear();
                    for (const auto& thread_parts : parts)
                        run.insert(run.end(), thread_parts[p].begin(), thread_parts[p].end());
                    // By key, a radix sort (Boost's spreadsort): the keys of a partition
                    // span a narrow range, which comparison sorting does not use.
                    boost::sort::spreadsort::integer_sort(
                        run.begin(), run.end(),
                        [](const Request& r, unsigned shift) { return r.key >> shift; },
                        [](const Request& a, const Request& b) { return a.key < b.key; });
                    fold_child_values(files, n, std::span<const Request>(run),
                                      std::span<int8_t>(best), indices, values);
                });
        }
        failure.rethrow();
    }

    const BasicOwareGame<P>& game;
    const int n;
    const SmallerLevelValues& files;
    const int threads;
    const uint64_t capacity;
    const size_t partitions;
    std::vector<std::vector<std::vector<Request>>> parts; // [thread][partition]
    std::vector<uint64_t> level_offset;                   // of each level in 0..n
    uint64_t total = 0;                                   // positions of levels 0..n
    std::vector<int8_t> best;                             // of the batch's positions
};

template <int P>
BasicStreamedBellman<P>::BasicStreamedBellman(const BasicOwareGame<P>& game, int n,
                                              const SmallerLevelValues& files, int threads,
                                              uint64_t batch_positions)
    : batch_(std::make_unique<Batch>(game, n, files, threads, batch_positions)) {}

template <int P> BasicStreamedBellman<P>::~BasicStreamedBellman() = default;

template <int P>
std::span<const int8_t> BasicStreamedBellman<P>::values(uint64_t size, const PositionAt& position) {
    Batch& b = *batch_;
    b.start(size);
    b.make_requests(size, [&](uint64_t begin, uint64_t end, auto&& f) {
        for (uint64_t slot = begin; slot < end; ++slot) f(slot, position(slot));
    });
    b.resolve();
    return {b.best.data(), b.best.size()};
}

template <int P>
std::span<const int8_t> BasicStreamedBellman<P>::values_of_ranks(uint64_t first, uint64_t size) {
    Batch& b = *batch_;
    if (first > b.game.level_size(b.n) || size > b.game.level_size(b.n) - first)
        throw std::logic_error("StreamedBellman: ranks past level " + std::to_string(b.n) + "'s");
    b.start(size);
    b.make_requests(size, [&](uint64_t begin, uint64_t end, auto&& f) {
        for_each_in_rank_order(b.game, b.n, first + begin, first + end,
                               [&](uint64_t i, const BasicPosition<P>& p) { f(i - first, p); });
    });
    b.resolve();
    return {b.best.data(), b.best.size()};
}

#define OWAREDB_INSTANTIATE(P) template class BasicStreamedBellman<P>;
OWAREDB_FOR_EACH_PITS_PER_SIDE(OWAREDB_INSTANTIATE)
#undef OWAREDB_INSTANTIATE

} // namespace owaredb
