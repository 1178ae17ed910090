// The WLD engine: the values of the streamed engine (streamed_retrograde.hpp), and so of
// RetrogradeSolver, with 2 bits of working state a position in memory (Lincke's WLD(k), a
// threshold at a time), for levels whose 4-bit words (nibble_retrograde.hpp) do not fit
// the memory budget either. Everything else a level needs is in a scan store
// (scan_store.hpp), read and written in order a chunk at a time, as the nibble engine keeps
// it: the exits, written once, and a bitmap a threshold of the positions decided at it; and,
// since the word cannot tell a position decided at this threshold from one decided before,
// a "decided by" map of a bit a position, rewritten by each threshold. It shares the nibble
// engine's gathering, first pass, reading of the values and checkpoints (scan_passes.hpp).
//
// The word (wld_word.hpp) is unknown, eligible, won or lost: no counter of open moves and
// no mark of the threshold that decided it. Step by step:
//   1. Gathering (generation 0): the capture exits, as the nibble engine gathers them.
//   2. First pass (generation 1, the exits, never rewritten): terminal values into the
//      exits' bytes; a position with quiet moves and no capture exit is eligible, every
//      other one unknown (a position with no quiet move waits, undecided, for the scan of
//      the threshold of its value).
//   3. Thresholds t = n..1, each a scan and then (but threshold 1) a commit pass:
//      - the scan reads the exits (it writes nothing) and, for each undecided position,
//        does what the streamed engine's scan does: exit t: won; exit <= -t and unknown:
//        eligible, and lost at once if every quiet child is won already (none: lost).
//        Propagation, through the sweep's un-moves: a parent of a lost child is won; an
//        eligible parent of a won child generates its quiet children again, one at a
//        time where the game can (QuietChildrenOneAtATime, retro/game.hpp: no move is
//        sown past the first child not won), loads their words, stopping at the first not
//        won, and is lost if all are (a child won at an earlier threshold is won at this
//        one: W_t grows as t falls). The checks of a propagation batch's parents, and of
//        the positions a scan makes eligible, run side by side, so that their loads wait
//        for memory together (check_side_by_side). A full
//        propagation stack spills its parents, since the word has no pending mark (past a
//        bounded memory, to the store's spill space: spill.hpp);
//      - the commit pass, once the scan and all its propagation are done (the parallel
//        loop's barrier): a decided word that the "decided by t + 1" map does not hold was
//        decided at t, so t's bitmap (generation n - t + 2, ThresholdBits of
//        nibble_word.hpp: a bit for each position not decided before) gets it; then, if a
//        later commit pass needs it (t > 2), the map "decided by t" (generation 2n - t + 2):
//        a bit for each decided word, 32 words at a time, as the words are now; the map of
//        t + 1 is dropped. Committing in the next threshold's scan instead is wrong: the
//        next scan's propagation decides positions at t - 1 ahead of the scan, which would
//        then commit them as +-t (the nibble engine has a commit pass of its own for the
//        same reason).
//      Why not rewrite a byte of values a threshold instead (as this engine did): a byte a
//      position compressed at every threshold, where the bitmap and the map are at most a
//      bit each (docs/results.md, "The 2-bit word without rewriting a byte a threshold").
//      Threshold 1 has no commit pass: its positions are the decided ones no bitmap holds.
//   4. The values, read in order by the level's writer (read_values()), a chunk at a time
//      from the bitmaps n..2 and the words: +-t (t: the threshold whose bitmap holds the
//      position; the sign: the word's won or lost), +-1 for a decided word no bitmap holds,
//      0 for the undecided.
// So the sets W_t and L_t at each threshold are the streamed engine's (they are fixed
// points, whatever the order of the decisions), and the level's file is byte-identical
// (tests/retro/wld_test.cpp).
//
// Memory ordering: wld_word.hpp proves why the seq_cst operations on the words are enough
// for two threads that make two sibling children won at once. The scans of two thresholds,
// and a commit pass and the scan before it, are separated by the parallel loops' barriers;
// a commit pass only reads the words.
//
// Checkpoints: safe points after the first pass and after each threshold (its commit
// included) record the chain of the checksums (chain_checksum()) of the generations they
// need: the exits (but at the last point), the bitmaps so far and the last "decided by"
// map. The store keeps the bitmaps until the level is written, the exits until a checkpoint
// holds the last point (scan_solver.hpp), and pins the map a saved point needs; a resumed
// level starts afresh unless the store still holds all of them whole with that chain.
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
#include <bit>
#include <chrono>
#include <cstdint>
#include <numeric>
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
    static constexpr uint32_t kCheckpointFormat = 8;
    static constexpr int kMaxLevel = NibbleWord::kMaxLevel;
    static constexpr const char* kName = "wld retrograde";

    /// `gather_positions`: positions of the level whose exits are gathered at once (one
    /// byte each, rounded up to whole chunks; 0: the whole level). solve() leaves the
    /// level's values in the store's bitmaps (generations 2..n) and the words
    /// (scan_solver.hpp has the rest of the interface).
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

    static constexpr uint64_t kBitmapChunk = kChunk / 8;
    /// Positions a scan makes eligible before it checks them side by side.
    static constexpr size_t kChecksSideBySide = 32;
    static_assert(kChunk % 32 == 0, "a commit pass reads whole containers of 32 words");

    using Base::bitmap_generation; // the bitmap of threshold t (t = n..2) of level n
    static constexpr int kLowestBitmap = 2;
    static uint32_t decided_words(uint64_t container) { return W::decided_mask(container); }
    static uint32_t lost_words(uint64_t container) { return W::lost_mask(container); }
    /// The map of the positions decided by threshold t (t = n..3), after the bitmaps.
    static uint64_t decided_generation(int t, int n) { return uint64_t(2 * n - t) + 2; }
    /// Whether the commit pass of t writes a map: the next one reads it.
    static bool writes_decided(int t) { return t > 2; }
    /// The exits (1) but at the last point, the bitmaps of thresholds n..max(2, n -
    /// thresholds_done + 1), then the map of the last threshold done if it wrote one.
    static std::vector<scan::GenerationShape> generations_needed(int thresholds_done, int n,
                                                                 uint64_t size) {
        const scan::GenerationShape bits{0, (size + 7) / 8, kBitmapChunk};
        std::vector<scan::GenerationShape> needed;
        if (thresholds_done < n) needed.push_back({1, size, kChunk});
        for (int t = n; t > n - thresholds_done && t >= 2; --t)
            needed.push_back({bitmap_generation(t, n), bits.size, bits.chunk});
        const int last = n - thresholds_done + 1;
        if (thresholds_done > 0 && writes_decided(last))
            needed.push_back({decided_generation(last, n), bits.size, bits.chunk});
        return needed;
    }
    void chunk_values(uint64_t first, std::span<int8_t> values) const;
    bool quiet_child(const State& state, int& move, State& child) const;
    template <class Entries, class Lost>
    void check_side_by_side(const Entries& positions, std::span<const uint32_t> which,
                            Lost&& lost) const;
    class Visit;
    void first_pass(sweep::SweepProgress& progress);
    uint64_t threshold(int t, sweep::SweepProgress& progress);
    void commit(int t);
    void write_decided(int t);
    void scan_chunk(uint64_t begin, uint64_t end, int t, Stack& stack);

    std::atomic<uint64_t> rechecks_{0};
};

