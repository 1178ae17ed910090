// The nibble engine: the values of the streamed engine (streamed_retrograde.hpp), and so of
// RetrogradeSolver, with 4 bits of working state a position in memory, for levels whose
// 1-byte words do not fit the memory budget. Everything else a level needs is read and
// written in order, a chunk at a time: the smaller levels (as the streamed engine reads
// them), and in a scan store (scan_store.hpp) one byte a position of exits, written once,
// and a bitmap a threshold of the positions decided at it.
//
// The method is the streamed engine's threshold sweep, with its state split differently:
//   - the word (nibble_word.hpp) keeps a position's open quiet moves and its eligible bit
//     while it is undecided, and only "won" or "lost", fresh or committed, once decided;
//   - the exits' generation keeps the position's best capture exit (or terminal value),
//     read by every threshold's scan as the streamed engine reads its exit file, and never
//     rewritten;
//   - the bitmap of threshold t keeps which positions were decided at t.
// Step by step:
//   1. Gathering (generation 0): the capture exits, pushed from the smaller levels as the
//      streamed engine pushes them (exit_gathering.hpp), into a byte array of one slice of
//      the level at a time (`gather_positions`; each slice reads the smaller levels once),
//      then written to the store.
//   2. First pass (generation 1, the exits; generation 0 is dropped): each position's word
//      from its moves and its exit. A position with no quiet move (terminal, or every move
//      captures) stays undecided with no move open, its value (terminal value or exit) in
//      the byte; the streamed engine assigns it at once, but nothing visits it (no quiet
//      move leads to it, and a visit goes to the parents by quiet un-moves), and the scan of
//      threshold |value| decides it exactly when the streamed engine's scan would propagate
//      it.
//   3. Thresholds t = n..1, each a scan and then a commit pass:
//      - the scan of t reads each chunk of the exits and, for each undecided position, does
//        exactly what the streamed engine's scan does (exit t: won; exit <= -t: eligible,
//        or lost if no quiet move is open), with propagation through the same parent
//        updates; what it decides becomes fresh. A full propagation stack spills its
//        parents (sweep::BasicState::spill) instead of leaving them pending for a rescan,
//        since the word has no room for a pending mark (a bounded number in memory, the
//        rest in the store's spill space: spill.hpp); the scan drains them. It writes no
//        generation;
//      - the commit pass (generation n - t + 2), once the scan and all its propagation are
//        done (the parallel loop's barrier): every fresh word becomes committed, and the
//        positions it commits are t's bitmap, a bit for each position not committed
//        before (ThresholdBits, nibble_word.hpp), at most kChunk / 8 bytes a chunk. A
//        fresh word after the scan of t was decided at t, never before: the commit pass of
//        t + 1 committed every word decided until then. Committing in the next scan
//        instead would need a mark of the threshold (that scan's propagation decides
//        positions at t - 1 ahead of it), a parity bit, which would take the two states
//        that fresh and committed use. Threshold 1 has its commit pass too, so every value
//        is in a bitmap.
//      Why not rewrite a byte of values a threshold instead: the byte generation costs a
//      compression of a byte a position at every threshold, measured 1.54x the streamed
//      engine's thresholds at awari 20 (a chunk cannot be skipped: 80 % of (chunk,
//      threshold) pairs hold a position decided at the threshold before). A bitmap is at
//      most an eighth of the bytes to compress, and the commit pass reads no byte: it
//      works on 16 words at a time.
//   4. The values, read in order by the level's writer (read_values()), a chunk at a time
//      from every threshold's bitmap, n down to 1, and the words: +-t (t: the threshold
//      whose bitmap holds the position; the sign: the committed word's won or lost), 0 for
//      the undecided.
// So the sets W_t and L_t, and the values, are the streamed engine's: the files are
// byte-identical (tests/retro/nibble_test.cpp).
//
// Memory ordering: a word changes only by compare-exchange on its 64-bit container, with
// the streamed engine's relaxed order: each parent update reads the word's latest value in
// the container's modification order, so no closed move is lost and exactly one thread
// sees a counter reach zero, or wins a claim. A scan, the commit pass after it and the next
// scan are separated by the parallel loops' barriers, so the commit pass sees every word
// the scan decided, and the next scan every word the commit pass committed; a commit pass
// owns the containers of its chunks (kChunk is a multiple of 16 words).
//
// Checkpoints: safe points after the first pass and after each threshold (its commit pass
// included) record the chain of the checksums (chain_checksum()) of the generations they
// need, the exits and the bitmaps so far (SweepPoint::exit_checksum). The store keeps every
// generation until the level is written, but the exits, which the last safe point does not
// need: they go once a checkpoint holds that point (scan_solver.hpp). A resumed level starts
// afresh unless the store still holds all the generations its point needs whole, with that
// chain.
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
#include <span>
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
    static constexpr uint32_t kCheckpointFormat = 7;
    static constexpr int kMaxLevel = NibbleWord::kMaxLevel;
    static constexpr const char* kName = "nibble retrograde";

    /// `gather_positions`: positions of the level whose exits are gathered at once (one
    /// byte each, rounded up to whole chunks; 0: the whole level). solve() leaves the
    /// level's values in the store's bitmaps (generations 2..n + 1) and the words
    /// (scan_solver.hpp has the rest of the interface).
    NibbleRetrogradeSolver(const Game& game, const SmallerLevelValues& smaller, ScanStore& store,
                           int threads, uint64_t gather_positions = 0)
        : Base(game, smaller, store, threads, gather_positions) {}

  private:
    using W = NibbleWord;
    using Stack = typename Base::Stack;
    static constexpr uint64_t kChunk = sweep::kChunk;

    static constexpr uint64_t kBitmapChunk = kChunk / 8;
    static_assert(kChunk % 16 == 0, "a commit pass owns whole containers of 16 words");
    static constexpr int kLowestBitmap = 1;
    static uint32_t decided_words(uint64_t container) { return W::committed_mask(container); }
    static uint32_t lost_words(uint64_t container) { return W::committed_lost_mask(container); }

    /// The exits (1) but at the last point, then the bitmaps of thresholds n..n -
    /// thresholds_done + 1.
    static std::vector<scan::GenerationShape> generations_needed(int thresholds_done, int n,
                                                                 uint64_t size) {
        std::vector<scan::GenerationShape> needed;
        if (thresholds_done < n) needed.push_back({1, size, kChunk});
        for (int t = n; t > n - thresholds_done; --t)
            needed.push_back({Base::bitmap_generation(t, n), (size + 7) / 8, kBitmapChunk});
        return needed;
    }
    void chunk_values(uint64_t first, std::span<int8_t> values) const;
    void first_pass(sweep::SweepProgress& progress);
    uint64_t threshold(int t, sweep::SweepProgress& progress);
    void commit(int t);
    void scan_chunk(Sweep& s, uint64_t begin, uint64_t end, int t, Stack& stack);
    auto visit(Sweep& s) const;
};

