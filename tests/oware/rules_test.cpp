// Hand-checked positions for every rule of docs/rules.md (Sowing and capturing; Rule sets) in
// both rule sets (abapa and awari).
//
// Every expected board below was worked out by hand, seed by seed, in the comment above
// it; nothing is derived by calling the production code. Notation: pits 0..11, the mover
// owns 0..5; "after" is the board right after the move (mover still owns 0..5), the
// child is that board with captured pits emptied and rotated by six (pits 6..11 first).
#include "oware/moves.hpp"
#include "oware/position.hpp"
#include "oware/rules.hpp"

#include "test_helpers.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace owaredb;

namespace {

using test::move_numbers;
using test::P;

// Checks that `move` (1..6) is legal in p and has the given capture and child.
void check_move(const Rules& rules, const char* position, int move, int captured,
                const char* child) {
    CAPTURE(rules.name);
    CAPTURE(position);
    CAPTURE(move);
    const Position p = P(position);
    const MoveList list = legal_moves(rules, p);
    const Move* found = nullptr;
    for (const Move& m : list)
        if (m.pit + 1 == move) found = &m;
    REQUIRE_MESSAGE(found != nullptr, "move " << move << " is not legal");
    CHECK(int(found->captured) == captured);
    CHECK(to_string(found->child) == to_string(P(child)));
    // Seeds are conserved, and the child is reached by a move: the origin (pit move-1
    // of the parent, pit move+5 of the rotated child) is empty.
    CHECK(found->child.seeds() + captured == p.seeds());
    CHECK(found->child.pits[move - 1 + kPitsPerSide] == 0);
}

void check_both(const char* position, int move, int captured, const char* child) {
    check_move(Rules::abapa(), position, move, captured, child);
    check_move(Rules::awari(), position, move, captured, child);
}

const std::vector<int> kNone{};

} // namespace

TEST_CASE("rule presets and their knobs") {
    CHECK(Rules::abapa().name == "abapa");
    CHECK(Rules::abapa().grand_slam == GrandSlam::CapturesNothing);
    CHECK(Rules::abapa().all_moves_starve == AllMovesStarve::GameEnds);
    CHECK(Rules::awari().name == "awari");
    CHECK(Rules::awari().grand_slam == GrandSlam::CapturesAll);
    CHECK(Rules::awari().all_moves_starve == AllMovesStarve::MovesAreLegal);
    CHECK(Rules::by_name("abapa") == Rules::abapa());
    CHECK(Rules::by_name("awari") == Rules::awari());
    CHECK_FALSE(Rules::by_name("Abapa").has_value());
    CHECK_FALSE(Rules::by_name("").has_value());
    CHECK(Rules::abapa().knob_bytes(6) != Rules::awari().knob_bytes(6));
}

TEST_CASE("simple sowing and the rotated child") {
    // Start, move 1: pit 0's 4 seeds go to pits 1..4.
    //   after  0 5 5 5 5 4 | 4 4 4 4 4 4   -> child 4 4 4 4 4 4 0 5 5 5 5 4
    check_both("4 4 4 4 4 4 4 4 4 4 4 4", 1, 0, "4 4 4 4 4 4 0 5 5 5 5 4");
    // Start, move 6: pit 5's 4 seeds go to pits 6..9; last seed in pit 9 makes 5.
    //   after  4 4 4 4 4 0 | 5 5 5 5 4 4   -> child 5 5 5 5 4 4 4 4 4 4 4 0
    check_both("4 4 4 4 4 4 4 4 4 4 4 4", 6, 0, "5 5 5 5 4 4 4 4 4 4 4 0");
    // Every pit of the start position is a legal move.
    CHECK(move_numbers(Rules::abapa(), Position::start(4)) == std::vector<int>{1, 2, 3, 4, 5, 6});
    CHECK(move_numbers(Rules::awari(), Position::start(4)) == std::vector<int>{1, 2, 3, 4, 5, 6});
    // Empty pits are not moves: only pits 1 and 4 (written 2 and 5) hold seeds.
    //   move 2: 3 seeds to pits 2,3,4 -> after 0 0 1 1 2 0 | 1 0 0 0 0 0
    //           child 1 0 0 0 0 0 0 0 1 1 2 0
    CHECK(move_numbers(Rules::abapa(), P("0 3 0 0 1 0 1 0 0 0 0 0")) == std::vector<int>{2, 5});
    check_both("0 3 0 0 1 0 1 0 0 0 0 0", 2, 0, "1 0 0 0 0 0 0 0 1 1 2 0");
}

