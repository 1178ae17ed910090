// The threshold scans of a distributed solve (`mpirun -np K owaredb generate`,
// docs/distributed.md): each rank scans its slice of the level (streamed_retrograde.hpp)
// in rounds of chunks, and between rounds the ranks exchange the propagations that cross
// into another rank's slice (rank_link.hpp), until they agree that no work is left
// anywhere and nothing is in flight.
//
// Overlap: while a rank has chunks to scan, round i's exchange travels during round
// i + 1's scan and is ended after it, and what it brought is delivered in round i + 2.
// Once its chunks are done there is nothing to overlap with, so it ends each exchange at
// once and delivers in the next round.
//
// Termination: each rank's count for an exchange is its chunks left, the messages it sends
// in it and the messages it holds undelivered; when the sum over the ranks is zero there
// is no work anywhere and nothing in flight. Work found after that is a logic error.
#pragma once

#include "retro/game.hpp"
#include "retro/parallel.hpp"
#include "retro/rank_link.hpp"
#include "retro/streamed_word.hpp"
#include "retro/sweep.hpp"

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <mutex>
#include <span>
#include <stdexcept>
#include <vector>

namespace owaredb {

namespace distributed {

/// The ranks' slices are multiples of this many positions (slice_bounds). The scans'
/// chunks count from a slice's start, so any unit would do; a small one splits even small
/// levels between the ranks.
inline constexpr uint64_t kSliceUnit = 64;
/// The most chunks a rank scans between two message exchanges (which bounds the messages
/// they make: message_bytes()).
inline constexpr uint64_t kRoundChunks = 256;
/// A scan takes at least this many rounds (small rounds keep the message buffers small;
/// the exchanges cost little against a round's work).
inline constexpr uint64_t kRoundsPerScan = 64;

/// The bytes of message buffers of one of `ranks` ranks holding `slice` positions. Four
/// rounds' worth are alive at once: the outboxes being filled, the exchange in flight
/// (sent and being received) and the messages being delivered; 8 bytes a message. A
/// position scanned that joins a set is one message for each other rank that holds some
/// of its parents, so never more messages than it has parents elsewhere: at most about 3.5
/// parents a position, which lie elsewhere at most (ranks - 1) / ranks of the time (index
/// ranges; the level partition of a distributed solve keeps most parents on their rank,
/// and a child's parents on one rank are one message: docs/distributed.md has the rates).
inline uint64_t message_bytes(uint64_t slice, int ranks) {
    const uint64_t round = std::min(slice / kRoundsPerScan, kRoundChunks * sweep::kChunk);
    return ranks < 2 ? 0 : 4 * 8 * 7 * round / 2 * uint64_t(ranks - 1) / uint64_t(ranks);
}

/// Chunks per round of a slice of `chunks` chunks scanned by `threads` threads: enough to
/// keep the threads busy and the exchanges few, few enough that the outboxes stay small: a
/// round's messages are about its positions that join a set and have parents elsewhere,
/// so at most kRoundChunks chunks bound them whatever the slice's size (message_bytes()).
inline uint64_t round_chunks(uint64_t chunks, int threads) {
    return std::max<uint64_t>(uint64_t(4) * uint64_t(threads),
                              std::min(chunks / kRoundsPerScan, kRoundChunks));
}

/// A thread's route in a distributed solve (sweep::OwnsAll's contract): the parents that
/// lie outside this rank's slice [base, base + size) are left to their ranks, each of which
/// gets one message for the child (sweep::deliver): the parent's index where it holds one
/// of them, else the child's, with the un-moves that lead there (sweep::child_message, in
/// `unmove_bits` bits: sweep::unmove_bits of the level's size), whose parents it
/// regenerates. One message a child and rank instead of one a parent: a child's parents
/// elsewhere are often on one rank.
class ChildRoute {
  public:
    ChildRoute(std::span<const uint64_t> bounds, uint64_t base, uint64_t size, int unmove_bits)
        : bounds_(bounds), base_(base), size_(size), bits_(unmove_bits),
          outboxes_(bounds.size() - 1) {}
    /// Called for each parent of the child being walked, in for_each_parent's order.
    bool elsewhere(uint64_t parent) {
        const int j = unmove_++;
        if (parent - base_ < size_) return false;
        const int r = owner_of(bounds_, parent);
        const uint32_t bit = sweep::unmove_mask(j, bits_);
        const auto it =
            std::find_if(to_.begin(), to_.end(), [r](const To& t) { return t.rank == r; });
        if (it == to_.end()) {
            to_.push_back({r, parent, bit, false});
        } else {
            it->mask |= bit;
            it->several = true;
        }
        return true;
    }
    /// The child's parents are walked: its messages go to the outboxes.
    void send(uint64_t child_entry) {
        for (const To& t : to_)
            outboxes_[size_t(t.rank)].push_back(
                t.several ? sweep::child_message(child_entry, t.mask, bits_)
                          : sweep::parent_message(t.parent, child_entry & 1));
        to_.clear();
        unmove_ = 0;
    }
    int unmove_bits() const { return bits_; }
    /// Adds this thread's messages to the rank's outboxes ([r]: the messages for rank r).
    void append_to(std::vector<std::vector<uint64_t>>& outboxes) const {
        for (size_t r = 0; r < outboxes_.size(); ++r)
            outboxes[r].insert(outboxes[r].end(), outboxes_[r].begin(), outboxes_[r].end());
    }

