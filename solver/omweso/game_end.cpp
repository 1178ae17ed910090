#include "omweso/game_end.hpp"

namespace owaredb::omweso {

bool can_move(Packed circuit) {
    // A pit holds >= 2 seeds iff some bit above the lowest one of its byte is set.
    constexpr Packed high = kOnes * Packed(0xFE);
    return (circuit & high) != 0;
}

std::optional<GameResult> game_result(const Position& pos, bool last_turn_captured) {
    const Packed loser = pos.mover();
    if (can_move(loser)) return std::nullopt;
    GameResult r;
    r.winner = 1 - pos.to_move;
    bool front_empty = true;
    for (int k = 8; k < kPits; ++k) front_empty = front_empty && get_pit(loser, k) == 0;
    const bool corners_empty = get_pit(loser, 0) == 0 && get_pit(loser, 7) == 0 &&
                               get_pit(loser, 8) == 0 && get_pit(loser, 15) == 0;
    if (last_turn_captured && total(loser) == 0)
        r.points = kMatchPoints;
    else if (front_empty || corners_empty)
        r.points = 2;
    else
        r.points = 1;
    return r;
}

std::optional<GameResult> game_result(const Turn& t) {
    if (t.never_ending) return std::nullopt;
    return game_result(t.final, t.captures > 0);
}

} // namespace owaredb::omweso