TEST_CASE("origin skip on laps of 12 or more seeds") {
    SUBCASE("12 seeds from pit 0: the 12th seed skips pit 0 and lands in pit 1") {
        // 12 1 0 0 0 0 | 2 0 0 0 0 1: seeds 1..11 go to pits 1..11, seed 12 skips the
        // origin and lands in pit 1 (own side: no capture).
        //   after 0 3 1 1 1 1 | 3 1 1 1 1 2  -> child 3 1 1 1 1 2 0 3 1 1 1 1
        check_both("12 1 0 0 0 0 2 0 0 0 0 1", 1, 0, "3 1 1 1 1 2 0 3 1 1 1 1");
    }
    SUBCASE("12 seeds from pit 5: the 12th seed lands in pit 6 and captures there") {
        // 0 0 0 0 0 12 | 0 1 1 1 1 1: seeds 1..6 to pits 6..11, 7..11 to pits 0..4,
        // seed 12 skips pit 5 and lands in pit 6, which then holds 2.
        //   after 1 1 1 1 1 0 | 2 2 2 2 2 2; chain from pit 6 is just pit 6 (never past
        //   it): captures 2 of the opponent's 12, so it is no grand slam.
        //   after capture 1 1 1 1 1 0 | 0 2 2 2 2 2 -> child 0 2 2 2 2 2 1 1 1 1 1 0
        check_both("0 0 0 0 0 12 0 1 1 1 1 1", 6, 2, "0 2 2 2 2 2 1 1 1 1 1 0");
    }
    SUBCASE("17 seeds from pit 2") {
        // 0 0 17 0 0 0 | 0 0 0 0 0 1: seeds 1..11 to pits 3..11,0,1; seeds 12..17 skip
        // pit 2 and go to pits 3,4,5,6,7,8. Last seed in pit 8.
        //   after 1 1 0 2 2 2 | 2 2 2 1 1 2; chain 8,7,6 = 2+2+2 = 6 of the
        //   opponent's 10: capture 6 (a three-pit chain ending at pit 6).
        //   after capture 1 1 0 2 2 2 | 0 0 0 1 1 2 -> child 0 0 0 1 1 2 1 1 0 2 2 2
        check_both("0 0 17 0 0 0 0 0 0 0 0 1", 3, 6, "0 0 0 1 1 2 1 1 0 2 2 2");
        // Same sowing with 2 seeds already in pit 8: it ends with 4, no capture.
        //   after 1 1 0 2 2 2 | 2 2 4 1 1 1 -> child 2 2 4 1 1 1 1 1 0 2 2 2
        check_both("0 0 17 0 0 0 0 0 2 0 0 0", 3, 0, "2 2 4 1 1 1 1 1 0 2 2 2");
    }
    SUBCASE("23 seeds: two full laps of 11 plus one") {
        // 23 0 0 0 0 0 | 0 0 0 0 0 1 from pit 0: every other pit gets 2, seed 23 lands
        // in pit 1 (own side).
        //   after 0 3 2 2 2 2 | 2 2 2 2 2 3 -> child 2 2 2 2 2 3 0 3 2 2 2 2
        check_both("23 0 0 0 0 0 0 0 0 0 0 1", 1, 0, "2 2 2 2 2 3 0 3 2 2 2 2");
        // 0 0 0 0 0 23 | 1 0 2 0 0 0 from pit 5: every other pit gets 2, seed 23 lands in
        // pit 6, which then holds 1+2+1 = 4: no capture.
        //   after 2 2 2 2 2 0 | 4 2 4 2 2 2 -> child 4 2 4 2 2 2 2 2 2 2 2 0
        check_both("0 0 0 0 0 23 1 0 2 0 0 0", 6, 0, "4 2 4 2 2 2 2 2 2 2 2 0");
        // 0 0 0 0 0 23 | empty opponent: pit 6 ends with 3 and is captured; the
        // opponent keeps 10, so it is neither a grand slam nor starving.
        //   after 2 2 2 2 2 0 | 3 2 2 2 2 2 -> after capture 2 2 2 2 2 0 | 0 2 2 2 2 2
        //   child 0 2 2 2 2 2 2 2 2 2 2 0
        check_both("0 0 0 0 0 23 0 0 0 0 0 0", 6, 3, "0 2 2 2 2 2 2 2 2 2 2 0");
    }
}

