// The quiet children generated one at a time (BasicOwareGame::for_each_quiet_child_while,
// what the 2-bit engine's check walks): for every position of the small levels of both
// rule sets and three boards, exactly the children legal_moves gives with nothing
// captured, in the same order, and none generated past the first the caller refuses; and
// by hand, the grand slam that abapa plays as a quiet move and awari as a capture.
#include "oware/oware_game.hpp"
#include "oware/ranking.hpp"
#include "quick.hpp"

#include <doctest/doctest.h>

#include <vector>

using namespace owaredb;

namespace {

template <int P> void check_levels(const Rules& rules, int max_n) {
    const BasicOwareGame<P> game(rules);
    using State = typename BasicOwareGame<P>::State;
    for (int n = 0; n <= max_n; ++n) {
        CAPTURE(n);
        for (uint64_t i = 0; i < level_size<P>(n); ++i) {
            const State s = unrank<P>(n, i);
            std::vector<uint64_t> want, got;
            game.for_each_move(s, [&](int captured, const State& child) {
                if (captured == 0) want.push_back(rank(child));
            });
            game.for_each_quiet_child_while(s, [&](const State& child) {
                got.push_back(rank(child));
                return true;
            });
            REQUIRE(got == want);
            int calls = 0;
            game.for_each_quiet_child_while(s, [&](const State&) { return ++calls, false; });
            CHECK(calls == (want.empty() ? 0 : 1));
        }
    }
}

} // namespace

TEST_CASE("quiet children one at a time: legal_moves' quiet ones, in order, both rule sets") {
    const int max_n = test::quick() ? 8 : 10;
    for (const Rules& rules : {Rules::abapa(), Rules::awari()}) {
        CAPTURE(rules.name);
        check_levels<6>(rules, max_n);
        check_levels<4>(rules, max_n + 2);
        check_levels<2>(rules, max_n + 6);
    }
}

TEST_CASE("quiet children one at a time: a grand slam is quiet under abapa, a capture under "
          "awari") {
    // The mover's last pit holds 1 seed; the opponent's first holds 1: sowing it makes 2
    // there, which captures every seed the opponent has.
    Position p;
    p.pits = {0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0};
    int abapa = 0, awari = 0;
    OwareGame(Rules::abapa()).for_each_quiet_child_while(p, [&](const Position& child) {
        CHECK(child.seeds() == 2); // nothing captured
        return ++abapa, true;
    });
    OwareGame(Rules::awari()).for_each_quiet_child_while(p, [&](const Position&) {
        return ++awari, true;
    });
    CHECK(abapa == 1);
    CHECK(awari == 0);
}
