// Position text form and board drawing (docs/rules.md, Notation): valid forms, clear errors,
// orientation.
#include "oware/position.hpp"

#include <doctest/doctest.h>

#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace owaredb;

namespace {

Position make(std::vector<int> pits) {
    Position p;
    for (int i = 0; i < kPits; ++i) p.pits[i] = static_cast<uint8_t>(pits[i]);
    return p;
}

// Parses text that must be rejected and returns the error message.
std::string error_of(const std::string& text) {
    ParseResult r = parse_position<6>(text);
    CHECK_MESSAGE(!r.ok, "accepted: '" << text << "'");
    CHECK_MESSAGE(!r.error.empty(), "no message for '" << text << "'");
    return r.error;
}

bool contains(const std::string& s, const std::string& part) {
    return s.find(part) != std::string::npos;
}

// The integers on one line of a board drawing, left to right.
std::vector<int> numbers_on_line(const std::string& line) {
    std::vector<int> out;
    std::string cur;
    for (char c : line + " ") {
        if (c >= '0' && c <= '9') {
            cur += c;
        } else if (!cur.empty()) {
            out.push_back(std::stoi(cur));
            cur.clear();
        }
    }
    return out;
}

} // namespace

TEST_CASE("parsing accepts spaces, commas and mixtures") {
    const Position expected = make({1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 0, 12});
    for (const char* text : {
             "1 2 3 4 5 6 7 8 0 0 0 12", "1,2,3,4,5,6,7,8,0,0,0,12",
             "1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 0, 12", "1 ,2 ,3 ,4 ,5 ,6 ,7 ,8 ,0 ,0 ,0 ,12",
             "  1 2 3 4 5 6 7 8 0 0 0 12  ", "1 2,3  4\t5 6,7 8 0 0,0 12",
             "1\t2\t3\t4\t5\t6\n7\t8\t0\t0\t0\t12\n",
             "01 2 3 4 5 6 7 8 00 0 0 12", // leading zeros are plain decimal
         }) {
        CAPTURE(text);
        ParseResult r = parse_position<6>(text);
        REQUIRE_MESSAGE(r.ok, r.error);
        CHECK(r.position == expected);
        CHECK(r.error.empty());
    }
    CHECK(parse_position<6>("4 4 4 4 4 4 4 4 4 4 4 4").position == Position::start(4));
    CHECK(parse_position<6>("0 0 0 0 0 0 0 0 0 0 0 0").position == Position{});
}

TEST_CASE("parsing accepts up to 48 seeds, in one pit or in all") {
    for (const char* text : {"48 0 0 0 0 0 0 0 0 0 0 0", "0 0 0 0 0 0 0 0 0 0 0 48",
                             "4 4 4 4 4 4 4 4 4 4 4 4", "47 0 0 0 0 0 0 0 0 0 0 1"}) {
        CAPTURE(text);
        ParseResult r = parse_position<6>(text);
        REQUIRE_MESSAGE(r.ok, r.error);
        CHECK(r.position.seeds() == 48);
    }
}

TEST_CASE("the seed limit follows the board: 48, or the 4 a pit a larger board starts with") {
    // Seven and eight pits a side start with 56 and 64 seeds: their start positions parse.
    BasicParseResult<7> seven = parse_position<7>("4 4 4 4 4 4 4 4 4 4 4 4 4 4");
    REQUIRE_MESSAGE(seven.ok, seven.error);
    CHECK(seven.position == BasicPosition<7>::start(4));
    BasicParseResult<8> eight = parse_position<8>("4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4");
    REQUIRE_MESSAGE(eight.ok, eight.error);
    CHECK(eight.position.seeds() == 64);
    CHECK(parse_position<7>("56 0 0 0 0 0 0 0 0 0 0 0 0 0").ok);
    // One seed more is refused, and the message names the board's limit.
    BasicParseResult<7> over = parse_position<7>("5 4 4 4 4 4 4 4 4 4 4 4 4 4");
    CHECK_FALSE(over.ok);
    CHECK(contains(over.error, "57"));
    CHECK(contains(over.error, "more than 56"));
    BasicParseResult<7> pit = parse_position<7>("57 0 0 0 0 0 0 0 0 0 0 0 0 0");
    CHECK_FALSE(pit.ok);
    CHECK(contains(pit.error, "more than the 56"));
    // Smaller boards keep the 48 of the databases' levels.
    CHECK(parse_position<4>("48 0 0 0 0 0 0 0").ok);
    BasicParseResult<4> small = parse_position<4>("49 0 0 0 0 0 0 0");
    CHECK_FALSE(small.ok);
    CHECK(contains(small.error, "48"));
}

