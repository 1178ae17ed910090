// What a distributed solve (`mpirun -np K owaredb generate`, docs/distributed.md) needs from
// the other processes, as the streamed engine (streamed_retrograde.hpp) sees them: each of
// K ranks holds one slice of every level, and between scans they exchange the un-move
// propagations that cross into another rank's slice. `owaredb generate` implements this with
// MPI (tools/mpi_job.hpp); the tests with threads of one process.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

namespace owaredb {

/// The ranks of a distributed solve, seen from one of them. The collective calls
/// (start_exchange, finish_exchange, sum) must be made by every rank, the same number of times in
/// the same order; a rank that fails cannot leave the others waiting, so the implementation aborts
/// the whole job instead (MPI_Abort).
class RankLink {
  public:
    virtual ~RankLink() = default;
    virtual int rank() const = 0;  ///< 0 .. ranks() - 1
    virtual int ranks() const = 0; ///< K >= 1
    /// What an exchange brought: the messages the other ranks sent to this one, in rank
    /// order, and the sum of every rank's `count`.
    struct Received {
        std::vector<uint64_t> messages;
        uint64_t count_sum = 0;
    };
    /// Collective, non-blocking: starts sending outboxes[r] to rank r, for every r !=
    /// rank() (outboxes.size() == ranks(); this rank's own box is empty), and adding up
    /// `count` over the ranks, and returns at once, so that the caller works on while the
    /// messages travel. At most one exchange is in flight: finish_exchange() ends it.
    virtual void start_exchange(std::vector<std::vector<uint64_t>> outboxes, uint64_t count) = 0;
    /// Lets the exchange in flight advance (MPI moves a non-blocking collective on only
    /// inside MPI calls). Only the thread that started it may call this, as often as it
    /// likes, between pieces of its other work; without an exchange in flight it does
    /// nothing.
    virtual void progress() {}
    /// Collective: waits for the exchange in flight and returns what it brought.
    virtual Received finish_exchange() = 0;
    /// Collective: the sum of `value` over all ranks.
    virtual uint64_t sum(uint64_t value) = 0;
};

/// Where the ranks' slices of a level of `size` positions begin: bounds[r] .. bounds[r+1]
/// is rank r's, in whole multiples of `unit` but for the level's end, as even as whole
/// units allow. bounds.size() == ranks + 1.
inline std::vector<uint64_t> slice_bounds(uint64_t size, int ranks, uint64_t unit) {
    const uint64_t units = (size + unit - 1) / unit;
    std::vector<uint64_t> bounds(static_cast<size_t>(ranks) + 1);
    for (int r = 0; r <= ranks; ++r)
        bounds[static_cast<size_t>(r)] =
            std::min(size, units * static_cast<uint64_t>(r) / static_cast<uint64_t>(ranks) * unit);
    return bounds;
}

/// The rank whose slice holds position `index` (bounds from slice_bounds).
inline int owner_of(std::span<const uint64_t> bounds, uint64_t index) {
    return static_cast<int>(std::upper_bound(bounds.begin(), bounds.end(), index) -
                            bounds.begin()) -
           1;
}

} // namespace owaredb
