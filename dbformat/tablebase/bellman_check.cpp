#include "tablebase/bellman_check.hpp"

#include "retro/bellman.hpp"
#include "retro/parallel.hpp"
#include "tablebase/level_dir.hpp"

#include <omp.h>

#include <atomic>
#include <climits>
#include <exception>
#include <mutex>
#include <numeric>
#include <stdexcept>
#include <vector>

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

namespace {

constexpr int kLevelShift = kRequestLevelShift; // request key: child level << 40 | child index
constexpr int8_t kNoMoveYet = INT8_MIN;

struct Request {
    uint64_t key;  // child level << kLevelShift | child index
    uint64_t slot; // the position's offset in its batch
    bool operator<(const Request& o) const { return key < o.key; }
};

using parallel::FirstFailure;

// A streamed check of one level, a batch of positions at a time. The requests of a batch
// are split, as the threads make them, into partitions by (level, index) (equal ranges of
// the positions of levels 0..n, at least kPartitions a thread and enough to keep each
// below about kPartitionRequests); a partition's requests are then
// sorted by one thread and read in that order. Each block of a file is so decoded about once
// a batch, and the sorts are small; the buffers live from batch to batch.
class BatchCheck {
  public:
    BatchCheck(const OwareGame& game, int n, const SmallerLevelValues& files, int threads,
               uint64_t batch_positions)
        : game_(game), n_(n), files_(files), threads_(threads),
          partitions_(std::max<size_t>(size_t(threads) * kPartitions,
                                       size_t(batch_positions * 6 / kPartitionRequests))),
          parts_(size_t(threads), std::vector<std::vector<Request>>(partitions_)),
          level_offset_(size_t(n) + 1) {
        for (int k = 0; k <= n; ++k) {
            level_offset_[size_t(k)] = total_;
            total_ += game.level_size(k);
        }
    }

    // The first position of [begin, end) whose stored value differs from its moves', or
    // `none`.
    uint64_t first_mismatch(uint64_t begin, uint64_t end, uint64_t none) {
        best_.assign(end - begin, kNoMoveYet);
        make_requests(begin, end);
        resolve();
        return compare(begin, end, none);
    }

  private:
    static constexpr size_t kPartitions = 16; // a thread, at least
    // Requests a partition holds at most, about (6 moves a position): small sorts, in cache.
    static constexpr uint64_t kPartitionRequests = uint64_t(1) << 18;
    static constexpr uint64_t kChunk = 1 << 14;

    std::span<int8_t> best_span() { return {best_.data(), best_.size()}; }

    size_t partition_of(int level, uint64_t index) const {
        return size_t((level_offset_[size_t(level)] + index) * partitions_ / total_);
    }

    // The moves of every position: a terminal position gets its value at once, the others
    // a request per move.
    void make_requests(uint64_t begin, uint64_t end) {
        const uint64_t size = end - begin;
        FirstFailure failure;
#pragma omp parallel num_threads(threads_)
        {
            auto& mine = parts_[size_t(omp_get_thread_num())];
            for (auto& part : mine) part.clear();
#pragma omp for schedule(dynamic, 1)
            for (uint64_t c = 0; c < (size + kChunk - 1) / kChunk; ++c)
                failure.guard([&] {
                    for (uint64_t slot = c * kChunk; slot < std::min(size, (c + 1) * kChunk);
                         ++slot) {
                        const Position p = game_.unrank(n_, begin + slot);
                        const int moves =
                            game_.for_each_move(p, [&](int captured, const Position& child) {
                                const int level = n_ - captured;
                                const uint64_t index = game_.rank(child);
                                mine[partition_of(level, index)].push_back(
                                    {uint64_t(level) << kLevelShift | index, slot});
                            });
                        if (moves == 0) best_[slot] = static_cast<int8_t>(game_.terminal_value(p));
                    }
                });
        }
        failure.rethrow();
    }

    // best[slot] = max(best[slot], (n - level) - value) for every request, a partition at a
    // time, read in sorted order.
    void resolve() {
        FirstFailure failure;
#pragma omp parallel num_threads(threads_)
        {
            std::vector<Request> run;
            std::vector<uint64_t> indices;
            std::vector<int8_t> values;
#pragma omp for schedule(dynamic, 1)
            for (size_t p = 0; p < partitions_; ++p)
                failure.guard([&] {
                    run.clear();
                    for (const auto& thread_parts : parts_)
                        run.insert(run.end(), thread_parts[p].begin(), thread_parts[p].end());
                    std::sort(run.begin(), run.end());
                    fold_child_values(files_, n_, std::span<const Request>(run), best_span(),
                                      indices, values);
                });
        }
        failure.rethrow();
    }

    // The stored values of the batch, read in order, a chunk per thread at a time.
    uint64_t compare(uint64_t begin, uint64_t end, uint64_t none) {
        const uint64_t size = end - begin;
        std::atomic<uint64_t> first{none};
        FirstFailure failure;
#pragma omp parallel num_threads(threads_)
        {
            std::vector<uint64_t> indices;
            std::vector<int8_t> stored;
#pragma omp for schedule(dynamic, 1)
            for (uint64_t c = 0; c < (size + kChunk - 1) / kChunk; ++c)
                failure.guard([&] {
                    const uint64_t from = c * kChunk, to = std::min(size, (c + 1) * kChunk);
                    indices.resize(to - from);
                    std::iota(indices.begin(), indices.end(), begin + from);
                    stored.resize(to - from);
                    files_.read(n_, indices, stored);
                    for (uint64_t slot = from; slot < to; ++slot) {
                        if (best_[slot] == stored[slot - from]) continue;
                        parallel::atomic_min(first, begin + slot);
                        break;
                    }
                });
        }
        failure.rethrow();
        return first.load();
    }

    const OwareGame& game_;
    const int n_;
    const SmallerLevelValues& files_;
    const int threads_;
    const size_t partitions_;
    std::vector<std::vector<std::vector<Request>>> parts_; // [thread][partition]
    std::vector<uint64_t> level_offset_;                   // of each level in 0..n
    uint64_t total_ = 0;                                   // positions of levels 0..n
    std::vector<int8_t> best_;                             // of the batch's positions
};

} // namespace

uint64_t first_streamed_bellman_mismatch(
    const OwareGame& game, int n, const SmallerLevelValues& files, int threads, IndexRange range,
    uint64_t batch_positions, const std::function<void(uint64_t done, uint64_t total)>& progress) {
    const uint64_t size = game.level_size(n);
    const uint64_t first = std::min(range.begin, size);
    const uint64_t end = std::max(first, std::min(range.end, size));
    threads = std::max(1, threads);
    batch_positions = std::max<uint64_t>(batch_positions, 1);
    BatchCheck check(game, n, files, threads, batch_positions);
    for (uint64_t begin = first; begin < end; begin += batch_positions) {
        const uint64_t last = std::min(end, begin + batch_positions);
        const uint64_t bad = check.first_mismatch(begin, last, size);
        if (bad < size) return bad;
        if (progress) progress(last - first, end - first);
    }
    return size;
}

} // namespace owaredb
