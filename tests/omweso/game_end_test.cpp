// Game end, points and the match (docs/rules.md, Omweso: End of the game and points;
// interpretation in game_end.hpp).
#include "omweso/game_end.hpp"

#include <doctest/doctest.h>
#include <string>

using namespace owaredb::omweso;

namespace {

// South has just moved; North (to move) has the given circuit. Parsing puts the first
// line in South's circuit and the second in North's.
Position north_to_move(const char* north) {
    Position p = parse_position(std::string("2 2 2 0 0 0 0 0 0 0 0 0 0 0 0 0;") + north);
    p.to_move = North;
    return p;
}

} // namespace

TEST_SUITE("omweso game") {
    TEST_CASE("can_move needs a pit of 2 or more") {
        CHECK_FALSE(can_move(0));
        CHECK_FALSE(can_move(kOnes));
        CHECK(can_move(set_pit(0, 15, 2)));
        CHECK(can_move(set_pit(0, 0, 64)));
    }

    TEST_CASE("points") {
        // North can still move: no result.
        CHECK_FALSE(game_result(north_to_move("2 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0"), true));
        // Nothing left after a capturing turn: 12.
        auto r = game_result(north_to_move("0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0"), true);
        REQUIRE(r);
        CHECK(r->winner == South);
        CHECK(r->points == 12);
        // Same board without a capture in the last turn: the front row is empty, 2.
        CHECK(game_result(north_to_move("0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0"), false)->points == 2);
        // Singles left, front row empty: 2.
        CHECK(game_result(north_to_move("1 1 1 1 1 1 1 1 0 0 0 0 0 0 0 0"), true)->points == 2);
        // Singles in the front row but the four corners (0, 7, 8, 15) empty: 2.
        CHECK(game_result(north_to_move("0 1 1 1 1 1 1 0 0 1 1 1 1 1 1 0"), true)->points == 2);
        // One corner still holds a seed and the front row is not empty: 1.
        CHECK(game_result(north_to_move("0 1 1 1 1 1 1 0 1 1 1 1 1 1 1 0"), true)->points == 1);
        CHECK(game_result(north_to_move("1 0 0 0 0 0 0 0 0 0 0 0 0 0 1 0"), false)->points == 1);
    }

    TEST_CASE("a capturing turn that takes the opponent's last seeds wins 12") {
        // Mover pit 6 = 2, pit 8 = 1 captures opponent 15 + 0, all it had.
        const Position p = parse_position("0 0 0 0 0 0 2 0 1 0 0 0 0 0 0 0;"
                                          "3 0 0 0 0 0 0 0 0 0 0 0 0 0 0 2");
        const std::vector<Turn> ts = turns_from(p, 6, Start::Forward);
        REQUIRE(ts.size() == 1);
        const auto r = game_result(ts[0]);
        REQUIRE(r);
        CHECK(r->winner == South);
        CHECK(r->points == 12);
    }

    TEST_CASE("a match is played to 12 points") {
        Match m;
        CHECK_FALSE(m.over());
        for (int i = 0; i < 5; ++i) m.record({North, 2});
        m.record({South, 1});
        CHECK_FALSE(m.over());
        CHECK(m.points(North) == 10);
        m.record({North, 2});
        CHECK(m.over());
        CHECK(m.winner() == North);
        Match slam;
        slam.record({South, 12});
        CHECK(slam.over());
        CHECK(slam.winner() == South);
    }
}