TEST_CASE("capture chains") {
    SUBCASE("one pit, chain broken by a pit with 4") {
        // 1 0 0 0 0 2 | 3 2 0 0 0 1, move 6: pits 6,7 get a seed.
        //   after 1 0 0 0 0 0 | 4 3 0 0 0 1: pit 7 holds 3 (captured), pit 6 holds 4 (stop)
        //   after capture 1 0 0 0 0 0 | 4 0 0 0 0 1 -> child 4 0 0 0 0 1 1 0 0 0 0 0
        check_both("1 0 0 0 0 2 3 2 0 0 0 1", 6, 3, "4 0 0 0 0 1 1 0 0 0 0 0");
        // Move 1: one seed to pit 1, own side.
        //   after 0 1 0 0 0 2 | 3 2 0 0 0 1 -> child 3 2 0 0 0 1 0 1 0 0 0 2
        check_both("1 0 0 0 0 2 3 2 0 0 0 1", 1, 0, "3 2 0 0 0 1 0 1 0 0 0 2");
    }
    SUBCASE("two pits, chain broken by a pit with 1") {
        // 0 0 0 0 0 3 | 0 1 2 4 0 0, move 6: pits 6,7,8 get a seed.
        //   after 0 0 0 0 0 0 | 1 2 3 4 0 0: 3 (pit 8) + 2 (pit 7), pit 6 holds 1 (stop)
        //   after capture 0 0 0 0 0 0 | 1 0 0 4 0 0 -> child 1 0 0 4 0 0 0 0 0 0 0 0
        check_both("0 0 0 0 0 3 0 1 2 4 0 0", 6, 5, "1 0 0 4 0 0 0 0 0 0 0 0");
    }
    SUBCASE("two pits reaching pit 6") {
        // 0 0 0 0 3 0 | 1 2 1 5 0 0, move 5: pits 5,6,7 get a seed.
        //   after 0 0 0 0 0 1 | 2 3 1 5 0 0: 3 (pit 7) + 2 (pit 6) = 5 of 11
        //   after capture 0 0 0 0 0 1 | 0 0 1 5 0 0 -> child 0 0 1 5 0 0 0 0 0 0 0 1
        check_both("0 0 0 0 3 0 1 2 1 5 0 0", 5, 5, "0 0 1 5 0 0 0 0 0 0 0 1");
    }
    SUBCASE("four pits, chain broken by a pit with 5") {
        // 1 0 0 0 0 5 | 4 1 2 1 2 0, move 6: pits 6..10 get a seed.
        //   after 1 0 0 0 0 0 | 5 2 3 2 3 0: pits 10,9,8,7 = 3+2+3+2 = 10; pit 6 holds 5
        //   after capture 1 0 0 0 0 0 | 5 0 0 0 0 0 -> child 5 0 0 0 0 0 1 0 0 0 0 0
        check_both("1 0 0 0 0 5 4 1 2 1 2 0", 6, 10, "5 0 0 0 0 0 1 0 0 0 0 0");
    }
    SUBCASE("five pits down to pit 6, the sixth pit keeps its seeds") {
        // 0 0 8 0 0 1 | 1 1 1 1 2 3, move 3: pits 3..10 get a seed.
        //   after 0 0 0 1 1 2 | 2 2 2 2 3 3: pits 10..6 = 3+2+2+2+2 = 11; pit 11 (3) is
        //   after the last seed, so it stays: no grand slam.
        //   after capture 0 0 0 1 1 2 | 0 0 0 0 0 3 -> child 0 0 0 0 0 3 0 0 0 1 1 2
        check_both("0 0 8 0 0 1 1 1 1 1 2 3", 3, 11, "0 0 0 0 0 3 0 0 0 1 1 2");
    }
    SUBCASE("the chain stops at pit 6 and never wraps into the mover's side") {
        // 0 0 0 4 1 2 | 1 2 1 0 0 0, move 4: pits 4,5,6,7 get a seed.
        //   after 0 0 0 0 2 3 | 2 3 1 0 0 0: 3 (pit 7) + 2 (pit 6) = 5; the mover's own
        //   pits 5 (3) and 4 (2) are not taken.
        //   after capture 0 0 0 0 2 3 | 0 0 1 0 0 0 -> child 0 0 1 0 0 0 0 0 0 0 2 3
        check_both("0 0 0 4 1 2 1 2 1 0 0 0", 4, 5, "0 0 1 0 0 0 0 0 0 0 2 3");
    }
    SUBCASE("a last seed that makes 1 or 4 captures nothing") {
        // 0 0 0 0 0 2 | 3 0 2 0 0 0, move 6: after 0 0 0 0 0 0 | 4 1 2 0 0 0; last in
        // pit 7 (1): no capture, even though pit 8 holds 2.
        //   child 4 1 2 0 0 0 0 0 0 0 0 0
        check_both("0 0 0 0 0 2 3 0 2 0 0 0", 6, 0, "4 1 2 0 0 0 0 0 0 0 0 0");
        // 0 0 0 0 0 2 | 2 3 0 0 0 0, move 6: after | 3 4 ...; last in pit 7 (4): none.
        //   child 3 4 0 0 0 0 0 0 0 0 0 0
        check_both("0 0 0 0 0 2 2 3 0 0 0 0", 6, 0, "3 4 0 0 0 0 0 0 0 0 0 0");
    }
    SUBCASE("a last seed on the mover's own side never captures") {
        // 1 1 0 0 0 0 | 0 0 0 0 0 1, move 1: pit 1 becomes 2 on the mover's side.
        //   after 0 2 0 0 0 0 | 0 0 0 0 0 1 -> child 0 0 0 0 0 1 0 2 0 0 0 0
        check_both("1 1 0 0 0 0 0 0 0 0 0 1", 1, 0, "0 0 0 0 0 1 0 2 0 0 0 0");
        // 13 1 1 0 0 0 | 1 0 0 0 0 0, move 1: seeds 1..11 to pits 1..11, 12 and 13 skip
        // pit 0 and go to pits 1 and 2, which end with 3 each (own side: no capture),
        // although pit 6 holds 2.
        //   after 0 3 3 1 1 1 | 2 1 1 1 1 1 -> child 2 1 1 1 1 1 0 3 3 1 1 1
        check_both("13 1 1 0 0 0 1 0 0 0 0 0", 1, 0, "2 1 1 1 1 1 0 3 3 1 1 1");
    }
}