// ---------------------------------------------------------------------------------------

template <RetroGame Game>
void NibbleRetrogradeSolver<Game>::first_pass(sweep::SweepProgress& progress) {
    bool too_many = false;
    this->sums_[1] =
        scan::first_scan_pass(this->game_, this->s_, this->store_, this->threads_, progress,
                              "nibble retrograde", too_many, [](uint8_t w) { return w; });
    if (too_many)
        throw std::logic_error("nibble retrograde: a position with a capture exit has 6 quiet "
                               "moves (more than 6 moves)");
}

template <RetroGame Game>
uint64_t NibbleRetrogradeSolver<Game>::threshold(int t, sweep::SweepProgress& progress) {
    Sweep& s = this->s_;
    const uint64_t scans = sweep::scan_level<Stack>(
        s, this->threads_, t, progress, [&](uint64_t begin, uint64_t end, int t, Stack& stack) {
            scan_chunk(s, begin, end, t, stack);
        });
    commit(t);
    return scans;
}

template <RetroGame Game> void NibbleRetrogradeSolver<Game>::commit(int t) {
    Sweep& s = this->s_;
    this->store_.begin(this->bitmap_generation(t, s.n), (s.size + 7) / 8, kBitmapChunk);
    parallel::for_chunks(this->threads_, 0, s.size, kChunk, [&](uint64_t b, uint64_t e) {
        thread_local std::vector<int8_t> bits;
        bits.assign((e - b + 7) / 8, 0);
        ThresholdBits out(bits);
        uint64_t won = 0, lost_count = 0;
        for (uint64_t k = 0; k * 16 < e - b; ++k) {
            std::atomic_ref<uint64_t> container(s.containers[(b / 16) + k]);
            uint64_t c = container.load(std::memory_order_relaxed);
            const uint16_t before = W::committed_mask(c);
            const uint16_t fresh = W::commit_fresh(c);
            if (fresh) {
                container.store(c, std::memory_order_relaxed);
                const uint16_t lost = fresh & W::committed_lost_mask(c);
                won += unsigned(std::popcount(unsigned(fresh & ~lost)));
                lost_count += unsigned(std::popcount(unsigned(lost)));
            }
            const uint64_t left = e - b - 16 * k; // positions of the chunk from word 16k on
            const auto undecided =
                static_cast<uint16_t>(~before & (left >= 16 ? 0xFFFFu : (1u << left) - 1));
            out.put(static_cast<uint8_t>(undecided), static_cast<uint8_t>(fresh));
            if (left > 8)
                out.put(static_cast<uint8_t>(undecided >> 8), static_cast<uint8_t>(fresh >> 8));
        }
        this->count_decided(t, won, lost_count);
        this->store_.write(b / kChunk, bits);
    });
    this->sums_[this->bitmap_generation(t, s.n)] = this->store_.end();
}

