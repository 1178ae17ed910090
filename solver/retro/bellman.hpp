// Values of positions outside the databases (the start position, positions where the
// side that just moved has no empty pit) by one ply of search: every child of a legal
// move is in a database.
#pragma once

#include "oware/moves.hpp"

#include <optional>

namespace owaredb {

/// max over legal moves (captured - V(child)), or the terminal value. `child_value(level,
/// child)` returns the stored value of a child position of D_level, or nullopt when it is
/// not available; then the result is nullopt too.
template <class ChildValue>
std::optional<int> one_ply_value(const Rules& rules, const Position& p, ChildValue&& child_value) {
    MoveList moves = legal_moves(rules, p);
    if (moves.empty()) return terminal_value(p);
    int best = -1000;
    for (const Move& m : moves) {
        std::optional<int> v = child_value(p.seeds() - m.captured, m.child);
        if (!v) return std::nullopt;
        best = std::max(best, m.captured - *v);
    }
    return best;
}

} // namespace owaredb