TEST_CASE("grand slam") {
    SUBCASE("abapa: legal and captures nothing; awari: illegal while another move exists") {
        // 1 0 0 0 0 2 | 1 1 0 0 0 0. Move 6: after 1 0 0 0 0 0 | 2 2 0 0 0 0, the chain
        // 7,6 would take 4 = every opponent seed: a grand slam.
        //   abapa: captures nothing -> child 2 2 0 0 0 0 1 0 0 0 0 0
        //   move 1: after 0 1 0 0 0 2 | 1 1 0 0 0 0 -> child 1 1 0 0 0 0 0 1 0 0 0 2
        const char* pos = "1 0 0 0 0 2 1 1 0 0 0 0";
        CHECK(move_numbers(Rules::abapa(), P(pos)) == std::vector<int>{1, 6});
        check_move(Rules::abapa(), pos, 6, 0, "2 2 0 0 0 0 1 0 0 0 0 0");
        check_move(Rules::abapa(), pos, 1, 0, "1 1 0 0 0 0 0 1 0 0 0 2");
        //   awari: the grand slam would leave the opponent without seeds and move 1
        //   exists, so only move 1 is legal.
        CHECK(move_numbers(Rules::awari(), P(pos)) == std::vector<int>{1});
        check_move(Rules::awari(), pos, 1, 0, "1 1 0 0 0 0 0 1 0 0 0 2");
    }
    SUBCASE("awari: the only move is a grand slam, which captures everything") {
        // 0 0 0 0 0 2 | 1 1 0 0 0 0, move 6: after 0 0 0 0 0 0 | 2 2 0 0 0 0.
        //   abapa: legal, captures nothing -> child 2 2 0 0 0 0 0 0 0 0 0 0
        //   awari: every move starves, so it is legal and captures 4 -> child all empty,
        //   in which the side to move has no seeds: the game is over, value -0.
        const char* pos = "0 0 0 0 0 2 1 1 0 0 0 0";
        check_move(Rules::abapa(), pos, 6, 0, "2 2 0 0 0 0 0 0 0 0 0 0");
        check_move(Rules::awari(), pos, 6, 4, "0 0 0 0 0 0 0 0 0 0 0 0");
        CHECK(move_numbers(Rules::awari(), P(pos)) == std::vector<int>{6});
    }
    SUBCASE("awari: two grand slams and nothing else, both legal") {
        // 0 0 0 0 2 1 | 1 0 0 0 0 0.
        //   move 5: pits 5,6 -> after 0 0 0 0 0 2 | 2 0 0 0 0 0, chain = pit 6 = all 2.
        //   move 6: pit 6    -> after 0 0 0 0 2 0 | 2 0 0 0 0 0, chain = pit 6 = all 2.
        const char* pos = "0 0 0 0 2 1 1 0 0 0 0 0";
        //   awari: both starve, so both are legal and capture 2.
        //     move 5 -> child 0 0 0 0 0 0 0 0 0 0 0 2; move 6 -> 0 0 0 0 0 0 0 0 0 0 2 0
        CHECK(move_numbers(Rules::awari(), P(pos)) == std::vector<int>{5, 6});
        check_move(Rules::awari(), pos, 5, 2, "0 0 0 0 0 0 0 0 0 0 0 2");
        check_move(Rules::awari(), pos, 6, 2, "0 0 0 0 0 0 0 0 0 0 2 0");
        // The opponent, left without seeds, cannot move: the game ends, value -2 for it.
        CHECK(legal_moves(Rules::awari(), P("0 0 0 0 0 0 0 0 0 0 0 2")).empty());
        CHECK(terminal_value(P("0 0 0 0 0 0 0 0 0 0 0 2")) == -2);
        //   abapa: both capture nothing.
        //     move 5 -> child 2 0 0 0 0 0 0 0 0 0 0 2; move 6 -> 2 0 0 0 0 0 0 0 0 0 2 0
        CHECK(move_numbers(Rules::abapa(), P(pos)) == std::vector<int>{5, 6});
        check_move(Rules::abapa(), pos, 5, 0, "2 0 0 0 0 0 0 0 0 0 0 2");
        check_move(Rules::abapa(), pos, 6, 0, "2 0 0 0 0 0 0 0 0 0 2 0");
    }
    SUBCASE("a two-lap grand slam that also feeds an empty opponent") {
        // 22 1 0 0 0 0 | 0 0 0 0 0 0. Move 1: 22 = 2 laps of 11: every other pit gets 2,
        // the last seed lands in pit 11; pits 11..6 all hold 2 = all 12 opponent seeds.
        //   after 0 3 2 2 2 2 | 2 2 2 2 2 2. Move 2: one seed to pit 2, the opponent
        //   stays empty (starving).
        const char* pos = "22 1 0 0 0 0 0 0 0 0 0 0";
        //   abapa: move 1 feeds (the grand slam captures nothing), move 2 does not:
        //     only move 1 -> child 2 2 2 2 2 2 0 3 2 2 2 2
        CHECK(move_numbers(Rules::abapa(), P(pos)) == std::vector<int>{1});
        check_move(Rules::abapa(), pos, 1, 0, "2 2 2 2 2 2 0 3 2 2 2 2");
        //   awari: both moves leave the opponent without seeds, so both are legal; the
        //   grand slam captures 12.
        //     move 1 -> child 0 0 0 0 0 0 0 3 2 2 2 2
        //     move 2 -> after 22 0 1 0 0 0 | 0... -> child 0 0 0 0 0 0 22 0 1 0 0 0
        CHECK(move_numbers(Rules::awari(), P(pos)) == std::vector<int>{1, 2});
        check_move(Rules::awari(), pos, 1, 12, "0 0 0 0 0 0 0 3 2 2 2 2");
        check_move(Rules::awari(), pos, 2, 0, "0 0 0 0 0 0 22 0 1 0 0 0");
    }
    SUBCASE("taking all but one seed is an ordinary capture") {
        // 0 0 0 0 0 2 | 1 1 0 0 0 1, move 6: after | 2 2 0 0 0 1; chain 7,6 = 4 of 5.
        //   Both rule sets: capture 4 -> after capture 0 0 0 0 0 0 | 0 0 0 0 0 1
        //   child 0 0 0 0 0 1 0 0 0 0 0 0
        check_both("0 0 0 0 0 2 1 1 0 0 0 1", 6, 4, "0 0 0 0 0 1 0 0 0 0 0 0");
    }
}

