// The nibble engine: the values of the streamed engine (streamed_retrograde.hpp), and so of
// RetrogradeSolver, with 4 bits of working state a position in memory, for levels whose
// 1-byte words do not fit the memory budget. Everything else a level needs is read and
// written in order, a chunk at a time: the smaller levels (as the streamed engine reads
// them) and one byte a position in a scan store (scan_store.hpp).
//
// The method is the streamed engine's threshold sweep, with its state split differently:
//   - the word (nibble_word.hpp) keeps a position's open quiet moves and its eligible bit
//     while it is undecided, and only "won" or "lost" and the parity of the threshold once
//     it is decided;
//   - the store byte keeps the position's best capture exit (or terminal value) while it is
//     undecided, and its value once committed.
// Step by step:
//   1. Gathering (generation 0 of the store): the capture exits, pushed from the smaller
//      levels as the streamed engine pushes them (exit_gathering.hpp), into a byte array of
//      one slice of the level at a time (`gather_positions`; each slice reads the smaller
//      levels once), then written to the store.
//   2. First pass (generation 1): each position's word from its moves and its exit. A
//      position with no quiet move (terminal, or every move captures) stays undecided with
//      no move open, its value (terminal value or exit) in the byte; the streamed engine
//      assigns it at once, but nothing visits it (no quiet move leads to it, and a visit
//      goes to the parents by quiet un-moves), and the scan of threshold |value| decides it
//      exactly when the streamed engine's scan would propagate it.
//   3. Thresholds t = n..1 (generation n - t + 2): the scan of t reads each chunk's bytes,
//      and for each position
//        - decided at t + 1 (decided, parity (t + 1) % 2, byte not committed): commits its
//          value +-(t + 1) to the byte. Every position decided at u was decided by the end
//          of threshold u, before the scan of u - 1 began, and that scan commits it: so a
//          decided word with an uncommitted byte is decided at t + 1 if its parity is
//          (t + 1) % 2, and at t (by this threshold's propagation, ahead of the scan) if it
//          is t % 2;
//        - undecided: exactly the streamed engine's scan (exit t: won; exit <= -t: eligible,
//          or lost if no quiet move is open), with propagation through the same parent
//          updates, the decided words marked with t's parity;
//      then writes the chunk's bytes to the next generation. A full propagation stack
//      spills its parents (sweep::BasicState::spill) instead of leaving them pending for a
//      rescan, since the word has no room for a pending mark; the scan drains them.
//   4. The values, read in order by the level's writer (read_values()) from the last
//      generation and the words: a committed value, +-1 for the positions decided at
//      threshold 1 (the last, whose values no later scan commits), 0 for the undecided.
// So the sets W_t and L_t, and the values, are the streamed engine's: the files are
// byte-identical (tests/retro/nibble_test.cpp).
//
// Memory ordering: a word changes only by compare-exchange on its 64-bit container, with
// the streamed engine's relaxed order: each parent update reads the word's latest value in
// the container's modification order, so no closed move is lost and exactly one thread
// sees a counter reach zero, or wins a claim; the scans of two thresholds are separated by
// the parallel loop's barrier, so a scan sees every word decided at earlier thresholds.
//
// Checkpoints: safe points after the first pass and after each threshold record the
// generation's checksum (SweepPoint::exit_checksum; the generation is thresholds_done + 1);
// a saved point pins its generation in the store, and a resumed level starts afresh unless
// the store still holds it intact.
#pragma once

#include "retro/checkpoint.hpp"
#include "retro/exit_gathering.hpp"
#include "retro/game.hpp"
#include "retro/nibble_word.hpp"
#include "retro/parallel.hpp"
#include "retro/progress.hpp"
#include "retro/scan_passes.hpp"
#include "retro/scan_solver.hpp"
#include "retro/scan_store.hpp"
#include "retro/streamed_sources.hpp"
#include "retro/sweep.hpp"
#include "retro/value_array.hpp"
#include "retro/word_store.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <vector>

namespace owaredb {

template <RetroGame Game>
class NibbleRetrogradeSolver final : public ScanSolver<NibbleRetrogradeSolver<Game>, Game, 4> {
    static_assert(Game::kMaxMoves <= NibbleWord::kMaxMoves, "the 4-bit word holds 6 moves");
    using Base = ScanSolver<NibbleRetrogradeSolver<Game>, Game, 4>;
    friend Base;

  public:
    /// The sweep state of the nibble engine: 4 bits a position.
    using Sweep = typename Base::Sweep;
    /// Identifies this engine's working words in checkpoint files.
    static constexpr uint32_t kCheckpointFormat = 5;
    static constexpr int kMaxLevel = NibbleWord::kMaxLevel;
    static constexpr const char* kName = "nibble retrograde";

