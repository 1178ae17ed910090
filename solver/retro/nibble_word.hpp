// The 4-bit working word of the nibble engine (nibble_retrograde.hpp explains the method),
// and the codes of the exits' bytes beside it in the scan store (scan_store.hpp).
//
// A word is one of exactly 16 states, for games of at most 6 moves a position:
//     0..5     undecided, not eligible: that many quiet moves whose child is not yet known
//              to be in W_t (a capture exit above -t exists, so at most 5 moves are quiet);
//     6..11    undecided, eligible (the best capture exit is <= -t, or there is none): 1..6
//              quiet moves open ("eligible with none open" is lost at once, never stored);
//     12, 13   fresh won, fresh lost: decided at the threshold under way (by its scan or its
//              propagation), not yet committed;
//     14, 15   committed won, committed lost: decided at an earlier threshold, whose commit
//              pass wrote the position into that threshold's bitmap.
// Propagation and the scans treat fresh and committed alike (decided). A decided word does
// not hold its threshold t, only the sign of its value +-t: t is the threshold whose
// bitmap ("decided at t", a generation of the store) holds the position. The commit pass
// after threshold t, once its scan and all its propagation are done, turns every fresh word
// committed and writes exactly those positions into t's bitmap, 16 words at a time
// (commit_fresh(): fresh is 110x in binary, committed 111x).
//
// An exits' byte (int8) holds the position's best capture exit (-59..59, or kNoExit), or its
// terminal value if it has no moves (the WLD engine, wld_retrograde.hpp, keeps the same).
#pragma once

#include "retro/game.hpp"
#include "retro/streamed_sources.hpp"

#include <bit>
#include <cstdint>
#include <span>

namespace owaredb {

struct NibbleWord {
    /// The largest level the store's byte codes hold.
    static constexpr int kMaxLevel = 59;
    static constexpr int kMaxMoves = 6;
    static constexpr int8_t kNoExit = ExitStore::kNoExit;
    static constexpr uint8_t kEligibleBase = 5; ///< eligible with c open moves: 5 + c
    static constexpr uint8_t kDecided = 12;     ///< fresh won; 13 fresh lost
    static constexpr uint8_t kCommitted = 14;   ///< committed won; 15 committed lost

    static bool decided(uint8_t w) { return w >= kDecided; }
    static bool eligible(uint8_t w) { return w > kEligibleBase && w < kDecided; }
    static int counter(uint8_t w) { return w <= kEligibleBase ? w : w - kEligibleBase; }
    /// A word decided at the threshold under way (fresh).
    static uint8_t fresh_word(bool lost) { return static_cast<uint8_t>(kDecided + (lost ? 1 : 0)); }
    static bool fresh(uint8_t w) { return w == kDecided || w == kDecided + 1; }
    static bool committed_word(uint8_t w) { return w >= kCommitted; }
    /// Of a decided word: whether its value is negative.
    static bool lost(uint8_t w) { return w & 1; }

    /// Commits the fresh words of a container of 16 packed words (word k in bits 4k..4k+3):
    /// each becomes committed with its sign; returns the mask of those it committed (bit k:
    /// word k).
    static uint16_t commit_fresh(uint64_t& container) {
        const uint64_t c = container;
        const uint64_t f = (c >> 3) & (c >> 2) & ~(c >> 1) & kLowBits; // 110x
        container = c | (f << 1);
        return gather(f);
    }
    /// The mask of a container's committed words (111x).
    static uint16_t committed_mask(uint64_t c) {
        return gather((c >> 3) & (c >> 2) & (c >> 1) & kLowBits);
    }
    /// The mask of a container's committed lost words (1111).
    static uint16_t committed_lost_mask(uint64_t c) {
        return gather((c >> 3) & (c >> 2) & (c >> 1) & c & kLowBits);
    }
    /// An undecided word with c open quiet moves, eligible or not.
    static uint8_t undecided(int c, bool is_eligible) {
        return static_cast<uint8_t>(is_eligible ? kEligibleBase + c : c);
    }

