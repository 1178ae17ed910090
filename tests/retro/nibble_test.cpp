// The nibble engine (retro/nibble_retrograde.hpp) against the in-memory one
// (retro/retrograde.hpp): the same bytes for every level, whatever the thread count, the
// gathering's slices and the propagation stack's size (tiny stacks spill), on Oware (both
// rule sets) and the toy ring game; resumed from every safe point, and started afresh when
// the scan store no longer holds the checkpoint's generation.
#include "oware/oware_game.hpp"
#include "quick.hpp"
#include "retro/checkpoint.hpp"
#include "retro/nibble_retrograde.hpp"
#include "retro/nibble_word.hpp"
#include "retro/retrograde.hpp"
#include "toy_game.hpp"

#include <doctest/doctest.h>

#include <cstring>
#include <optional>
#include <set>
#include <vector>

using namespace owaredb;

namespace {

bool same(const ValueArray& a, const ValueArray& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size()) == 0;
}

template <RetroGame Game> std::vector<ValueArray> reference(const Game& game, int max_n) {
    return sweep::solve_levels_in_memory<RetrogradeSolver>(game, max_n, 2);
}

struct Options {
    int threads = 1;
    uint64_t gather_positions = 0;
    size_t stack_limit = 0; // 0: the engine's
};

// Levels 0..max_n by the nibble engine over the reference's smaller levels equal the
// reference; returns the most parents a stack spilled.
template <RetroGame Game>
uint64_t check_nibble_levels(const Game& game, int max_n, const Options& o) {
    const std::vector<ValueArray> ref = reference(game, max_n);
    uint64_t spilled = 0;
    for (int n = 0; n <= max_n; ++n) {
        CAPTURE(n);
        InMemorySmallerLevels smaller(level_pointers(ref, n));
        InMemoryScanStore store;
        NibbleRetrogradeSolver<Game> solver(game, smaller, store, o.threads, o.gather_positions);
        if (o.stack_limit) solver.set_stack_limit(o.stack_limit);
        LevelStats stats;
        solver.solve(n, {}, &stats);
        CHECK(same(solver.values(), ref[n]));
        CHECK(stats.scans == uint64_t(n));       // one scan a threshold: no rescans
        CHECK(store.ended() == uint64_t(n) + 2); // gathering, first pass, n thresholds
        spilled = std::max(spilled, solver.spilled_peak());
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
    std::optional<SweepPoint> restore(std::span<uint8_t> words) override {
        if (!to_restore) return std::nullopt;
        REQUIRE(to_restore->words.size() == words.size());
        std::memcpy(words.data(), to_restore->words.data(), words.size());
        return to_restore->point;
    }
    bool reached(const SweepPoint& point, std::span<const uint8_t> words) override {
        saved.push_back({point, {words.begin(), words.end()}});
        return true;
    }
    void note(const std::string&) override { ++notes; }
};

// Level n straight through, then resumed from each safe point (the store keeps every
// generation), and from each point with its generation changed: the same bytes each time.
template <RetroGame Game> void check_nibble_resume(const Game& game, int n, int threads) {
    const std::vector<ValueArray> ref = reference(game, n);
    InMemorySmallerLevels smaller(level_pointers(ref, n));
    InMemoryScanStore store;
    NibbleRetrogradeSolver<Game> solver(game, smaller, store, threads);
    RecordingCheckpoint recorder;
    solver.solve(n, {}, nullptr, &recorder);
    const ValueArray straight = solver.values();
    REQUIRE(same(straight, ref[n]));
    // One point after the first pass, one after each threshold; the words are 4 bits.
    REQUIRE(recorder.saved.size() == size_t(n) + 1);
    CHECK(recorder.saved[0].words.size() == (game.level_size(n) + 15) / 16 * 8);
    for (const RecordingCheckpoint::Saved& at : recorder.saved) {
        CAPTURE(at.point.thresholds_done);
        CHECK(at.point.first_pass_done == game.level_size(n));
        RecordingCheckpoint resumed;
        resumed.to_restore = at;
        solver.solve(n, {}, nullptr, &resumed);
        CHECK(same(solver.values(), straight));
        CHECK(resumed.notes == 0);
        CHECK(resumed.saved.size() == size_t(n - at.point.thresholds_done));
        // The generation the point goes with, changed: refused, and the level starts afresh.
        const uint64_t generation = uint64_t(at.point.thresholds_done) + 1;
        const std::vector<int8_t> kept = store.generation(generation);
        store.generation(generation)[kept.size() / 2] ^= 1;
        RecordingCheckpoint refused;
        refused.to_restore = at;
        solver.solve(n, {}, nullptr, &refused);
        CHECK(same(solver.values(), straight));
        CHECK(refused.notes == 1);
        CHECK(refused.saved.size() == size_t(n) + 1);
    }
}

} // namespace