TEST_CASE("parse errors name the problem") {
    SUBCASE("wrong count") {
        std::string e = error_of("4 4 4 4 4 4 4 4 4 4 4");
        CHECK(contains(e, "12"));
        CHECK(contains(e, "11"));
        e = error_of("4 4 4 4 4 4 4 4 4 4 4 4 0");
        CHECK(contains(e, "12"));
        CHECK(contains(e, "more than"));
        e = error_of("1");
        CHECK(contains(e, "got 1"));
    }
    SUBCASE("empty input") {
        for (const char* text : {"", " ", "   ", ",", " , , ", "\t\n"}) {
            CAPTURE(text);
            std::string e = error_of(text);
            CHECK(contains(e, "12"));
            CHECK(contains(e, "got 0"));
        }
    }
    SUBCASE("negative counts") {
        std::string e = error_of("4 4 4 -1 4 4 4 4 4 4 4 4");
        CHECK(contains(e, "negative"));
        CHECK(contains(e, "-1"));
        // Pits are numbered 0..11 as everywhere in the docs; the message also counts the
        // numbers from 1, as people do.
        CHECK(contains(e, "pit 3 (the 4th number)"));
        e = error_of("-4 4 4 4 4 4 4 4 4 4 4 4");
        CHECK(contains(e, "negative"));
        e = error_of("4 4 4 4 4 4 4 4 4 4 4 -0");
        CHECK(contains(e, "negative"));
    }
    SUBCASE("more than 48 seeds in one pit") {
        std::string e = error_of("49 0 0 0 0 0 0 0 0 0 0 0");
        CHECK(contains(e, "49"));
        CHECK(contains(e, "48"));
        // Values that would wrap around a byte must not sneak through.
        e = error_of("256 0 0 0 0 0 0 0 0 0 0 0");
        CHECK(contains(e, "256"));
        e = error_of("0 0 0 0 0 0 0 0 0 0 0 300");
        CHECK(contains(e, "300"));
        // Too large for any integer type: still an error, not a crash.
        error_of("99999999999999999999999999 0 0 0 0 0 0 0 0 0 0 0");
    }
    SUBCASE("more than 48 seeds in all") {
        std::string e = error_of("5 4 4 4 4 4 4 4 4 4 4 4");
        CHECK(contains(e, "49"));
        CHECK(contains(e, "48"));
        e = error_of("48 48 0 0 0 0 0 0 0 0 0 0");
        CHECK(contains(e, "96"));
    }
    SUBCASE("junk tokens") {
        for (const char* junk : {"x", "4a", "a4", "4.0", "+4", "0x4", "4;", "four"}) {
            std::string text = std::string("4 4 4 4 4 ") + junk + " 4 4 4 4 4 4";
            CAPTURE(text);
            std::string e = error_of(text);
            CHECK(contains(e, junk)); // the message quotes the offending token
            CHECK(contains(e, "pit 5 (the 6th number)"));
        }
        // Other separators are not part of the notation.
        error_of("4;4;4;4;4;4;4;4;4;4;4;4");
        error_of("[4 4 4 4 4 4 4 4 4 4 4 4]");
    }
    SUBCASE("parse_position_or_throw throws std::invalid_argument with the message") {
        CHECK(parse_position_or_throw<6>("1 2 3 4 5 6 7 8 0 0 0 12") ==
              make({1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 0, 12}));
        try {
            parse_position_or_throw<6>("4 4 4");
            FAIL("no exception");
        } catch (const std::invalid_argument& e) {
            CHECK(contains(e.what(), "got 3"));
        }
        CHECK_THROWS_AS(parse_position_or_throw<6>("-1 0 0 0 0 0 0 0 0 0 0 0"),
                        std::invalid_argument);
    }
}

