#include "oware/perft.hpp"

#include "oware/moves.hpp"

namespace owaredb {

uint64_t perft(const Rules& rules, const Position& p, int depth) {
    if (depth == 0) return 1;
    MoveList moves = legal_moves(rules, p);
    if (depth == 1) return static_cast<uint64_t>(moves.size());
    uint64_t nodes = 0;
    for (const Move& m : moves) nodes += perft(rules, m.child, depth - 1);
    return nodes;
}

} // namespace owaredb