// ---------------------------------------------------------------------------------------

/// The first quiet child of `state` of a move numbered `move` or more (in for_each_move's
/// order), with that move's number, as QuietChildrenOneAtATime's next_quiet_child: the
/// game's own where it has one, else from all its moves.
template <RetroGame Game>
bool WldRetrogradeSolver<Game>::quiet_child(const State& state, int& move, State& child) const {
    if constexpr (QuietChildrenOneAtATime<Game>) {
        return this->game_.next_quiet_child(state, move, child);
    } else {
        int number = 0;
        bool found = false;
        this->game_.for_each_move(state, [&](int captured, const State& c) {
            if (!found && number >= move && captured == 0) {
                move = number;
                child = c;
                found = true;
            }
            ++number;
        });
        return found;
    }
}

/// The checks of eligible positions (positions[j] for j in `which`: index << 1 | tag and
/// the state, each read eligible after the write that asks for its check) side by side:
/// lost(j) for each that every quiet child is won and this call made lost. A check on its
/// own waits for each child's word in turn (a random word of the level: a miss on large
/// levels, hundreds of nanoseconds on some machines), so the checks go in rounds: each
/// round sows and ranks every open check's next quiet child and prefetches its word, then
/// loads them all; a check ends at its first child not won, or, with no child left, in a
/// loss. The loads of each check keep their order after the write that asked for it, all
/// that the memory-ordering argument needs (wld_word.hpp). `lost` is called during the
/// rounds and must not check again (the rounds' list is the thread's).
template <RetroGame Game>
template <class Entries, class Lost>
void WldRetrogradeSolver<Game>::check_side_by_side(const Entries& positions,
                                                   std::span<const uint32_t> which,
                                                   Lost&& lost) const {
    struct Check {
        uint32_t j;     ///< the position: positions[j]
        int move;       ///< the move whose quiet child it looks at, or the first after it
        uint64_t child; ///< that child's rank
    };
    thread_local std::vector<Check> open;
    open.clear();
    for (const uint32_t j : which) open.push_back({j, 0, 0});
    const Sweep& s = this->s_;
    State child;
    while (!open.empty()) {
        size_t kept = 0;
        for (Check c : open) {
            if (!quiet_child(positions[c.j].state, c.move, child)) { // every one is won
                if (W::decide_lost(s.word(positions[c.j].entry >> 1))) lost(c.j);
                continue;
            }
            c.child = this->game_.rank(child);
            s.prefetch(c.child, false);
            open[kept++] = c;
        }
        open.resize(kept);
        kept = 0;
        for (Check c : open)
            if (W::is_won(s.word(c.child))) open[kept++] = {c.j, c.move + 1, 0};
        open.resize(kept);
    }
}

