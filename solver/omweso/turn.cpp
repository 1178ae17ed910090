#include "omweso/turn.hpp"

#include "omweso/brent.hpp"

#include "omweso/meyer.hpp"
#include "omweso/relay.hpp"

#include <array>

namespace owaredb::omweso {

int sow_lap(SowState& s) {
    if (s.dir > 0) return omweso_circuit().drop(s.mine, s.origin, s.hand);
    // Clockwise laps only happen when they capture directly: rare, so a plain loop.
    int p = s.origin;
    for (int i = 0; i < s.hand; ++i) {
        p = (p + kPits - 1) % kPits;
        s.mine = add_pit(s.mine, p, 1);
    }
    return p;
}

bool is_capture_landing(const SowState& s, int l) {
    return is_front(l) && get_pit(s.mine, l) > 1 && get_pit(s.theirs, facing_front(l)) > 0 &&
           get_pit(s.theirs, facing_back(l)) > 0;
}

bool captures_allowed(const Position& pos, const Rules& rules) {
    return rules.captures && !(rules.opening && pos.first_turn_pending[std::size_t(pos.to_move)]);
}

namespace {

// A lap from `s` (clockwise or not) that captures directly.
bool captures_directly(SowState s) {
    const int l = sow_lap(s);
    return is_capture_landing(s, l);
}

enum class SegmentEnd { Ended, Capture, Cycle };

struct Segment {
    SegmentEnd end = SegmentEnd::Ended;
    SowState state; // Ended/Capture: after the last lap (landing pit sown); Cycle: cycle start
    int landing = 0;
    std::uint64_t laps = 0, seeds = 0; // Ended/Capture: in all; Cycle: before the cycle
    std::uint64_t period_laps = 0, period_seeds = 0;
    std::uint64_t work = 0; // laps simulated, all passes
};

// Laps simulated plainly before Brent's bookkeeping starts: most turns end sooner.
constexpr std::uint64_t kPlainLaps = 64;

enum class LapEnd { Ended, Capture, Relay };

// Sows one lap and classifies it; on a relay, `s` becomes the next lap's state.
inline LapEnd lap(SowState& s, bool captures_on, int& landing) {
    landing = sow_lap(s);
    const int v = get_pit(s.mine, landing);
    if (v == 1) return LapEnd::Ended;
    if (captures_on && is_capture_landing(s, landing)) return LapEnd::Capture;
    s.mine = clear_pit(s.mine, landing);
    s.hand = v;
    s.origin = landing;
    s.dir = 1;
    return LapEnd::Relay;
}

// Runs from a state between two laps until the turn ends, a capture happens, or a state
// repeats. Between captures the turn is deterministic, so a repeat proves a cycle.
Segment run_segment(const SowState& start, bool captures_on) {
    Segment seg;
    SowState s = start;
    int landing = 0;
    auto stop = [&](LapEnd e) {
        seg.end = e == LapEnd::Ended ? SegmentEnd::Ended : SegmentEnd::Capture;
        seg.state = s;
        seg.landing = landing;
        seg.work = seg.laps;
        return seg;
    };
    // Meyer test: too few seeds on the mover's side for any relay cycle (meyer.hpp), so
    // the segment ends by itself; no bookkeeping needed.
    const bool may_cycle = !meyer_relay_ends(total(s.mine) + s.hand);
    for (;;) {
        const int hand = s.hand;
        const LapEnd e = lap(s, captures_on, landing);
        ++seg.laps;
        seg.seeds += std::uint64_t(hand);
        if (e != LapEnd::Relay) return stop(e);
        if (may_cycle && seg.laps >= kPlainLaps) break;
    }
    // Brent (brent.hpp): the period of the relay cycle this segment has entered, if any.
    LapEnd last = LapEnd::Relay;
    const std::optional<std::uint64_t> found = brent_period(s, [&](SowState& x) {
        const int hand = x.hand;
        last = lap(x, captures_on, landing);
        ++seg.laps;
        seg.seeds += std::uint64_t(hand);
        return last == LapEnd::Relay;
    });
    if (!found) return stop(last);
    const std::uint64_t period = *found;
    // Entry: walkers `period` laps apart first meet at the cycle start. Both stay on the
    // path just proven to loop, so neither ends or captures.
    SowState a = start, b = start;
    for (std::uint64_t i = 0; i < period; ++i) lap(b, captures_on, landing);
    seg.work = seg.laps;
    seg.laps = seg.seeds = 0;
    while (!(a == b)) {
        seg.seeds += std::uint64_t(a.hand);
        lap(a, captures_on, landing);
        lap(b, captures_on, landing);
        ++seg.laps;
    }
    seg.work += period + 2 * seg.laps + period;
    seg.period_laps = period;
    SowState c = a;
    for (std::uint64_t i = 0; i < period; ++i) {
        seg.period_seeds += std::uint64_t(c.hand);
        lap(c, captures_on, landing);
    }
    seg.end = SegmentEnd::Cycle;
    seg.state = a;
    return seg;
}

struct Explorer {
    const Position& pos;
    bool captures_on;
    bool reverse_on;
    std::vector<Turn>& out;

    Position position_of(const SowState& s) const {
        Position p = pos;
        p.pits[std::size_t(pos.to_move)] = s.mine;
        p.pits[std::size_t(1 - pos.to_move)] = s.theirs;
        return p;
    }

    Position after_turn(const SowState& s, bool captured) const {
        Position p = position_of(s);
        p.first_turn_pending[std::size_t(pos.to_move)] = false;
        p.capture_happened = pos.capture_happened || captured;
        p.to_move = 1 - pos.to_move;
        return p;
    }

