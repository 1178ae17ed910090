#include "omweso/meyer.hpp"

#include "omweso/turn.hpp"

namespace owaredb::omweso {

int capturable_seeds(Packed opponent) {
    int sum = 0;
    // Opponent front pit j = 8..15 stands in the same column as its back pit 15 - j
    // (board.hpp: the mover's front pit k faces 23 - k and k - 8, and 15 - (23 - k) = k - 8).
    for (int j = 8; j < kPits; ++j) {
        const int f = get_pit(opponent, j), b = get_pit(opponent, 15 - j);
        if (f > 0 && b > 0) sum += f + b;
    }
    return sum;
}

MeyerVerdict meyer_test(const Position& pos, const Rules& rules) {
    int reachable = total(pos.mover());
    if (captures_allowed(pos, rules)) reachable += capturable_seeds(pos.opponent());
    return meyer_relay_ends(reachable) ? MeyerVerdict::Ends : MeyerVerdict::Undecided;
}

} // namespace owaredb::omweso
