// The 4-bit working word of the nibble engine (nibble_retrograde.hpp explains the method),
// and the codes of the scan store's bytes beside it (scan_store.hpp).
//
// A word is one of exactly 16 states, for games of at most 6 moves a position:
//     0..5     undecided, not eligible: that many quiet moves whose child is not yet known
//              to be in W_t (a capture exit above -t exists, so at most 5 moves are quiet);
//     6..11    undecided, eligible (the best capture exit is <= -t, or there is none): 1..6
//              quiet moves open ("eligible with none open" is lost at once, never stored);
//     12..15   decided: 12 + 2 * (t % 2) + lost, for a position decided at threshold t.
// A decided word does not hold its value: the value is +-t for the threshold t at which it
// was decided, and the scan of threshold t - 1 commits it to the position's store byte. The
// parity bit tells the positions decided at t (committed by this scan) from those that the
// scan's own propagation decides at t - 1 ahead of it, which a word without it cannot.
//
// A store byte (int8) holds, while its position is undecided, the position's best capture
// exit (-59..59, or kNoExit), or its terminal value if it has no moves; once committed, its
// value v (1 <= |v| <= 59) as v + 60 or v - 60, outside the exits' range.
#pragma once

#include "retro/game.hpp"
#include "retro/streamed_sources.hpp"

#include <cstdint>
#include <cstdlib>

namespace owaredb {

struct NibbleWord {
    /// The largest level the store's byte codes hold.
    static constexpr int kMaxLevel = 59;
    static constexpr int kMaxMoves = 6;
    static constexpr int8_t kNoExit = ExitStore::kNoExit;
    static constexpr uint8_t kEligibleBase = 5; ///< eligible with c open moves: 5 + c
    static constexpr uint8_t kDecided = 12;
    static constexpr int8_t kCommitOffset = 60;

    static bool decided(uint8_t w) { return w >= kDecided; }
    static bool eligible(uint8_t w) { return w > kEligibleBase && w < kDecided; }
    static int counter(uint8_t w) { return w <= kEligibleBase ? w : w - kEligibleBase; }
    static uint8_t decided_word(int t, bool lost) {
        return static_cast<uint8_t>(kDecided + 2 * (t & 1) + (lost ? 1 : 0));
    }
    static bool lost(uint8_t w) { return (w - kDecided) & 1; }
    static int parity(uint8_t w) { return (w - kDecided) >> 1; }
    /// An undecided word with c open quiet moves, eligible or not.
    static uint8_t undecided(int c, bool is_eligible) {
        return static_cast<uint8_t>(is_eligible ? kEligibleBase + c : c);
    }

    /// Whether a store byte is a committed value (else it is an exit or a terminal value).
    static bool committed(int8_t b) { return std::abs(int(b)) > kCommitOffset && b != kNoExit; }
    static int8_t commit(int v) {
        return static_cast<int8_t>(v > 0 ? v + kCommitOffset : v - kCommitOffset);
    }
    static int committed_value(int8_t b) { return b > 0 ? b - kCommitOffset : b + kCommitOffset; }

    /// A position's first-pass word and store byte, from its moves and `exit`, its best
    /// capture exit (kNoExit: none), which the byte holds before: a terminal position
    /// keeps its terminal value in the byte, and every other position with no quiet move
    /// its exit, both waiting, undecided with no move open, for the scan of the threshold
    /// that decides them; a position with quiet moves is eligible at once if it has no
    /// exit. Sets `missing` if a position whose every move captures has no exit, and
    /// `too_many` if a position with an exit has 6 quiet moves (neither can happen in a
    /// game whose moves and un-moves agree and which has at most 6 moves).
    template <RetroGame Game>
    static uint8_t first_word(const Game& game, const typename Game::State& state, int8_t& byte,
                              bool& missing, bool& too_many) {
        static_assert(Game::kMaxMoves <= kMaxMoves, "the 4-bit word holds at most 6 moves");
        int quiet = 0;
        const int moves = game.for_each_move(state, [&](int captured, const auto&) {
            if (captured == 0) ++quiet;
        });
        if (moves == 0) {
            byte = static_cast<int8_t>(game.terminal_value(state));
            return undecided(0, false);
        }
        if (quiet == 0) {
            missing = missing || byte == kNoExit;
            return undecided(0, false);
        }
        if (byte == kNoExit) return undecided(quiet, true);
        too_many = too_many || quiet > int(kEligibleBase);
        return undecided(quiet, false);
    }
};

} // namespace owaredb
