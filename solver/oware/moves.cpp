#include "oware/moves.hpp"

namespace owaredb {

int sow(Position& board, int pit) {
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
    // Laps of 12 or more: every other pit gets seeds / 11, the first seeds % 11 pits after
    // the origin one more; the origin stays empty.
    const int per_pit = seeds / (kPits - 1);
    const int extra = seeds % (kPits - 1);
    for (int k = 1; k < kPits; ++k) {
        int q = (pit + k) % kPits;
        board.pits[q] = static_cast<uint8_t>(board.pits[q] + per_pit + (k <= extra ? 1 : 0));
    }
    return (pit + (extra == 0 ? kPits - 1 : extra)) % kPits;
}

int capture_chain(const Position& board, int last) {
    int captured = 0;
    for (int q = last; q >= kPitsPerSide; --q) {
        int c = board.pits[q];
        if (c != 2 && c != 3) break;
        captured += c;
    }
    return captured;
}

MoveList legal_moves(const Rules& rules, const Position& p) {
    MoveList feeding;
    MoveList starving; // moves that leave the opponent without seeds
    for (int pit = 0; pit < kPitsPerSide; ++pit) {
        if (p.pits[pit] == 0) continue;
        Position b = p;
        int last = sow(b, pit);
        int captured = capture_chain(b, last);
        if (captured > 0 && captured == b.opponent_seeds() &&
            rules.grand_slam == GrandSlam::CapturesNothing)
            captured = 0; // grand slam: legal, captures nothing
        if (captured > 0)
            for (int q = last; q >= kPitsPerSide && (b.pits[q] == 2 || b.pits[q] == 3); --q)
                b.pits[q] = 0;
        MoveList& list = b.opponent_seeds() > 0 ? feeding : starving;
        list.moves[list.count++] =
            Move{static_cast<uint8_t>(pit), static_cast<uint8_t>(captured), b.rotated()};
    }
    if (!feeding.empty()) return feeding;
    if (rules.all_moves_starve == AllMovesStarve::MovesAreLegal) return starving;
    return {}; // game over: no move, the mover takes the rest
}

int terminal_value(const Position& p) {
    return p.mover_seeds() == 0 ? -p.seeds() : p.seeds();
}

bool may_capture(const Position& p) {
    for (int pit = 0; pit < kPitsPerSide; ++pit) {
        const int seeds = p.pits[pit];
        if (seeds >= kPits - 1) return true; // long sowings: let the full generator decide
        const int last = pit + seeds;        // <= 15: no wrap back to the opponent
        if (seeds > 0 && last >= kPitsPerSide && last < kPits &&
            (p.pits[last] == 1 || p.pits[last] == 2))
            return true;
    }
    return false;
}

} // namespace owaredb
