// The WLD engine: the values of the streamed engine (streamed_retrograde.hpp), and so of
// RetrogradeSolver, with 2 bits of working state a position in memory (Lincke's WLD(k), a
// threshold at a time), for levels whose 4-bit words (nibble_retrograde.hpp) do not fit
// the memory budget either. Beside the words it keeps, as the nibble engine does, one byte
// a position in a scan store (scan_store.hpp; the codes of nibble_word.hpp), read and
// written in order a chunk at a time, and it shares the nibble engine's gathering, first
// pass, reading of the values and checkpoints (scan_passes.hpp).
//
// The word (wld_word.hpp) is unknown, eligible, won or lost: no counter of open moves and
// no mark of the threshold that decided it. Step by step:
//   1. Gathering (generation 0): the capture exits, as the nibble engine gathers them.
//   2. First pass (generation 1): terminal values into the bytes; a position with quiet
//      moves and no capture exit is eligible, every other one unknown (a position with no
//      quiet move waits, undecided, for the scan of the threshold of its value).
//   3. Thresholds t = n..1, each a scan and then a commit pass:
//      - the scan reads the bytes (it writes none) and, for each undecided position, does
//        what the streamed engine's scan does: exit t: won; exit <= -t and unknown:
//        eligible, and lost at once if every quiet child is won already (none: lost).
//        Propagation, through the sweep's un-moves: a parent of a lost child is won; an
//        eligible parent of a won child re-generates its moves and loads its quiet
//        children's words, stopping at the first not won, and is lost if all are (a child
//        won at an earlier threshold is won at this one: W_t grows as t falls). A full
//        propagation stack spills its parents, since the word has no pending mark;
//      - the commit pass (generation n - t + 2), once the scan and all its propagation are
//        done: every decided word whose byte is not a committed value was decided at t, so
//        its byte becomes +-t. The bytes committed before are the "decided before" map, 1
//        bit a position kept in the compressed store instead of memory. Committing in the
//        next threshold's scan instead is wrong: the next scan's propagation decides
//        positions at t - 1 ahead of the scan, which would then commit them as +-t (the
//        nibble engine has a commit pass of its own for the same reason).
//      Threshold 1 has no commit pass: its positions are the decided ones left uncommitted.
//   4. The values, read in order by the level's writer (read_values()) from the last
//      generation and the words: a committed value, +-1 for a decided word with no
//      committed value, 0 for the undecided.
// So the sets W_t and L_t at each threshold are the streamed engine's (they are fixed
// points, whatever the order of the decisions), and the level's file is byte-identical
// (tests/retro/wld_test.cpp).
//
// Memory ordering: wld_word.hpp proves why the seq_cst operations on the words are enough
// for two threads that make two sibling children won at once. The scans of two thresholds,
// and a commit pass and the scan before it, are separated by the parallel loops' barriers.
//
// Checkpoints: safe points after the first pass and after each threshold (its commit
// included) record the checksum of the generation last written, which a saved point pins;
// a resumed level starts afresh unless the store still holds it intact.
#pragma once

#include "retro/checkpoint.hpp"
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
#include "retro/wld_word.hpp"
#include "retro/word_store.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <vector>

namespace owaredb {

template <RetroGame Game>
class WldRetrogradeSolver final : public ScanSolver<WldRetrogradeSolver<Game>, Game, 2> {
    using Base = ScanSolver<WldRetrogradeSolver<Game>, Game, 2>;
    friend Base;

  public:
    /// The sweep state of the WLD engine: 2 bits a position.
    using Sweep = typename Base::Sweep;
    /// Identifies this engine's working words in checkpoint files.
    static constexpr uint32_t kCheckpointFormat = 6;
    static constexpr int kMaxLevel = NibbleWord::kMaxLevel;
    static constexpr const char* kName = "wld retrograde";

    /// `gather_positions`: positions of the level whose exits are gathered at once (one
    /// byte each, rounded up to whole chunks; 0: the whole level). solve() leaves the
    /// level's values in the store's last generation and the words (scan_solver.hpp has
    /// the rest of the interface).
    WldRetrogradeSolver(const Game& game, const SmallerLevelValues& smaller, ScanStore& store,
                        int threads, uint64_t gather_positions = 0)
        : Base(game, smaller, store, threads, gather_positions) {}

    /// The checks of an eligible position's children in the last level (statistics: the
    /// work the missing counter costs; a resumed level adds its thresholds to the count).
    uint64_t rechecks() const { return rechecks_.load(); }

  private:
    using W = WldWord;
    using State = typename Game::State;
    using Stack = typename Base::Stack;
    static constexpr uint64_t kChunk = sweep::kChunk;

    /// The generation a safe point after `thresholds_done` thresholds goes with: the first
    /// pass's, then each threshold's commit pass's (threshold 1 has none).
    static uint64_t generation(int thresholds_done, int n) {
        return thresholds_done == n && n > 0 ? uint64_t(n) : uint64_t(thresholds_done) + 1;
    }
    static std::vector<scan::GenerationShape> generations_needed(int thresholds_done, int n,
                                                                 uint64_t size) {
        return {{generation(thresholds_done, n), size, kChunk}};
    }
    static int value_of(uint8_t w, int8_t byte) {
        return !W::decided(w)                ? 0
               : NibbleWord::committed(byte) ? NibbleWord::committed_value(byte)
               : w == W::kLost               ? -1 // decided at threshold 1
                                             : 1;
    }
    void chunk_values(uint64_t first, std::span<int8_t> values) const;
    bool all_quiet_children_won(const State& state) const;
    void first_pass(sweep::SweepProgress& progress);
    uint64_t threshold(int t, sweep::SweepProgress& progress);
    void commit(int t);
    void scan_chunk(uint64_t begin, uint64_t end, int t, Stack& stack);

