#include "oware/capture_unmoves.hpp"

#include "oware/moves.hpp"

namespace owaredb {

bool is_capture_move(const Rules& rules, const Position& q, int origin, int captured,
                     const Position& child) {
    for (const Move& m : legal_moves(rules, q))
        if (m.pit == origin) return m.captured == captured && m.child == child;
    return false; // not a legal move of q
}

} // namespace owaredb