  private:
    static constexpr uint64_t kLowBits = 0x1111111111111111ULL; // bit 0 of each word
    /// Bit 4k of f (f within kLowBits) as bit k.
    static uint16_t gather(uint64_t f) {
        uint64_t m = (f | f >> 3) & 0x0303030303030303ULL;
        m = (m | m >> 6) & 0x000F000F000F000FULL;
        m = (m | m >> 12) & 0x000000FF000000FFULL;
        m = (m | m >> 24) & 0xFFFFULL;
        return static_cast<uint16_t>(m);
    }

  public:
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

/// The bitmap of a threshold t in the nibble engine's store, a chunk of positions at a time:
/// one bit for each position of the chunk that no threshold above t decided, in order (1:
/// decided at t), packed from bit 0 of byte 0 on and padded with zeros to kChunk / 8 bytes
/// a chunk (the last chunk: its positions / 8, rounded up). Leaving out the positions
/// decided before (the reader knows them: it reads the thresholds in the same order)
/// brings the bitmaps of all thresholds together closer to the entropy of the values'
/// magnitudes (chain rule) than a bit a position a threshold: at awari 20 (zstd level 1,
/// the scan files' codec) 3.88 bits a position in all, where a bit for every position took
/// 4.90 (docs/results.md).
///
/// Writer: put(undecided, decided) for each 8 positions in order (masks of the positions
/// undecided before t, and of those decided at t among them), then bytes(). Reader: the
/// same masks of the positions undecided before t give the decided ones back.
class ThresholdBits {
  public:
    /// Writes (its bytes zeros before) or reads the chunk's bitmap `bytes`.
    explicit ThresholdBits(std::span<int8_t> bytes) : out_(bytes) {}
    /// Writes the bits of `decided` (a subset of `undecided`) at `undecided`'s positions.
    void put(uint8_t undecided, uint8_t decided) {
        append(tables().extract[undecided][decided], tables().count[undecided]);
    }
    /// Reads the next bits, one for each of `undecided`'s positions: the decided ones.
    uint8_t get(uint8_t undecided) {
        const int n = tables().count[undecided];
        const uint64_t byte = at_ / 8, shift = at_ % 8;
        uint32_t v = byte < out_.size() ? static_cast<uint8_t>(out_[byte]) : 0u;
        if (byte + 1 < out_.size()) v |= uint32_t(static_cast<uint8_t>(out_[byte + 1])) << 8;
        at_ += uint64_t(n);
        return tables().deposit[undecided][(v >> shift) & ((1u << n) - 1)];
    }

  private:
    void append(uint8_t bits, int n) {
        if (n == 0) return;
        const uint64_t byte = at_ / 8, shift = at_ % 8;
        out_[byte] = static_cast<int8_t>(static_cast<uint8_t>(out_[byte]) | (bits << shift));
        if (shift + uint64_t(n) > 8) out_[byte + 1] = static_cast<int8_t>(bits >> (8 - shift));
        at_ += uint64_t(n);
    }
    struct Tables {
        uint8_t extract[256][256]; // [mask][bits]: bits at the mask's positions, packed
        uint8_t deposit[256][256]; // [mask][packed]: packed bits to the mask's positions
        uint8_t count[256];        // [mask]: its bits (std::popcount is a library call
                                   // on x86-64 without -mpopcnt)
    };
    static const Tables& tables() {
        static const Tables t = [] {
            Tables made{};
            for (unsigned m = 0; m < 256; ++m)
                for (unsigned x = 0; x < 256; ++x) {
                    unsigned e = 0, d = 0, k = 0;
                    for (unsigned bit = 0; bit < 8; ++bit)
                        if (m >> bit & 1) {
                            e |= (x >> bit & 1) << k;
                            d |= (x >> k & 1) << bit;
                            ++k;
                        }
                    made.extract[m][x] = static_cast<uint8_t>(e);
                    made.deposit[m][x] = static_cast<uint8_t>(d);
                }
            for (unsigned m = 0; m < 256; ++m)
                made.count[m] = static_cast<uint8_t>(std::popcount(m));
            return made;
        }();
        return t;
    }
    std::span<int8_t> out_;
    uint64_t at_ = 0; // bits written or read
};

} // namespace owaredb
