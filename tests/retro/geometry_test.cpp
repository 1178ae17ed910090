// Oware on other boards (P pits per side) through the unchanged engine: every value and
// every histogram of the engine's levels against an independent reference
// (reference_oware.hpp, which shares no code with solver/oware), and perft from the start
// against the reference's own recursion.
#include "oware/oware_game.hpp"
#include "oware/perft.hpp"
#include "quick.hpp"
#include "reference_oware.hpp"
#include "retro/solve_in_memory.hpp"

#include <doctest/doctest.h>

#include <map>

using namespace owaredb;

namespace {

test::Board board_of(const auto& position) {
    return test::Board(position.pits.begin(), position.pits.end());
}

// Returns how many values are not 0, so that a caller can insist the comparison is not
// between zeros.
template <int P> uint64_t check_values_against_reference(const Rules& rules, int max_n) {
    CAPTURE(P);
    CAPTURE(rules.name);
    const BasicOwareGame<P> game(rules);
    const auto levels = solve_in_memory(game, max_n, 2);
    const auto reference = test::reference_values(rules, P, max_n);
    uint64_t decided = 0;
    for (int n = 0; n <= max_n; ++n) {
        CAPTURE(n);
        REQUIRE(levels[n].size() == reference[n].size());
        REQUIRE(game.level_size(n) == reference[n].size());
        std::map<int, uint64_t> engine_histogram, reference_histogram;
        uint64_t mismatches = 0;
        for (uint64_t i = 0; i < levels[n].size(); ++i) {
            const auto position = game.unrank(n, i);
            const int expected = reference[n].at(board_of(position));
            mismatches += levels[n][i] != expected;
            ++engine_histogram[levels[n][i]];
            decided += expected != 0;
        }
        for (const auto& [board, v] : reference[n]) ++reference_histogram[v];
        CHECK(mismatches == 0);
        CHECK(engine_histogram == reference_histogram);
    }
    return decided;
}

template <int P> void check_perft(const Rules& rules, int depth) {
    CAPTURE(P);
    CAPTURE(rules.name);
    const auto start = BasicPosition<P>::start(4);
    for (int d = 1; d <= depth; ++d) {
        CAPTURE(d);
        CHECK(perft(rules, start, d) == test::reference_perft(rules, board_of(start), d));
    }
}

} // namespace

TEST_CASE("every value and histogram of P = 1..4 pits per side against the reference") {
    // Seed counts where the reference's maps stay small (P = 4, n = 7: 3,432 positions).
    const bool quick = test::quick();
    for (const Rules& rules : {Rules::abapa(), Rules::awari()}) {
        const uint64_t one = check_values_against_reference<1>(rules, quick ? 8 : 12);
        // One pit a side: the only move sows every seed into the opponent's pit, so a
        // capture there takes all it has, a grand slam: under abapa it captures nothing and
        // every position is an endless draw; under awari 2 or 3 seeds are taken.
        if (rules.name == "abapa")
            CHECK(one == 0);
        else
            CHECK(one > 0);
        CHECK(check_values_against_reference<2>(rules, quick ? 8 : 12) > 0);
        CHECK(check_values_against_reference<3>(rules, quick ? 6 : 9) > 0);
        CHECK(check_values_against_reference<4>(rules, quick ? 5 : 7) > 0);
    }
}

TEST_CASE("P = 5..8 against the reference on few seeds; 8 moves take the 4-bit counter") {
    // Eight pits a side give eight moves, one more than the in-memory engine's 3-bit move
    // counter holds: its words then keep 4 bits (retrograde.hpp).
    const bool quick = test::quick();
    for (const Rules& rules : {Rules::abapa(), Rules::awari()}) {
        CHECK(check_values_against_reference<5>(rules, quick ? 4 : 5) > 0);
        CHECK(check_values_against_reference<6>(rules, quick ? 3 : 5) > 0);
        CHECK(check_values_against_reference<7>(rules, quick ? 3 : 4) > 0);
        CHECK(check_values_against_reference<8>(rules, quick ? 3 : 4) > 0);
    }
}

TEST_CASE("perft from 4 seeds per pit on P = 2..8 agrees with the reference's recursion") {
    const int extra = test::quick() ? 0 : 1;
    for (const Rules& rules : {Rules::abapa(), Rules::awari()}) {
        check_perft<2>(rules, 9 + extra);
        check_perft<3>(rules, 8 + extra);
        check_perft<4>(rules, 7 + extra);
        check_perft<5>(rules, 6 + extra);
        check_perft<6>(rules, 5 + extra);
        check_perft<7>(rules, 5 + extra);
        check_perft<8>(rules, 4 + extra);
    }
}

TEST_CASE("the reference gives the standard board's fixed perft counts") {
    // tests/oware/perft_test.cpp: 1, 6, 36, 190, 1014, 5219 from 4 seeds per pit.
    const auto start = board_of(Position::start(4));
    const uint64_t expected[] = {1, 6, 36, 190, 1014, 5219};
    for (const Rules& rules : {Rules::abapa(), Rules::awari()})
        for (int d = 0; d <= 5; ++d) CHECK(test::reference_perft(rules, start, d) == expected[d]);
}
