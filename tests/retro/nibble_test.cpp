// The nibble engine (retro/nibble_retrograde.hpp) against the in-memory one
// (retro/retrograde.hpp): the same bytes for every level, whatever the thread count, the
// gathering's slices and the propagation stack's size (tiny stacks spill), on Oware (both
// rule sets) and the toy ring game; each threshold's bitmap holds exactly the positions of
// its value; resumed from every safe point, and started afresh when the scan store no
// longer holds one of the generations the checkpoint needs (the exits, or a bitmap).
#include "oware/oware_game.hpp"
#include "quick.hpp"
#include "retro/checkpoint.hpp"
#include "retro/nibble_retrograde.hpp"
#include "retro/nibble_word.hpp"
#include "retro/retrograde.hpp"
#include "scan_engine_checks.hpp"
#include "toy_game.hpp"

#include <doctest/doctest.h>

#include <bit>
#include <cstdlib>
#include <set>

using namespace owaredb;

namespace {

const test::ScanEngineShape kNibble{
    .generations = [](int n) { return uint64_t(n) + 2; }, // gathering, first pass, n thresholds
    .generation_of = [](int thresholds_done, int) { return uint64_t(thresholds_done) + 1; },
    .word_bytes = [](uint64_t size) { return (size + 15) / 16 * 8; }, // 4 bits a word
};

template <RetroGame Game>
test::Spills check_nibble_levels(const Game& game, int max_n, const test::ScanOptions& o) {
    return test::check_scan_levels<NibbleRetrogradeSolver>(game, max_n, o, kNibble);
}

template <RetroGame Game> void check_nibble_resume(const Game& game, int n, int threads) {
    test::check_scan_resume<NibbleRetrogradeSolver>(game, n, threads, kNibble);
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
    for (const bool lost : {false, true}) {
        const uint8_t w = NibbleWord::fresh_word(lost);
        CHECK(NibbleWord::decided(w));
        CHECK(NibbleWord::fresh(w));
        CHECK(!NibbleWord::committed_word(w));
        CHECK(NibbleWord::lost(w) == lost);
        words.insert(w);
        uint64_t container = w;
        CHECK(NibbleWord::commit_fresh(container) == 1);
        const uint8_t c = static_cast<uint8_t>(container);
        CHECK(NibbleWord::decided(c));
        CHECK(!NibbleWord::fresh(c));
        CHECK(NibbleWord::committed_word(c));
        CHECK(NibbleWord::lost(c) == lost);
        words.insert(c);
    }
    CHECK(words.size() == 16);
    CHECK(*words.rbegin() == 15);
}

TEST_CASE("nibble word: a commit pass's 16 words at a time (committed, and which lost), as "
          "one at a time") {
    uint64_t seed = 12345;
    for (int round = 0; round < 2000; ++round) {
        uint64_t container = 0;
        for (int k = 0; k < 16; ++k) {
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            // Mostly fresh and committed words, so that every mix of them comes up.
            const uint64_t w = (seed >> 60) < 8 ? 12 + (seed >> 58) % 4 : seed >> 60;
            container |= w << (4 * k);
        }
        uint64_t committed = container;
        const uint16_t mask = NibbleWord::commit_fresh(committed);
        const uint16_t committed_lost = NibbleWord::committed_lost_mask(committed);
        for (int k = 0; k < 16; ++k) {
            const auto w = static_cast<uint8_t>(container >> (4 * k) & 15);
            const auto c = static_cast<uint8_t>(committed >> (4 * k) & 15);
            CHECK(bool(mask >> k & 1) == NibbleWord::fresh(w));
            CHECK(c == (NibbleWord::fresh(w) ? w + 2 : w));
            // What the commit pass counts as lost: committed and lost, nothing undecided.
            CHECK(bool(committed_lost >> k & 1) ==
                  (NibbleWord::committed_word(c) && NibbleWord::lost(c)));
        }
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

TEST_CASE("nibble engine: stacks of 2 entries spill, to memory and past it, and give the same "
          "bytes") {
    const int max_n = test::quick() ? 8 : 10;
    // Abapa's spills stay in memory (the engine's limit); awari's take a block of 1 past
    // 2 entries in memory, so that the spill space's blocks are written and read back.
    const test::Spills in_memory =
        check_nibble_levels(OwareGame(Rules::abapa()), max_n, {.threads = 2, .stack_limit = 2});
    CHECK(in_memory.peak > 0); // the spill path ran
    CHECK(in_memory.blocks == 0);
    const test::Spills past = check_nibble_levels(
        OwareGame(Rules::awari()), max_n, {.threads = 2, .stack_limit = 2, .spill_memory = 2});
    CHECK(past.peak > 2);
    CHECK(past.blocks > 0);
}

TEST_CASE("nibble engine: resumes from every safe point, and refuses a changed generation") {
    const bool quick = test::quick();
    check_nibble_resume(OwareGame(Rules::abapa()), quick ? 7 : 9, 2);
    check_nibble_resume(OwareGame(Rules::awari()), quick ? 7 : 8, 1);
}

// The bitmap of threshold t (generation n - t + 2) holds exactly the positions whose value is
// +-t, among those no threshold above t decided (ThresholdBits): the scan of t decides some
// of them, the propagation of t others, and the scan of t - 1 decides positions at t - 1
// ahead of it, which t's bitmap must not hold.
template <RetroGame Game> void check_nibble_bitmaps(const Game& game, int n) {
    const std::vector<ValueArray> ref = test::reference(game, n);
    InMemorySmallerLevels smaller(level_pointers(ref, n));
    InMemoryScanStore store;
    NibbleRetrogradeSolver<Game> solver(game, smaller, store, 2);
    solver.solve(n);
    REQUIRE(test::same(solver.values(), ref[n]));
    CHECK(store.dropped() == 1); // the gathering's generation only: the exits and bitmaps stay
    const uint64_t size = ref[n].size();
    auto magnitude = [&](uint64_t i) { return std::abs(int(ref[n][i])); };
    for (int t = n; t >= 1; --t) {
        CAPTURE(t);
        std::vector<int8_t> bits = store.generation(uint64_t(n - t) + 2);
        REQUIRE(bits.size() == (size + 7) / 8);
        uint64_t wrong = 0, held = 0;
        for (uint64_t first = 0; first < size; first += sweep::kChunk) {
            ThresholdBits in(std::span<int8_t>(bits).subspan(first / 8));
            for (uint64_t p = first; p < std::min(size, first + sweep::kChunk); p += 8) {
                uint8_t undecided = 0, expected = 0;
                for (uint64_t i = p; i < std::min(size, p + 8); ++i) {
                    undecided |= uint8_t(magnitude(i) == 0 || magnitude(i) <= t) << (i - p);
                    expected |= uint8_t(magnitude(i) == t) << (i - p);
                }
                const uint8_t decided = in.get(undecided);
                wrong += decided != expected;
                held += uint64_t(std::popcount(decided));
            }
        }
        CHECK(wrong == 0);
        if (t <= 2) CHECK(held > 0);
    }
}

TEST_CASE("nibble engine: each threshold's bitmap holds exactly the positions of its value") {
    // ThresholdBits alone: what is written is read back.
    std::vector<int8_t> bytes(5, 0);
    const uint8_t masks[] = {0xFF, 0x00, 0x5A, 0x81, 0x7F}, bits[] = {0x3C, 0x00, 0x18, 0x01, 0x40};
    ThresholdBits out(bytes);
    for (int k = 0; k < 5; ++k) out.put(masks[k], bits[k]);
    ThresholdBits in(bytes);
    for (int k = 0; k < 5; ++k) CHECK(in.get(masks[k]) == bits[k]);
    CHECK((bytes[3] == 0 && bytes[4] == 0)); // 8 + 0 + 4 + 2 + 7 = 21 bits: 3 bytes
    check_nibble_bitmaps(OwareGame(Rules::awari()), test::quick() ? 8 : 10);
    check_nibble_bitmaps(OwareGame(Rules::abapa()), 8);
}

TEST_CASE("nibble engine: a resume needs the exits and every bitmap so far") {
    const OwareGame game(Rules::awari());
    const int n = 9;
    const std::vector<ValueArray> ref = test::reference(game, n);
    InMemorySmallerLevels smaller(level_pointers(ref, n));
    InMemoryScanStore store;
    NibbleRetrogradeSolver<OwareGame> solver(game, smaller, store, 2);
    test::RecordingCheckpoint recorder;
    solver.solve(n, {}, nullptr, &recorder);
    REQUIRE(recorder.saved.size() == size_t(n) + 1);
    const test::RecordingCheckpoint::Saved at = recorder.saved[4]; // 4 thresholds done
    auto resume = [&] {
        test::RecordingCheckpoint resumed;
        resumed.to_restore = at;
        solver.solve(n, {}, nullptr, &resumed);
        CHECK(test::same(solver.values(), ref[n]));
        return resumed.notes;
    };
    CHECK(resume() == 0);
    // The exits changed: refused, and the level starts afresh.
    store.generation(1)[store.generation(1).size() / 3] ^= 1;
    CHECK(resume() == 1);
    // The first threshold's bitmap missing, or the third's changed: refused.
    store.erase(2);
    CHECK(resume() == 1);
    store.generation(4)[0] ^= 4;
    CHECK(resume() == 1);
    // A bitmap past the point (threshold 5's) changed: not needed, so resumed.
    store.generation(6)[1] ^= 2;
    CHECK(resume() == 0);
}
