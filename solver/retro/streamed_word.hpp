// The streamed engine's working byte of a position (streamed_retrograde.hpp explains the
// method), shared by its steps (exit_gathering.hpp, rank_requests.hpp):
//     0..15    unassigned: bits 0-2 count the quiet moves whose child is not yet known to
//              be in W_t, bit 3 ("eligible") says the best capture exit is <= -t, i.e. the
//              position joins L_t as soon as the count reaches zero;
//     16..255  assigned: 16 + 2 * (value + 59) + pending (values -59..59).
#pragma once

#include "retro/game.hpp"
#include "retro/streamed_sources.hpp"
#include "retro/sweep.hpp"

#include <cstdint>

namespace owaredb {

/// The sweep state of the streamed engine: one byte per position.
using StreamedSweep = sweep::BasicState<sweep::WholeWords<uint8_t>>;

struct StreamedWord {
    /// The largest level the encoding holds.
    static constexpr int kMaxLevel = 59;
    static constexpr int kNoExit = ExitStore::kNoExit;
    static constexpr uint8_t kEligible = 8;
    static constexpr uint8_t kAssigned = 16;

    static bool assigned(uint8_t w) { return w >= kAssigned; }
    static uint8_t assigned_word(int v, bool pending) {
        return static_cast<uint8_t>(kAssigned + 2 * (v + kMaxLevel) + (pending ? 1 : 0));
    }
    static int value(uint8_t w) { return ((w - kAssigned) >> 1) - kMaxLevel; }
    static bool pending(uint8_t w) { return (w - kAssigned) & 1; }
    static int counter(uint8_t w) { return w & 7; }

    /// A position's word from its moves, before its capture exit is known: assigned if it is
    /// terminal, else its count of quiet moves (0: every move captures). `capture(captured,
    /// child)` is called for each capture move.
    template <RetroGame Game, class Capture>
    static uint8_t from_moves(const Game& game, const typename Game::State& state,
                              Capture&& capture) {
        static_assert(Game::kMaxMoves <= 7, "the move counter has 3 bits");
        int quiet = 0;
        const int moves = game.for_each_move(state, [&](int captured, const auto& child) {
            if (captured == 0)
                ++quiet;
            else
                capture(captured, child);
        });
        if (moves > 0) return static_cast<uint8_t>(quiet);
        const int v = game.terminal_value(state);
        return assigned_word(v, v != 0);
    }

    /// A position's first-pass word from its moves' word (from_moves) and its best exit e.
    /// Every move captures: the value is e, known now, which propagates when the sweep
    /// reaches its threshold (`missing` is set if there is no exit, which the game's moves
    /// make impossible). No exit: eligible at once (below every -t).
    static uint8_t with_exit(uint8_t w, int e, bool& missing) {
        if (assigned(w)) return w;
        if (counter(w) == 0) {
            missing = missing || e == kNoExit;
            return assigned_word(e, e != 0);
        }
        return e == kNoExit ? static_cast<uint8_t>(w | kEligible) : w;
    }
};

} // namespace owaredb
