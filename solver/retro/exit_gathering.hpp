// The streamed engine's capture exits, pushed from the smaller levels (one process; see
// streamed_retrograde.hpp for the method). Before the first pass, every smaller level k
// that a capture can reach (n - k between the game's kMinCapture and kMaxCapture) is read
// once, in index order, and each of its positions gives (n - k) - its value to its
// capture parents in level n (the game's un-captures), which keep the best, in the bytes
// that become the words afterwards. Each smaller file is thus decompressed once per
// level, however large the level; asking for the children instead (rank_requests.hpp)
// decompresses every block of every smaller level once per batch of requests, and the
// batches that fit in memory shrink against the levels as n grows.
//
// Safe points: after each segment of a smaller level, the bytes hold the exits found so
// far, and the point says how many smaller positions have given theirs
// (SweepPoint::exits_gathered, first_pass_done 0); max is commutative, so going on from
// there ends with the same exits.
#pragma once

#include "retro/checkpoint.hpp"
#include "retro/game.hpp"
#include "retro/parallel.hpp"
#include "retro/progress.hpp"
#include "retro/streamed_sources.hpp"
#include "retro/streamed_word.hpp"

#include <omp.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace owaredb {

template <RetroGame Game> class ExitGathering {
  public:
    /// `segment_chunks`: chunks of a smaller level between two safe points (0: 4096
    /// chunks, 64 Mi positions).
    ExitGathering(const Game& game, const SmallerLevelValues& smaller, int threads,
                  uint64_t segment_chunks)
        : game_(game), smaller_(smaller), threads_(threads),
          segment_chunks_(segment_chunks ? segment_chunks : 4096) {}

    /// The smaller positions level n's gathering reads.
    uint64_t positions(int n) const {
        uint64_t total = 0;
        for (int c = Game::kMinCapture; c <= Game::kMaxCapture && c <= n; ++c)
            total += game_.level_size(n - c);
        return total;
    }

    /// Folds the capture exits of level n = s.n's positions (s.base ..) into s's bytes, as
    /// int8 exits (kNoExit: none yet), from smaller position `from` on (0, or what a safe
    /// point saved; the bytes then hold what it saved). Reports its share `share` of the
    /// level to `progress` and offers each safe point to `checkpoint` (may be null).
    void run(StreamedSweep& s, uint64_t from, const ProgressFn& progress, double share,
             SweepCheckpoint* checkpoint) const;

  private:
    const Game& game_;
    const SmallerLevelValues& smaller_;
    int threads_;
    uint64_t segment_chunks_;
};

template <RetroGame Game>
void ExitGathering<Game>::run(StreamedSweep& s, uint64_t from, const ProgressFn& progress,
                              double share, SweepCheckpoint* checkpoint) const {
    constexpr uint64_t kChunk = sweep::kChunk;
    // A chunk's parent updates wait until its end, and are applied in the order of their
    // bytes' pages, each prefetched sweep::kPrefetchAhead updates ahead: the parents lie
    // anywhere in the level, so each update in the order made is a cache and TLB miss
    // (drain() in sweep.hpp says why the page order pays).
    const sweep::PageBuckets buckets(s);
    const int n = s.n;
    const uint64_t total = positions(n);
    int8_t* exits = reinterpret_cast<int8_t*>(s.words);
    ReportThrottle throttle;
    std::atomic<uint64_t> done{from};
    auto report = [&](uint64_t finished) {
        if (!progress) return;
        throttle.maybe([&] {
            const double pass = double(finished) / double(std::max<uint64_t>(1, total));
            progress({n, 0, finished, total, share * pass, "capture exits"});
        });
    };
    // Smaller levels from the largest; `at` counts the smaller positions before level k's.
    uint64_t at = 0;
    for (int c = Game::kMinCapture; c <= Game::kMaxCapture && c <= n; ++c) {
        const int k = n - c;
        const uint64_t size = game_.level_size(k);
        const uint64_t chunks = (size + kChunk - 1) / kChunk;
        // (`from` is a multiple of kChunk within its level, or a level's end.)
        const uint64_t first_chunk = from >= at + size ? chunks
                                     : from > at       ? (from - at) / kChunk
                                                       : 0;
        for (uint64_t seg = first_chunk; seg < chunks; seg += segment_chunks_) {
            const uint64_t seg_end = std::min(chunks, seg + segment_chunks_);
            parallel::FirstFailure failure;
#pragma omp parallel num_threads(threads_)
            {
                std::vector<int8_t> values(kChunk);
                std::vector<std::pair<uint64_t, int8_t>> updates, sorted;
                std::vector<uint32_t> counts;
                auto apply = [&] {
                    sweep::counting_sort(
                        updates, sorted, counts, buckets.count,
                        [&](const auto& u) { return s.page(s.base + u.first) >> buckets.shift; });
                    for (size_t u = 0; u < updates.size(); ++u) {
                        if (u + sweep::kPrefetchAhead < updates.size())
                            __builtin_prefetch(exits + updates[u + sweep::kPrefetchAhead].first, 1);
                        parallel::atomic_max(exits[updates[u].first], updates[u].second);
                    }
                    updates.clear();
                };
#pragma omp for schedule(dynamic, 1)
                for (uint64_t ch = seg; ch < seg_end; ++ch) {
                    failure.guard([&] {
                        const uint64_t begin = ch * kChunk;
                        const uint64_t end = std::min(size, begin + kChunk);
                        values.resize(end - begin);
                        smaller_.read_range(k, begin, values);
                        for_each_in_rank_order(
                            game_, k, begin, end, [&](uint64_t j, const auto& child) {
                                const auto term = static_cast<int8_t>(c - values[j - begin]);
                                game_.for_each_capture_parent(child, c, [&](const auto& parent) {
                                    const uint64_t i = game_.rank(parent) - s.base;
                                    if (i >= s.size) return; // outside this process's slice
                                    updates.push_back({i, term});
                                });
                            });
                        apply();
                        report(done.fetch_add(end - begin, std::memory_order_relaxed) +
                               (end - begin));
                    });
                }
            }
            failure.rethrow();
            if (checkpoint) {
                SweepPoint point; // first_pass_done 0: a point of the gathering
                point.exits_gathered = at + std::min(size, seg_end * kChunk);
                checkpoint->reached(point, s.bytes());
            }
        }
        at += size;
    }
}

} // namespace owaredb
