// Every configuration of n seeds (tablebase/all_configurations.hpp): the positions outside
// D_n valued by one ply, in memory and streamed, against a separate count that visits
// every distribution of n seeds by recursion and values the outside ones directly.
#include "oware/oware_game.hpp"
#include "oware/ranking.hpp"
#include "quick.hpp"
#include "retro/bellman.hpp"
#include "retro/solve_in_memory.hpp"
#include "tablebase/all_configurations.hpp"

#include <doctest/doctest.h>

#include <numeric>
#include <vector>

using namespace owaredb;

namespace {

// The reference: every distribution of n seeds over 12 pits by recursion; those with a
// seed in each of pits 6..11 valued by bellman_value over the levels.
ValueCounts reference_counts(const OwareGame& game, int n, const std::vector<ValueArray>& levels) {
    ValueCounts counts{};
    Position p;
    auto rec = [&](auto&& self, int pit, int left) -> void {
        if (pit == kPits - 1) {
            p.pits[pit] = static_cast<uint8_t>(left);
            if (p.in_database()) return;
            const int v = bellman_value(game, n, p, [&](int level, const Position& child) {
                return int(levels[size_t(level)][rank(child)]);
            });
            ++counts[size_t(v + kMaxSeeds)];
            return;
        }
        for (int v = 0; v <= left; ++v) {
            p.pits[pit] = static_cast<uint8_t>(v);
            self(self, pit + 1, left - v);
        }
    };
    rec(rec, 0, n);
    return counts;
}

InMemorySmallerLevels as_files(const std::vector<ValueArray>& levels, int n) {
    std::vector<const int8_t*> pointers;
    for (int k = 0; k <= n; ++k) pointers.push_back(levels[size_t(k)].data());
    return InMemorySmallerLevels(pointers);
}

} // namespace

TEST_CASE("outside positions valued by one ply: in memory = streamed = reference") {
    const int max_n = test::quick() ? 10 : 12;
    for (const char* name : {"abapa", "awari"}) {
        CAPTURE(name);
        const OwareGame game(*Rules::by_name(name));
        const auto levels = solve_in_memory(game, max_n, 2);
        for (int n = 0; n <= max_n; ++n) {
            CAPTURE(n);
            const ValueCounts expected = reference_counts(game, n, levels);
            CHECK(std::accumulate(expected.begin(), expected.end(), uint64_t(0)) ==
                  outside_size(n));
            for (int threads : {1, 2}) {
                CAPTURE(threads);
                CHECK(outside_value_counts(game, n, levels, threads) == expected);
                const auto files = as_files(levels, n);
                for (uint64_t batch : {uint64_t(1000), uint64_t(1) << 20}) {
                    CAPTURE(batch);
                    uint64_t last_done = 0, calls = 0;
                    CHECK(streamed_outside_value_counts(game, n, files, threads, batch,
                                                        [&](uint64_t done, uint64_t total) {
                                                            CHECK(total == outside_size(n));
                                                            CHECK(done > last_done);
                                                            last_done = done;
                                                            ++calls;
                                                        }) == expected);
                    CHECK(last_done == outside_size(n));
                    CHECK(calls == (outside_size(n) + batch - 1) / batch);
                }
            }
        }
    }
}
