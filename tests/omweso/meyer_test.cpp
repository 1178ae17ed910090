// The Meyer test's claims checked exhaustively (meyer.hpp), and the census.
// Suite "parallel": these run OpenMP code (the census) and also run under TSan.
#include "omweso/census.hpp"
#include "omweso/meyer.hpp"
#include "omweso/turn.hpp"
#include "quick.hpp"

#include <array>
#include <doctest/doctest.h>
#include <functional>
#include <map>
#include <random>
#include <sstream>

using namespace owaredb::omweso;

TEST_SUITE("parallel") {
    TEST_CASE("Meyer seed bound is exact: no never-ending relay below 11 seeds on 16 pits") {
        std::uint64_t boards = 0;
        for (int s = 2; s <= 10; ++s) {
            const CensusResult r = census(s, 16, 2);
            CAPTURE(s);
            CHECK(r.never_ending == 0);
            boards += r.boards;
        }
        CHECK(boards == 735471);
        // Tight: 11 seeds already give never-ending relays (the 11-seed reference board,
        // docs/rules.md, Omweso: Reference cases).
        const CensusResult r11 = census(11, 16, 2);
        CHECK(r11.boards == 1307504);
        CHECK(r11.never_ending == 8);
        CHECK(r11.periods == std::map<std::uint64_t, std::uint64_t>{{128, 8}});
        CHECK_FALSE(meyer_relay_ends(11));
        CHECK(meyer_relay_ends(10));
    }

    TEST_CASE("smallest never-ending relay on each circuit size") {
        // Exhaustive per circuit size: the fewest seeds with a never-ending relay. Only the
        // 16-pit value is a claim of the Meyer test; the others document the trend.
        std::ostringstream table;
        const int max_pits = owaredb::test::quick() ? 12 : 16;
        for (int n = 2; n <= max_pits; ++n) {
            int first = 0;
            for (int s = 2; s <= 2 * n + 4 && !first; ++s)
                if (census(s, n, 2).never_ending > 0) first = s;
            table << " N=" << n << ":" << first;
            if (n == 16) CHECK(first == kMeyerSeedBound);
        }
        MESSAGE("fewest seeds of a never-ending relay per circuit size:" << table.str());
    }

    TEST_CASE("census: board counts, thread-count independence") {
        CHECK(census_boards(2, 16) == 1);
        CHECK(census_boards(16, 16) == 77558760);
        CHECK(census_boards(10, 4) == 165); // C(11, 3)
        for (int n : {3, 5, 16}) {
            const int s = n == 16 ? (owaredb::test::quick() ? 11 : 13) : 12;
            const CensusResult one = census(s, n, 1);
            const CensusResult two = census(s, n, 2);
            CHECK(one.boards == census_boards(s, n));
            CHECK(one.never_ending == two.never_ending);
            CHECK(one.periods == two.periods);
            CHECK(one.laps == two.laps);
        }
        const CensusResult r13 = census(13, 16, 2);
        CHECK(r13.never_ending == 113);
        CHECK_THROWS_AS(census(1, 16, 2), std::invalid_argument);
        CHECK_THROWS_AS(census(5, 17, 2), std::invalid_argument);
        CHECK_THROWS_AS(census(5, 16, 0), std::invalid_argument); // the caller's count
    }
}

TEST_SUITE("omweso meyer") {
    TEST_CASE("at most 8 captures per turn, one per column") {
        // Every mover board of up to 5 seeds (any distribution) against an opponent with a
        // seed in each of its 16 pits: each capture takes exactly one full column (2 seeds),
        // so captures = seeds taken / 2 <= 8.
        const Packed opponent = kOnes;
        int max_captures = 0;
        std::uint64_t turns_seen = 0;
        const int max_seeds = owaredb::test::quick() ? 4 : 5;
        std::array<int, 16> b{};
        std::function<void(int, int)> rec = [&](int k, int left) {
            if (k == 15) {
                b[15] = left;
                Position p;
                for (int i = 0; i < 16; ++i)
                    p.pits[South] = set_pit(p.pits[South], i, b[std::size_t(i)]);
                p.pits[North] = opponent;
                for (const Turn& t : turns(p)) {
                    ++turns_seen;
                    REQUIRE(t.captures <= kMaxCapturesPerTurn);
                    const Packed after =
                        t.never_ending ? t.never_ending->state.theirs : t.final.mover();
                    REQUIRE(t.captured_seeds == 2 * t.captures);
                    REQUIRE(16 - total(after) == t.captured_seeds);
                    if (t.captures > max_captures) max_captures = t.captures;
                }
                return;
            }
            for (int v = 0; v <= left; ++v) {
                b[std::size_t(k)] = v;
                rec(k + 1, left - v);
            }
        };
        for (int s = 2; s <= max_seeds; ++s) rec(0, s);
        MESSAGE(turns_seen << " turns, at most " << max_captures << " captures in one");
        CHECK(max_captures >= 2);
    }

    TEST_CASE("meyer_test never says Ends for a turn that does not end") {
        std::mt19937 rng(12345);
        int decided = 0;
        for (int i = 0; i < (owaredb::test::quick() ? 2000 : 20000); ++i) {
            Position p;
            const int seeds = int(rng() % 24);
            for (int j = 0; j < seeds; ++j) {
                const int pl = int(rng() % 2), k = int(rng() % 16);
                p.pits[std::size_t(pl)] = add_pit(p.pits[std::size_t(pl)], k, 1);
            }
            if (meyer_test(p) != MeyerVerdict::Ends) continue;
            ++decided;
            for (const Turn& t : turns(p)) REQUIRE_FALSE(t.never_ending);
        }
        CHECK(decided > 100);
        // The two reference cycles are Undecided, as they must be.
        CHECK(meyer_test(parse_position("2 0 1 0 1 0 1 0 1 0 1 0 1 0 2 1;"
                                        "4 4 4 4 4 4 4 4 0 0 0 0 0 0 0 0")) ==
              MeyerVerdict::Undecided);
        // Capturable seeds count: the mover has 8, the opponent's column of pit 15 and 0 is
        // full (3 seeds), the other seeds are not capturable.
        const Position q = parse_position("2 2 2 2 0 0 0 0 0 0 0 0 0 0 0 0;"
                                          "1 0 0 0 0 0 0 5 0 0 0 0 0 0 0 2");
        CHECK(capturable_seeds(q.opponent()) == 3);
        CHECK(meyer_test(q) == MeyerVerdict::Undecided);
        CHECK(meyer_test(q, pure_relay_rules()) == MeyerVerdict::Ends);
    }
}
