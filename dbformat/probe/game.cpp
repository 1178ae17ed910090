// owaredb/game.hpp over the rules of solver/oware.
#include "owaredb/game.hpp"

#include "oware/moves.hpp"
#include "oware/position.hpp"
#include "oware/rules.hpp"

#include <algorithm>
#include <optional>
#include <string>

namespace owaredb {

const char* to_string(GameEnd end) {
    switch (end) {
    case GameEnd::None:
        return "";
    case GameEnd::MoverHasNoSeeds:
        return "the side to move has no seeds";
    case GameEnd::NoMoveFeeds:
        return "no move feeds the opponent";
    }
    return "unknown";
}

namespace {

template <int P>
ProbeResult<GameState> state_of(const Rules& rules, std::span<const uint8_t> pits) {
    BasicPosition<P> p;
    std::copy(pits.begin(), pits.end(), p.pits.begin());
    GameState state;
    state.seeds = p.seeds();
    if (state.seeds > kMaxSeedsOnBoard<P>)
        return ProbeError{ProbeStatus::InvalidPosition,
                          "the position holds " + std::to_string(state.seeds) +
                              " seeds, more than " + std::to_string(kMaxSeedsOnBoard<P>)};
    for (const BasicMove<P>& m : legal_moves(rules, p))
        state.moves.push_back(
            {m.pit + 1, m.captured, BoardPits(m.child.pits.begin(), m.child.pits.end())});
    if (state.moves.empty()) {
        state.final_value = terminal_value(p);
        state.end = p.mover_seeds() == 0 ? GameEnd::MoverHasNoSeeds : GameEnd::NoMoveFeeds;
    }
    return state;
}

} // namespace

ProbeResult<GameState> game_state(std::string_view rules, std::span<const uint8_t> position) {
    const std::optional<Rules> r = Rules::by_name(rules);
    if (!r)
        return ProbeError{ProbeStatus::InvalidRules, "unknown rules '" + std::string(rules) +
                                                         "' (expected " + Rules::preset_choices() +
                                                         ")"};
    const std::size_t n = position.size();
    if (n % 2 != 0 || n < 2 * std::size_t(kMinPitsPerSide) || n > 2 * std::size_t(kMaxPitsPerSide))
        return ProbeError{ProbeStatus::InvalidPosition,
                          "a position of " + std::to_string(n) + " pit counts: a board has " +
                              board_sizes_text() + " pits a side, twice as many counts"};
    return with_pits_per_side(
        int(n / 2), [&](auto board) { return state_of<decltype(board)::value>(*r, position); });
}

} // namespace owaredb
