#include "oware/capture_unmoves.hpp"

#include "oware/moves.hpp"

namespace owaredb {

template <int P>
bool is_capture_move(const Rules& rules, const BasicPosition<P>& q, int origin, int captured,
                     const BasicPosition<P>& child) {
    for (const BasicMove<P>& m : legal_moves(rules, q))
        if (m.pit == origin) return m.captured == captured && m.child == child;
    return false; // not a legal move of q
}

#define OWAREDB_INSTANTIATE(P)                                                                     \
    template bool is_capture_move(const Rules&, const BasicPosition<P>&, int, int,                 \
                                  const BasicPosition<P>&);
OWAREDB_FOR_EACH_PITS_PER_SIDE(OWAREDB_INSTANTIATE)
#undef OWAREDB_INSTANTIATE

} // namespace owaredb