TEST_CASE("nibble word: 16 states, each decoded as it was made") {
    std::set<uint8_t> words;
    for (int c = 0; c <= 5; ++c) {
        const uint8_t w = NibbleWord::undecided(c, false);
        CHECK(!NibbleWord::decided(w));
        CHECK(!NibbleWord::eligible(w));
        CHECK(NibbleWord::counter(w) == c);
        words.insert(w);
    }
    for (int c = 1; c <= 6; ++c) {
        const uint8_t w = NibbleWord::undecided(c, true);
        CHECK(!NibbleWord::decided(w));
        CHECK(NibbleWord::eligible(w));
        CHECK(NibbleWord::counter(w) == c);
        // A closed move is one less, eligibility kept (what the parent update relies on).
        if (c > 1) CHECK(uint8_t(w - 1) == NibbleWord::undecided(c - 1, true));
        words.insert(w);
    }
    for (int t = 1; t <= 4; ++t)
        for (const bool lost : {false, true}) {
            const uint8_t w = NibbleWord::decided_word(t, lost);
            CHECK(NibbleWord::decided(w));
            CHECK(NibbleWord::lost(w) == lost);
            CHECK(NibbleWord::parity(w) == (t & 1));
            words.insert(w);
        }
    CHECK(words.size() == 16);
    CHECK(*words.rbegin() == 15);
}

TEST_CASE("nibble word: committed values never read as exits, and back") {
    for (int e = -NibbleWord::kMaxLevel; e <= NibbleWord::kMaxLevel; ++e)
        CHECK(!NibbleWord::committed(static_cast<int8_t>(e)));
    CHECK(!NibbleWord::committed(NibbleWord::kNoExit));
    for (int v = -NibbleWord::kMaxLevel; v <= NibbleWord::kMaxLevel; ++v) {
        if (v == 0) continue;
        CHECK(NibbleWord::committed(NibbleWord::commit(v)));
        CHECK(NibbleWord::committed_value(NibbleWord::commit(v)) == v);
    }
}

TEST_CASE("nibble engine: the in-memory engine's bytes, Oware abapa and awari") {
    const int max_n = test::quick() ? 9 : 12;
    check_nibble_levels(OwareGame(Rules::abapa()), max_n, {.threads = 2});
    check_nibble_levels(OwareGame(Rules::awari()), max_n,
                        {.threads = 1, .gather_positions = 3 * sweep::kChunk});
}

TEST_CASE("nibble engine: the in-memory engine's bytes, toy ring game") {
    check_nibble_levels(test::RingGame(14), 14, {.threads = 2, .gather_positions = 1});
}

TEST_CASE("nibble engine: stacks of 2 entries spill, and give the same bytes") {
    const int max_n = test::quick() ? 8 : 10;
    uint64_t spilled = 0;
    for (const Rules& rules : {Rules::abapa(), Rules::awari()})
        spilled = std::max(spilled, check_nibble_levels(OwareGame(rules), max_n,
                                                        {.threads = 2, .stack_limit = 2}));
    CHECK(spilled > 0); // the spill path ran
}

TEST_CASE("nibble engine: resumes from every safe point, and refuses a changed generation") {
    const bool quick = test::quick();
    check_nibble_resume(OwareGame(Rules::abapa()), quick ? 7 : 9, 2);
    check_nibble_resume(OwareGame(Rules::awari()), quick ? 7 : 8, 1);
}