TEST_CASE("feeding") {
    SUBCASE("feeding required: moves that leave the empty opponent empty are illegal") {
        // 0 0 2 0 3 1 | 0 0 0 0 0 0. Move 3 (2 seeds to pits 3,4) does not reach the
        // opponent; moves 5 and 6 do.
        //   move 5: pits 5,6,7 -> after 0 0 2 0 0 2 | 1 1 0 0 0 0
        //           child 1 1 0 0 0 0 0 0 2 0 0 2
        //   move 6: pit 6      -> after 0 0 2 0 3 0 | 1 0 0 0 0 0
        //           child 1 0 0 0 0 0 0 0 2 0 3 0
        const char* pos = "0 0 2 0 3 1 0 0 0 0 0 0";
        for (const Rules& rules : {Rules::abapa(), Rules::awari()})
            CHECK(move_numbers(rules, P(pos)) == std::vector<int>{5, 6});
        check_both(pos, 5, 0, "1 1 0 0 0 0 0 0 2 0 0 2");
        check_both(pos, 6, 0, "1 0 0 0 0 0 0 0 2 0 3 0");
    }
    SUBCASE("a move that would leave a non-empty opponent empty by sowing is impossible") {
        // Mandatory feeding only bites when the opponent is empty before the move: with
        // seeds on the opponent's side any non-capturing move leaves them there.
        // 1 0 0 0 0 0 | 0 0 0 0 0 1: move 1 (to pit 1) is legal in both rule sets.
        //   after 0 1 0 0 0 0 | 0 0 0 0 0 1 -> child 0 0 0 0 0 1 0 1 0 0 0 0
        check_both("1 0 0 0 0 0 0 0 0 0 0 1", 1, 0, "0 0 0 0 0 1 0 1 0 0 0 0");
    }
    SUBCASE("feeding impossible") {
        // 4 0 0 1 0 0 | 0 0 0 0 0 0: move 1 sows pits 1..4, move 4 sows pit 4; neither
        // reaches pit 6.
        const char* pos = "4 0 0 1 0 0 0 0 0 0 0 0";
        //   abapa: no legal move, the game ends, the mover takes its 5 seeds: +5.
        CHECK(move_numbers(Rules::abapa(), P(pos)) == kNone);
        CHECK(terminal_value(P(pos)) == 5);
        //   awari: every move is legal.
        //     move 1: after 0 1 1 2 1 0 | 0... -> child 0 0 0 0 0 0 0 1 1 2 1 0
        //     move 4: after 4 0 0 0 1 0 | 0... -> child 0 0 0 0 0 0 4 0 0 0 1 0
        CHECK(move_numbers(Rules::awari(), P(pos)) == std::vector<int>{1, 4});
        check_move(Rules::awari(), pos, 1, 0, "0 0 0 0 0 0 0 1 1 2 1 0");
        check_move(Rules::awari(), pos, 4, 0, "0 0 0 0 0 0 4 0 0 0 1 0");
        //     after either, the opponent has no seeds: its value is -5, so the mover's
        //     value is again +5 (0 captured - (-5)).
        CHECK(legal_moves(Rules::awari(), P("0 0 0 0 0 0 0 1 1 2 1 0")).empty());
        CHECK(terminal_value(P("0 0 0 0 0 0 0 1 1 2 1 0")) == -5);
        CHECK(terminal_value(P("0 0 0 0 0 0 4 0 0 0 1 0")) == -5);
    }
}

