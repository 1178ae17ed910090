// The passes that the engines over a scan store (scan_store.hpp) share, whatever their word:
// the nibble engine (4 bits, nibble_retrograde.hpp) and the WLD engine (2 bits,
// wld_retrograde.hpp). Each
//   - gathers the capture exits into generation 0 (gather_exits),
//   - writes generation 1 from its first pass over the level (first_scan_pass: the
//     terminal values into the exits' bytes, each position's first word from its quiet
//     moves; nibble_word.hpp has the bytes' codes),
//   - drains a scan's propagation with the parents full stacks spilled (drain_spilled),
//   - reads the level's values a chunk at a time (read_chunk_values), and which threshold
//     decided each position from the thresholds' bitmaps (read_threshold_bitmaps),
//   - pins the generation a saved checkpoint goes with and resumes from the generations
//     it needs (PinningCheckpoint, restore_scan_point).
#pragma once

#include "retro/checkpoint.hpp"
#include "retro/exit_gathering.hpp"
#include "retro/game.hpp"
#include "retro/nibble_word.hpp"
#include "retro/parallel.hpp"
#include "retro/progress.hpp"
#include "retro/scan_store.hpp"
#include "retro/streamed_sources.hpp"
#include "retro/sweep.hpp"
#include "retro/value_array.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>
#include <cstring>
#include <map>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace owaredb::scan {

/// Forwards to the caller's checkpoint and pins the store's generation when it saves; says
/// whether it saved level n's last safe point (all n thresholds done), restored or reached.
class PinningCheckpoint final : public SweepCheckpoint {
  public:
    PinningCheckpoint(SweepCheckpoint& inner, ScanStore& store, int n)
        : inner_(inner), store_(store), n_(n) {}
    std::optional<SweepPoint> restore(std::span<uint8_t> words) override {
        std::optional<SweepPoint> point = inner_.restore(words);
        last_saved_ = point && point->thresholds_done == n_;
        return point;
    }
    bool reached(const SweepPoint& point, std::span<const uint8_t> words) override {
        if (!inner_.reached(point, words)) return false;
        store_.pin();
        if (point.thresholds_done == n_) last_saved_ = true;
        return true;
    }
    void note(const std::string& what) override { inner_.note(what); }
    /// Whether the checkpoint holds the level's last safe point: then no earlier point is
    /// resumed, and what only earlier points need may go.
    bool last_saved() const { return last_saved_; }

  private:
    SweepCheckpoint& inner_;
    ScanStore& store_;
    int n_;
    bool last_saved_ = false;
};

/// Generation 0 of `store`: the best capture exit of every position of level n (or
/// NibbleWord::kNoExit), pushed from the smaller levels (exit_gathering.hpp) into a byte
/// array of `gather_positions` positions at a time (rounded up to whole chunks; 0: the whole
/// level), each slice reading the smaller levels once. `share` is the gathering's share of
/// the level's progress.
template <RetroGame Game>
void gather_exits(const Game& game, const SmallerLevelValues& smaller, ScanStore& store,
                  int threads, uint64_t gather_positions, int n, const ProgressFn& progress,
                  double share) {
    constexpr uint64_t kChunk = sweep::kChunk;
    const uint64_t size = game.level_size(n);
    const uint64_t chunks = (size + kChunk - 1) / kChunk;
    const uint64_t slice_chunks =
        gather_positions ? std::max<uint64_t>(1, (gather_positions + kChunk - 1) / kChunk)
                         : std::max<uint64_t>(1, chunks);
    const uint64_t slices = std::max<uint64_t>(1, (chunks + slice_chunks - 1) / slice_chunks);
    store.begin(0, size, kChunk);
    for (uint64_t k = 0; k < slices; ++k) {
        const uint64_t first = k * slice_chunks * kChunk;
        const uint64_t last = std::min(size, (k + 1) * slice_chunks * kChunk);
        StreamedSweep g;
        ValueArray bytes = sweep::start(g, n, last - first);
        g.base = first;
        std::fill_n(g.words, g.size, static_cast<uint8_t>(NibbleWord::kNoExit));
        ProgressFn slice_progress;
        if (progress)
            slice_progress = [&](const LevelProgress& p) {
                LevelProgress q = p;
                q.pass_fraction = share * (double(k) + p.pass_fraction / share) / double(slices);
                progress(q);
            };
        ExitGathering<Game>(game, smaller, threads, 0).run(g, 0, slice_progress, share, nullptr);
        parallel::for_chunks(threads, 0, g.size, kChunk, [&](uint64_t b, uint64_t e) {
            store.write((first + b) / kChunk, {bytes.data() + b, e - b});
        });
    }
    store.end();
}

