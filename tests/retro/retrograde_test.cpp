// The retrograde analyser against a deliberately simple reference solver.
//
// The reference is value iteration from zero: V_0 = terminal value or 0, and
// V_k(p) = max over legal moves (captured - V_{k-1}(child)) for every position at once
// (Jacobi sweeps, forward moves only: no un-moves, no counters, no thresholds), repeated
// until nothing changes. V_k is the value of the game cut off after k plies with the
// rest scored 0; a side that can force a gain of t forces it within a bounded number of
// plies and the other side can hold it to t forever, so V_k is the exact value (endless
// play = 0) once it stops changing.
#include "quick.hpp"
#include "oware/oware_game.hpp"
#include "retro/solve_in_memory.hpp"

#include <doctest/doctest.h>

#include <cstring>
#include <vector>

using namespace owaredb;

namespace {

std::vector<std::vector<int>> reference_values(const Rules& rules, int max_n) {
    std::vector<std::vector<int>> values;
    for (int n = 0; n <= max_n; ++n) {
        const uint64_t size = level_size(n);
        std::vector<int> cur(size, 0), next(size);
        for (uint64_t i = 0; i < size; ++i) {
            Position p = unrank(n, i);
            if (legal_moves(rules, p).empty()) cur[i] = terminal_value(p);
        }
        for (bool changed = true; changed;) {
            changed = false;
            for (uint64_t i = 0; i < size; ++i) {
                Position p = unrank(n, i);
                MoveList moves = legal_moves(rules, p);
                int v = moves.empty() ? terminal_value(p) : -1000;
                for (const Move& m : moves) {
                    const int c = m.captured;
                    const int child = c ? values[n - c][rank(m.child)] : cur[rank(m.child)];
                    v = std::max(v, c - child);
                }
                next[i] = v;
                changed |= v != cur[i];
            }
            cur.swap(next);
        }
        values.push_back(cur);
    }
    return values;
}

} // namespace

TEST_CASE("the analyser agrees with the reference solver on every position, n <= 8") {
    const int max_n = test::quick() ? 5 : 8;
    for (const Rules& rules : {Rules::abapa(), Rules::awari()}) {
        CAPTURE(rules.name);
        OwareGame game(rules);
        auto levels = solve_in_memory(game, max_n, 2);
        auto ref = reference_values(rules, max_n);
        for (int n = 0; n <= max_n; ++n) {
            CAPTURE(n);
            REQUIRE(levels[n].size() == ref[n].size());
            uint64_t mismatches = 0, nonzero = 0;
            for (uint64_t i = 0; i < ref[n].size(); ++i) {
                mismatches += levels[n][i] != ref[n][i];
                nonzero += ref[n][i] != 0;
            }
            CHECK(mismatches == 0);
            if (n >= 2) CHECK(nonzero > 0); // the comparison is not between two all-zero arrays
        }
    }
}

TEST_CASE("the result is byte-identical for 1 and 2 threads") {
    const int max_n = test::quick() ? 8 : 12;
    for (const Rules& rules : {Rules::abapa(), Rules::awari()}) {
        OwareGame game(rules);
        auto one = solve_in_memory(game, max_n, 1);
        auto two = solve_in_memory(game, max_n, 2);
        for (int n = 0; n <= max_n; ++n) {
            REQUIRE(one[n].size() == two[n].size());
            CHECK(std::memcmp(one[n].data(), two[n].data(), one[n].size()) == 0);
        }
    }
}

TEST_CASE("values are within -n..n and respect the Bellman equation, n <= 12") {
    const int max_n = test::quick() ? 8 : 12;
    OwareGame game(Rules::abapa());
    auto levels = solve_in_memory(game, max_n, 2);
    for (int n = 0; n <= max_n; ++n) {
        uint64_t bad = 0;
        for (uint64_t i = 0; i < levels[n].size(); ++i) {
            Position p = unrank(n, i);
            MoveList moves = legal_moves(game.rules(), p);
            int v = moves.empty() ? terminal_value(p) : -1000;
            for (const Move& m : moves)
                v = std::max(v, m.captured - levels[n - m.captured][rank(m.child)]);
            bad += v != levels[n][i] || v < -n || v > n;
        }
        CHECK_MESSAGE(bad == 0, "n = " << n);
    }
}
