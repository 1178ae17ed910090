// Rule knobs. The defaults are the seeds' rules (docs/rules.md, Omweso); switching all three off
// leaves pure relay sowing (items 1-2).
#pragma once

namespace owaredb::omweso {

struct Rules {
    // Item 3: frontal column captures. Off: every qualifying landing simply relays.
    bool captures = true;
    // Item 4: clockwise laps from the four leftmost pits when they capture directly.
    bool reverse_captures = true;
    // Item 5: no captures in a player's first turn, and the 3-seed opening sowing
    // (2 into the next pit, 1 into the one after, turn over) before the game's first capture.
    bool opening = true;
};

inline constexpr Rules pure_relay_rules() {
    return Rules{false, false, false};
}

} // namespace owaredb::omweso