TEST_CASE("terminal positions") {
    SUBCASE("the mover has no seeds: the opponent takes them all, -n") {
        // 0 0 0 0 0 0 | 1 2 0 0 0 3: no move in either rule set, value -6.
        for (const Rules& rules : {Rules::abapa(), Rules::awari()})
            CHECK(legal_moves(rules, P("0 0 0 0 0 0 1 2 0 0 0 3")).empty());
        CHECK(terminal_value(P("0 0 0 0 0 0 1 2 0 0 0 3")) == -6);
        // The empty board: no move, value 0.
        for (const Rules& rules : {Rules::abapa(), Rules::awari()})
            CHECK(legal_moves(rules, Position{}).empty());
        CHECK(terminal_value(Position{}) == 0);
    }
    SUBCASE("no move can feed the empty opponent: the mover takes them all, +n") {
        // 0 0 0 2 1 0 | 0...: move 4 sows pits 4,5, move 5 sows pit 5: no feeding.
        //   abapa: over at once, value +3. awari: both moves are legal (see "feeding").
        CHECK(legal_moves(Rules::abapa(), P("0 0 0 2 1 0 0 0 0 0 0 0")).empty());
        CHECK(terminal_value(P("0 0 0 2 1 0 0 0 0 0 0 0")) == 3);
        CHECK(move_numbers(Rules::awari(), P("0 0 0 2 1 0 0 0 0 0 0 0")) == std::vector<int>{4, 5});
        // 1 seed in pit 5 always feeds: legal in both, not terminal.
        //   after 0 0 0 0 0 0 | 1 0 0 0 0 0 -> child 1 0 0 0 0 0 0 0 0 0 0 0
        check_both("0 0 0 0 0 1 0 0 0 0 0 0", 6, 0, "1 0 0 0 0 0 0 0 0 0 0 0");
    }
}