  private:
    struct To {
        int rank;
        uint64_t parent; // the first of the child's parents there
        uint32_t mask;   // the un-moves that lead there (sweep::unmove_mask)
        bool several;
    };
    std::span<const uint64_t> bounds_;
    uint64_t base_, size_;
    int bits_;
    std::vector<std::vector<uint64_t>> outboxes_; // [r]: the messages for rank r
    std::vector<To> to_;                          // the ranks of the child being walked
    int unmove_ = 0;                              // the child's parents walked so far
};

/// What a distributed level's rounds did (this rank's share).
struct RoundStats {
    uint64_t messages = 0; ///< propagation messages this rank sent (a child to a rank)
    uint64_t rounds = 0;   ///< message exchanges
};

} // namespace distributed

template <RetroGame Game> class DistributedRounds {
  public:
    DistributedRounds(const Game& game, RankLink& link, int threads)
        : game_(game), link_(link), threads_(threads) {}

    /// Threshold s.t's scans of this rank's slice, again while a propagation overflowed on
    /// any rank; returns the number of scans. `scan_chunk(begin, end, stack, route)` scans
    /// a chunk of the slice (offsets in it) with this thread's Stack, propagating with
    /// `route` (a distributed::ChildRoute, which sends the children whose parents lie in
    /// other slices there); `update(tag, parent, full)` is the engine's parent update, for
    /// the parents here of the children delivered here.
    template <class Stack, class ScanChunk, class Update>
    uint64_t threshold(StreamedSweep& s, sweep::SweepProgress& progress, ScanChunk&& scan_chunk,
                       Update&& update);

    /// This rank's rounds and messages so far.
    const distributed::RoundStats& stats() const { return stats_; }

  private:
    const Game& game_;
    RankLink& link_;
    int threads_;
    distributed::RoundStats stats_;
};

template <RetroGame Game>
template <class Stack, class ScanChunk, class Update>
uint64_t DistributedRounds<Game>::threshold(StreamedSweep& s, sweep::SweepProgress& progress,
                                            ScanChunk&& scan_chunk, Update&& update) {
    constexpr uint64_t kChunk = sweep::kChunk;
    const int ranks = link_.ranks();
    const std::vector<uint64_t> bounds =
        slice_bounds(game_.level_size(s.n), ranks, distributed::kSliceUnit);
    const int unmove_bits = sweep::unmove_bits(game_.level_size(s.n));
    const uint64_t chunks = (s.size + kChunk - 1) / kChunk;
    const uint64_t per_round = distributed::round_chunks(chunks, threads_);
    progress.start(s.t);
    uint64_t scans = 0;
    do {
        ++scans;
        s.overflow.store(false);
        std::vector<uint64_t> to_deliver; // received, not yet delivered
        bool in_flight = false;
        auto finish = [&](uint64_t sent, uint64_t next) {
            auto got = link_.finish_exchange();
            in_flight = false;
            if (got.count_sum == 0) {
                if (sent != 0 || !got.messages.empty() || !to_deliver.empty() || next != chunks)
                    throw std::logic_error("distributed retrograde: work found after the "
                                           "ranks agreed that a threshold was done");
                return true;
            }
            to_deliver.insert(to_deliver.end(), got.messages.begin(), got.messages.end());
            return false;
        };
        for (uint64_t next = 0;;) {
            const uint64_t last = std::min(chunks, next + per_round);
            std::vector<std::vector<uint64_t>> outboxes(static_cast<size_t>(ranks));
            std::mutex merge_mutex;
            parallel::FirstFailure failure;
#pragma omp parallel num_threads(threads_)
            {
                // Thread 0 is the thread that started the exchange in flight.
                const bool starter = omp_get_thread_num() == 0;
                auto advance = [&] {
                    if (starter && in_flight) link_.progress();
                };
                Stack stack;
                distributed::ChildRoute route(bounds, s.base, s.size, unmove_bits);
#pragma omp for schedule(dynamic, 1) nowait
                for (uint64_t c = next; c < last; ++c) {
                    const uint64_t end = std::min(s.size, (c + 1) * kChunk);
                    failure.guard([&] {
                        scan_chunk(c * kChunk, end, stack, route);
                        advance();
                    });
                    progress.add(end - c * kChunk);
                }
                constexpr size_t kDeliverBatch = 4096;
#pragma omp for schedule(dynamic, 1)
                for (size_t b = 0; b < to_deliver.size(); b += kDeliverBatch) {
                    failure.guard([&] {
                        const size_t count = std::min(to_deliver.size() - b, kDeliverBatch);
                        sweep::deliver(game_, s, std::span(to_deliver).subspan(b, count), stack,
                                       update, route);
                        advance();
                    });
                }
                std::lock_guard lock(merge_mutex);
                route.append_to(outboxes);
            }
            failure.rethrow();
            to_deliver.clear();
            next = last;
            uint64_t sent = 0;
            for (const auto& box : outboxes) sent += box.size();
            if (in_flight && finish(sent, next)) break;
            stats_.messages += sent;
            ++stats_.rounds;
            link_.start_exchange(std::move(outboxes), (chunks - next) + sent + to_deliver.size());
            in_flight = true;
            if (next == chunks && finish(sent, next)) break;
        }
    } while (link_.sum(s.overflow.load() ? 1 : 0) > 0); // a rank overflowed: all rescan
    return scans;
}

} // namespace owaredb
