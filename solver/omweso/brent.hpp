// Brent's cycle detection, shared by the pure relay simulator and the full-rules turn
// detector: O(1) extra memory, each state compared with equality only.
#pragma once

#include <cstdint>
#include <optional>

namespace owaredb::omweso {

/// Advances `s` with `advance(s)` (which returns false when the walk ends) until it
/// repeats a state. The tortoise sits at the start of a block of `power` steps while the
/// hare walks the block; meeting it inside a block proves a cycle whose period is the
/// number of steps walked since the tortoise last moved. Returns that period, or nullopt
/// when the walk ended first (then `s` is the final state).
template <class State, class Advance>
std::optional<std::uint64_t> brent_period(State& s, Advance&& advance) {
    State tortoise = s;
    std::uint64_t power = 1, period = 0;
    for (;;) {
        if (!advance(s)) return std::nullopt;
        ++period;
        if (s == tortoise) return period;
        if (period == power) {
            tortoise = s;
            power *= 2;
            period = 0;
        }
    }
}

} // namespace owaredb::omweso