TEST_CASE("sow and capture_chain helpers") {
    // sow() works in place without rotation and returns the last pit.
    Position b = P("0 0 17 0 0 0 0 0 0 0 0 1");
    CHECK(sow(b, 2) == 8);
    CHECK(to_string(b) == "1 1 0 2 2 2 2 2 2 1 1 2"); // worked out in the 17-seed case
    CHECK(capture_chain(b, 8) == 6);
    CHECK(capture_chain(b, 5) == 0); // own side never captures
    Position c = P("12 1 0 0 0 0 2 0 0 0 0 1");
    CHECK(sow(c, 0) == 1); // the 12th seed skips the origin
    CHECK(to_string(c) == "0 3 1 1 1 1 3 1 1 1 1 2");
    Position d = P("0 0 0 0 0 11 0 0 0 0 0 0");
    CHECK(sow(d, 5) == 4); // 11 seeds end just before the origin, which stays empty
    CHECK(to_string(d) == "1 1 1 1 1 0 1 1 1 1 1 1");
    Position e = P("0 0 0 0 0 22 0 0 0 0 0 0");
    CHECK(sow(e, 5) == 4); // two laps of 11
    CHECK(to_string(e) == "2 2 2 2 2 0 2 2 2 2 2 2");
    Position f = P("0 0 0 0 0 0 0 0 0 0 0 0");
    f.pits[3] = 48; // more than four laps: 48 = 4*11 + 4 -> pits 4,5,6,7 get a 5th seed
    CHECK(sow(f, 3) == 7);
    CHECK(to_string(f) == "4 4 4 0 5 5 5 5 4 4 4 4");
}