TEST_CASE("printing is the canonical text form and round-trips") {
    CHECK(to_string(Position::start(4)) == "4 4 4 4 4 4 4 4 4 4 4 4");
    CHECK(to_string(make({0, 12, 3, 0, 0, 1, 48, 0, 0, 0, 0, 7})) == "0 12 3 0 0 1 48 0 0 0 0 7");
    CHECK(to_string(parse_position_or_throw<6>(" 1,2 ,3,4 5 6 7 8 9 1 1 ,0")) ==
          "1 2 3 4 5 6 7 8 9 1 1 0");
    std::mt19937 rng(7);
    for (int k = 0; k < 2000; ++k) {
        // A random position with at most 48 seeds.
        Position p;
        int left = static_cast<int>(rng() % 49);
        for (int i = 0; i < kPits && left > 0; ++i) {
            int v = static_cast<int>(rng() % (left + 1));
            p.pits[(i + k) % kPits] = static_cast<uint8_t>(v);
            left -= v;
        }
        ParseResult r = parse_position<6>(to_string(p));
        REQUIRE(r.ok);
        REQUIRE(r.position == p);
    }
}

TEST_CASE("the fast path for the common form agrees with the general parser") {
    // parse_position reads "d d d ..." (one or two digits, single spaces) by a fast path;
    // a leading space always sends text to the general parser, which ignores it. So both
    // parses of every text, valid or not, must agree, messages included.
    std::mt19937 rng(11);
    const std::vector<std::string> pieces = {"0",  "1",  "3",  "7",  "9",   "10", "12", "48",
                                             "49", "99", "00", "07", "100", "-1", "x",  "4a"};
    const std::vector<std::string> seps = {" ", " ", " ", " ", "  ", ",", "\t", ""};
    for (int k = 0; k < 20000; ++k) {
        std::string text;
        const int count = 10 + static_cast<int>(rng() % 4); // 10..13 numbers
        for (int i = 0; i < count; ++i) {
            if (i) text += rng() % 8 ? " " : seps[rng() % seps.size()];
            text += rng() % 4 ? std::to_string(rng() % 8) : pieces[rng() % pieces.size()];
        }
        if (rng() % 16 == 0) text += " ";
        CAPTURE(text);
        const ParseResult fast = parse_position<6>(text);
        const ParseResult general = parse_position<6>(" " + text);
        REQUIRE(fast.ok == general.ok);
        REQUIRE(fast.error == general.error);
        if (fast.ok) REQUIRE(fast.position == general.position);
    }
}

TEST_CASE("position helpers") {
    const Position p = make({1, 2, 3, 4, 5, 6, 0, 7, 8, 9, 10, 11});
    CHECK(p.mover_seeds() == 21);
    CHECK(p.opponent_seeds() == 45);
    CHECK(p.seeds() == 66); // a Position may hold more than 48; only parsing rejects it
    CHECK(p.in_database());
    CHECK(p.rotated() == make({0, 7, 8, 9, 10, 11, 1, 2, 3, 4, 5, 6}));
    CHECK(p.rotated().rotated() == p);
    CHECK_FALSE(Position::start(4).in_database()); // every pit of the side that moved full
    CHECK(make({4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 0}).in_database());
    CHECK_FALSE(make({0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1}).in_database());
    CHECK(Position{}.in_database());
    CHECK(Position::start(3).seeds() == 36);
}

TEST_CASE("board drawing: opponent's row on top right to left, mover's row below") {
    // Pits 0..11 hold 1..12 so every number names its pit.
    const Position p = make({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
    const std::string board = to_board(p);
    std::vector<std::string> lines;
    std::istringstream in(board);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    REQUIRE(lines.size() >= 2);
    // Seen from the mover's seat, the opponent's pit 6 is opposite the mover's pit 5
    // (its rightmost), so the top row reads 11..6 from left to right.
    CHECK(numbers_on_line(lines[0]) == std::vector<int>{12, 11, 10, 9, 8, 7});
    CHECK(numbers_on_line(lines[1]) == std::vector<int>{1, 2, 3, 4, 5, 6});
    // The columns line up: pit 11 above pit 0, pit 6 above pit 5 (distinct two-digit
    // counts make every number easy to find).
    const std::string wide = to_board(make({10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21}));
    std::istringstream win(wide);
    std::string top, bottom;
    std::getline(win, top);
    std::getline(win, bottom);
    CHECK(numbers_on_line(top) == std::vector<int>{21, 20, 19, 18, 17, 16});
    CHECK(numbers_on_line(bottom) == std::vector<int>{10, 11, 12, 13, 14, 15});
    CHECK(top.find("21") == bottom.find("10"));
    CHECK(top.find("16") == bottom.find("15"));
}
