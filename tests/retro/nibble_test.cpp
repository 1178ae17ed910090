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
#include "scan_engine_checks.hpp"
#include "toy_game.hpp"

#include <doctest/doctest.h>

#include <set>

using namespace owaredb;

namespace {

const test::ScanEngineShape kNibble{
    .generations = [](int n) { return uint64_t(n) + 2; }, // gathering, first pass, n thresholds
    .generation_of = [](int thresholds_done, int) { return uint64_t(thresholds_done) + 1; },
    .word_bytes = [](uint64_t size) { return (size + 15) / 16 * 8; }, // 4 bits a word
};

template <RetroGame Game>
uint64_t check_nibble_levels(const Game& game, int max_n, const test::ScanOptions& o) {
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
