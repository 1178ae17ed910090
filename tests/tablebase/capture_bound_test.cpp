// Capture-bounded storage (solver/capture_bound.hpp) on fully solved small levels.
#include "oware/oware_game.hpp"
#include "oware/ranking.hpp"
#include "quick.hpp"
#include "retro/solve_in_memory.hpp"
#include "tablebase/capture_bound.hpp"

#include <doctest/doctest.h>

#include <stdexcept>
#include <vector>

using namespace owaredb;

TEST_CASE("capture-bounded storage: a hand-checked position") {
    // The mover's only move, pit 6 (index 5, one seed), makes the opponent's first pit 2 and
    // captures it (not a grand slam: the opponent keeps the seed in its last pit). That seed
    // comes round to the mover: the opponent must feed (its only move), and then the mover
    // cannot feed back, so the game ends and the mover takes it. E = 2 - (-1) = 3 = V.
    const Rules rules = *Rules::by_name("abapa");
    auto levels = solve_in_memory(OwareGame(rules), 3, 1);
    Position p = parse_position_or_throw<6>("0 0 0 0 0 1 1 0 0 0 0 1");
    const uint64_t i = rank(p);
    CHECK(levels[3][i] == 3);
    auto smaller = level_pointers(levels, 3);
    CHECK(best_capture_value(OwareGame(rules), p, [&](int k, const Position& c) {
              return int(levels[k][rank(c)]);
          }) == 3);
    std::vector<int8_t> stored(levels[3].size());
    encode_capture_bounded(OwareGame(rules), 3, levels[3].span(), smaller, stored, 1);
    CHECK(stored[i] <= 3);
    decode_capture_bounded(OwareGame(rules), 3, stored, smaller, 1);
    CHECK(stored[i] == 3);
}

TEST_CASE("capture-bounded storage: lower bounds that decode to every exact value") {
    const int max_n = test::quick() ? 9 : 12;
    for (const char* name : {"abapa", "awari"}) {
        CAPTURE(name);
        const Rules rules = *Rules::by_name(name);
        auto levels = solve_in_memory(OwareGame(rules), max_n, 2);
        uint64_t loosened = 0, total = 0;
        for (int n = 0; n <= max_n; ++n) {
            CAPTURE(n);
            auto smaller = level_pointers(levels, n);
            const auto exact = levels[n].span();
            std::vector<int8_t> one(exact.size()), two(exact.size());
            encode_capture_bounded(OwareGame(rules), n, exact, smaller, one, 1);
            encode_capture_bounded(OwareGame(rules), n, exact, smaller, two, 2);
            CHECK(one == two); // deterministic whatever the thread count
            bool bounded = true;
            for (uint64_t i = 0; i < exact.size(); ++i) {
                bounded = bounded && one[i] <= exact[i];
                loosened += one[i] != exact[i];
            }
            total += exact.size();
            CHECK(bounded);
            decode_capture_bounded(OwareGame(rules), n, one, smaller, 2);
            CHECK(std::equal(one.begin(), one.end(), exact.begin()));
            // Exact values are a valid encoding too: decoding them changes nothing.
            std::vector<int8_t> again(exact.begin(), exact.end());
            decode_capture_bounded(OwareGame(rules), n, again, smaller, 2);
            CHECK(std::equal(again.begin(), again.end(), exact.begin()));
        }
        // The encoding must actually loosen something, or it saves nothing.
        CHECK(loosened * 10 > total);
    }
}

TEST_CASE("capture-bounded storage refuses values below their best capture") {
    const Rules rules = *Rules::by_name("abapa");
    auto levels = solve_in_memory(OwareGame(rules), 4, 1);
    Position p = parse_position_or_throw<6>("0 0 0 0 0 1 1 0 0 0 0 1");
    std::vector<int8_t> broken(levels[3].span().begin(), levels[3].span().end());
    broken[rank(p)] = 1; // the capture alone is worth 3
    std::vector<int8_t> stored(broken.size());
    CHECK_THROWS_AS(
        encode_capture_bounded(OwareGame(rules), 3, broken, level_pointers(levels, 3), stored, 1),
        std::logic_error);
    CHECK_THROWS_AS(
        encode_capture_bounded(OwareGame(rules), 4, broken, level_pointers(levels, 4), stored, 1),
        std::invalid_argument);
}

TEST_CASE("may_capture is false only where no legal move captures") {
    // Every position of D_n for n <= 9 (quick: 7) and the rotated ones, both rule sets.
    const int max_n = test::quick() ? 7 : 9;
    for (const char* name : {"abapa", "awari"}) {
        const Rules rules = *Rules::by_name(name);
        uint64_t skipped = 0, total = 0, wrong = 0;
        for (int n = 0; n <= max_n; ++n)
            for (uint64_t i = 0; i < level_size<6>(n); ++i)
                for (Position p : {unrank<6>(n, i), unrank<6>(n, i).rotated()}) {
                    ++total;
                    if (may_capture(p)) continue;
                    ++skipped;
                    for (const Move& m : legal_moves(rules, p)) wrong += m.captured != 0;
                }
        CHECK(wrong == 0);
        CHECK(skipped * 2 > total); // it does skip most positions
    }
    // Hand-checked: pit 6 (index 5) with 1 seed reaching a pit of 1 or 2 may capture, of 0
    // or 3 not; 11 or more seeds always may.
    CHECK(may_capture(parse_position_or_throw<6>("0 0 0 0 0 1 2 0 0 0 0 0")));
    CHECK(may_capture(parse_position_or_throw<6>("0 0 0 0 0 1 1 0 0 0 0 0")));
    CHECK_FALSE(may_capture(parse_position_or_throw<6>("0 0 0 0 0 1 3 0 0 0 0 0")));
    CHECK_FALSE(may_capture(parse_position_or_throw<6>("0 0 0 0 0 1 0 2 2 2 2 2")));
    CHECK(may_capture(parse_position_or_throw<6>("11 0 0 0 0 0 0 0 0 0 0 0")));
}
