// The passes that the engines over a scan store (scan_store.hpp) share, whatever their word:
// the nibble engine (4 bits, nibble_retrograde.hpp) and the WLD engine (2 bits,
// wld_retrograde.hpp). Each keeps one byte a position in the store (nibble_word.hpp has
// the codes: the best capture exit while undecided, the value once committed), and
//   - gathers the capture exits into generation 0 (gather_exits),
//   - writes generation 1 from its first pass over the level (first_scan_pass: the
//     terminal values into the bytes, each position's first word from its quiet moves),
//   - drains a scan's propagation with the parents full stacks spilled (drain_spilled),
//   - reads the level's values from the last generation and its words (read_scan_values),
//   - pins the generation a saved checkpoint goes with and resumes from it
//     (PinningCheckpoint, restore_scan_point).
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
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace owaredb::scan {

/// Forwards to the caller's checkpoint and pins the store's generation when it saves.
class PinningCheckpoint final : public SweepCheckpoint {
  public:
    PinningCheckpoint(SweepCheckpoint& inner, ScanStore& store) : inner_(inner), store_(store) {}
    std::optional<SweepPoint> restore(std::span<uint8_t> words) override {
        return inner_.restore(words);
    }
    bool reached(const SweepPoint& point, std::span<const uint8_t> words) override {
        if (!inner_.reached(point, words)) return false;
        store_.pin();
        return true;
    }
    void note(const std::string& what) override { inner_.note(what); }

  private:
    SweepCheckpoint& inner_;
    ScanStore& store_;
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

/// Generation 1 of `store` from generation 0 (gather_exits), and the first words of s:
/// s's word i becomes word_of(nibble), where `nibble` is position i's first 4-bit word
/// (NibbleWord::first_word, which also turns a terminal position's byte into its terminal
/// value); `engine` names the caller in the errors of a game whose moves and un-captures
/// disagree. `too_many` is set if a position with an exit has 6 quiet moves (what the 4-bit
/// word does not hold). The caller ends the generation.
template <RetroGame Game, class SweepState, class WordOf>
void first_scan_pass(const Game& game, SweepState& s, ScanStore& store, int threads,
                     sweep::SweepProgress& progress, const char* engine, bool& too_many,
                     WordOf&& word_of) {
    constexpr uint64_t kChunk = sweep::kChunk;
    store.begin(1, s.size, kChunk);
    std::atomic<bool> missing_exit{false}, too_many_moves{false};
    parallel::for_chunks(threads, 0, s.size, kChunk, [&](uint64_t b, uint64_t e) {
        thread_local std::vector<int8_t> bytes;
        bytes.resize(e - b);
        store.read(b / kChunk, bytes);
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
        while (!stack.spilled.empty()) {
            const uint64_t entry = stack.spilled.back();
            stack.spilled.pop_back();
            sweep::propagate(game, s, entry, stack, update);
            most = std::max<uint64_t>(most, stack.spilled.size());
        }
    } while (!stack.empty());
    uint64_t seen = peak.load(std::memory_order_relaxed);
    while (most > seen && !peak.compare_exchange_weak(seen, most)) {
    }
}

/// out[k] = value_of(word, byte) of position begin + k, from s's words and the store's
/// generation read, a chunk at a time (so reading in order, chunk-aligned, is cheapest).
/// Thread-safe.
template <class SweepState, class ValueOf>
void read_scan_values(const ScanStore& store, const SweepState& s, uint64_t begin,
                      std::span<int8_t> out, ValueOf&& value_of) {
    constexpr uint64_t kChunk = sweep::kChunk;
    thread_local std::vector<int8_t> bytes;
    for (uint64_t at = begin; at < begin + out.size();) {
        const uint64_t first = at / kChunk * kChunk;
        const uint64_t end = std::min({s.size, first + kChunk, begin + out.size()});
        bytes.resize(std::min(kChunk, s.size - first));
        store.read(first / kChunk, bytes);
        for (uint64_t i = at; i < end; ++i) {
            const uint8_t w = s.word(i).load(std::memory_order_relaxed);
            out[i - begin] = static_cast<int8_t>(value_of(w, bytes[i - first]));
        }
        at = end;
    }
}

/// The point `checkpoint` restores into s's words, if the store still holds the generation
/// it goes with, generation(point), intact (the point's exit_checksum); else nothing, and
/// the checkpoint is told that the level starts afresh.
template <class SweepState, class GenerationOf>
std::optional<SweepPoint> restore_scan_point(ScanStore& store, SweepState& s,
                                             SweepCheckpoint* checkpoint,
                                             GenerationOf&& generation) {
    if (!checkpoint) return std::nullopt;
    std::optional<SweepPoint> saved = checkpoint->restore(s.bytes());
    if (!saved) return std::nullopt;
    if (saved->first_pass_done == s.size &&
        store.resume(generation(*saved), s.size, sweep::kChunk, saved->exit_checksum))
        return saved;
    checkpoint->note("the scan store does not hold the checkpoint's generation (missing, short or "
                     "changed); the level starts afresh");
    return std::nullopt;
}

} // namespace owaredb::scan