    void explore(Turn t, const SowState& start) {
        const Segment seg = run_segment(start, captures_on);
        t.laps += seg.laps;
        t.seeds_sown += seg.seeds;
        t.work_laps += seg.work;
        switch (seg.end) {
        case SegmentEnd::Ended:
            t.last_pit = seg.landing;
            t.final = after_turn(seg.state, t.captures > 0);
            out.push_back(std::move(t));
            return;
        case SegmentEnd::Cycle:
            t.final = position_of(seg.state);
            t.never_ending = CycleProof{t.laps, seg.period_laps, seg.period_seeds, seg.state};
            out.push_back(std::move(t));
            return;
        case SegmentEnd::Capture:
            break;
        }
        // Capture: empty the facing column into the hand and sow it from the same origin.
        SowState s = seg.state;
        const int l = seg.landing, f = facing_front(l), b = facing_back(l);
        s.hand = get_pit(s.theirs, f) + get_pit(s.theirs, b);
        s.theirs = clear_pit(clear_pit(s.theirs, f), b);
        t.captures += 1;
        t.captured_seeds += s.hand;
        for (int dir : {1, -1}) {
            s.dir = dir;
            if (dir < 0 && !(reverse_on && is_leftmost(s.origin) && captures_directly(s))) break;
            Turn branch = t;
            branch.reversed_after_capture.push_back(dir < 0);
            explore(std::move(branch), s);
        }
    }
};

} // namespace

std::string illegal_start_reason(const Position& pos, int pit, Start start, const Rules& rules) {
    if (pit < 0 || pit >= kPits) return "pit " + std::to_string(pit) + " is not in 0..15";
    const int seeds = get_pit(pos.mover(), pit);
    if (start == Start::Opening) {
        if (!rules.opening) return "the opening rules are off";
        if (pos.capture_happened) return "the 3-seed opening is only allowed before any capture";
        if (seeds != 3) return "the 3-seed opening needs exactly 3 seeds in the pit";
        return "";
    }
    if (seeds < 2) return "pit " + std::to_string(pit) + " holds fewer than 2 seeds";
    if (start == Start::Reverse) {
        if (!rules.reverse_captures) return "reverse captures are off";
        if (!captures_allowed(pos, rules)) return "no captures are allowed in this turn";
        if (!is_leftmost(pit)) return "reverse sowing starts only from pits 0, 1, 14 or 15";
        SowState s{clear_pit(pos.mover(), pit), pos.opponent(), pit, seeds, -1};
        if (!captures_directly(s)) return "the clockwise lap would not capture directly";
    }
    return "";
}

std::vector<Turn> turns_from(const Position& pos, int pit, Start start, const Rules& rules) {
    std::vector<Turn> out;
    if (!illegal_start_reason(pos, pit, start, rules).empty()) return out;
    Turn t;
    t.pit = pit;
    t.start = start;
    Explorer ex{pos, captures_allowed(pos, rules), rules.reverse_captures, out};
    const int seeds = get_pit(pos.mover(), pit);
    SowState s{clear_pit(pos.mover(), pit), pos.opponent(), pit, seeds,
               start == Start::Reverse ? -1 : 1};
    if (start == Start::Opening) {
        s.mine = add_pit(add_pit(s.mine, (pit + 1) % kPits, 2), (pit + 2) % kPits, 1);
        t.laps = 1;
        t.seeds_sown = 3;
        t.last_pit = (pit + 2) % kPits;
        t.final = ex.after_turn(s, false);
        out.push_back(std::move(t));
        return out;
    }
    ex.explore(std::move(t), s);
    return out;
}

std::vector<Turn> turns(const Position& pos, const Rules& rules) {
    std::vector<Turn> out;
    for (int pit = 0; pit < kPits; ++pit)
        for (Start st : {Start::Forward, Start::Reverse, Start::Opening})
            for (Turn& t : turns_from(pos, pit, st, rules)) out.push_back(std::move(t));
    return out;
}

bool replay_proof(const CycleProof& proof, bool captures_on) {
    std::array<int, kPits> mine{}, theirs{};
    for (int k = 0; k < kPits; ++k) {
        mine[std::size_t(k)] = get_pit(proof.state.mine, k);
        theirs[std::size_t(k)] = get_pit(proof.state.theirs, k);
    }
    int origin = proof.state.origin, hand = proof.state.hand, dir = proof.state.dir;
    std::uint64_t seeds = 0;
    for (std::uint64_t i = 0; i < proof.period_laps; ++i) {
        seeds += std::uint64_t(hand);
        int p = origin;
        for (; hand > 0; --hand) {
            p = (p + dir + kPits) % kPits;
            ++mine[std::size_t(p)];
        }
        if (mine[std::size_t(p)] == 1) return false; // landed in an empty pit: the turn ends
        if (captures_on && p >= 8 && theirs[std::size_t(23 - p)] > 0 &&
            theirs[std::size_t(p - 8)] > 0)
            return false; // a capture: not a pure relay cycle
        hand = mine[std::size_t(p)];
        mine[std::size_t(p)] = 0;
        origin = p;
        dir = 1;
    }
    if (seeds != proof.period_seeds || origin != proof.state.origin || hand != proof.state.hand ||
        dir != proof.state.dir)
        return false;
    for (int k = 0; k < kPits; ++k)
        if (mine[std::size_t(k)] != get_pit(proof.state.mine, k) ||
            theirs[std::size_t(k)] != get_pit(proof.state.theirs, k))
            return false;
    return true;
}

} // namespace owaredb::omweso
