// The Bellman values of many positions of one level with no level in memory: the moves of
// a batch of positions become requests for their children's values, sorted so that each
// file is read in order, and folded into each position's best move. `owaredb verify`
// checks stored values with it; `owaredb stats --all-configurations` values the positions
// outside the databases with it.
#pragma once

#include "oware/oware_game.hpp"
#include "retro/streamed_sources.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <span>

namespace owaredb {

/// Bytes a batch takes per position on a board of P pits a side: a request of 8 bytes per
/// move (at most P), gathered in blocks of 64 (std::deque's nodes of 512 bytes: with their
/// pointer and the allocator's header, a sixteenth more), and the best value.
constexpr uint64_t streamed_bellman_bytes_per_position(int pits_per_side) {
    const uint64_t requests = 8 * uint64_t(pits_per_side);
    return requests + (requests + 15) / 16 + 1;
}
/// The same on the standard board (6 moves at most).
inline constexpr uint64_t kStreamedBellmanBytesPerPosition = streamed_bellman_bytes_per_position(6);

/// How a request of the streamed Bellman values fits in 8 bytes: the child's offset among
/// the positions of levels 0..n (level 0's first, then level 1's, ...: so sorting the
/// requests reads each file in order) in the high `offset_bits`, the slot of the position
/// that asked in the low `slot_bits`, which bound a batch to 2^slot_bits positions
/// (2^27 for 36 seeds on 6 pits, 2^23 for 48).
struct StreamedRequestLayout {
    unsigned offset_bits; ///< bits of (positions of levels 0..n) - 1
    unsigned slot_bits;   ///< 64 - offset_bits

    /// For `positions` positions in levels 0..n; std::length_error when fewer than 16 bits
    /// would be left for the slot (over 2^48 positions).
    static StreamedRequestLayout for_positions(uint64_t positions);
    uint64_t max_batch() const { return uint64_t(1) << slot_bits; }
    uint64_t pack(uint64_t offset, uint64_t slot) const { return offset << slot_bits | slot; }
    uint64_t offset(uint64_t request) const { return request >> slot_bits; }
    uint64_t slot(uint64_t request) const { return request & (max_batch() - 1); }
};

/// Values batches of positions of level n from `files`, which give the values of level n
/// (the quiet moves' children) and of the levels its captures reach (FileSmallerLevels
/// with level n, or in memory). The requests of a batch are split into partitions by
/// (level, index) as the threads make them; each partition is then sorted by one thread
/// and read in that order, so that each block of a file is decoded about once a batch.
/// Time: every batch reads (most of) level n once, so larger batches are cheaper. A batch
/// holds at most batch_positions() positions: the batch_positions given, or fewer where the
/// requests' layout bounds it (StreamedRequestLayout). The buffers live from batch to batch. Not
/// thread-safe itself: it runs `threads` threads. For a board of P pits a side (1..8; instantiated
/// for each in the .cpp file), level n whose levels 0..n hold at most 2^48 positions
/// (StreamedRequestLayout; std::length_error otherwise).
template <int P> class BasicStreamedBellman {
  public:
    /// The position of the batch's slot i (0 <= i < its size); called from several threads.
    using PositionAt = std::function<BasicPosition<P>(uint64_t slot)>;

    BasicStreamedBellman(const BasicOwareGame<P>& game, int n, const SmallerLevelValues& files,
                         int threads, uint64_t batch_positions);
    ~BasicStreamedBellman();

    /// The positions a batch holds at most: the batch_positions given, or 2^slot_bits of
    /// the requests' layout if that is fewer.
    uint64_t batch_positions() const;

    /// The Bellman value (retro/bellman.hpp) of position(i) for each i < size, which is at
    /// most batch_positions(); valid until the next call. Throws what `files`
    /// throws, or std::logic_error for a size over the batch's.
    std::span<const int8_t> values(uint64_t size, const PositionAt& position);

    /// The same for the positions of level n ranked first..first + size - 1, slot i the
    /// one ranked first + i: a run in rank order, enumerated from one unrank a chunk
    /// (for_each_in_rank_order) rather than one a position.
    std::span<const int8_t> values_of_ranks(uint64_t first, uint64_t size);

  private:
    struct Batch;
    std::unique_ptr<Batch> batch_;
};

/// The standard board's.
using StreamedBellman = BasicStreamedBellman<6>;

} // namespace owaredb
