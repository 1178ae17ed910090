// Small helpers shared by the rule tests.
#pragma once

#include "oware/moves.hpp"

#include <vector>

namespace owaredb::test {

/// A position from its text form (throws on a typo in a test).
inline Position P(const char* text) {
    return parse_position_or_throw<6>(text);
}

/// The legal moves of p as people write them (1..6).
inline std::vector<int> move_numbers(const Rules& rules, const Position& p) {
    std::vector<int> out;
    for (const Move& m : legal_moves(rules, p)) out.push_back(m.pit + 1);
    return out;
}

} // namespace owaredb::test
