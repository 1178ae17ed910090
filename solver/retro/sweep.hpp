// The scaffolding shared by the threshold-sweep engines (RetrogradeSolver in
// retrograde.hpp, BoundsSolver in bounds.hpp, StreamedRetrogradeSolver in
// streamed_retrograde.hpp): the per-level working state, propagation through un-moves,
// the order of a level's passes (the first pass in segments, then the thresholds) with
// their safe points, progress reports and timing, and the threshold scans of one process
// with their overflow rescans. The engines supply what is their own (the first-pass word,
// the scan of one position, the parent update, the final compaction); the per-position
// callables are inlined templates, so the hot loops stay as tight as if they were written
// out in each engine, and the per-pass steps are named fields of sweep::Steps.
#pragma once

#include "retro/checkpoint.hpp"
#include "retro/game.hpp"
#include "retro/parallel.hpp"
#include "retro/progress.hpp"
#include "retro/spill.hpp"
#include "retro/value_array.hpp"
#include "retro/word_store.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace owaredb {

namespace sweep {

inline constexpr uint64_t kChunk = 1 << 14;    ///< positions per parallel work item
inline constexpr size_t kStackLimit = 1 << 18; ///< propagation stack entries per thread

/// Parents that drain() generates before it visits them, in the order of their words'
/// pages (BasicState::visit_batch), and roots that wait on a thread's stack before a drain
/// starts (BasicState::roots_waiting). Measured in docs/results.md ("Parent visits in page
/// order").
inline constexpr size_t kVisitBatch = 1 << 14;
inline constexpr size_t kRootsWaiting = 1 << 10;
/// How far ahead of its visit a parent's word is prefetched, parents in page order.
inline constexpr size_t kPrefetchAhead = 16;
/// Parents a batch visit (BatchVisit) takes at once: few enough that their words,
/// prefetched a slice ahead, are still in the cache when it loads them.
inline constexpr size_t kBatchVisitSlice = 64;
/// Buckets of the page sort at most (a bucket is 2^k pages: order_by_page()).
inline constexpr uint64_t kMaxPageBuckets = 4096;

/// Per-level shared state of a sweep: one working word per position (16 bits for the
/// in-memory engines, 8 for the streamed one), kept in a Store (retro/word_store.hpp:
/// whole bytes, whose `words[i]` is position base + i, or sub-byte words packed in larger
/// atomics). Everything here reaches a word through word(), prefetch() and bytes(), so it
/// holds for words of any width.
template <class Store> struct BasicState : Store {
    using WordType = typename Store::Word;
    int n = 0;
    int t = 0;
    uint64_t size = 0; ///< positions held: base .. base + size - 1
    uint64_t base = 0; ///< 0, or where a rank's slice of the level starts (rank_link.hpp)
    /// Propagation stack entries per thread before parents are left to a rescan (tests
    /// lower it so that the rescans run on small levels).
    size_t stack_limit = kStackLimit;
    /// Parents generated before a visit in page order, and roots that wait for a drain
    /// (kVisitBatch, kRootsWaiting; tests lower them so that small levels take many).
    size_t visit_batch = kVisitBatch;
    size_t roots_waiting = kRootsWaiting;
    std::atomic<bool> overflow{false};
    /// What a full stack does with a parent that joined: null, leaves it marked in its
    /// word (pending) for a rescan, which sets `overflow`; else puts it on the stack's
    /// `spilled` entries (up to `spill_memory` in memory, the rest in an area of this
    /// space: spill.hpp), which the engine drains after its scan (for words with no room
    /// for a pending mark: nibble_retrograde.hpp).
    SpillSpace* spill = nullptr;
    size_t spill_memory = kSpillMemoryEntries;
    std::atomic<uint64_t> propagated{0};
    /// The word of position i of the level (base <= i < base + size), as an atomic
    /// reference (std::atomic_ref for whole bytes; word_store.hpp).
    auto word(uint64_t i) const { return Store::ref(i - base); }
    /// Asks for the word of position i to be brought into the cache, for writing unless
    /// `for_writing` is false.
    void prefetch(uint64_t i, bool for_writing = true) const {
        if (for_writing)
            __builtin_prefetch(Store::address(i - base), 1, 1);
        else
            __builtin_prefetch(Store::address(i - base), 0, 1);
    }
    /// The words as bytes, as checkpoints save and restore them.
    std::span<uint8_t> bytes() const { return Store::as_bytes(size); }
    /// The 2 MiB span, counted from the first word's address, that holds the word of
    /// position i (a huge page's size; it meets at most two of them): the order of a
    /// propagation's parent visits (order_by_page()).
    uint64_t page(uint64_t i) const {
        return (reinterpret_cast<uintptr_t>(Store::address(i - base)) -
                reinterpret_cast<uintptr_t>(Store::address(0))) >>
               21;
    }
};
using State = BasicState<WholeWords<uint16_t>>;

/// Checks that level n can be solved by `engine` (named in the message): n at most
/// `max_n` (what the word encoding holds) and every smaller level given.
inline void check_level(const char* engine, int n, int max_n, size_t smaller_levels) {
    if (n > max_n)
        throw std::invalid_argument(std::string(engine) + ": levels above " +
                                    std::to_string(max_n) + " do not fit the encoding");
    if (static_cast<int>(smaller_levels) < n)
        throw std::invalid_argument(std::string(engine) + ": level " + std::to_string(n) +
                                    " needs every smaller level");
}

/// Sets `s` up for level n of `size` positions and returns the array that owns the working
/// words from the start (so they are freed on exceptions), Store::bytes_for(size) bytes.
/// The engines of whole-byte words turn the words into the level's bytes in place (their
/// `finish`); packed words are fewer bytes than the level's.
template <class Store> ValueArray start(BasicState<Store>& s, int n, uint64_t size) {
    s.n = n;
    s.size = size;
    ValueArray result(Store::bytes_for(size));
    s.bind(result.data(), size);
    return result;
}

/// Where propagation's parents go (drain()): `elsewhere(parent_index)`, called for each
/// of a child's parents in the order of the game's for_each_parent, says whether another
/// rank holds the parent (which it then visits itself: it is not visited here), and
/// `send(child_entry)`, called once a child's parents are walked, tells the ranks that
/// `elsewhere` named for it (a distributed solve: distributed_rounds.hpp). This one routes
/// no parent elsewhere: the whole level is this process's.
struct OwnsAll {
    bool elsewhere(uint64_t) const { return false; }
    void send(uint64_t) const {}
};

/// Messages of other ranks delivered together (deliver()), their parents generated and
/// prefetched before they are visited.
inline constexpr size_t kPropagationBatch = 16;

/// A thread's propagation work: positions that joined a set at this threshold and whose
/// parents are still to be visited, each with its state (so that a position reached by
/// propagation is not unranked again), and the parents of a batch. Entries are
/// index << 1 | tag, where the tag says which of the engine's two sets the position joined.
template <class GameState> struct PropagationStack {
    struct Entry {
        uint64_t entry;
        GameState state;
    };
    std::vector<Entry> entries;   ///< the stack, depth first
    std::vector<Entry> parents;   ///< a batch's parents, generated and not yet visited
    std::vector<Entry> sorted;    ///< order_by_page()'s output
    std::vector<uint32_t> counts; ///< order_by_page()'s buckets
    /// Entries that a full stack left for later (BasicState::spill), without their state.
    SpillStack spilled;
    bool empty() const { return entries.empty() && spilled.empty(); }
};
/// The propagation stack of the engines for Game.
template <RetroGame Game> using StackFor = PropagationStack<typename Game::State>;

/// visit(tag, k, full), or visit(tag, k, full, parent_state) for a visit that looks at the
/// parent's moves (the WLD engine's check of its children, wld_retrograde.hpp).
template <class Visit, class GameState>
bool visit_parent(Visit& visit, bool tag, uint64_t k, bool full, const GameState& state) {
    if constexpr (std::is_invocable_v<Visit&, bool, uint64_t, bool, const GameState&>)
        return visit(tag, k, full, state);
    else
        return visit(tag, k, full);
}

/// A visit that takes a batch's parents together: visit.batch(parents, joined) visits
/// each entry of `parents` (index << 1 | tag, and the state), in an order of its own, and
/// calls joined(j) for each parent parents[j] that joined (the WLD engine, whose checks
/// wait for memory unless they run side by side: wld_retrograde.hpp). It takes no `full`:
/// only an engine that never marks a parent pending (it spills: BasicState::spill) can
/// be one.
template <class Visit, class Entries>
concept BatchVisit = requires(Visit& visit, const Entries& parents) {
    visit.batch(parents, [](size_t) {});
};

/// Sorts `items` by bucket(item), a number below `buckets`: a counting sort, which keeps
/// their order within a bucket; `scratch` and `counts` are its work space.
template <class T, class Bucket>
void counting_sort(std::vector<T>& items, std::vector<T>& scratch, std::vector<uint32_t>& counts,
                   uint64_t buckets, Bucket&& bucket) {
    counts.assign(buckets + 1, 0);
    for (const T& item : items) ++counts[bucket(item) + 1];
    for (size_t b = 1; b < counts.size(); ++b) counts[b] += counts[b - 1];
    scratch.resize(items.size());
    for (const T& item : items) scratch[counts[bucket(item)]++] = item;
    items.swap(scratch);
}

/// The buckets of words' pages (BasicState::page) that a sort by page uses: 2^shift pages
/// each, at most `max_buckets` of them.
struct PageBuckets {
    unsigned shift = 0;
    uint64_t count = 1;
    template <class SweepState>
    PageBuckets(const SweepState& s, uint64_t max_buckets = kMaxPageBuckets) {
        const uint64_t pages = s.size ? s.page(s.base + s.size - 1) + 1 : 1;
        shift = pages > max_buckets ? unsigned(std::bit_width((pages - 1) / max_buckets)) : 0;
        count = ((pages - 1) >> shift) + 1;
    }
};

/// Sorts stack.parents by the page of their words (PageBuckets), in the order they were
/// generated within a bucket.
template <class SweepState, class GameState>
void order_by_page(const SweepState& s, PropagationStack<GameState>& stack,
                   uint64_t max_buckets = kMaxPageBuckets) {
    const PageBuckets buckets(s, max_buckets);
    counting_sort(stack.parents, stack.sorted, stack.counts, buckets.count,
                  [&](const auto& p) { return s.page(p.entry >> 1) >> buckets.shift; });
}

/// Visits the parents of stack.parents (drain(), deliver()); a parent that joins goes on
/// the stack, with the other set's tag. A batch visit takes them kBatchVisitSlice at a
/// time. With `prefetch`, their words are prefetched kPrefetchAhead visits (or a slice)
/// ahead: drain()'s parents, in page order, were not prefetched as they were generated.
template <class SweepState, class Visit, class GameState>
void visit_parents(SweepState& s, PropagationStack<GameState>& stack, Visit& visit,
                   bool prefetch = false) {
    using Entry = typename PropagationStack<GameState>::Entry;
    auto& entries = stack.entries;
    const auto joined = [&](const Entry& p, bool full) {
        const bool tag = p.entry & 1;
        const uint64_t k = p.entry >> 1;
        if (full && s.spill)
            stack.spilled.push(k << 1 | (tag ? 0 : 1), *s.spill, s.spill_memory);
        else if (full)
            s.overflow.store(true, std::memory_order_relaxed); // a rescan enters it
        else
            entries.push_back({k << 1 | (tag ? 0 : 1), p.state});
    };
    const std::span<const Entry> all(stack.parents);
    const auto slice_at = [&](size_t first) {
        return all.subspan(first, std::min(kBatchVisitSlice, all.size() - first));
    };
    if constexpr (BatchVisit<Visit, std::span<const Entry>>) {
        // A slice at a time, the next one's words prefetched while this one is visited.
        if (prefetch && !all.empty())
            for (const auto& p : slice_at(0)) s.prefetch(p.entry >> 1);
        for (size_t first = 0; first < all.size(); first += kBatchVisitSlice) {
            const auto slice = slice_at(first);
            if (prefetch && first + kBatchVisitSlice < all.size())
                for (const auto& p : slice_at(first + kBatchVisitSlice)) s.prefetch(p.entry >> 1);
            visit.batch(slice,
                        [&](size_t j) { joined(slice[j], entries.size() >= s.stack_limit); });
        }
    } else {
        if (prefetch)
            for (size_t j = 0; j < std::min(kPrefetchAhead, all.size()); ++j)
                s.prefetch(all[j].entry >> 1);
        for (size_t j = 0; j < all.size(); ++j) {
            if (prefetch && j + kPrefetchAhead < all.size())
                s.prefetch(all[j + kPrefetchAhead].entry >> 1);
            const auto& p = all[j];
            const bool full = entries.size() >= s.stack_limit;
            if (visit_parent(visit, p.entry & 1, p.entry >> 1, full, p.state)) joined(p, full);
        }
    }
}

/// Propagation from the positions on `stack` through their un-moves, until none is left.
/// A parent that joins because of a child joins the other set (a parent of a lost
/// position is won, and so on). `visit(tag, parent_index, full)` (or with the parent's
/// state after them: visit_parent()) updates the parent's word and returns whether the
/// parent joined; `full` says the stack is at its limit, in which
/// case the engine marks the parent for a rescan instead, and this sets s.overflow so that
/// the rescan happens (or, if s.spill, the parent goes to the stack's spilled entries). A
/// distributed solve's `route` (OwnsAll's contract) takes the parents that another rank
/// holds before they are visited here, and sends that rank the child.
///
/// Locality: a parent's word is a random byte (or word) of the level, gigabytes at large
/// levels. A visit made as soon as the parent is generated waits for memory, and so does
/// a prefetch issued then: each is also a miss of the address translation, whose page walk
/// the processor makes before it can go on (perf on the long run's level 36: 95 % of
/// parent generation's samples right after its prefetch). So the un-moves of positions
/// are generated until s.visit_batch parents wait (or the stack is empty), the parents
/// are sorted by the page of their words (order_by_page()), and then visited in that
/// order, each word prefetched kPrefetchAhead visits ahead: the parents of a page follow
/// each other, one translation serves them, and the loads overlap. The order of the
/// visits changes, not the sets: they are fixed points whatever the order
/// (retrograde.hpp), so the values are the same.
template <RetroGame Game, class SweepState, class Visit, class Route = OwnsAll>
void drain(const Game& game, SweepState& s, StackFor<Game>& stack, Visit&& visit,
           Route&& route = Route{}) {
    auto& entries = stack.entries;
    uint64_t count = 0;
    while (!entries.empty()) {
        stack.parents.clear();
        while (!entries.empty() && stack.parents.size() < s.visit_batch) {
            const auto child = entries.back();
            entries.pop_back();
            ++count;
            const uint64_t tag = child.entry & 1;
            game.for_each_parent(child.state, [&](const auto& parent) {
                const uint64_t k = game.rank(parent);
                if (route.elsewhere(k)) return;
                stack.parents.push_back({k << 1 | tag, parent});
            });
            route.send(child.entry);
        }
        order_by_page(s, stack);
        visit_parents(s, stack, visit, true);
    }
    s.propagated.fetch_add(count, std::memory_order_relaxed);
}

/// Propagation from one position that joined a set at this threshold (entry = index << 1
/// | tag), found by a scan: it waits on the thread's `stack` with the other roots until
/// s.roots_waiting of them are there, and then they propagate together (drain()), so
/// that even roots with few parents are visited in large batches. The scan that found it calls
/// drain() before it ends (run_segments checks that no stack is left with work).
template <RetroGame Game, class SweepState, class Visit, class Route = OwnsAll>
void propagate(const Game& game, SweepState& s, uint64_t entry, const typename Game::State& state,
               StackFor<Game>& stack, Visit&& visit, Route&& route = Route{}) {
    stack.entries.push_back({entry, state});
    if (stack.entries.size() >= s.roots_waiting) drain(game, s, stack, visit, route);
}
/// propagate() of a position whose state the caller does not hold: it is unranked.
template <RetroGame Game, class SweepState, class Visit, class Route = OwnsAll>
void propagate(const Game& game, SweepState& s, uint64_t entry, StackFor<Game>& stack,
               Visit&& visit, Route&& route = Route{}) {
    propagate(game, s, entry, game.unrank(s.n, entry >> 1), stack, visit, route);
}

/// A propagation message from another rank (deliver()), 64 bits: bit 0 is its kind, bit 1
/// the tag of the child that joined a set. Kind 0 names the one parent of the child that
/// lies on the receiving rank (its index in bits 2..). Kind 1 names the child (its index in
/// bits 2 + unmove_bits() ..), where the receiving rank holds several of its parents (or
/// one parent twice) and regenerates them instead of receiving each; bits 2 ..
/// unmove_bits() + 1 say which of the child's un-moves lead there (unmove_mask()), so that
/// the receiver ranks only those parents.
inline uint64_t parent_message(uint64_t parent, uint64_t tag) {
    return parent << 2 | tag << 1;
}

/// The most un-move bits a child message carries.
inline constexpr int kMaxUnmoveBits = 24;
/// The un-move bits of a child message in a level of `level_size` positions: what its
/// indices leave free of 64 bits beside the tag and the kind, at most kMaxUnmoveBits (24
/// at awari's largest level, 203.6 G positions; 0 where no bit is free: the receiver then
/// ranks every parent). Sender and receiver derive it alike.
inline int unmove_bits(uint64_t level_size) {
    return std::clamp(62 - int(std::bit_width(level_size)), 0, kMaxUnmoveBits);
}
/// The bit of a child message's mask for the j-th parent (from 0) in the order of the
/// game's for_each_parent: bit j, or the last bit for every parent from bits - 1 on (a
/// parent list longer than the mask; rare: most positions have a few parents).
inline uint32_t unmove_mask(int j, int bits) {
    return bits == 0 ? 0 : uint32_t(1) << std::min(j, bits - 1);
}
/// The message for a child (entry = index << 1 | tag) and a rank that holds several of its
/// parents: those whose unmove_mask() bits `mask` holds.
inline uint64_t child_message(uint64_t entry, uint32_t mask, int bits) {
    const uint64_t index = entry >> 1, tag = entry & 1;
    return (index << bits | mask) << 2 | tag << 1 | 1;
}

/// Delivers messages from other ranks' propagation (parent_message(), child_message()): a
/// parent is visited; a child's parents in this rank's slice are visited, each as often as
/// the child's un-moves reach it (the rank that sent it holds the others, or sent them
/// elsewhere), and only the un-moves the message marks are ranked (the others lead
/// elsewhere). The visits are those the child's own rank would have made in one process;
/// a parent that joins propagates further from here (drain(), with `route`, whose
/// `unmove_bits()` are the messages' un-move bits). The child counts as propagated on its
/// own rank, not here. Sender and receiver generate a child's un-moves in the same order
/// (the game's for_each_parent of the same state).
template <RetroGame Game, class SweepState, class Visit, class Route>
void deliver(const Game& game, SweepState& s, std::span<const uint64_t> messages,
             StackFor<Game>& stack, Visit&& visit, Route&& route) {
    const int bits = route.unmove_bits();
    for (size_t m = 0; m < messages.size(); m += kPropagationBatch) {
        const auto batch = messages.subspan(m, std::min(kPropagationBatch, messages.size() - m));
        for (const uint64_t message : batch) {
            const bool tag = message >> 1 & 1;
            const uint64_t k = message >> 2;
            if (!(message & 1) && visit(tag, k, false))
                propagate(game, s, k << 1 | (tag ? 0 : 1), stack, visit, route);
        }
        stack.parents.clear();
        for (const uint64_t message : batch) {
            if (!(message & 1)) continue;
            const uint64_t tag = message >> 1 & 1;
            const uint64_t mask = message >> 2; // its low `bits` bits
            int j = 0;
            game.for_each_parent(game.unrank(s.n, message >> (2 + bits)), [&](const auto& parent) {
                const bool marked = bits == 0 || (mask & unmove_mask(j++, bits)) != 0;
                if (!marked) return; // the un-move leads elsewhere
                const uint64_t k = game.rank(parent);
                if (k - s.base >= s.size) return; // another rank's
                s.prefetch(k);
                stack.parents.push_back({k << 1 | tag, parent});
            });
        }
        visit_parents(s, stack, visit);
        drain(game, s, stack, visit, route);
    }
}

/// Sets word `index` to `word` unless the word found is `assigned` already; returns whether
/// it did (of threads racing for one position, exactly one wins).
template <class SweepState, class Assigned>
bool claim(SweepState& s, uint64_t index, typename SweepState::WordType word, Assigned&& assigned) {
    auto w = s.word(index);
    auto old = w.load(std::memory_order_relaxed);
    while (!assigned(old))
        if (w.compare_exchange_weak(old, word, std::memory_order_relaxed)) return true;
    return false;
}

/// The parent update of the value engines (in memory and streamed) at threshold t = s.t,
/// for propagate(): every unassigned parent of a lost position (tag 1) is won (its word
/// becomes `won_word(full)`); every unassigned parent of a won position (tag 0) has one
/// quiet move closed: `close(old, full)` returns its new word and whether that makes it
/// lost (its last open move closed and its best exit <= -t). `assigned(word)` tells words
/// that are final.
template <class SweepState, class Assigned, class WonWord, class Close>
auto value_visit(SweepState& s, Assigned assigned, WonWord won_word, Close close) {
    return [&s, assigned, won_word, close](bool child_lost, uint64_t k, bool full) {
        if (child_lost) return claim(s, k, won_word(full), assigned); // a move into L_t wins t
        auto w = s.word(k);
        auto old = w.load(std::memory_order_relaxed);
        while (!assigned(old)) {
            const auto [word, lost] = close(old, full);
            if (w.compare_exchange_weak(old, word, std::memory_order_relaxed)) return lost;
        }
        return false;
    };
}

/// A level's progress as the steps of its sweep report it, turned into calls of the
/// caller's ProgressFn (at most one a second, ReportThrottle). The first pass takes
/// `first_share` of the level's estimated time, the n thresholds the rest: threshold t
/// `threshold_shares[t]` of it (threshold_shares(), progress.hpp), or evenly without them.
class SweepProgress {
  public:
    SweepProgress(const ProgressFn& report, int n, uint64_t size, double first_share,
                  const std::vector<double>& threshold_shares = {})
        : report_(report), n_(n), size_(size), first_share_(first_share), share_(n + 1),
          before_(n + 1, 0.0) {
        const bool given = threshold_shares.size() == size_t(n) + 1;
        double above = 0; // thresholds run n..1
        for (int t = n; t >= 1; --t) {
            share_[t] = given ? threshold_shares[t] : 1.0 / n;
            before_[t] = above;
            above += share_[t];
        }
    }
    /// A pass begins: the first pass (threshold 0) or a scan at threshold t, with `done`
    /// of its positions done already (a resumed first pass). Between passes only.
    void start(int threshold, uint64_t done = 0) {
        threshold_.store(threshold, std::memory_order_relaxed);
        done_.store(done, std::memory_order_relaxed);
    }
    /// k more positions of the pass are done. Thread-safe.
    void add(uint64_t k) {
        const uint64_t finished = done_.fetch_add(k, std::memory_order_relaxed) + k;
        if (!report_) return;
        throttle_.maybe([&] {
            const int t = threshold_.load(std::memory_order_relaxed);
            report_({n_, t, finished, size_, fraction(t, finished)});
        });
    }
    /// The level's estimated fraction done at `done` positions of the pass at threshold t
    /// (0: the first pass).
    double fraction(int t, uint64_t done) const {
        const double pass = std::min(1.0, static_cast<double>(done) /
                                              static_cast<double>(std::max<uint64_t>(1, size_)));
        if (t == 0) return first_share_ * pass;
        return first_share_ + (1 - first_share_) * (before_[t] + share_[t] * pass);
    }

