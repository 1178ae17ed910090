// The bounds solver (retro/bounds.hpp) against a deliberately plain reference solver.
//
// The reference is Kleene iteration from the bottom: gM_0 = gN_0 = 0 everywhere, then
//     gM_{k+1}(b) = max over moves (captured + gN_k(child)),  gN_{k+1}(b) = min over moves
//     gM_k(child),  terminals by their split,
// for every state at once (Jacobi sweeps over forward moves only: no un-moves, counters or
// thresholds), until nothing changes. The operator is monotone on a finite lattice, so the
// iterates rise to its least fixed point, which is what gM and gN are defined to be.
#include "oware/oware_game.hpp"
#include "quick.hpp"
#include "retro/bounds.hpp"
#include "retro/solve_in_memory.hpp"
#include "toy_game.hpp"

#include <doctest/doctest.h>

#include <cstring>
#include <vector>

using namespace owaredb;

namespace {

template <RetroGame Game>
std::vector<std::vector<BoundPair>> reference_bounds(const Game& game, int max_n) {
    std::vector<std::vector<BoundPair>> levels;
    for (int n = 0; n <= max_n; ++n) {
        const uint64_t size = game.level_size(n);
        std::vector<BoundPair> cur(size), next(size);
        for (bool changed = true; changed;) {
            changed = false;
            for (uint64_t i = 0; i < size; ++i) {
                next[i] =
                    bounds_equation(game, n, game.unrank(n, i), [&](int level, const auto& child) {
                        return level < n ? levels[level][game.rank(child)] : cur[game.rank(child)];
                    });
                changed |= next[i].gm != cur[i].gm || next[i].gn != cur[i].gn;
            }
            cur.swap(next);
        }
        levels.push_back(cur);
    }
    return levels;
}

struct Counts {
    uint64_t exact = 0, inexact = 0;
};

// The solver's levels against the reference; counts exact and inexact states so a test can
// insist that the comparison is not trivial.
template <RetroGame Game> Counts check_against_reference(const Game& game, int max_n) {
    const auto levels = solve_bounds_in_memory(game, max_n, 2);
    const auto ref = reference_bounds(game, max_n);
    Counts counts;
    for (int n = 0; n <= max_n; ++n) {
        CAPTURE(n);
        REQUIRE(levels[n].size() == 2 * ref[n].size());
        uint64_t mismatches = 0, out_of_range = 0;
        for (uint64_t i = 0; i < ref[n].size(); ++i) {
            const BoundPair b = bound_pair(levels[n].data(), i);
            mismatches += b.gm != ref[n][i].gm || b.gn != ref[n][i].gn;
            out_of_range += b.gm < 0 || b.gn < 0 || b.gm + b.gn > n;
            ++(b.gm + b.gn == n ? counts.exact : counts.inexact);
        }
        CHECK(mismatches == 0);
        CHECK(out_of_range == 0);
    }
    return counts;
}

} // namespace

TEST_CASE("bounds: the toy ring game (it has cycles) agrees with the reference solver") {
    const Counts c = check_against_reference(test::RingGame(12), 12);
    CHECK(c.exact > 100);
    CHECK(c.inexact > 100);
}

TEST_CASE("bounds: the toy game's hand-checked bounds") {
    test::RingGame game(3);
    const auto levels = solve_bounds_in_memory(game, 3, 1);
    auto bounds = [&](test::RingGame::State s) {
        return bound_pair(levels[s[0] + s[1] + s[2] + s[3]].data(), game.rank(s));
    };
    // No token to move: the opponent takes the one on the board.
    CHECK(bounds({0, 0, 1, 0}).gm == 0);
    CHECK(bounds({0, 0, 1, 0}).gn == 1);
    // One token each, value 0 by endless shuffling (retrograde_test.cpp). Whoever crosses
    // loses its token, so neither side can force anything: gM = gN = 0, gM + gN < n. Under
    // the even split the value is 0; under "each side keeps its own" each keeps 1; both lie
    // in [2 gM - n, n - 2 gN] = [-2, 2].
    CHECK(bounds({0, 1, 1, 0}).gm == 0);
    CHECK(bounds({0, 1, 1, 0}).gn == 0);
    // Take two, then the opponent, left with nothing, cannot move: we take the last token
    // too. Forced, so exact: gM = 3, gN = 0.
    CHECK(bounds({0, 1, 2, 0}).gm == 3);
    CHECK(bounds({0, 1, 2, 0}).gn == 0);
}

