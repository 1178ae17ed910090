#include "oware/partition.hpp"
#include "retro/rank_link.hpp"

#include <doctest/doctest.h>

#include <vector>

using namespace owaredb;

namespace {
// The partition of level n between k ranks as a distributed solve makes it.
LevelPartition<6> partition_of(int n, int k, uint64_t unit) {
    return LevelPartition<6>(n, slice_bounds(level_size<6>(n), k, unit));
}
} // namespace

TEST_CASE("a level partition is a bijection whose runs give every position's rank and place") {
    for (int n : {0, 1, 7, 10}) {
        for (int k : {1, 2, 3, 4, 5, 8}) { // from 4 on, ranks in groups of two (at 5, one of three)
            CAPTURE(n);
            CAPTURE(k);
            const auto partition = partition_of(n, k, n < 7 ? 1 : 64);
            const uint64_t size = level_size<6>(n);
            // The partition's index of every position, in the level's own order.
            std::vector<uint64_t> index(size);
            std::vector<char> seen(size, 0);
            uint64_t wrong = 0;
            for (uint64_t i = 0; i < size; ++i) {
                const Position p = unrank<6>(n, i);
                index[i] = partition.index(p);
                wrong += index[i] >= size || seen[index[i]] || partition.position(index[i]) != p;
                if (index[i] < size) seen[index[i]] = 1;
            }
            // next() walks the partition's order.
            Position p = partition.position(0);
            for (uint64_t i = 0; i + 1 < size; ++i) {
                p = partition.next(p);
                wrong += partition.index(p) != i + 1;
            }
            REQUIRE(wrong == 0);
            // The runs of a window that starts and ends mid-block say the same.
            const uint64_t begin = size / 3, end = size - size / 5;
            uint64_t next = begin;
            partition.for_each_run(begin, end, [&](const LevelPartition<6>::Run& run) {
                REQUIRE(run.first == next);
                const uint64_t start = partition.bounds()[size_t(run.rank)] + run.local;
                for (uint64_t m = 0; m < run.count; ++m)
                    wrong += index[run.first + m] != start + m * run.stride;
                next += run.count;
            });
            CHECK(next == end);
            CHECK(wrong == 0);
        }
    }
}

TEST_CASE("a level partition keeps most un-moves of awari level 11 on their rank") {
    const OwareGame game(Rules::awari());
    const int n = 11;
    const auto partition = partition_of(n, 4, 64);
    auto owner = [&](uint64_t index) { return owner_of(partition.bounds(), index); };
    uint64_t visits = 0, crossing = 0, crossing_ranges = 0;
    const auto ranges = slice_bounds(level_size<6>(n), 4, 64);
    for (uint64_t i = 0; i < level_size<6>(n); i += 7) {
        const Position child = unrank<6>(n, i);
        game.for_each_parent(child, [&](const Position& parent) {
            ++visits;
            crossing += owner(partition.index(parent)) != owner(partition.index(child));
            crossing_ranges += owner_of(ranges, rank(parent)) != owner_of(ranges, i);
        });
    }
    // Measured: about a fifth against three quarters for ranges of indices.
    CHECK(crossing * 3 < visits);
    CHECK(crossing_ranges * 3 > visits * 2);
}