/// Generation 1 of `store` from generation 0 (gather_exits), which it then drops, and the
/// first words of s:
/// s's word i becomes word_of(nibble), where `nibble` is position i's first 4-bit word
/// (NibbleWord::first_word, which also turns a terminal position's byte into its terminal
/// value); `engine` names the caller in the errors of a game whose moves and un-captures
/// disagree. `too_many` is set if a position with an exit has 6 quiet moves (what the 4-bit
/// word does not hold). Returns generation 1's checksum.
template <RetroGame Game, class SweepState, class WordOf>
uint64_t first_scan_pass(const Game& game, SweepState& s, ScanStore& store, int threads,
                         sweep::SweepProgress& progress, const char* engine, bool& too_many,
                         WordOf&& word_of) {
    constexpr uint64_t kChunk = sweep::kChunk;
    store.begin(1, s.size, kChunk);
    std::atomic<bool> missing_exit{false}, too_many_moves{false};
    parallel::for_chunks(threads, 0, s.size, kChunk, [&](uint64_t b, uint64_t e) {
        thread_local std::vector<int8_t> bytes;
        bytes.resize(e - b);
        store.read(0, b / kChunk, bytes);
        bool missing = false, many = false;
        for_each_in_rank_order(game, s.n, b, e, [&](uint64_t i, const auto& state) {
            const uint8_t w = NibbleWord::first_word(game, state, bytes[i - b], missing, many);
            s.word(i).store(word_of(w), std::memory_order_relaxed);
        });
        if (missing) missing_exit.store(true, std::memory_order_relaxed);
        if (many) too_many_moves.store(true, std::memory_order_relaxed);
        store.write(b / kChunk, bytes);
        progress.add(e - b);
    });
    if (missing_exit)
        throw std::logic_error(std::string(engine) +
                               ": a position whose every move captures has no capture exit (the "
                               "game's moves and un-captures disagree)");
    too_many = too_many_moves;
    const uint64_t checksum = store.end();
    store.drop(0);
    return checksum;
}

/// The end of a scan's chunk: propagation from the roots still waiting on `stack` for a
/// batch, then from what full stacks spilled (sweep::BasicState::spill), until none is
/// left; `peak` becomes at least the most spilled entries the stack held at once.
/// Thread-safe for distinct stacks.
template <RetroGame Game, class SweepState, class Visit>
void drain_spilled(const Game& game, SweepState& s, sweep::StackFor<Game>& stack, Visit& update,
                   std::atomic<uint64_t>& peak) {
    uint64_t most = stack.spilled.size();
    do {
        sweep::drain(game, s, stack, update);
        most = std::max<uint64_t>(most, stack.spilled.size());
        for (uint64_t entry = 0; stack.spilled.pop(entry);) {
            sweep::propagate(game, s, entry, stack, update);
            most = std::max<uint64_t>(most, stack.spilled.size());
        }
    } while (!stack.empty());
    uint64_t seen = peak.load(std::memory_order_relaxed);
    while (most > seen && !peak.compare_exchange_weak(seen, most)) {
    }
}

/// out[k] = the value of position begin + k, from chunk_values(first, values), which sets
/// values[j] to the value of position first + j for a whole chunk (first a multiple of
/// sweep::kChunk, values.size() the chunk's positions, of a level of `size`): so reading in
/// order, chunk-aligned, is cheapest. Thread-safe if chunk_values is.
template <class ChunkValues>
void read_chunk_values(uint64_t size, uint64_t begin, std::span<int8_t> out,
                       ChunkValues&& chunk_values) {
    constexpr uint64_t kChunk = sweep::kChunk;
    thread_local std::vector<int8_t> values;
    for (uint64_t at = begin; at < begin + out.size();) {
        const uint64_t first = at / kChunk * kChunk;
        const uint64_t end = std::min({size, first + kChunk, begin + out.size()});
        values.resize(std::min(kChunk, size - first));
        chunk_values(first, std::span<int8_t>(values));
        std::copy(values.begin() + std::ptrdiff_t(at - first),
                  values.begin() + std::ptrdiff_t(end - first),
                  out.begin() + std::ptrdiff_t(at - begin));
        at = end;
    }
}