    std::atomic<uint64_t> rechecks_{0};
};

// ---------------------------------------------------------------------------------------

template <RetroGame Game>
bool WldRetrogradeSolver<Game>::all_quiet_children_won(const State& state) const {
    return W::all_won([&](auto&& f) {
        this->game_.for_each_move(state, [&](int captured, const State& child) {
            if (captured == 0) f([&] { return this->s_.word(this->game_.rank(child)); });
        });
    });
}

template <RetroGame Game>
void WldRetrogradeSolver<Game>::first_pass(sweep::SweepProgress& progress) {
    bool too_many = false; // 6 quiet moves beside a capture: moves and un-captures disagree
    this->checksum_ = scan::first_scan_pass(
        this->game_, this->s_, this->store_, this->threads_, progress, "wld retrograde", too_many,
        [](uint8_t w) { return NibbleWord::eligible(w) ? W::kEligible : W::kUnknown; });
    if (too_many)
        throw std::logic_error("wld retrograde: a position with a capture exit has 6 quiet "
                               "moves (more than 6 moves)");
}

template <RetroGame Game>
uint64_t WldRetrogradeSolver<Game>::threshold(int t, sweep::SweepProgress& progress) {
    if (t == this->s_.n) rechecks_.store(0);
    const uint64_t scans =
        sweep::scan_level<Stack>(this->s_, this->threads_, t, progress,
                                 [&](uint64_t begin, uint64_t end, int t, Stack& stack) {
                                     scan_chunk(begin, end, t, stack);
                                 });
    if (t > 1) commit(t);
    return scans;
}

template <RetroGame Game> void WldRetrogradeSolver<Game>::commit(int t) {
    const uint64_t before = uint64_t(this->s_.n - t) + 1;
    this->store_.begin(before + 1, this->s_.size, kChunk);
    parallel::for_chunks(this->threads_, 0, this->s_.size, kChunk, [&](uint64_t b, uint64_t e) {
        thread_local std::vector<int8_t> bytes;
        bytes.resize(e - b);
        this->store_.read(before, b / kChunk, bytes);
        for (uint64_t i = b; i < e; ++i) {
            const uint8_t w = this->s_.word(i).load(std::memory_order_relaxed);
            int8_t& byte = bytes[i - b];
            if (W::decided(w) && !NibbleWord::committed(byte))
                byte = NibbleWord::commit(w == W::kLost ? -t : t);
        }
        this->store_.write(b / kChunk, bytes);
    });
    this->checksum_ = this->store_.end();
    this->store_.drop(before); // kept while pinned: the last checkpoint may need it
}

template <RetroGame Game>
void WldRetrogradeSolver<Game>::chunk_values(uint64_t first, std::span<int8_t> values) const {
    thread_local std::vector<int8_t> bytes;
    bytes.resize(values.size());
    this->store_.read(generation(this->s_.n, this->s_.n), first / kChunk, bytes);
    for (uint64_t j = 0; j < values.size(); ++j) {
        const uint8_t w = this->s_.word(first + j).load(std::memory_order_relaxed);
        values[j] = static_cast<int8_t>(value_of(w, bytes[j]));
    }
}

template <RetroGame Game>
void WldRetrogradeSolver<Game>::scan_chunk(uint64_t begin, uint64_t end, int t, Stack& stack) {
    Sweep& s = this->s_;
    uint64_t checks = 0;
    // The parent update: a lost child (tag 1) wins the parent; a won child (tag 0) makes an
    // eligible parent look at all its quiet children.
    const auto update = [this, &s, &checks](bool child_lost, uint64_t k, bool,
                                            const State& parent) {
        const auto word = s.word(k);
        if (child_lost) return W::decide_won(word);
        if (!W::is_eligible(word)) return false;
        ++checks;
        return all_quiet_children_won(parent) && W::decide_lost(word);
    };
    thread_local std::vector<int8_t> bytes;
    bytes.resize(end - begin);
    this->store_.read(uint64_t(s.n - t) + 1, begin / kChunk, bytes); // the last commit's
    for (uint64_t i = begin; i < end; ++i) {
        const auto word = s.word(i);
        const uint8_t w = word.load(std::memory_order_relaxed);
        if (W::decided(w)) continue;
        const int e = bytes[i - begin];
        if (e == t) {
            if (W::decide_won(word)) sweep::propagate(this->game_, s, i << 1, stack, update);
        } else if (e != NibbleWord::kNoExit && e <= -t && w == W::kUnknown &&
                   W::make_eligible(word)) {
            ++checks;
            if (all_quiet_children_won(this->game_.unrank(s.n, i)) && W::decide_lost(word))
                sweep::propagate(this->game_, s, i << 1 | 1, stack, update);
        }
    }
    scan::drain_spilled(this->game_, s, stack, update, this->spilled_peak_);
    rechecks_.fetch_add(checks, std::memory_order_relaxed);
}

} // namespace owaredb
