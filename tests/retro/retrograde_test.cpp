// The retrograde analyser against a deliberately simple reference solver.
//
// The reference is value iteration from zero: V_0 = terminal value or 0, and
// V_k(p) = max over legal moves (captured - V_{k-1}(child)) for every position at once
// (Jacobi sweeps, forward moves only: no un-moves, no counters, no thresholds), repeated
// until nothing changes. V_k is the value of the game cut off after k plies with the
// rest scored 0; a side that can force a gain of t forces it within a bounded number of
// plies and the other side can hold it to t forever, so V_k is the exact value (endless
// play = 0) once it stops changing.
#include "oware/oware_game.hpp"
#include "quick.hpp"
#include "retro/bellman.hpp"
#include "retro/solve_in_memory.hpp"
#include "toy_game.hpp"

#include <doctest/doctest.h>

#include <cstring>
#include <vector>

using namespace owaredb;

namespace {

// Written against the game's forward moves only (the RetroGame concept), so it serves the
// toy game and Oware alike.
template <RetroGame Game>
std::vector<std::vector<int>> reference_values(const Game& game, int max_n) {
    std::vector<std::vector<int>> values;
    for (int n = 0; n <= max_n; ++n) {
        const uint64_t size = game.level_size(n);
        std::vector<int> cur(size, 0), next(size);
        for (bool changed = true; changed;) {
            changed = false;
            for (uint64_t i = 0; i < size; ++i) {
                const auto s = game.unrank(n, i);
                int v = game.terminal_value(s);
                BestMove best;
                if (game.for_each_move(s, [&](int c, const auto& child) {
                        best.add(c, c ? values[n - c][game.rank(child)] : cur[game.rank(child)]);
                    }) > 0)
                    v = best.value();
                next[i] = v;
                changed |= v != cur[i];
            }
            cur.swap(next);
        }
        values.push_back(cur);
    }
    return values;
}

// The engine's levels against the reference, level by level; returns how many values of
// each sign the reference holds (so a test can insist the comparison is not trivial).
template <RetroGame Game>
std::array<uint64_t, 3> check_against_reference(const Game& game, int max_n) {
    auto levels = solve_in_memory(game, max_n, 2);
    auto ref = reference_values(game, max_n);
    std::array<uint64_t, 3> signs{};
    for (int n = 0; n <= max_n; ++n) {
        CAPTURE(n);
        REQUIRE(levels[n].size() == ref[n].size());
        uint64_t mismatches = 0;
        for (uint64_t i = 0; i < ref[n].size(); ++i) {
            mismatches += levels[n][i] != ref[n][i];
            ++signs[(ref[n][i] > 0) - (ref[n][i] < 0) + 1];
        }
        CHECK(mismatches == 0);
    }
    return signs;
}

} // namespace

TEST_CASE("another game plugs in: the toy ring game agrees with the reference solver") {
    const int max_n = 12;
    const auto signs = check_against_reference(test::RingGame(max_n), max_n);
    // Wins, losses and draws by endless play all occur, draws far beyond the empty board.
    CHECK(signs[0] > 100);
    CHECK(signs[1] > 100);
    CHECK(signs[2] > 100);
}

TEST_CASE("the toy game's hand-checked values") {
    test::RingGame game(3);
    auto levels = solve_in_memory(game, 3, 1);
    auto value = [&](test::RingGame::State s) {
        return levels[s[0] + s[1] + s[2] + s[3]][game.rank(s)];
    };
    CHECK(value({0, 0, 0, 0}) == 0);  // nothing left to win
    CHECK(value({0, 0, 1, 0}) == -1); // no token to move: the opponent takes its own
    CHECK(value({1, 0, 0, 0}) == 1);  // step: the opponent, with nothing, cannot move
    // One token each: whoever crosses to the other side is left with nothing and loses,
    // no capture is ever possible, so both shuffle their token for ever.
    CHECK(value({0, 1, 1, 0}) == 0);
    CHECK(value({1, 0, 1, 0}) == 0);
    CHECK(value({0, 1, 2, 0}) == 3);  // take two; the opponent, with nothing, leaves the last
    CHECK(value({0, 0, 2, 1}) == -3); // no token to move
}

TEST_CASE("the analyser agrees with the reference solver on every Oware position, n <= 8") {
    const int max_n = test::quick() ? 5 : 8;
    for (const Rules& rules : {Rules::abapa(), Rules::awari()}) {
        CAPTURE(rules.name);
        const auto signs = check_against_reference(OwareGame(rules), max_n);
        CHECK(signs[0] + signs[2] > 0); // the comparison is not between two all-zero arrays
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
            const int v = bellman_value(game, n, game.unrank(n, i), [&](int k, const Position& c) {
                return int(levels[k][game.rank(c)]);
            });
            bad += v != levels[n][i] || v < -n || v > n;
        }
        CHECK_MESSAGE(bad == 0, "n = " << n);
    }
}
