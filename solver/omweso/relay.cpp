#include "omweso/relay.hpp"

#include "omweso/brent.hpp"

#include <array>
#include <stdexcept>

namespace owaredb::omweso {

RelayCircuit::RelayCircuit(int pits) : pits_(pits) {
    if (pits < 2 || pits > kPits) throw std::invalid_argument("a circuit has 2 to 16 pits");
    full_ = 0;
    for (int k = 0; k < pits; ++k) full_ = add_pit(full_, k, 1);
    for (int p = 0; p < pits; ++p) {
        Packed m = 0;
        mask_[p][0] = 0;
        for (int r = 1; r < pits; ++r) {
            m = add_pit(m, (p + r) % pits, 1);
            mask_[p][r] = m;
        }
        for (int n = 0; n < 256; ++n) land_[p][n] = std::uint8_t((p + n) % pits);
    }
    for (int n = 0; n < 256; ++n) {
        laps_[n] = std::uint8_t(n / pits);
        rest_[n] = std::uint8_t(n % pits);
    }
}

const RelayCircuit& omweso_circuit() {
    static const RelayCircuit c(kPits);
    return c;
}

namespace {

struct State {
    Packed board;
    int pit;
    bool operator==(const State&) const = default;
};

// One lap; false when the lap ended the relay (the state then holds the final board and
// the landing pit).
inline bool step(const RelayCircuit& c, State& s) {
    s.pit = c.sow(s.board, s.pit);
    return get_pit(s.board, s.pit) != 1;
}

} // namespace

RelayResult relay(const RelayCircuit& c, Packed board, int start, const RelayOptions& opt) {
    if (start < 0 || start >= c.pits() || get_pit(board, start) < 2)
        throw std::invalid_argument("a relay starts from a pit of the circuit with >= 2 seeds");
    RelayResult res;
    const State origin{board, start};
    State s = origin;
    std::uint64_t laps = 0;
    auto finish = [&](const State& end) {
        res.ends = true;
        res.laps = laps;
        res.board = end.board;
        res.last_pit = end.pit;
        res.work_laps = laps;
        return res;
    };
    while (laps < opt.plain_laps) {
        ++laps;
        if (!step(c, s)) return finish(s);
    }

    // Brent (brent.hpp): the period of the cycle the relay has entered, if it has one.
    const std::optional<std::uint64_t> found = brent_period(s, [&](State& x) {
        ++laps;
        return step(c, x);
    });
    if (!found) return finish(s);
    const std::uint64_t period = *found;
    RelayCycle cyc;
    cyc.period_laps = period;
    if (opt.full_proof) {
        // Entry lap: a walker `period` laps ahead of another meets it exactly at the first
        // state of the cycle. Neither walker can end: both stay on the proven path.
        State a = origin, b = origin;
        for (std::uint64_t i = 0; i < period; ++i) step(c, b);
        std::uint64_t mu = 0;
        while (!(a == b)) {
            step(c, a);
            step(c, b);
            ++mu;
        }
        cyc.entry_lap = mu;
        laps += period + 2 * mu + period;
        cyc.board = a.board;
        cyc.pit = a.pit;
        for (std::uint64_t i = 0; i < period; ++i) {
            cyc.period_seeds += std::uint64_t(get_pit(a.board, a.pit));
            step(c, a);
        }
    } else {
        cyc.entry_lap = laps; // an upper bound only; the exact entry needs the second pass
        cyc.board = s.board;
        cyc.pit = s.pit;
    }
    res.cycle = cyc;
    res.work_laps = laps;
    return res;
}

bool replay_cycle(int pits, const RelayCycle& cycle) {
    if (pits < 2 || pits > kPits) return false;
    std::array<int, kPits> b{};
    for (int k = 0; k < pits; ++k) b[std::size_t(k)] = get_pit(cycle.board, k);
    int p = cycle.pit;
    std::uint64_t seeds = 0;
    for (std::uint64_t lap = 0; lap < cycle.period_laps; ++lap) {
        int hand = b[std::size_t(p)];
        if (hand < 2) return false; // a relay lap always lifts >= 2 seeds
        b[std::size_t(p)] = 0;
        seeds += std::uint64_t(hand);
        while (hand-- > 0) {
            p = (p + 1) % pits;
            ++b[std::size_t(p)];
        }
        if (b[std::size_t(p)] == 1) return false; // the relay ended: not a cycle
    }
    if (p != cycle.pit || seeds != cycle.period_seeds) return false;
    for (int k = 0; k < pits; ++k)
        if (b[std::size_t(k)] != get_pit(cycle.board, k)) return false;
    return true;
}

} // namespace owaredb::omweso
