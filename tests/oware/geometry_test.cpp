// Oware on boards of P pits per side (solver/oware's templates): hand-checked rules on a
// 3-pit and a 7-pit board, and ranking round trips for every P = 1..8.
#include "oware/capture_unmoves.hpp"
#include "oware/moves.hpp"
#include "oware/ranking.hpp"
#include "oware/unmoves.hpp"
#include "quick.hpp"

#include <doctest/doctest.h>

#include <algorithm>

using namespace owaredb;

namespace {

template <int P> BasicPosition<P> board(std::array<uint8_t, 2 * P> pits) {
    BasicPosition<P> p;
    p.pits = pits;
    return p;
}

// C(n, k) by Pascal's rule, independent of retro/binomial.hpp.
uint64_t choose(int n, int k) {
    if (k < 0 || k > n) return 0;
    std::vector<uint64_t> row(size_t(k) + 1, 0);
    row[0] = 1;
    for (int i = 1; i <= n; ++i)
        for (int j = std::min(i, k); j >= 1; --j) row[size_t(j)] += row[size_t(j) - 1];
    return row[size_t(k)];
}

template <int P> const BasicMove<P>* move_from(const BasicMoveList<P>& moves, int pit) {
    for (const auto& m : moves)
        if (m.pit == pit) return &m;
    return nullptr;
}

template <int P> void check_ranking(int max_n) {
    CAPTURE(P);
    for (int n = 0; n <= max_n; ++n) {
        CAPTURE(n);
        const uint64_t size = level_size<P>(n);
        // |D_n| = C(n+2P-1, 2P-1) - C(n+P-1, 2P-1).
        CHECK(size == choose(n + 2 * P - 1, 2 * P - 1) - choose(n + P - 1, 2 * P - 1));
        CHECK(outside_size<P>(n) == choose(n + P - 1, 2 * P - 1));
        BasicPosition<P> previous{};
        for (uint64_t i = 0; i < size; ++i) {
            const auto p = unrank<P>(n, i);
            REQUIRE(p.seeds() == n);
            REQUIRE(p.in_database());
            REQUIRE(rank(p) == i);
            if (i > 0) {
                REQUIRE(previous < p); // lexicographic over pits 0..2P-1
                REQUIRE(next_in_level(previous) == p);
            }
            previous = p;
        }
        for (uint64_t i = 0; i < outside_size<P>(n); ++i) {
            const auto p = unrank_outside<P>(n, i);
            REQUIRE(p.seeds() == n);
            REQUIRE(!p.in_database());
        }
    }
}

} // namespace

TEST_CASE("3 pits a side: laps skip the origin") {
    // 7 seeds from pit 0 of a 6-pit board: pits 1..5 get one each, the origin is skipped,
    // pits 1 and 2 get the last two; the last seed lands on the mover's own row.
    auto b = board<3>({7, 0, 0, 0, 0, 0});
    CHECK(sow(b, 0) == 2);
    CHECK(b == board<3>({0, 2, 2, 1, 1, 1}));
    const auto moves = legal_moves(Rules::abapa(), board<3>({7, 0, 0, 0, 0, 0}));
    REQUIRE(moves.size() == 1);
    CHECK(moves[0].captured == 0);
    CHECK(moves[0].child == board<3>({1, 1, 1, 0, 2, 2})); // rotated by 3
    // 6 seeds = one full lap of the 5 other pits plus one: pit 1 twice.
    auto c = board<3>({0, 6, 0, 0, 0, 0});
    CHECK(sow(c, 1) == 2);
    CHECK(c == board<3>({1, 0, 2, 1, 1, 1}));
}

TEST_CASE("3 pits a side: a capture run stops at the opponent's first pit") {
    // Pit 2 sows 2 seeds into pits 3 and 4 (2 and 3 seeds): the run goes back from pit 4
    // over pit 3 and stops there, at the opponent's first pit, though pit 2 is then empty.
    for (const Rules& rules : {Rules::abapa(), Rules::awari()}) {
        CAPTURE(rules.name);
        const auto moves = legal_moves(rules, board<3>({0, 0, 2, 1, 2, 4}));
        REQUIRE(moves.size() == 1);
        CHECK(moves[0].captured == 5);
        CHECK(moves[0].child == board<3>({0, 0, 4, 0, 0, 0}));
    }
    // A grand slam: pit 2's 3 seeds make 2, 3 and 2 in all three opponent pits.
    const auto slam = board<3>({0, 0, 3, 1, 2, 1});
    const auto abapa = legal_moves(Rules::abapa(), slam);
    REQUIRE(abapa.size() == 1);
    CHECK(abapa[0].captured == 0); // abapa: legal, captures nothing
    CHECK(abapa[0].child == board<3>({2, 3, 2, 0, 0, 0}));
    const auto awari = legal_moves(Rules::awari(), slam);
    REQUIRE(awari.size() == 1);
    CHECK(awari[0].captured == 7); // awari: takes all, the only (starving) move
    CHECK(awari[0].child == board<3>({0, 0, 0, 0, 0, 0}));
}

TEST_CASE("3 pits a side: feeding is mandatory") {
    // The opponent is empty; pit 0's one seed stays home, pit 2's reaches it.
    const auto moves = legal_moves(Rules::abapa(), board<3>({1, 0, 1, 0, 0, 0}));
    REQUIRE(moves.size() == 1);
    CHECK(moves[0].pit == 2);
    // No move reaches it: abapa ends the game (+n for the mover), awari plays the moves.
    const auto stuck = board<3>({1, 0, 0, 0, 0, 0});
    CHECK(legal_moves(Rules::abapa(), stuck).empty());
    CHECK(terminal_value(stuck) == 1);
    CHECK(legal_moves(Rules::awari(), stuck).size() == 1);
}

