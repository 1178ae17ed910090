// The pure relay simulator and its Brent detector against the reference cases (docs/rules.md,
// Omweso: Reference cases) and against the naive Floyd simulator of naive.hpp.
#include "boards.hpp"
#include "naive.hpp"
#include "omweso/position.hpp"
#include "omweso/relay.hpp"
#include "quick.hpp"

#include <doctest/doctest.h>

using namespace owaredb::omweso;

namespace {

Packed pack(const std::array<int, 16>& b) {
    Packed p = 0;
    for (int k = 0; k < 16; ++k) p = set_pit(p, k, b[std::size_t(k)]);
    return p;
}

Packed circuit(const char* counts) {
    return parse_position(std::string(counts) + ";0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0").mover();
}

} // namespace

TEST_SUITE("omweso relay") {
    TEST_CASE("one lap drops one seed per pit, start pit included on 16+ seeds") {
        const RelayCircuit& c = omweso_circuit();
        Packed b = circuit("3 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0");
        CHECK(c.sow(b, 0) == 3);
        CHECK(circuit_string(b) == "0 1 1 1 0 0 0 0 0 0 0 0 0 0 0 0");
        b = circuit("0 0 0 0 0 0 0 0 0 0 0 0 0 0 18 0");
        CHECK(c.sow(b, 14) == 0); // 18 seeds: one full lap (14 included) and two more
        CHECK(circuit_string(b) == "2 1 1 1 1 1 1 1 1 1 1 1 1 1 1 2");
        b = circuit("0 0 0 0 0 16 0 0 0 0 0 0 0 0 0 0");
        CHECK(c.sow(b, 5) == 5); // the last of 16 seeds falls back into the emptied start
        CHECK(get_pit(b, 5) == 1);
    }

    TEST_CASE("reference case (docs/rules.md, Omweso): 2 0 1 0 1 0 1 0 1 0 1 0 1 0 2 1 sows "
              "forever, period 128 laps") {
        const RelayResult r =
            relay(omweso_circuit(), circuit("2 0 1 0 1 0 1 0 1 0 1 0 1 0 2 1"), 0);
        REQUIRE_FALSE(r.ends);
        REQUIRE(r.cycle);
        CHECK(r.cycle->period_laps == 128);
        CHECK(replay_cycle(16, *r.cycle));
        // The naive Floyd simulator agrees on the period and the entry lap.
        naive::State s;
        for (int k = 0; k < 16; ++k)
            s.b[std::size_t(k)] = get_pit(circuit("2 0 1 0 1 0 1 0 1 0 1 0 1 0 2 1"), k);
        const naive::Outcome o = naive::relay(16, s);
        CHECK_FALSE(o.ends);
        CHECK(o.period == 128);
        CHECK(o.entry == r.cycle->entry_lap);
    }

    TEST_CASE("reference case (docs/rules.md, Omweso): 2 2 1 2 1 2 1 2 1 3 2 3 2 3 2 3 sows "
              "forever, period 61,776 laps") {
        const Packed b = circuit("2 2 1 2 1 2 1 2 1 3 2 3 2 3 2 3");
        const RelayResult r = relay(omweso_circuit(), b, 0);
        REQUIRE(r.cycle);
        CHECK(r.cycle->period_laps == 61776);
        CHECK(replay_cycle(16, *r.cycle));
        naive::State s;
        for (int k = 0; k < 16; ++k) s.b[std::size_t(k)] = get_pit(b, k);
        const naive::Outcome o = naive::relay(16, s);
        CHECK(o.period == 61776);
        CHECK(o.entry == r.cycle->entry_lap);
    }

    TEST_CASE("a tampered proof does not replay") {
        const RelayResult r =
            relay(omweso_circuit(), circuit("2 0 1 0 1 0 1 0 1 0 1 0 1 0 2 1"), 0);
        REQUIRE(r.cycle);
        RelayCycle bad = *r.cycle;
        bad.period_laps = 64;
        CHECK_FALSE(replay_cycle(16, bad));
        bad = *r.cycle;
        bad.period_seeds += 1;
        CHECK_FALSE(replay_cycle(16, bad));
        bad = *r.cycle;
        bad.board = add_pit(bad.board, 3, 1);
        CHECK_FALSE(replay_cycle(16, bad));
    }

    TEST_CASE("reference case (docs/rules.md, Omweso): all 2s ends from every pit; 4 in each "
              "back-row pit ends") {
        const Packed twos = circuit("2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2");
        const Packed back4 = circuit("4 4 4 4 4 4 4 4 0 0 0 0 0 0 0 0");
        for (int k = 0; k < 16; ++k) {
            CAPTURE(k);
            CHECK(relay(omweso_circuit(), twos, k).ends);
            if (k < 8) CHECK(relay(omweso_circuit(), back4, k).ends);
        }
    }

    TEST_CASE("Brent detector agrees with the naive simulator, small circuits exhaustively") {
        // Every board of up to `max_seeds` seeds on circuits of 2..8 pits: same verdict, same
        // laps and final board when it ends, same period and entry lap when it does not.
        const int max_seeds = owaredb::test::quick() ? 10 : 14;
        std::uint64_t boards = 0, endless = 0;
        for (int n = 2; n <= 8; ++n) {
            const RelayCircuit c(n);
            for (int s = 2; s <= max_seeds; ++s)
                test::for_each_board(n, s, [&](const std::array<int, 16>& b) {
                    ++boards;
                    RelayOptions opt;
                    opt.plain_laps = 3; // exercise Brent early too
                    const RelayResult r = relay(c, pack(b), 0, opt);
                    naive::State st;
                    st.b = b;
                    const naive::Outcome o = naive::relay(n, st);
                    REQUIRE(r.ends == o.ends);
                    if (o.ends) {
                        REQUIRE(r.laps == o.laps);
                        REQUIRE(r.board == pack(o.final.b));
                        REQUIRE(r.last_pit == o.final.pit);
                    } else {
                        ++endless;
                        REQUIRE(r.cycle->period_laps == o.period);
                        REQUIRE(r.cycle->entry_lap == o.entry);
                        REQUIRE(replay_cycle(n, *r.cycle));
                    }
                });
        }
        MESSAGE(boards << " boards compared, " << endless << " never-ending");
        CHECK(endless > 0);
    }

    TEST_CASE("Brent detector agrees with the naive simulator on 16 pits up to 11 seeds") {
        const int max_seeds = owaredb::test::quick() ? 8 : 11;
        std::uint64_t endless = 0;
        for (int s = 2; s <= max_seeds; ++s)
            test::for_each_board(16, s, [&](const std::array<int, 16>& b) {
                const RelayResult r = relay(omweso_circuit(), pack(b), 0);
                naive::State st;
                st.b = b;
                const naive::Outcome o = naive::relay(16, st);
                REQUIRE(r.ends == o.ends);
                if (o.ends) {
                    REQUIRE(r.laps == o.laps);
                    REQUIRE(r.board == pack(o.final.b));
                } else {
                    ++endless;
                    REQUIRE(r.cycle->period_laps == o.period);
                    REQUIRE(replay_cycle(16, *r.cycle));
                }
            });
        CHECK(endless == (max_seeds == 11 ? 8 : 0));
    }

    TEST_CASE("bad arguments") {
        CHECK_THROWS_AS(RelayCircuit(1), std::invalid_argument);
        CHECK_THROWS_AS(RelayCircuit(17), std::invalid_argument);
        CHECK_THROWS_AS(relay(omweso_circuit(), circuit("1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0"), 0),
                        std::invalid_argument);
    }
}
