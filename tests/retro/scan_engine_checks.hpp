// What the tests of the engines over a scan store (the nibble engine, nibble_test.cpp; the
// WLD engine, wld_test.cpp) check of each: the in-memory engine's bytes for every level,
// whatever the thread count, the gathering's slices and the propagation stack's size (tiny
// stacks spill); resumed from every safe point, and started afresh when the scan store no
// longer holds the checkpoint's generation; and each time, the values' counts the engine
// gives the level's writer (value_counts()) are those of its values.
#pragma once

#include "retro/checkpoint.hpp"
#include "retro/retrograde.hpp"
#include "retro/scan_store.hpp"
#include "retro/streamed_sources.hpp"

#include <doctest/doctest.h>

#include <array>
#include <cstring>
#include <optional>
#include <vector>

namespace owaredb::test {

inline bool same(const ValueArray& a, const ValueArray& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size()) == 0;
}

/// The positions of each value (index: the value as uint8_t).
inline std::array<uint64_t, 256> counts_of(const ValueArray& values) {
    std::array<uint64_t, 256> counts{};
    for (size_t i = 0; i < values.size(); ++i) ++counts[uint8_t(values[i])];
    return counts;
}

template <RetroGame Game> std::vector<ValueArray> reference(const Game& game, int max_n) {
    return sweep::solve_levels_in_memory<RetrogradeSolver>(game, max_n, 2);
}

struct ScanOptions {
    int threads = 1;
    uint64_t gather_positions = 0;
    size_t stack_limit = 0;  // 0: the engine's
    size_t spill_memory = 0; // 0: the engine's
};

/// What the stacks spilled over some levels: the most parents one held at once, and the
/// blocks written to the store's spill space (past its memory).
struct Spills {
    uint64_t peak = 0;
    uint64_t blocks = 0;
};

/// What tells the engines apart in these checks.
struct ScanEngineShape {
    /// Generations the store ends for level n (gathering, first pass, thresholds).
    uint64_t (*generations)(int n);
    /// The generation a safe point after `thresholds_done` thresholds of level n goes with.
    uint64_t (*generation_of)(int thresholds_done, int n);
    /// Bytes of the saved words of a level of `size` positions.
    uint64_t (*word_bytes)(uint64_t size);
};

// Levels 0..max_n by Solver over the reference's smaller levels equal the reference;
// returns what the stacks spilled.
template <template <class> class Solver, RetroGame Game>
Spills check_scan_levels(const Game& game, int max_n, const ScanOptions& o,
                         const ScanEngineShape& shape) {
    const std::vector<ValueArray> ref = reference(game, max_n);
    Spills spilled;
    for (int n = 0; n <= max_n; ++n) {
        CAPTURE(n);
        InMemorySmallerLevels smaller(level_pointers(ref, n));
        InMemoryScanStore store;
        Solver<Game> solver(game, smaller, store, o.threads, o.gather_positions);
        if (o.stack_limit) solver.set_stack_limit(o.stack_limit);
        if (o.spill_memory) solver.set_spill_memory(o.spill_memory);
        LevelStats stats;
        solver.solve(n, {}, &stats);
        CHECK(same(solver.values(), ref[n]));
        CHECK(solver.value_counts() == counts_of(ref[n]));
        CHECK(stats.scans == uint64_t(n));                  // one scan a threshold: no rescans
        CHECK(stats.spilled_peak == solver.spilled_peak()); // what generate records
        CHECK(store.ended() == shape.generations(n));
        spilled.peak = std::max(spilled.peak, solver.spilled_peak());
        spilled.blocks += store.spills().blocks_written();
        // A thread holds at most spill_memory entries in memory; what it spilled past them
        // went to the store's spill space, in one area a thread and scan at most.
        CHECK(store.spills().opened() <= uint64_t(o.threads) * stats.scans);
        if (solver.spilled_peak() < (o.spill_memory ? o.spill_memory : kSpillMemoryEntries))
            CHECK(store.spills().blocks_written() == 0);
    }
    return spilled;
}

