// Every configuration of n seeds (tablebase/all_configurations.hpp): the positions outside
// D_n valued by one ply, in memory and streamed, against a separate count that visits
// every distribution of n seeds by recursion and values the outside ones directly. On
// boards of P != 6 pits a side, against tests/retro/reference_oware.hpp alone (its rules
// and its values, no code of solver/oware): what `owaredb stats --all-configurations`
// prints for such a board, the stored values' histogram and the outside positions' counts.
#include "../retro/reference_oware.hpp"
#include "oware/oware_game.hpp"
#include "oware/ranking.hpp"
#include "quick.hpp"
#include "retro/bellman.hpp"
#include "retro/solve_in_memory.hpp"
#include "tablebase/all_configurations.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <map>
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
                  outside_size<6>(n));
            for (int threads : {1, 2}) {
                CAPTURE(threads);
                CHECK(outside_value_counts(game, n, levels, threads) == expected);
                const auto files = as_files(levels, n);
                for (uint64_t batch : {uint64_t(1000), uint64_t(1) << 20}) {
                    CAPTURE(batch);
                    uint64_t last_done = 0, calls = 0;
                    CHECK(streamed_outside_value_counts(game, n, files, threads, batch,
                                                        [&](uint64_t done, uint64_t total) {
                                                            CHECK(total == outside_size<6>(n));
                                                            CHECK(done > last_done);
                                                            last_done = done;
                                                            ++calls;
                                                        }) == expected);
                    CHECK(last_done == outside_size<6>(n));
                    CHECK(calls == (outside_size<6>(n) + batch - 1) / batch);
                }
            }
        }
    }
}

namespace {

// Every distribution of n seeds over 2P pits with a seed in each of pits P..2P-1 (outside
// D_n), valued by the reference alone: its moves, its terminal value, its values of the
// children.
ValueCounts reference_outside_counts(const Rules& rules, int pits_per_side, int n,
                                     const std::vector<std::map<test::Board, int>>& values) {
    ValueCounts counts{};
    const int pits = 2 * pits_per_side;
    test::Board b(size_t(pits), 0);
    auto place = [&](auto&& self, int pit, int left) -> void {
        if (pit == pits - 1) {
            b[size_t(pit)] = left;
            if (std::count(b.begin() + pits_per_side, b.end(), 0) > 0) return; // in D_n
            const auto moves = test::reference_moves(rules, b);
            int v = test::reference_terminal(b);
            if (!moves.empty()) {
                v = -1000;
                for (const auto& m : moves)
                    v = std::max(v, m.captured - values[size_t(n - m.captured)].at(m.child));
            }
            ++counts[size_t(v + kMaxSeeds)];
            return;
        }
        for (int v = 0; v <= left; ++v) {
            b[size_t(pit)] = v;
            self(self, pit + 1, left - v);
        }
    };
    place(place, 0, n);
    return counts;
}

template <int P> void check_board(const Rules& rules, int max_n) {
    CAPTURE(P);
    CAPTURE(rules.name);
    const BasicOwareGame<P> game(rules);
    const auto levels = solve_in_memory(game, max_n, 2);
    const auto reference = test::reference_values(rules, P, max_n);
    uint64_t outside_nonzero = 0;
    for (int n = 0; n <= max_n; ++n) {
        CAPTURE(n);
        // The stored values' histogram (plain `stats`).
        ValueCounts stored{}, expected_stored{};
        for (int8_t v : levels[size_t(n)].span()) ++stored[size_t(v + kMaxSeeds)];
        for (const auto& [board, v] : reference[size_t(n)])
            ++expected_stored[size_t(v + kMaxSeeds)];
        CHECK(stored == expected_stored);
        // The outside positions (--all-configurations), in memory and streamed.
        const ValueCounts expected = reference_outside_counts(rules, P, n, reference);
        const uint64_t outside = std::accumulate(expected.begin(), expected.end(), uint64_t(0));
        CHECK(outside == outside_size<P>(n));
        // Every distribution of n seeds: C(n+2P-1, 2P-1).
        CHECK(outside + reference[size_t(n)].size() == binomial(n + 2 * P - 1, 2 * P - 1));
        outside_nonzero += outside - expected[size_t(kMaxSeeds)];
        CHECK(outside_value_counts(game, n, levels, 2) == expected);
        for (uint64_t batch : {uint64_t(50), uint64_t(1) << 20})
            CHECK(streamed_outside_value_counts(game, n, as_files(levels, n), 2, batch) ==
                  expected);
    }
    CHECK(outside_nonzero > 0); // not a comparison of zeros
}

} // namespace

TEST_CASE("every configuration on boards of 2, 3 and 4 pits a side: stored histograms and "
          "outside counts against the reference") {
    const bool quick = test::quick();
    for (const Rules& rules : {Rules::abapa(), Rules::awari()}) {
        check_board<2>(rules, quick ? 8 : 11);
        check_board<3>(rules, quick ? 6 : 8);
        check_board<4>(rules, quick ? 6 : 7); // outside positions from n = 4 on
    }
}
