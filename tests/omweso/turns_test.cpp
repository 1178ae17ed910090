// Complete turns with captures, reverse captures and the opening rules, each hand-checked
// (the comments give the lap-by-lap sowing), and never-ending turns with proofs.
#include "omweso/meyer.hpp"
#include "omweso/turn.hpp"

#include <doctest/doctest.h>
#include <string>
#include <vector>

using namespace owaredb::omweso;

namespace {

// The single turn of a list, by value (the list is usually a temporary).
Turn only(const std::vector<Turn>& ts) {
    REQUIRE(ts.size() == 1);
    return ts[0];
}

// The circuit of the player who just moved, after the turn.
std::string moved(const Turn& t) {
    return circuit_string(t.final.opponent());
}
std::string victim(const Turn& t) {
    return circuit_string(t.final.mover());
}

} // namespace

TEST_SUITE("omweso turns") {
    TEST_CASE("single capture: column of the front-right pit") {
        // Mover pit 6 = 2, pit 8 = 1. Lap 1: 6 -> 7, 8; pit 8 (front right, column 7) was
        // occupied and faces opponent pits 15 (front) = 2 and 0 (back) = 3: capture 5, sown
        // from the pit after 6: 7, 8, 9, 10, 11; pit 11 was empty, the turn ends.
        const Position p = parse_position("0 0 0 0 0 0 2 0 1 0 0 0 0 0 0 0;"
                                          "3 0 0 2 0 0 0 0 0 0 0 0 0 0 0 2");
        const Turn& t = only(turns_from(p, 6, Start::Forward));
        CHECK_FALSE(t.never_ending);
        CHECK(t.captures == 1);
        CHECK(t.captured_seeds == 5);
        CHECK(t.laps == 2);
        CHECK(t.seeds_sown == 7);
        CHECK(t.last_pit == 11);
        CHECK(moved(t) == "0 0 0 0 0 0 0 2 3 1 1 1 0 0 0 0");
        CHECK(victim(t) == "0 0 0 2 0 0 0 0 0 0 0 0 0 0 0 0");
        CHECK(t.final.to_move == North);
        CHECK(t.final.capture_happened);
        // The same position in board form (column 7 is South's rightmost column): South
        // front 1 faces North front 2 and North back 3.
        const Position b = parse_position("0 0 0 0 2 0 0 3;"  // North back (k = 7 - c)
                                          "0 0 0 0 0 0 0 2;"  // North front (k = 8 + c)
                                          "0 0 0 0 0 0 0 1;"  // South front (k = 15 - c)
                                          "0 0 0 0 0 0 2 0"); // South back (k = c)
        CHECK(b.pits == p.pits);
    }

    TEST_CASE("chained captures, then relays") {
        // As above plus mover pit 11 = 1 and opponent 12 = 1, 3 = 2 (the column of pit 11).
        // Lap 1: 6 -> 7, 8, capture 15+0 = 5. Lap 2 from 6: 7..11; pit 11 (1 -> 2) faces 12
        // and 3: capture 3. Lap 3 from 6: 7, 8, 9; pit 9 (1 -> 2) faces 14 and 1, empty:
        // relay 2 seeds to 10, 11 (lap 4); pit 11 (2 -> 3), its column is empty now: relay 3
        // seeds to 12, 13, 14 (lap 5); 14 was empty.
        const Position p = parse_position("0 0 0 0 0 0 2 0 1 0 0 1 0 0 0 0;"
                                          "3 0 0 2 0 2 0 0 0 0 0 0 1 0 0 2");
        const Turn& t = only(turns_from(p, 6, Start::Forward));
        CHECK(t.captures == 2);
        CHECK(t.captured_seeds == 8);
        CHECK(t.laps == 5);
        CHECK(t.seeds_sown == 2 + 5 + 3 + 2 + 3);
        CHECK(t.last_pit == 14);
        CHECK(moved(t) == "0 0 0 0 0 0 0 3 4 0 2 0 1 1 1 0");
        CHECK(victim(t) == "0 0 0 0 0 2 0 0 0 0 0 0 0 0 0 0");
    }

    TEST_CASE("no captures in a player's first turn: the landing relays") {
        // The single-capture position, but it is the mover's first turn: pit 8 (1 -> 2) is
        // lifted and relayed to 9, 10; 10 was empty.
        Position p = parse_position("0 0 0 0 0 0 2 0 1 0 0 0 0 0 0 0;"
                                    "3 0 0 2 0 0 0 0 0 0 0 0 0 0 0 2");
        p.first_turn_pending[South] = true;
        const Turn& t = only(turns_from(p, 6, Start::Forward));
        CHECK(t.captures == 0);
        CHECK(t.laps == 2);
        CHECK(moved(t) == "0 0 0 0 0 0 0 1 0 1 1 0 0 0 0 0");
        CHECK_FALSE(t.final.first_turn_pending[South]);
        // The knob switches the restriction off.
        Rules no_opening;
        no_opening.opening = false;
        CHECK(only(turns_from(p, 6, Start::Forward, no_opening)).captures == 1);
        // And pure relay rules never capture.
        p.first_turn_pending[South] = false;
        CHECK(only(turns_from(p, 6, Start::Forward, pure_relay_rules())).captures == 0);
    }

    TEST_CASE("reverse capture from a leftmost pit") {
        // Mover pit 1 = 3, pit 14 = 1 (column 1); opponent 9 = 2 and 6 = 2 face pit 14.
        // Clockwise: 1 -> 0, 15, 14; pit 14 (1 -> 2) captures 4.
        //  * sown counter-clockwise from 1: 2, 3, 4, 5; 5 was empty.
        //  * sown clockwise from 1: 0, 15, 14, 13; pit 13 (1 -> 2) faces opponent 10 = 1 and
        //    5 = 1: capture 2, which clockwise would end in 15 (column 0, nothing to take)
        //    so it goes counter-clockwise: 2, 3; 3 was empty.
        const Position p = parse_position("0 3 0 0 0 0 0 0 0 0 0 0 0 1 1 0;"
                                          "0 0 0 2 0 1 2 0 0 2 1 0 0 0 0 0");
        CHECK(illegal_start_reason(p, 1, Start::Reverse, {}) == "");
        const std::vector<Turn> ts = turns_from(p, 1, Start::Reverse);
        REQUIRE(ts.size() == 2);
        const Turn& ccw = ts[0];
        CHECK(ccw.reversed_after_capture == std::vector<bool>{false});
        CHECK(ccw.captures == 1);
        CHECK(ccw.laps == 2);
        CHECK(moved(ccw) == "1 0 1 1 1 1 0 0 0 0 0 0 0 1 2 1");
        const Turn& cw = ts[1];
        CHECK(cw.reversed_after_capture == std::vector<bool>{true, false});
        CHECK(cw.captures == 2);
        CHECK(cw.captured_seeds == 6);
        CHECK(cw.laps == 3);
        CHECK(cw.seeds_sown == 3 + 4 + 2);
        CHECK(cw.last_pit == 3);
        CHECK(moved(cw) == "2 0 1 1 0 0 0 0 0 0 0 0 0 2 3 2");
        CHECK(victim(cw) == "0 0 0 2 0 0 0 0 0 0 0 0 0 0 0 0");
        // The forward move from pit 1 is 1 -> 2, 3, 4 and ends; all turns list both starts.
        const Turn& fwd = only(turns_from(p, 1, Start::Forward));
        CHECK(fwd.laps == 1);
        int from1 = 0;
        for (const Turn& t : turns(p)) from1 += t.pit == 1;
        CHECK(from1 == 3);
        // Not without reverse captures, not from a non-leftmost pit, not if it would not
        // capture directly.
        Rules no_rev;
        no_rev.reverse_captures = false;
        CHECK(turns_from(p, 1, Start::Reverse, no_rev).empty());
        const Position q = parse_position("0 0 0 0 3 0 0 0 0 0 0 0 0 1 1 0;"
                                          "0 0 0 2 0 1 2 0 0 2 1 0 0 0 0 0");
        CHECK(illegal_start_reason(q, 4, Start::Reverse, {}) ==
              "reverse sowing starts only from pits 0, 1, 14 or 15");
        const Position r = parse_position("0 2 0 0 0 0 0 0 0 0 0 0 0 1 1 0;"
                                          "0 0 0 2 0 1 2 0 0 2 1 0 0 0 0 0");
        CHECK(illegal_start_reason(r, 1, Start::Reverse, {}) ==
              "the clockwise lap would not capture directly");
    }

    TEST_CASE("the 3-seed opening before the first capture") {
        Position p = parse_position("0 0 0 3 0 0 0 0 0 0 0 0 0 0 0 0;"
                                    "2 2 0 0 0 0 0 0 0 0 0 0 0 0 0 0");
        CHECK(turns_from(p, 3, Start::Opening).empty()); // parsed as mid-game
        p.capture_happened = false;
        const Turn& t = only(turns_from(p, 3, Start::Opening));
        CHECK(moved(t) == "0 0 0 0 2 1 0 0 0 0 0 0 0 0 0 0");
        CHECK(t.laps == 1);
        CHECK(t.last_pit == 5);
        CHECK_FALSE(t.final.capture_happened);
        CHECK(turns_from(p, 3, Start::Opening, pure_relay_rules()).empty());
        // Only exactly 3 seeds.
        Position q = parse_position("0 0 0 4 0 0 0 0 0 0 0 0 0 0 0 0;"
                                    "2 2 0 0 0 0 0 0 0 0 0 0 0 0 0 0");
        q.capture_happened = false;
        CHECK(turns_from(q, 3, Start::Opening).empty());
        // Wraps around the circuit: pit 15 -> 0 gets 2, 1 gets 1.
        Position w = parse_position("0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 3;"
                                    "2 2 0 0 0 0 0 0 0 0 0 0 0 0 0 0");
        w.capture_happened = false;
        CHECK(moved(only(turns_from(w, 15, Start::Opening))) == "2 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0");
    }

    TEST_CASE("the initial position: first turns have no captures") {
        const Position p = initial_position();
        const std::vector<Turn> ts = turns(p);
        CHECK(ts.size() == 8); // every back-row pit, counter-clockwise only
        for (const Turn& t : ts) {
            CHECK_FALSE(t.never_ending);
            CHECK(t.captures == 0);
            CHECK(t.final.to_move == North);
            CHECK_FALSE(t.final.first_turn_pending[South]);
            CHECK(t.final.first_turn_pending[North]);
        }
    }

    TEST_CASE("never-ending turns carry a proof that replays independently") {
        // Reference cases (docs/rules.md, Omweso: Reference cases), with the opponent's seeds
        // all in its back row so no capture is possible (full rules).
        const Position a = parse_position("2 0 1 0 1 0 1 0 1 0 1 0 1 0 2 1;"
                                          "4 4 4 4 4 4 4 4 0 0 0 0 0 0 0 0");
        const Turn& ta = only(turns_from(a, 0, Start::Forward));
        REQUIRE(ta.never_ending);
        CHECK(ta.never_ending->period_laps == 128);
        CHECK(replay_proof(*ta.never_ending, true));
        CycleProof bad = *ta.never_ending;
        bad.period_laps = 127;
        CHECK_FALSE(replay_proof(bad, true));
        const Position b = parse_position("2 2 1 2 1 2 1 2 1 3 2 3 2 3 2 3;"
                                          "4 4 4 4 4 4 4 4 0 0 0 0 0 0 0 0");
        const Turn& tb = only(turns_from(b, 0, Start::Forward));
        REQUIRE(tb.never_ending);
        CHECK(tb.never_ending->period_laps == 61776);
        CHECK(replay_proof(*tb.never_ending, true));
        // All 2s ends from every pit; 4 seeds in each back-row pit ends from every pit.
        const Position twos = parse_position("2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2;"
                                             "4 4 4 4 4 4 4 4 0 0 0 0 0 0 0 0");
        for (const Turn& t : turns(twos)) CHECK_FALSE(t.never_ending);
        CHECK(turns(twos).size() == 16);
        const Position back4 = parse_position("4 4 4 4 4 4 4 4 0 0 0 0 0 0 0 0;"
                                              "4 4 4 4 4 4 4 4 0 0 0 0 0 0 0 0");
        for (const Turn& t : turns(back4)) CHECK_FALSE(t.never_ending);
        CHECK(turns(back4).size() == 8);
    }

    TEST_CASE("a never-ending turn after a capture") {
        // Pit 6 (2): 7, 8; pit 8 (1 -> 2) faces opponent 15 = 1 and 0 = 0: no capture, relay
        // 2 seeds to 9, 10; pit 10 (1 -> 2) faces 13 = 1 and 2 = 1: capture 2, to be sown
        // from 8 (the origin of the capturing lap). That state, after 2 laps, is on a cycle of
        // 116 laps (found by the engine, checked by the independent replay).
        const Position p = parse_position("0 1 0 1 0 1 2 0 1 2 1 0 2 1 0 1;"
                                          "0 0 1 0 0 0 0 0 0 0 0 0 0 1 0 1");
        const Turn& t = only(turns_from(p, 6, Start::Forward));
        REQUIRE(t.never_ending);
        CHECK(t.captures == 1);
        CHECK(t.captured_seeds == 2);
        CHECK(t.never_ending->entry_lap == 2);
        CHECK(t.laps == 2);
        CHECK(t.never_ending->period_laps == 116);
        const SowState& s = t.never_ending->state;
        CHECK(circuit_string(s.mine) == "0 1 0 1 0 1 0 1 0 3 2 0 2 1 0 1");
        CHECK(circuit_string(s.theirs) == "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1");
        CHECK(s.origin == 8);
        CHECK(s.hand == 2);
        CHECK(s.dir == 1);
        CHECK(replay_proof(*t.never_ending, true));
        CHECK(t.final.mover() == s.mine);
    }
}