    /// `gather_positions`: positions of the level whose exits are gathered at once (one
    /// byte each, rounded up to whole chunks; 0: the whole level). solve() leaves the
    /// level's values in the store's last generation (n + 1) and the words
    /// (scan_solver.hpp has the rest of the interface).
    NibbleRetrogradeSolver(const Game& game, const SmallerLevelValues& smaller, ScanStore& store,
                           int threads, uint64_t gather_positions = 0)
        : Base(game, smaller, store, threads, gather_positions) {}

  private:
    using W = NibbleWord;
    using Stack = typename Base::Stack;
    static constexpr uint64_t kChunk = sweep::kChunk;

    static uint64_t generation(int thresholds_done, int) { return uint64_t(thresholds_done) + 1; }
    static int value_of(uint8_t w, int8_t byte) {
        return !W::decided(w)       ? 0
               : W::committed(byte) ? W::committed_value(byte)
               : W::lost(w)         ? -1 // decided at threshold 1
                                    : 1;
    }
    void first_pass(sweep::SweepProgress& progress);
    uint64_t threshold(int t, sweep::SweepProgress& progress);
    void scan_chunk(Sweep& s, uint64_t begin, uint64_t end, int t, Stack& stack);
    auto visit(Sweep& s) const;
};

// ---------------------------------------------------------------------------------------

template <RetroGame Game>
void NibbleRetrogradeSolver<Game>::first_pass(sweep::SweepProgress& progress) {
    bool too_many = false;
    scan::first_scan_pass(this->game_, this->s_, this->store_, this->threads_, progress,
                          "nibble retrograde", too_many, [](uint8_t w) { return w; });
    if (too_many)
        throw std::logic_error("nibble retrograde: a position with a capture exit has 6 quiet "
                               "moves (more than 6 moves)");
    this->checksum_ = this->store_.end();
}

template <RetroGame Game>
uint64_t NibbleRetrogradeSolver<Game>::threshold(int t, sweep::SweepProgress& progress) {
    Sweep& s = this->s_;
    this->store_.begin(uint64_t(s.n - t) + 2, s.size, kChunk);
    const uint64_t scans = sweep::scan_level<Stack>(
        s, this->threads_, t, progress, [&](uint64_t begin, uint64_t end, int t, Stack& stack) {
            scan_chunk(s, begin, end, t, stack);
        });
    this->checksum_ = this->store_.end();
    return scans;
}

template <RetroGame Game> auto NibbleRetrogradeSolver<Game>::visit(Sweep& s) const {
    // The streamed engine's parent update, with no pending mark (the stack spills instead).
    const int t = s.t;
    return sweep::value_visit(
        s, W::decided, [t](bool) { return W::decided_word(t, false); },
        [t](uint8_t old, bool) {
            const bool lost = W::eligible(old) && W::counter(old) == 1;
            return std::pair{lost ? W::decided_word(t, true) : static_cast<uint8_t>(old - 1), lost};
        });
}

template <RetroGame Game>
void NibbleRetrogradeSolver<Game>::scan_chunk(Sweep& s, uint64_t begin, uint64_t end, int t,
                                              Stack& stack) {
    const auto update = visit(s);
    auto propagate = [&](uint64_t i, bool lost) {
        sweep::propagate(this->game_, s, i << 1 | (lost ? 1 : 0), stack, update);
    };
    thread_local std::vector<int8_t> bytes;
    bytes.resize(end - begin);
    this->store_.read(begin / kChunk, bytes);
    const int previous = (t + 1) & 1;
    for (uint64_t i = begin; i < end; ++i) {
        int8_t& byte = bytes[i - begin];
        uint8_t w = s.word(i).load(std::memory_order_relaxed);
        if (W::decided(w)) {
            if (W::parity(w) == previous && !W::committed(byte))
                byte = W::commit(W::lost(w) ? -(t + 1) : t + 1);
            continue;
        }
        const int e = byte;
        if (e == t) {
            if (sweep::claim(s, i, W::decided_word(t, false), W::decided)) propagate(i, false);
        } else if (e != W::kNoExit && e <= -t && !W::eligible(w)) {
            // Eligible from now on; lost at once if no quiet move is open.
            auto word = s.word(i);
            while (!W::decided(w)) {
                const bool lost = W::counter(w) == 0;
                const uint8_t nw =
                    lost ? W::decided_word(t, true) : W::undecided(W::counter(w), true);
                if (word.compare_exchange_weak(w, nw, std::memory_order_relaxed)) {
                    if (lost) propagate(i, true);
                    break;
                }
            }
        }
    }
    this->store_.write(begin / kChunk, bytes);
    // The roots still waiting for a batch, then what full stacks spilled, until none is left.
    scan::drain_spilled(this->game_, s, stack, update, this->spilled_peak_);
}

} // namespace owaredb