TEST_CASE("7 pits a side: laps of 14 or more skip the origin, captures run backwards") {
    auto lap = BasicPosition<7>{};
    lap.pits[0] = 14; // 13 other pits once, then the origin skipped: pit 1 again
    CHECK(sow(lap, 0) == 1);
    CHECK(lap.pits[0] == 0);
    CHECK(lap.pits[1] == 2);
    CHECK(lap.pits[13] == 1);
    auto thirteen = BasicPosition<7>{};
    thirteen.pits[0] = 13; // exactly one lap: the last seed in pit 13
    CHECK(sow(thirteen, 0) == 13);
    auto two_laps = BasicPosition<7>{};
    two_laps.pits[3] = 27; // 2 x 13 + 1: every other pit 2, pit 4 one more
    CHECK(sow(two_laps, 3) == 4);
    CHECK(two_laps.pits[4] == 3);
    CHECK(two_laps.pits[2] == 2);
    CHECK(two_laps.pits[3] == 0);

    // Pit 6 (the mover's last) sows 3 into pits 7, 8, 9: 2, 3, 2; pit 10 keeps its 5.
    const auto p = board<7>({0, 0, 0, 0, 0, 0, 3, 1, 2, 1, 5, 0, 0, 0});
    for (const Rules& rules : {Rules::abapa(), Rules::awari()}) {
        const auto moves = legal_moves(rules, p);
        REQUIRE(moves.size() == 1);
        CHECK(moves[0].captured == 7);
        CHECK(moves[0].child == board<7>({0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}));
    }
    // The un-captures of the child find p back, once.
    const auto child = legal_moves(Rules::abapa(), p)[0].child;
    int found = 0;
    for_each_capture_parent(Rules::abapa(), child, 7,
                            [&](const BasicPosition<7>& q) { found += q == p; });
    CHECK(found == 1);
    // A quiet move on 7 pits: pit 2's 4 seeds into pits 3..6, its parent found by un-moves.
    const auto quiet = board<7>({1, 0, 4, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 0});
    const auto quiet_moves = legal_moves(Rules::abapa(), quiet);
    const auto m = move_from(quiet_moves, 2);
    REQUIRE(m != nullptr);
    CHECK(m->captured == 0);
    BasicParentList<7> quiet_parents;
    parents(Rules::abapa(), m->child, quiet_parents);
    CHECK(std::count(quiet_parents.begin(), quiet_parents.end(), quiet) == 1);
}

TEST_CASE("positions of P pits a side: 2P numbers, text and board") {
    const auto p = parse_position<3>("0 0 3 1 2 1");
    REQUIRE(p.ok);
    CHECK(p.position == board<3>({0, 0, 3, 1, 2, 1}));
    CHECK(to_string(p.position) == "0 0 3 1 2 1");
    CHECK(parse_position<3>("0,0,3, 1,2,1").position == p.position); // the general form
    CHECK(to_board(p.position) == "  opponent    1  2  1\n"
                                  "  to move     0  0  3\n"
                                  "  move        1  2  3\n");
    const auto wrong = parse_position<7>("0 0 3 1 2 1");
    CHECK(!wrong.ok);
    CHECK(wrong.error == "expected 14 pit counts, got 6 (a position is 14 numbers, pits 0..13)");
    CHECK(parse_position<1>("1 2 3").error ==
          "more than 2 pit counts (a position is 2 numbers, pits 0..1)");
    // Eight pits a side hold the 64 seeds of their start, no more.
    CHECK(parse_position<8>("4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 5").error ==
          "the position holds 65 seeds, more than 64");
    CHECK(parse_position<5>("5 5 5 5 5 5 5 5 5 4").error ==
          "the position holds 49 seeds, more than 48");
    // The standard board's messages are those of before.
    CHECK(parse_position<6>("1 2 3").error ==
          "expected 12 pit counts, got 3 (a position is 12 numbers, pits 0..11)");
    // The run-time board size reaches the templates, and only 1..8 exist.
    CHECK(with_pits_per_side(
              7, [](auto size) { return BasicPosition<decltype(size)::value>::kPits; }) == 14);
    CHECK_THROWS_AS(with_pits_per_side(9, [](auto) { return 0; }), std::invalid_argument);
    CHECK_THROWS_AS(with_pits_per_side(0, [](auto) { return 0; }), std::invalid_argument);
}

TEST_CASE("ranking is a bijection onto D_n in lexicographic order, P = 1..8") {
    const bool quick = test::quick();
    check_ranking<1>(20);
    check_ranking<2>(quick ? 10 : 16);
    check_ranking<3>(quick ? 8 : 12);
    check_ranking<4>(quick ? 6 : 9);
    check_ranking<5>(quick ? 5 : 7);
    check_ranking<6>(quick ? 4 : 6);
    check_ranking<7>(quick ? 4 : 5);
    check_ranking<8>(quick ? 3 : 5);
    // The largest levels: sizes by the formula, and the last rank round-trips.
    CHECK(level_size<8>(48) == choose(63, 15) - choose(55, 15));
    CHECK(rank(unrank<8>(48, level_size<8>(48) - 1)) == level_size<8>(48) - 1);
    CHECK(level_size<6>(48) == 203648015935ULL);
}