  private:
    const ProgressFn& report_;
    int n_;
    uint64_t size_;
    double first_share_;
    std::vector<double> share_;  // [t]: threshold t's share of the thresholds' time
    std::vector<double> before_; // [t]: the shares of the thresholds before it (n..t+1)
    std::atomic<int> threshold_{0};
    std::atomic<uint64_t> done_{0};
    ReportThrottle throttle_;
};

/// How run_segments() runs a level.
struct SweepOptions {
    int threads = 1;
    ProgressFn progress{};    ///< may be empty
    double first_share = 0.5; ///< the first pass's share of the level's time, for progress
    /// Each threshold's share of the thresholds' time, for progress (threshold_shares(),
    /// progress.hpp); empty: even.
    std::vector<double> threshold_shares{};
    /// Chunks per first-pass segment; 0: about 1/256 of the level, so that a safe point is
    /// never far away even on the largest levels, but at least 16 chunks per thread, so
    /// that the threads idling at the end of a segment cost little.
    uint64_t segment_chunks = 0;
    LevelStats* stats = nullptr;
    /// Offered the words at every safe point (the caller restored it before: restore()).
    SweepCheckpoint* checkpoint = nullptr;
};

/// The steps of an engine's sweep, for run_segments().
struct Steps {
    /// Fills words [begin, end) with their first-pass values (whole chunks but for the
    /// level's end; its own parallel loops) and reports the positions it finishes.
    std::function<void(uint64_t begin, uint64_t end, SweepProgress& progress)> first_segment{};
    /// Threshold t's scans, reporting each one's positions (progress.start(t) before each);
    /// returns how many scans it made. One process: scan_level(); a distributed engine:
    /// its rounds (distributed_rounds.hpp).
    std::function<uint64_t(int t, SweepProgress& progress)> threshold{};
    /// Turns the words into the level's result.
    std::function<void()> finish{};
    /// At each safe point, before the checkpoint sees the words: records the engine's own
    /// state in the point (may be empty: nothing to record).
    std::function<void(SweepPoint& point)> at_safe_point{};
};

/// The point a checkpoint restores into s's words (as bytes), or the level's start.
template <class SweepState> SweepPoint restore(SweepCheckpoint* checkpoint, SweepState& s) {
    if (!checkpoint) return SweepPoint{};
    return checkpoint->restore(s.bytes()).value_or(SweepPoint{});
}

/// Runs one level's sweep over `s` (set up by start()) from `point` (the level's start, or
/// what restore() gave): the first pass a segment of whole chunks at a time, then
/// t = n..1, then finish. A safe point follows each segment and each threshold. An
/// exception thrown by a step is rethrown from here once its threads have stopped.
template <class SweepState>
void run_segments(SweepState& s, SweepPoint point, const SweepOptions& options,
                  const Steps& steps) {
    using Clock = std::chrono::steady_clock;
    const int n = s.n;
    const uint64_t chunks = (s.size + kChunk - 1) / kChunk;
    const std::span<const uint8_t> bytes = s.bytes();
    s.propagated.store(point.propagated);
    auto reached = [&] {
        point.propagated = s.propagated.load();
        if (!options.checkpoint) return;
        if (steps.at_safe_point) steps.at_safe_point(point);
        options.checkpoint->reached(point, bytes);
    };
    SweepProgress progress(options.progress, n, s.size, options.first_share,
                           options.threshold_shares);

    const auto t0 = Clock::now();
    const uint64_t segment_chunks =
        options.segment_chunks
            ? options.segment_chunks
            : std::max<uint64_t>(chunks / 256,
                                 uint64_t(16) * static_cast<uint64_t>(options.threads));
    progress.start(0, point.first_pass_done);
    // (first_pass_done is a multiple of kChunk, or the level's size once the pass is done.)
    for (uint64_t first = (point.first_pass_done + kChunk - 1) / kChunk; first < chunks;
         first += segment_chunks) {
        const uint64_t last = std::min(chunks, first + segment_chunks);
        steps.first_segment(first * kChunk, std::min(s.size, last * kChunk), progress);
        point.first_pass_done = std::min(s.size, last * kChunk);
        reached();
    }
    const auto t1 = Clock::now();
    for (int t = n - point.thresholds_done; t >= 1; --t) {
        s.t = t;
        point.scans += steps.threshold(t, progress);
        point.thresholds_done = n - t + 1;
        reached();
    }
    steps.finish();
    const auto t2 = Clock::now();
    if (options.stats) {
        options.stats->first_pass_seconds = std::chrono::duration<double>(t1 - t0).count();
        options.stats->sweep_seconds = std::chrono::duration<double>(t2 - t1).count();
        options.stats->scans = point.scans;
        options.stats->propagated = s.propagated.load();
    }
}

/// One threshold's scans in a process that holds the whole level: scan_chunk(begin, end,
/// t, stack) for every chunk in parallel, with a propagation stack per thread (of type
/// Stack, which scan_chunk leaves empty: it drains what it propagates), again while a
/// propagation overflowed. Returns the number of scans.
template <class Stack, class SweepState, class ScanChunk>
uint64_t scan_level(SweepState& s, int threads, int t, SweepProgress& progress,
                    ScanChunk&& scan_chunk) {
    const uint64_t chunks = (s.size + kChunk - 1) / kChunk;
    uint64_t scans = 0;
    do {
        ++scans;
        s.overflow.store(false);
        progress.start(t);
        parallel::FirstFailure failure;
#pragma omp parallel num_threads(threads)
        {
            Stack stack;
#pragma omp for schedule(dynamic, 1)
            for (uint64_t c = 0; c < chunks; ++c) {
                const uint64_t end = std::min(s.size, (c + 1) * kChunk);
                failure.guard([&] {
                    scan_chunk(c * kChunk, end, t, stack);
                    // Roots wait on the stack for a batch (propagate()): one left here
                    // would be a position whose parents never learn of it.
                    if (!stack.empty())
                        throw std::logic_error("sweep: a scan left propagation undone");
                });
                progress.add(end - c * kChunk);
            }
        }
        failure.rethrow();
    } while (s.overflow.load());
    return scans;
}

/// run_segments for the in-memory engines, from the point `options.checkpoint` restores:
/// the first pass calls `first_words(begin, end)`, which sets words [begin, end), on
/// parallel chunks, and a scan calls `scan(i, t, stack)` for every position of a chunk,
/// then `drain(stack)`.
template <class Stack, class FirstWords, class Scan, class Drain, class Finish>
void run(State& s, const SweepOptions& options, FirstWords&& first_words, Scan&& scan,
         Drain&& drain, Finish&& finish) {
    run_segments(s, restore(options.checkpoint, s), options,
                 Steps{.first_segment =
                           [&](uint64_t begin, uint64_t end, SweepProgress& progress) {
                               parallel::for_chunks(options.threads, begin, end, kChunk,
                                                    [&](uint64_t b, uint64_t e) {
                                                        first_words(b, e);
                                                        progress.add(e - b);
                                                    });
                           },
                       .threshold =
                           [&](int t, SweepProgress& progress) {
                               return scan_level<Stack>(
                                   s, options.threads, t, progress,
                                   [&](uint64_t begin, uint64_t end, int t, Stack& stack) {
                                       for (uint64_t i = begin; i < end; ++i) scan(i, t, stack);
                                       drain(stack);
                                   });
                           },
                       .finish = finish});
}

/// Levels 0..max_n solved one after another by Solver<Game>, all in memory; each level's
/// result is the next solvers' smaller level.
template <template <class> class Solver, RetroGame Game>
std::vector<ValueArray> solve_levels_in_memory(const Game& game, int max_n, int threads) {
    std::vector<ValueArray> levels;
    std::vector<const int8_t*> smaller;
    for (int n = 0; n <= max_n; ++n) {
        Solver<Game> solver(game, smaller, threads);
        levels.push_back(solver.solve(n));
        smaller.push_back(levels.back().data());
    }
    return levels;
}

} // namespace sweep
} // namespace owaredb
