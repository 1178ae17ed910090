#include "oware/perft.hpp"

#include "oware/moves.hpp"

namespace owaredb {

template <int P> uint64_t perft(const Rules& rules, const BasicPosition<P>& p, int depth) {
    if (depth == 0) return 1;
    BasicMoveList<P> moves = legal_moves(rules, p);
    if (depth == 1) return static_cast<uint64_t>(moves.size());
    uint64_t nodes = 0;
    for (const BasicMove<P>& m : moves) nodes += perft(rules, m.child, depth - 1);
    return nodes;
}

#define OWAREDB_INSTANTIATE(P) template uint64_t perft(const Rules&, const BasicPosition<P>&, int);
OWAREDB_FOR_EACH_PITS_PER_SIDE(OWAREDB_INSTANTIATE)
#undef OWAREDB_INSTANTIATE

} // namespace owaredb