template <RetroGame Game>
void NibbleRetrogradeSolver<Game>::chunk_values(uint64_t first, std::span<int8_t> values) const {
    const Sweep& s = this->s_;
    thread_local std::vector<uint8_t> open; // decided by no threshold: 0
    std::fill(values.begin(), values.end(), int8_t(0));
    scan::read_threshold_bitmaps(
        this->store_, first, values.size(), s.n, 1,
        [&](int t) { return this->bitmap_generation(t, s.n); }, open,
        [&](uint64_t j, int t) {
            const uint8_t w = s.word(first + j).load(std::memory_order_relaxed);
            values[j] = static_cast<int8_t>(W::lost(w) ? -t : t);
        });
}

template <RetroGame Game> auto NibbleRetrogradeSolver<Game>::visit(Sweep& s) const {
    // The streamed engine's parent update, with no pending mark (the stack spills instead).
    return sweep::value_visit(
        s, W::decided, [](bool) { return W::fresh_word(false); },
        [](uint8_t old, bool) {
            const bool lost = W::eligible(old) && W::counter(old) == 1;
            return std::pair{lost ? W::fresh_word(true) : static_cast<uint8_t>(old - 1), lost};
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
    this->store_.read(1, begin / kChunk, bytes); // the exits
    // The exit first: most positions have one that does nothing at t, and their words
    // (packed, so dearer to load than a byte) are not looked at.
    for (uint64_t i = begin; i < end; ++i) {
        const int e = bytes[i - begin];
        if (e == t) {
            if (sweep::claim(s, i, W::fresh_word(false), W::decided)) propagate(i, false);
        } else if (e != W::kNoExit && e <= -t) {
            auto word = s.word(i);
            uint8_t w = word.load(std::memory_order_relaxed);
            if (W::eligible(w)) continue;
            // Eligible from now on; lost at once if no quiet move is open.
            while (!W::decided(w)) {
                const bool lost = W::counter(w) == 0;
                const uint8_t nw = lost ? W::fresh_word(true) : W::undecided(W::counter(w), true);
                if (word.compare_exchange_weak(w, nw, std::memory_order_relaxed)) {
                    if (lost) propagate(i, true);
                    break;
                }
            }
        }
    }
    // The roots still waiting for a batch, then what full stacks spilled, until none is left.
    scan::drain_spilled(this->game_, s, stack, update, this->spilled_peak_);
}

} // namespace owaredb