/// The parent update of propagation, a batch of parents at a time (sweep::BatchVisit): a
/// lost child (tag 1) wins the parent; a won child (tag 0) makes an eligible parent check
/// its quiet children (check_side_by_side, all the batch's checks together).
template <RetroGame Game> class WldRetrogradeSolver<Game>::Visit {
  public:
    Visit(const WldRetrogradeSolver& solver, uint64_t& checks) : solver_(solver), checks_(checks) {}

    template <class Entries, class Joined> void batch(const Entries& parents, Joined&& joined) {
        thread_local std::vector<uint32_t> eligible;
        eligible.clear();
        for (uint32_t j = 0; j < parents.size(); ++j) {
            const auto word = solver_.s_.word(parents[j].entry >> 1);
            if (parents[j].entry & 1) {
                if (W::decide_won(word)) joined(j);
            } else if (W::is_eligible(word)) {
                eligible.push_back(j);
            }
        }
        checks_ += eligible.size();
        solver_.check_side_by_side(parents, eligible, joined);
    }

  private:
    const WldRetrogradeSolver& solver_;
    uint64_t& checks_;
};

template <RetroGame Game>
void WldRetrogradeSolver<Game>::first_pass(sweep::SweepProgress& progress) {
    bool too_many = false; // 6 quiet moves beside a capture: moves and un-captures disagree
    this->sums_[1] = scan::first_scan_pass(
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
    const Sweep& s = this->s_;
    const int n = s.n;
    this->store_.begin(bitmap_generation(t, n), (s.size + 7) / 8, kBitmapChunk);
    parallel::for_chunks(this->threads_, 0, s.size, kChunk, [&](uint64_t b, uint64_t e) {
        thread_local std::vector<int8_t> bits, before;
        const uint64_t bytes = (e - b + 7) / 8;
        bits.assign(bytes, 0);
        before.assign(bytes, 0); // threshold n: nothing decided before
        if (t < n) this->store_.read(decided_generation(t + 1, n), b / kChunk, before);
        ThresholdBits out(bits);
        uint32_t decided = 0, lost = 0;
        uint64_t won_count = 0, lost_count = 0;
        for (uint64_t p = 0; p < bytes; ++p) {
            if (p % 4 == 0) { // the next container's 32 words: 4 bytes of the bitmaps
                const uint64_t c = std::atomic_ref<uint64_t>(s.containers[(b + 8 * p) / 32])
                                       .load(std::memory_order_relaxed);
                decided = W::decided_mask(c);
                lost = W::lost_mask(c);
            }
            const uint64_t left = e - b - 8 * p; // positions of the chunk from 8p on
            const auto in_chunk = static_cast<uint8_t>(left >= 8 ? 0xFFu : (1u << left) - 1);
            const auto undecided = static_cast<uint8_t>(~before[p] & in_chunk);
            const auto now = static_cast<uint8_t>(decided >> (8 * (p % 4)) & undecided);
            out.put(undecided, now);
            if (now) {
                const auto now_lost = static_cast<uint8_t>(lost >> (8 * (p % 4)) & now);
                won_count += unsigned(std::popcount(unsigned(now & ~now_lost)));
                lost_count += unsigned(std::popcount(unsigned(now_lost)));
            }
        }
        this->count_decided(t, won_count, lost_count);
        this->store_.write(b / kChunk, bits);
    });
    this->sums_[bitmap_generation(t, n)] = this->store_.end();
    if (writes_decided(t)) write_decided(t);
    if (t < n) this->store_.drop(decided_generation(t + 1, n)); // kept while pinned
}

template <RetroGame Game> void WldRetrogradeSolver<Game>::write_decided(int t) {
    const Sweep& s = this->s_;
    this->store_.begin(decided_generation(t, s.n), (s.size + 7) / 8, kBitmapChunk);
    parallel::for_chunks(this->threads_, 0, s.size, kChunk, [&](uint64_t b, uint64_t e) {
        thread_local std::vector<int8_t> bits;
        bits.resize((e - b + 7) / 8);
        for (uint64_t k = 0; 32 * k < e - b; ++k) {
            const uint64_t container =
                std::atomic_ref<uint64_t>(s.containers[b / 32 + k]).load(std::memory_order_relaxed);
            const uint32_t decided = W::decided_mask(container); // 0 past the level's end
            for (uint64_t q = 0; q < 4 && 4 * k + q < bits.size(); ++q)
                bits[4 * k + q] = static_cast<int8_t>(decided >> (8 * q));
        }
        this->store_.write(b / kChunk, bits);
    });
    this->sums_[decided_generation(t, s.n)] = this->store_.end();
}

template <RetroGame Game>
void WldRetrogradeSolver<Game>::chunk_values(uint64_t first, std::span<int8_t> values) const {
    const Sweep& s = this->s_;
    thread_local std::vector<uint8_t> open;
    const auto value = [&](uint64_t j, int t) {
        const uint8_t w = s.word(first + j).load(std::memory_order_relaxed);
        values[j] = static_cast<int8_t>(!W::decided(w) ? 0 : w == W::kLost ? -t : t);
    };
    scan::read_threshold_bitmaps(
        this->store_, first, values.size(), s.n, 2,
        [&](int t) { return bitmap_generation(t, s.n); }, open, value);
    // Decided at threshold 1 (no bitmap), or never.
    for (uint64_t p = 0; p < open.size(); ++p)
        for (unsigned m = open[p]; m; m &= m - 1) value(p * 8 + unsigned(std::countr_zero(m)), 1);
}

template <RetroGame Game>
void WldRetrogradeSolver<Game>::scan_chunk(uint64_t begin, uint64_t end, int t, Stack& stack) {
    Sweep& s = this->s_;
    uint64_t checks = 0;
    Visit update(*this, checks);
    // The positions this scan made eligible, checked side by side a batch at a time.
    thread_local std::vector<typename Stack::Entry> made_eligible;
    thread_local std::vector<uint32_t> all;
    made_eligible.clear();
    thread_local std::vector<uint32_t> lost; // propagated once the checks are done
    const auto check_made_eligible = [&] {
        all.resize(made_eligible.size());
        std::iota(all.begin(), all.end(), 0u);
        checks += all.size();
        lost.clear();
        check_side_by_side(made_eligible, all, [&](uint32_t j) { lost.push_back(j); });
        for (const uint32_t j : lost)
            sweep::propagate(this->game_, s, made_eligible[j].entry | 1, made_eligible[j].state,
                             stack, update);
        made_eligible.clear();
    };
    thread_local std::vector<int8_t> bytes;
    bytes.resize(end - begin);
    this->store_.read(1, begin / kChunk, bytes); // the exits
    // The exit first, as the nibble engine's scan: most positions have one that does
    // nothing at t, and their words (packed) are not looked at.
    for (uint64_t i = begin; i < end; ++i) {
        const int e = bytes[i - begin];
        if (e == t) {
            if (W::decide_won(s.word(i))) sweep::propagate(this->game_, s, i << 1, stack, update);
        } else if (e != NibbleWord::kNoExit && e <= -t && W::make_eligible(s.word(i))) {
            made_eligible.push_back({i << 1, this->game_.unrank(s.n, i)});
            if (made_eligible.size() == kChecksSideBySide) check_made_eligible();
        }
    }
    check_made_eligible();
    scan::drain_spilled(this->game_, s, stack, update, this->spilled_peak_);
    rechecks_.fetch_add(checks, std::memory_order_relaxed);
}

} // namespace owaredb
