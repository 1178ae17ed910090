#include "oware/moves.hpp"

namespace owaredb {

template <int P> int sow(BasicPosition<P>& board, int pit) {
    constexpr int kPits = BasicPosition<P>::kPits;
    int seeds = board.pits[pit];
    board.pits[pit] = 0;
    if (seeds < kPits) {
        int last = pit;
        for (int k = 0; k < seeds; ++k) {
            last = last == kPits - 1 ? 0 : last + 1;
            ++board.pits[last];
        }
        return last;
    }
    // Laps of 2P or more: every other pit gets seeds / (2P - 1), the first seeds % (2P - 1)
    // pits after the origin one more; the origin stays empty.
    const int per_pit = seeds / (kPits - 1);
    const int extra = seeds % (kPits - 1);
    for (int k = 1; k < kPits; ++k) {
        int q = (pit + k) % kPits;
        board.pits[q] = static_cast<uint8_t>(board.pits[q] + per_pit + (k <= extra ? 1 : 0));
    }
    return (pit + (extra == 0 ? kPits - 1 : extra)) % kPits;
}

template <int P> int capture_chain(const BasicPosition<P>& board, int last) {
    int captured = 0;
    for (int q = last; q >= P; --q) {
        int c = board.pits[q];
        if (c != 2 && c != 3) break;
        captured += c;
    }
    return captured;
}

template <int P> BasicMoveList<P> legal_moves(const Rules& rules, const BasicPosition<P>& p) {
    BasicMoveList<P> feeding;
    BasicMoveList<P> starving; // moves that leave the opponent without seeds
    for (int pit = 0; pit < P; ++pit) {
        if (p.pits[pit] == 0) continue;
        BasicPosition<P> b = p;
        int last = sow(b, pit);
        const int captured = captured_under(rules, b, last);
        if (captured > 0)
            for (int q = last; q >= P && (b.pits[q] == 2 || b.pits[q] == 3); --q) b.pits[q] = 0;
        BasicMoveList<P>& list = b.opponent_seeds() > 0 ? feeding : starving;
        list.moves[list.count++] =
            BasicMove<P>{static_cast<uint8_t>(pit), static_cast<uint8_t>(captured), b.rotated()};
    }
    if (!feeding.empty()) return feeding;
    if (rules.all_moves_starve == AllMovesStarve::MovesAreLegal) return starving;
    return {}; // game over: no move, the mover takes the rest
}

template <int P> int terminal_value(const BasicPosition<P>& p) {
    return p.mover_seeds() == 0 ? -p.seeds() : p.seeds();
}

template <int P> bool may_capture(const BasicPosition<P>& p) {
    constexpr int kPits = BasicPosition<P>::kPits;
    for (int pit = 0; pit < P; ++pit) {
        const int seeds = p.pits[pit];
        if (seeds >= kPits - 1) return true; // long sowings: let the full generator decide
        const int last = pit + seeds;        // < 3P - 1: no wrap back to the opponent
        if (seeds > 0 && last >= P && last < kPits && (p.pits[last] == 1 || p.pits[last] == 2))
            return true;
    }
    return false;
}

#define OWAREDB_INSTANTIATE(P)                                                                     \
    template int sow(BasicPosition<P>&, int);                                                      \
    template int capture_chain(const BasicPosition<P>&, int);                                      \
    template BasicMoveList<P> legal_moves(const Rules&, const BasicPosition<P>&);                  \
    template int terminal_value(const BasicPosition<P>&);                                          \
    template bool may_capture(const BasicPosition<P>&);
OWAREDB_FOR_EACH_PITS_PER_SIDE(OWAREDB_INSTANTIATE)
#undef OWAREDB_INSTANTIATE

} // namespace owaredb