class RecordingCheckpoint final : public SweepCheckpoint {
  public:
    struct Saved {
        SweepPoint point;
        std::vector<uint8_t> words;
    };
    std::vector<Saved> saved;
    std::optional<Saved> to_restore;
    int notes = 0;
    int save_until = 1 << 30; // points after more thresholds are not saved
    std::optional<SweepPoint> restore(std::span<uint8_t> words) override {
        if (!to_restore) return std::nullopt;
        REQUIRE(to_restore->words.size() == words.size());
        std::memcpy(words.data(), to_restore->words.data(), words.size());
        return to_restore->point;
    }
    bool reached(const SweepPoint& point, std::span<const uint8_t> words) override {
        if (point.thresholds_done > save_until) return false;
        saved.push_back({point, {words.begin(), words.end()}});
        return true;
    }
    void note(const std::string&) override { ++notes; }
};

// Level n straight through, then resumed from each safe point (the store keeps every
// generation), and from each point with its generation changed: the same bytes each time.
template <template <class> class Solver, RetroGame Game>
void check_scan_resume(const Game& game, int n, int threads, const ScanEngineShape& shape) {
    const std::vector<ValueArray> ref = reference(game, n);
    InMemorySmallerLevels smaller(level_pointers(ref, n));
    InMemoryScanStore store;
    Solver<Game> solver(game, smaller, store, threads);
    RecordingCheckpoint recorder;
    solver.solve(n, {}, nullptr, &recorder);
    const ValueArray straight = solver.values();
    REQUIRE(same(straight, ref[n]));
    // One point after the first pass, one after each threshold.
    REQUIRE(recorder.saved.size() == size_t(n) + 1);
    CHECK(recorder.saved[0].words.size() == shape.word_bytes(game.level_size(n)));
    for (const RecordingCheckpoint::Saved& at : recorder.saved) {
        CAPTURE(at.point.thresholds_done);
        CHECK(at.point.first_pass_done == game.level_size(n));
        RecordingCheckpoint resumed;
        resumed.to_restore = at;
        solver.solve(n, {}, nullptr, &resumed);
        CHECK(same(solver.values(), straight));
        CHECK(solver.value_counts() == counts_of(straight)); // counted again from the bitmaps
        CHECK(resumed.notes == 0);
        CHECK(resumed.saved.size() == size_t(n - at.point.thresholds_done));
        // The generation the point goes with, changed: refused, and the level starts afresh.
        const uint64_t generation = shape.generation_of(at.point.thresholds_done, n);
        const std::vector<int8_t> kept = store.generation(generation);
        store.generation(generation)[kept.size() / 2] ^= 1;
        RecordingCheckpoint refused;
        refused.to_restore = at;
        solver.solve(n, {}, nullptr, &refused);
        CHECK(same(solver.values(), straight));
        CHECK(solver.value_counts() == counts_of(straight));
        CHECK(refused.notes == 1);
        CHECK(refused.saved.size() == size_t(n) + 1);
    }
    // The exits (generation 1) go once the checkpoint holds the last point, which does not
    // need them: resumed without them, the same bytes.
    CHECK(store.was_dropped(1));
    store.erase(1);
    RecordingCheckpoint last;
    last.to_restore = recorder.saved.back();
    solver.solve(n, {}, nullptr, &last);
    CHECK(same(solver.values(), straight));
    CHECK(solver.value_counts() == counts_of(straight));
    CHECK(last.notes == 0);
    // A checkpoint without the last point keeps them: an earlier point needs them.
    InMemoryScanStore keeping;
    Solver<Game> other(game, smaller, keeping, threads);
    RecordingCheckpoint until_last;
    until_last.save_until = n - 1;
    other.solve(n, {}, nullptr, &until_last);
    CHECK_FALSE(keeping.was_dropped(1));
    CHECK(same(other.values(), straight));
}

} // namespace owaredb::test
