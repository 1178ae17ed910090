// The streamed engine's first pass by requests, as a distributed rank makes it
// (streamed_retrograde.hpp; one process pushes the exits instead, exit_gathering.hpp). A
// rank's slice of the level is small, so its batches are few, and pushing would make
// every rank read every smaller level whole. It goes a segment at a time: every thread
// generates the moves of its chunks, keeps a request (child level, child index, position)
// per capture, sorts its requests and reads the values in that order (each block of a
// level file is decompressed once per run of requests that falls in it), and takes the
// best exit per position; then the segment's words are set and its exits appended to the
// exit store. The segment size bounds the requests' memory (kRequestBytes a capture).
#pragma once

#include "retro/game.hpp"
#include "retro/parallel.hpp"
#include "retro/streamed_sources.hpp"
#include "retro/streamed_word.hpp"

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <vector>

namespace owaredb {

/// The index of `state` in its level's file: game.rank(state), unless the game ranks its
/// level in another order for a distributed solve (a file_rank() member says so:
/// oware/partition.hpp) and `state` lies in a smaller level, which its file orders.
template <RetroGame Game> uint64_t file_rank(const Game& game, const typename Game::State& state) {
    if constexpr (requires { game.file_rank(state); })
        return game.file_rank(state);
    else
        return game.rank(state);
}

template <RetroGame Game> class RankRequests {
  public:
    /// Bytes of request buffer per capture move (for the segment size).
    static constexpr uint64_t kRequestBytes = 16;

    RankRequests(const Game& game, const SmallerLevelValues& smaller, ExitStore& exits, int threads)
        : game_(game), smaller_(smaller), exits_(exits), threads_(threads) {}

    /// Sets the first-pass words [begin, end) of s (offsets in this rank's slice, which
    /// starts at s.base) and appends their exits to the store, which holds those of every
    /// position before `begin` (a segment from the slice's start empties it first).
    void first_segment(StreamedSweep& s, uint64_t begin, uint64_t end) const;

  private:
    struct Request {
        uint64_t key;  ///< child level << kRequestLevelShift | child index
        uint32_t slot; ///< the position's offset in its segment
        int32_t unused = 0;
        bool operator<(const Request& o) const { return key < o.key; }
    };
    static_assert(sizeof(Request) == kRequestBytes);

    const Game& game_;
    const SmallerLevelValues& smaller_;
    ExitStore& exits_;
    int threads_;
};

template <RetroGame Game>
void RankRequests<Game>::first_segment(StreamedSweep& s, uint64_t begin, uint64_t end) const {
    using W = StreamedWord;
    constexpr uint64_t kChunk = sweep::kChunk;
    const int n = s.n;
    if (begin == 0) exits_.reset(); // a level from its start
    std::vector<int8_t> exits(end - begin, static_cast<int8_t>(W::kNoExit));
    parallel::FirstFailure failure;
#pragma omp parallel num_threads(threads_)
    {
        // Moves of this thread's chunks: words without their exits, and the requests.
        std::vector<Request> requests;
#pragma omp for schedule(dynamic, 1)
        for (uint64_t c = begin / kChunk; c < (end + kChunk - 1) / kChunk; ++c) {
            failure.guard([&] {
                const uint64_t first = s.base + c * kChunk;
                const uint64_t last = s.base + std::min(end, (c + 1) * kChunk);
                for_each_in_rank_order(game_, n, first, last, [&](uint64_t i, const auto& state) {
                    const auto slot = static_cast<uint32_t>(i - s.base - begin);
                    s.words[i - s.base] =
                        W::from_moves(game_, state, [&](int captured, const auto& child) {
                            requests.push_back({uint64_t(n - captured) << kRequestLevelShift |
                                                    file_rank(game_, child),
                                                slot});
                        });
                });
            });
        }
        // The capture children's values, read in (level, index) order.
        failure.guard([&] {
            std::sort(requests.begin(), requests.end());
            std::vector<uint64_t> indices;
            std::vector<int8_t> values;
            fold_child_values(smaller_, n, std::span<const Request>(requests), exits, indices,
                              values);
        });
    }
    failure.rethrow();

    // The words, now that the exits are known.
    bool missing_exit = false;
#pragma omp parallel for schedule(static) num_threads(threads_) reduction(|| : missing_exit)
    for (uint64_t i = begin; i < end; ++i)
        s.words[i] = W::with_exit(s.words[i], exits[i - begin], missing_exit);
    if (missing_exit)
        throw std::logic_error("streamed retrograde: a position whose every move captures has "
                               "no capture exit (the game's moves are inconsistent)");
    exits_.append(exits);
}

} // namespace owaredb
