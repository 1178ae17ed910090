// The quiet children found one at a time (BasicOwareGame::next_quiet_child, what the 2-bit
// engine's check walks): for every position of the small levels of both rule sets and
// three boards, exactly the children legal_moves gives with nothing captured, in the same
// order, each with its move's pit, from whatever pit the search starts; and by hand, the
// grand slam that abapa plays as a quiet move and awari as a capture.
#include "oware/moves.hpp"
#include "oware/oware_game.hpp"
#include "oware/ranking.hpp"
#include "quick.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <utility>
#include <vector>

using namespace owaredb;

namespace {

template <int P> void check_levels(const Rules& rules, int max_n) {
    const BasicOwareGame<P> game(rules);
    using State = typename BasicOwareGame<P>::State;
    for (int n = 0; n <= max_n; ++n) {
        CAPTURE(n);
        uint64_t wrong = 0; // positions whose search disagrees (counted: a check each is slow)
        for (uint64_t i = 0; i < level_size<P>(n); ++i) {
            const State s = unrank<P>(n, i);
            std::vector<std::pair<int, uint64_t>> want; // (pit, child's rank)
            for (const auto& m : legal_moves(rules, s))
                if (m.captured == 0) want.emplace_back(m.pit, rank(m.child));
            std::vector<std::pair<int, uint64_t>> got;
            State child;
            for (int move = 0; game.next_quiet_child(s, move, child); ++move)
                got.emplace_back(move, rank(child));
            bool right = got == want;
            // From any pit: the first quiet move at or after it.
            for (int from = 0; from <= P; ++from) {
                int move = from;
                const auto first = std::find_if(want.begin(), want.end(),
                                                [&](const auto& w) { return w.first >= from; });
                const bool found = game.next_quiet_child(s, move, child);
                right = right && found == (first != want.end()) &&
                        (!found || (move == first->first && rank(child) == first->second));
            }
            wrong += !right;
        }
        CHECK(wrong == 0);
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
    Position child;
    int move = 0;
    REQUIRE(OwareGame(Rules::abapa()).next_quiet_child(p, move, child));
    CHECK(move == 5);
    CHECK(child.seeds() == 2); // nothing captured
    move = 0;
    CHECK(!OwareGame(Rules::awari()).next_quiet_child(p, move, child));
}
