// A deliberately simple reference relay simulator for the tests: seed by seed on an array,
// Floyd's tortoise and hare over whole (board, pit) states. It shares no code with the
// engine, so agreement between the two is evidence for both.
#pragma once

#include <array>
#include <cstdint>
#include <optional>

namespace owaredb::omweso::naive {

struct State {
    std::array<int, 16> b{};
    int pit = 0;
    bool operator==(const State&) const = default;
};

struct Outcome {
    bool ends = false;
    std::uint64_t laps = 0;   // finite: laps sown
    State final;              // finite: final board, pit = last seed
    std::uint64_t period = 0; // never-ending: period in laps
    std::uint64_t entry = 0;  // never-ending: first lap of the cycle
};

// One lap: lift pit s.pit and sow it one seed at a time; false if the relay ended.
inline bool step(int n, State& s) {
    int hand = s.b[std::size_t(s.pit)];
    s.b[std::size_t(s.pit)] = 0;
    int p = s.pit;
    while (hand-- > 0) {
        p = (p + 1) % n;
        ++s.b[std::size_t(p)];
    }
    s.pit = p;
    return s.b[std::size_t(p)] > 1;
}

inline Outcome relay(int n, const State& start) {
    Outcome o;
    // Floyd: the hare moves two laps per tortoise lap; if the hare's path ends, the relay
    // ends and its length is found by replaying from the start.
    State t = start, h = start;
    bool ends = false;
    for (;;) {
        if (!step(n, h) || !step(n, h)) {
            ends = true;
            break;
        }
        step(n, t);
        if (t == h) break;
    }
    if (ends) {
        State s = start;
        o.ends = true;
        o.laps = 1;
        while (step(n, s)) ++o.laps;
        o.final = s;
        return o;
    }
    State a = start;
    while (!(a == h)) { // cycle entry
        step(n, a);
        step(n, h);
        ++o.entry;
    }
    State c = a;
    do {
        step(n, c);
        ++o.period;
    } while (!(c == a));
    return o;
}

} // namespace owaredb::omweso::naive
