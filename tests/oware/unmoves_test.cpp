// Un-move generation is complete and exact: for every position of D_n, n <= 8, the
// parents it generates are exactly the positions of D_n with a legal non-capturing move
// to it, found by brute force over all of D_n with the forward move generator.
#include "oware/moves.hpp"
#include "oware/ranking.hpp"
#include "oware/unmoves.hpp"
#include "quick.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

using namespace owaredb;

namespace {

void check_quiet_unmoves(const Rules& rules, int n) {
    const uint64_t size = level_size<6>(n);
    // Forward: child rank -> sorted parent ranks.
    std::vector<std::vector<uint64_t>> expected(size);
    for (uint64_t i = 0; i < size; ++i) {
        Position q = unrank<6>(n, i);
        for (const Move& m : legal_moves(rules, q)) {
            if (m.captured != 0) continue;
            REQUIRE(m.child.in_database()); // the origin pit stays empty
            expected[rank(m.child)].push_back(i);
        }
    }
    ParentList list;
    uint64_t edges = 0;
    for (uint64_t i = 0; i < size; ++i) {
        Position p = unrank<6>(n, i);
        parents(rules, p, list);
        std::vector<uint64_t> got;
        for (const Position& q : list) got.push_back(rank(q));
        std::sort(got.begin(), got.end());
        std::sort(expected[i].begin(), expected[i].end());
        if (got != expected[i]) {
            FAIL_CHECK("parents differ for " << to_string(p) << " (" << rules.name << "): got "
                                             << got.size() << ", expected " << expected[i].size());
            return;
        }
        edges += got.size();
    }
    CHECK(edges > 0);
}

} // namespace

TEST_CASE("un-moves equal the brute-force parent sets for every position, n <= 8") {
    const int max_n = test::quick() ? 6 : 8;
    for (const Rules& rules : {Rules::abapa(), Rules::awari()})
        for (int n = 1; n <= max_n; ++n) {
            CAPTURE(rules.name);
            CAPTURE(n);
            check_quiet_unmoves(rules, n);
        }
}

TEST_CASE("un-moves of large positions undo their own forward moves") {
    // Spot check beyond n = 8: every quiet child of a position lists it as a parent,
    // including laps of 12+ seeds that skip the origin.
    for (const Rules& rules : {Rules::abapa(), Rules::awari()}) {
        for (const char* text : {"0 0 0 0 0 23 1 0 2 0 0 0", "17 0 1 2 0 3 0 1 0 4 0 2",
                                 "12 0 0 0 0 0 1 1 1 1 1 0", "4 4 4 4 4 4 4 4 4 4 4 0"}) {
            Position q = parse_position_or_throw<6>(text);
            ParentList list;
            for (const Move& m : legal_moves(rules, q)) {
                if (m.captured) continue;
                parents(rules, m.child, list);
                CHECK_MESSAGE(std::find(list.begin(), list.end(), q) != list.end(),
                              text << " move " << int(m.pit) + 1);
            }
        }
    }
}
