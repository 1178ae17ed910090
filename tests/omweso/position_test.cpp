// Position text forms, the board geometry and its column relation.
#include "omweso/position.hpp"

#include <doctest/doctest.h>
#include <string>
#include <utility>

using namespace owaredb::omweso;

TEST_SUITE("omweso position") {
    TEST_CASE("circuit form round-trips, mover first") {
        const std::string text =
            "2 0 1 0 1 0 1 0 1 0 1 0 1 0 2 1\n4 4 4 4 4 4 4 4 0 0 0 0 0 0 0 0\n";
        const Position p = parse_position(text);
        CHECK(p.to_move == South);
        CHECK(get_pit(p.mover(), 0) == 2);
        CHECK(get_pit(p.mover(), 14) == 2);
        CHECK(get_pit(p.opponent(), 7) == 4);
        CHECK(to_circuit_text(p) == text);
        CHECK(parse_position("2,0,1,0,1,0,1,0,1,0,1,0,1,0,2,1 ; 4 4 4 4 4 4 4 4 0 0 0 0 0 0 0 0") ==
              p);
        // Parsed positions are mid-game: the opening rules do not apply.
        CHECK_FALSE(p.first_turn_pending[0]);
        CHECK(p.capture_happened);
    }

    TEST_CASE("board form: the column relation of board.hpp") {
        // Board text (rows top to bottom as seen from South) with one seed at (row, column).
        auto one_seed = [](int row, int col) {
            std::string t;
            for (int r = 0; r < 4; ++r) {
                for (int c = 0; c < 8; ++c) t += (r == row && c == col) ? "1 " : "0 ";
                t += ';';
            }
            return parse_position(t);
        };
        // Where that seed lands in circuit indexing: {player, k}.
        auto where = [](const Position& p) {
            for (int pl = 0; pl < 2; ++pl)
                for (int k = 0; k < 16; ++k)
                    if (get_pit(p.pits[std::size_t(pl)], k) == 1) return std::pair{pl, k};
            return std::pair{-1, -1};
        };
        for (int c = 0; c < 8; ++c) {
            CHECK(where(one_seed(0, c)) == std::pair{int(North), 7 - c});  // North back
            CHECK(where(one_seed(1, c)) == std::pair{int(North), 8 + c});  // North front
            CHECK(where(one_seed(2, c)) == std::pair{int(South), 15 - c}); // South front
            CHECK(where(one_seed(3, c)) == std::pair{int(South), c});      // South back
        }
        // South's front pit k faces North's front 23 - k and back k - 8: same column c.
        for (int k = 8; k < 16; ++k) {
            const int c = 15 - k;
            CHECK(where(one_seed(2, c)).second == k);
            CHECK(where(one_seed(1, c)).second == facing_front(k));
            CHECK(where(one_seed(0, c)).second == facing_back(k));
        }
        // Point symmetry: North's front pit j (column j - 8 from South's left) faces South's
        // front 23 - j and back j - 8.
        for (int j = 8; j < 16; ++j) {
            const int c = j - 8;
            CHECK(where(one_seed(1, c)).second == j);
            CHECK(where(one_seed(2, c)).second == facing_front(j));
            CHECK(where(one_seed(3, c)).second == facing_back(j));
        }
        // Counter-clockwise (k + 1) runs left to right on the back row and right to left on
        // the front row: back-right pit 7 is followed by front-right pit 8.
        CHECK(column_of(7) == 7);
        CHECK(column_of(8) == 7);
        CHECK(column_of(15) == 0);
        CHECK(column_of(0) == 0);
        // The four leftmost pits, where reverse captures start.
        for (int k = 0; k < 16; ++k) CHECK(is_leftmost(k) == (column_of(k) <= 1));
    }

    TEST_CASE("printing the board") {
        const Position p = initial_position();
        CHECK(to_board_text(p) == "North back    4   4   4   4   4   4   4   4\n"
                                  "North front   0   0   0   0   0   0   0   0\n"
                                  "South front   0   0   0   0   0   0   0   0\n"
                                  "South back    4   4   4   4   4   4   4   4   <- to move\n");
        CHECK(p.first_turn_pending[0]);
        CHECK(p.first_turn_pending[1]);
        CHECK_FALSE(p.capture_happened);
        CHECK(total(p.pits[0]) + total(p.pits[1]) == 64);
        const Position q = parse_position("4 4 4 4 4 4 4 4;0 0 0 0 0 0 0 0;"
                                          "0 0 0 0 0 0 0 0;4 4 4 4 4 4 4 4");
        CHECK(q.pits == p.pits);
    }

    TEST_CASE("parse errors name what is wrong") {
        auto message = [](const char* text) {
            try {
                (void)parse_position(text);
            } catch (const ParseError& e) {
                return std::string(e.what());
            }
            return std::string("no error");
        };
        CHECK(message("1 2 3") == "expected 2 lines of 16 counts (circuit form) or 4 lines of 8 "
                                  "counts (board form), got 1 non-empty line(s)");
        CHECK(message("0 0 0 0 0 0 0 0 0 0 0 0 0 0 0;0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0") ==
              "line 1: expected 16 counts, got 15");
        CHECK(message("0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 x;0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0") ==
              "line 1, count 16: 'x' is not a seed count (a non-negative integer)");
        CHECK(message("0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0;0 -1 0 0 0 0 0 0 0 0 0 0 0 0 0 0") ==
              "line 2, count 2: '-1' is not a seed count (a non-negative integer)");
        CHECK(message("0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0;0 65 0 0 0 0 0 0 0 0 0 0 0 0 0 0") ==
              "line 2, count 2: '65' is more than 64 seeds");
        CHECK(
            message("0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0;0 99999999999 0 0 0 0 0 0 0 0 0 0 0 0 0 0") ==
            "line 2, count 2: '99999999999' is more than 64 seeds");
        CHECK(message("60 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0;0 5 0 0 0 0 0 0 0 0 0 0 0 0 0 0") ==
              "the board holds 65 seeds, more than 64");
        CHECK(message("1 2 3 4 5 6 7 8;1 2 3 4 5 6 7;1 2 3 4 5 6 7 8;1 2 3 4 5 6 7 8") ==
              "line 2: expected 8 counts, got 7");
    }
}