TEST_CASE("bounds: the solver agrees with the reference solver on every Oware position, n <= 8") {
    const int max_n = test::quick() ? 5 : 8;
    for (const Rules& rules : {Rules::abapa(), Rules::awari()}) {
        CAPTURE(rules.name);
        const Counts c = check_against_reference(OwareGame(rules), max_n);
        CHECK(c.exact > 0);
        CHECK(c.inexact > 0);
    }
}

TEST_CASE("bounds: byte-identical for 1 and 2 threads") {
    const int max_n = test::quick() ? 8 : 12;
    for (const Rules& rules : {Rules::abapa(), Rules::awari()}) {
        OwareGame game(rules);
        const auto one = solve_bounds_in_memory(game, max_n, 1);
        const auto two = solve_bounds_in_memory(game, max_n, 2);
        for (int n = 0; n <= max_n; ++n) {
            REQUIRE(one[n].size() == two[n].size());
            CHECK(std::memcmp(one[n].data(), two[n].data(), one[n].size()) == 0);
        }
    }
}

TEST_CASE("bounds: overflow rescans (propagation stacks of 2 entries) give the same bytes") {
    const int max_n = test::quick() ? 8 : 10;
    for (const Rules& rules : {Rules::abapa(), Rules::awari()}) {
        OwareGame game(rules);
        const auto ref = solve_bounds_in_memory(game, max_n, 2);
        uint64_t rescans = 0;
        for (int n = 0; n <= max_n; ++n) {
            CAPTURE(n);
            BoundsSolver<OwareGame> solver(game, level_pointers(ref, n), 2);
            solver.set_stack_limit(2);
            LevelStats stats;
            const ValueArray b = solver.solve(n, {}, &stats);
            REQUIRE(b.size() == ref[n].size());
            CHECK(std::memcmp(b.data(), ref[n].data(), b.size()) == 0);
            rescans += stats.scans - uint64_t(n);
        }
        CHECK(rescans > 0);
    }
}

TEST_CASE("bounds: the even-split value lies in [2 gM - n, n - 2 gN], n <= 14") {
    const int max_n = test::quick() ? 10 : 14;
    for (const Rules& rules : {Rules::abapa(), Rules::awari()}) {
        CAPTURE(rules.name);
        OwareGame game(rules);
        const auto values = solve_in_memory(game, max_n, 2);
        const auto bounds = solve_bounds_in_memory(game, max_n, 2);
        for (int n = 0; n <= max_n; ++n) {
            CAPTURE(n);
            uint64_t outside = 0, inconsistent = 0, exact_mismatch = 0;
            for (uint64_t i = 0; i < values[n].size(); ++i) {
                const int v = values[n][i];
                const BoundPair b = bound_pair(bounds[n].data(), i);
                outside += v < 2 * b.gm - n || v > n - 2 * b.gn;
                // Where the bounds are exact the even split adds nothing: V = gM - gN.
                exact_mismatch += b.gm + b.gn == n && v != b.gm - b.gn;
                // Each stored pair satisfies its equations over the stored levels.
                const BoundPair e =
                    bounds_equation(game, n, game.unrank(n, i), [&](int level, const Position& c) {
                        return bound_pair(bounds[level].data(), game.rank(c));
                    });
                inconsistent += e.gm != b.gm || e.gn != b.gn;
            }
            CHECK(outside == 0);
            CHECK(exact_mismatch == 0);
            CHECK(inconsistent == 0);
        }
    }
}
