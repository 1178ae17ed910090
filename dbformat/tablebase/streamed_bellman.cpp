#include "tablebase/streamed_bellman.hpp"

#include "retro/game.hpp"
#include "retro/parallel.hpp"

#include <boost/sort/spreadsort/integer_sort.hpp>
#include <omp.h>

#include <algorithm>
#include <bit>
#include <climits>
#include <deque>
#include <stdexcept>
#include <string>
#include <vector>

namespace owaredb {

namespace {

constexpr int8_t kNoMoveYet = INT8_MIN;

// Reads sorted packed requests: the level of each child by a cursor that moves through
// the level offsets as the offsets ascend.
class RequestDecoder {
  public:
    RequestDecoder(const StreamedRequestLayout& layout, const std::vector<uint64_t>& level_offset)
        : layout_(layout), level_offset_(level_offset) {}
    ChildRequest operator()(uint64_t request) {
        const uint64_t offset = layout_.offset(request);
        while (offset >= level_offset_[size_t(level_) + 1]) ++level_;
        while (offset < level_offset_[size_t(level_)]) --level_;
        return {level_, offset - level_offset_[size_t(level_)], layout_.slot(request)};
    }

  private:
    const StreamedRequestLayout& layout_;
    const std::vector<uint64_t>& level_offset_; // of levels 0..n, and their end
    int level_ = 0;
};

} // namespace

StreamedRequestLayout StreamedRequestLayout::for_positions(uint64_t positions) {
    const unsigned offset_bits = positions <= 1 ? 1 : unsigned(std::bit_width(positions - 1));
    if (offset_bits > 48)
        throw std::length_error("StreamedBellman: " + std::to_string(positions) +
                                " positions in the levels up to this one, over the 2^48 a "
                                "request can name");
    return {offset_bits, 64 - offset_bits};
}

template <int P> struct BasicStreamedBellman<P>::Batch {
    static constexpr size_t kPartitions = 16; // a thread, at least
    // Requests a partition holds at most, about (P moves a position): small sorts, in cache.
    static constexpr uint64_t kPartitionRequests = uint64_t(1) << 18;
    static constexpr uint64_t kChunk = 1 << 14;

    Batch(const BasicOwareGame<P>& game, int n, const SmallerLevelValues& files, int threads,
          uint64_t batch_positions)
        : game(game), n(n), files(files), threads(std::max(1, threads)),
          level_offset(offsets(game, n)),
          layout(StreamedRequestLayout::for_positions(level_offset.back())),
          capacity(std::min(std::max<uint64_t>(batch_positions, 1), layout.max_batch())),
          partitions(std::max<size_t>(size_t(this->threads) * kPartitions,
                                      size_t(capacity * P / kPartitionRequests))),
          parts(size_t(this->threads), std::vector<std::deque<uint64_t>>(partitions)) {}

    // The offset of each level of 0..n among their positions, and their end.
    static std::vector<uint64_t> offsets(const BasicOwareGame<P>& game, int n) {
        std::vector<uint64_t> offset(size_t(n) + 2, 0);
        for (int k = 0; k <= n; ++k) offset[size_t(k) + 1] = offset[size_t(k)] + game.level_size(k);
        return offset;
    }

    size_t partition_of(uint64_t offset) const {
        return size_t(offset * partitions / level_offset.back());
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
                    for_chunk(c * kChunk, std::min(size, (c + 1) * kChunk),
                              [&](uint64_t slot, const BasicPosition<P>& p) {
                                  const int moves = game.for_each_move(
                                      p, [&](int captured, const BasicPosition<P>& child) {
                                          const uint64_t offset =
                                              level_offset[size_t(n - captured)] + game.rank(child);
                                          mine[partition_of(offset)].push_back(
                                              layout.pack(offset, slot));
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
            std::vector<uint64_t> run;
            std::vector<uint64_t> indices, slots;
            std::vector<int8_t> values;
#pragma omp for schedule(dynamic, 1)
            for (size_t p = 0; p < partitions; ++p)
                failure.guard([&] {
                    run.clear();
                    for (const auto& thread_parts : parts)
                        run.insert(run.end(), thread_parts[p].begin(), thread_parts[p].end());
                    // A radix sort (Boost's spreadsort): the requests of a partition span
                    // a narrow range, which comparison sorting does not use.
                    boost::sort::spreadsort::integer_sort(run.begin(), run.end());
                    fold_child_values(files, n, std::span<const uint64_t>(run),
                                      RequestDecoder(layout, level_offset), std::span<int8_t>(best),
                                      indices, slots, values);
                });
        }
        failure.rethrow();
    }

    const BasicOwareGame<P>& game;
    const int n;
    const SmallerLevelValues& files;
    const int threads;
    const std::vector<uint64_t> level_offset; // of each level of 0..n, and their end
    const StreamedRequestLayout layout;
    const uint64_t capacity;
    const size_t partitions;
    // [thread][partition]: requests. Deques, not vectors: a vector's capacity doubles as it
    // grows, up to twice its requests; a deque takes its memory a node at a time.
    std::vector<std::vector<std::deque<uint64_t>>> parts;
    std::vector<int8_t> best; // of the batch's positions
};

template <int P>
BasicStreamedBellman<P>::BasicStreamedBellman(const BasicOwareGame<P>& game, int n,
                                              const SmallerLevelValues& files, int threads,
                                              uint64_t batch_positions)
    : batch_(std::make_unique<Batch>(game, n, files, threads, batch_positions)) {}

template <int P> BasicStreamedBellman<P>::~BasicStreamedBellman() = default;

template <int P> uint64_t BasicStreamedBellman<P>::batch_positions() const {
    return batch_->capacity;
}

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