/// Reads back which positions of a chunk thresholds n, n - 1, ..., last decided, from their
/// bitmaps (nibble_word.hpp's ThresholdBits; threshold t's is generation generation_of(t) of
/// `store`): decided(j, t) is called for each position first + j (j < count; first a multiple
/// of sweep::kChunk) decided at t, and `open` is left with a bit for each position none of
/// them decided (bit j % 8 of byte j / 8). Thread-safe.
template <class GenerationOf, class Decided>
void read_threshold_bitmaps(const ScanStore& store, uint64_t first, uint64_t count, int n, int last,
                            GenerationOf&& generation_of, std::vector<uint8_t>& open,
                            Decided&& decided) {
    thread_local std::vector<int8_t> bits;
    bits.resize((count + 7) / 8);
    open.assign(bits.size(), 0xFF);
    if (count % 8) open.back() = static_cast<uint8_t>((1u << (count % 8)) - 1);
    for (int t = n; t >= last; --t) {
        store.read(generation_of(t), first / sweep::kChunk, bits);
        ThresholdBits in(bits);
        for (uint64_t p = 0; p < open.size(); ++p) {
            // Most positions are decided long before the last thresholds: skip 8 bytes of
            // them at once (a position decided before has no bit in this threshold's bitmap).
            if (p % 8 == 0 && p + 8 <= open.size()) {
                uint64_t eight;
                std::memcpy(&eight, &open[p], 8);
                if (eight == 0) {
                    p += 7;
                    continue;
                }
            }
            if (!open[p]) continue;
            const uint8_t now = in.get(open[p]);
            open[p] &= static_cast<uint8_t>(~now);
            for (unsigned m = now; m; m &= m - 1) decided(p * 8 + unsigned(std::countr_zero(m)), t);
        }
    }
}

/// A generation a checkpoint needs: its number, bytes and chunk bytes.
struct GenerationShape {
    uint64_t generation = 0, size = 0, chunk = 0;
};

/// The checksum of each generation of `needed`, by its number, if `store` holds every one
/// whole and the chain of their checksums in that order (chain_checksum()) is `checksum`;
/// else nothing.
inline std::optional<std::map<uint64_t, uint64_t>>
resume_generations(ScanStore& store, std::span<const GenerationShape> needed, uint64_t checksum) {
    std::map<uint64_t, uint64_t> sums;
    uint64_t chain = 0;
    for (const GenerationShape& g : needed) {
        const std::optional<uint64_t> sum = store.resume(g.generation, g.size, g.chunk);
        if (!sum) return std::nullopt;
        sums[g.generation] = *sum;
        chain = chain_checksum(chain, *sum);
    }
    if (chain != checksum) return std::nullopt;
    return sums;
}

/// A point restored, and the checksum of each generation it needs, by its number.
struct RestoredPoint {
    SweepPoint point;
    std::map<uint64_t, uint64_t> sums;
};

/// The point `checkpoint` restores into s's words, if the store still holds the generations
/// it goes with, needed(point) (a vector of GenerationShape), whole, with the chain of
/// checksums the point recorded (its exit_checksum); else nothing, and the checkpoint is
/// told that the level starts afresh.
template <class SweepState, class Needed>
std::optional<RestoredPoint> restore_scan_point(ScanStore& store, SweepState& s,
                                                SweepCheckpoint* checkpoint, Needed&& needed) {
    if (!checkpoint) return std::nullopt;
    std::optional<SweepPoint> saved = checkpoint->restore(s.bytes());
    if (!saved) return std::nullopt;
    if (saved->first_pass_done == s.size) {
        const auto generations = needed(*saved);
        if (auto sums = resume_generations(store, generations, saved->exit_checksum))
            return RestoredPoint{*saved, std::move(*sums)};
    }
    checkpoint->note("the scan store does not hold the checkpoint's generations (missing, short or "
                     "changed); the level starts afresh");
    return std::nullopt;
}

} // namespace owaredb::scan
