// The WLD engine (retro/wld_retrograde.hpp, 2 bits a position) against the in-memory one
// (retro/retrograde.hpp), as the nibble engine is checked (scan_engine_checks.hpp); and the
// race that its words without counters must survive (retro/wld_word.hpp): two threads that
// each make one of a lost parent's last two quiet children won, at once, over and over.
// Registered as a parallel test, so that it also runs under TSan.
#include "oware/oware_game.hpp"
#include "quick.hpp"
#include "retro/wld_retrograde.hpp"
#include "retro/wld_word.hpp"
#include "retro/word_store.hpp"
#include "scan_engine_checks.hpp"
#include "toy_game.hpp"

#include <doctest/doctest.h>

#include <atomic>
#include <barrier>
#include <thread>
#include <vector>

using namespace owaredb;

namespace {

const test::ScanEngineShape kWld{
    // gathering, first pass, a bitmap for each threshold but the last, and a "decided by"
    // map for each threshold above 2
    .generations = [](int n) { return uint64_t(2 + std::max(0, n - 1) + std::max(0, n - 2)); },
    // the exits, the last bitmap, or the map of the last threshold done
    .generation_of =
        [](int thresholds_done, int n) {
            const int t = n - thresholds_done + 1; // the last threshold done
            return thresholds_done == 0 ? uint64_t(1)
                   : t > 2              ? uint64_t(2 * n - t + 2)
                                        : uint64_t(n); // the bitmap of threshold 2
        },
    .word_bytes = [](uint64_t size) { return (size + 31) / 32 * 8; }, // 2 bits a word
};

template <RetroGame Game>
test::Spills check_wld_levels(const Game& game, int max_n, const test::ScanOptions& o) {
    return test::check_scan_levels<WldRetrogradeSolver>(game, max_n, o, kWld);
}

// Words `parent` (eligible), `a` and `b` (unknown) of a 2-bit store: two threads make a and b
// won at once, and each then looks at the parent as propagation does (eligible? every
// child won? then claim it lost). Returns how many of `rounds` ended with the parent lost,
// claimed by exactly one thread.
int race_siblings(uint64_t parent, uint64_t a, uint64_t b, int rounds) {
    std::vector<uint64_t> containers(4, 0);
    sweep::PackedWords<2> words;
    words.bind(containers.data(), 4 * 32);
    std::atomic<int> claims{0};
    int lost_once = 0;
    std::barrier sync(2, [&]() noexcept {
        // Between rounds (the completion step runs while both threads wait): the verdict of
        // the round that ended, and the words set up for the next.
        if (words.ref(parent).load() == WldWord::kLost && claims.load() == 1) ++lost_once;
        claims.store(0);
        words.ref(parent).store(WldWord::kEligible);
        words.ref(a).store(WldWord::kUnknown);
        words.ref(b).store(WldWord::kUnknown);
    });
    auto side = [&](uint64_t mine) {
        for (int r = 0; r < rounds; ++r) {
            sync.arrive_and_wait(); // the round's words are set
            if (!WldWord::decide_won(words.ref(mine))) continue;
            const auto p = words.ref(parent);
            if (WldWord::is_eligible(p) && WldWord::is_won(words.ref(a)) &&
                WldWord::is_won(words.ref(b)) && WldWord::decide_lost(p))
                claims.fetch_add(1);
        }
        sync.arrive_and_wait(); // the last round's verdict
    };
    std::thread other(side, b);
    side(a);
    other.join();
    return lost_once; // (the first completion, before round 0, finds the parent unknown)
}

} // namespace

TEST_CASE("wld word: sibling children made won at once never leave their lost parent "
          "undecided") {
    const int rounds = test::quick() ? 300 : 3000;
    CHECK(race_siblings(0, 1, 2, rounds) == rounds);    // one container
    CHECK(race_siblings(5, 40, 100, rounds) == rounds); // three
}

TEST_CASE("wld word: a child is won once, a parent lost once, only from eligible") {
    uint64_t container = 0;
    sweep::PackedWords<2> words;
    words.bind(&container, 32);
    CHECK(!WldWord::decide_lost(words.ref(0))); // unknown: not eligible
    CHECK(WldWord::make_eligible(words.ref(0)));
    CHECK(!WldWord::make_eligible(words.ref(0)));
    CHECK(WldWord::decide_lost(words.ref(0)));
    CHECK(!WldWord::decide_won(words.ref(0))); // decided stays
    CHECK(WldWord::decide_won(words.ref(1)));
    CHECK(!WldWord::make_eligible(words.ref(1)));
    CHECK(words.ref(0).load() == WldWord::kLost);
    CHECK(words.ref(1).load() == WldWord::kWon);
    CHECK(WldWord::is_won(words.ref(1)));
    CHECK(!WldWord::is_won(words.ref(0))); // lost
    CHECK(!WldWord::is_won(words.ref(2))); // unknown
}

TEST_CASE("wld word: a container's decided and lost masks, word by word") {
    uint64_t container = 0;
    sweep::PackedWords<2> words;
    words.bind(&container, 32);
    CHECK(WldWord::decided_mask(container) == 0);
    // Every state at every place: word k gets state (k * 7 + k / 4) % 4.
    uint32_t expected = 0, expected_lost = 0;
    for (uint64_t k = 0; k < 32; ++k) {
        const auto w = static_cast<uint8_t>((k * 7 + k / 4) % 4);
        words.ref(k).store(w);
        if (WldWord::decided(w)) expected |= uint32_t(1) << k;
        if (w == WldWord::kLost) expected_lost |= uint32_t(1) << k;
    }
    CHECK(expected != 0);
    CHECK(expected != 0xFFFFFFFFu);
    CHECK(expected_lost != 0);
    CHECK(expected_lost != expected);
    CHECK(WldWord::decided_mask(container) == expected);
    CHECK(WldWord::lost_mask(container) == expected_lost);
    CHECK(WldWord::lost_mask(0xAAAAAAAAAAAAAAAAULL) == 0);              // all won
    CHECK(WldWord::lost_mask(0x5555555555555555ULL) == 0);              // all eligible
    CHECK(WldWord::lost_mask(uint64_t(3) << 62) == 0x80000000u);        // word 31 lost
    CHECK(WldWord::decided_mask(~uint64_t(0)) == 0xFFFFFFFFu);          // all lost
    CHECK(WldWord::decided_mask(0x5555555555555555ULL) == 0);           // all eligible
    CHECK(WldWord::decided_mask(0xAAAAAAAAAAAAAAAAULL) == 0xFFFFFFFFu); // all won
    CHECK(WldWord::decided_mask(uint64_t(2) << 62) == 0x80000000u);     // word 31 won
}

// (2 threads on awari too: the spilling stacks' case below.)
TEST_CASE("wld engine: the in-memory engine's bytes, Oware abapa and awari") {
    const int max_n = test::quick() ? 9 : 12;
    check_wld_levels(OwareGame(Rules::abapa()), max_n, {.threads = 2});
    check_wld_levels(OwareGame(Rules::awari()), max_n,
                     {.threads = 1, .gather_positions = 3 * sweep::kChunk});
}

// Oware's checks generate the quiet children one at a time (for_each_quiet_child_while);
// the ring game's take all its moves (for_each_move): both paths of quiet_child.
static_assert(QuietChildrenOneAtATime<OwareGame>);
static_assert(!QuietChildrenOneAtATime<test::RingGame>);

TEST_CASE("wld engine: the in-memory engine's bytes, toy ring game") {
    check_wld_levels(test::RingGame(14), 14, {.threads = 2, .gather_positions = 1});
}

TEST_CASE("wld engine: stacks of 2 entries spill, to memory and past it, and give the same "
          "bytes") {
    const int max_n = test::quick() ? 8 : 10;
    // Abapa's spills stay in memory (the engine's limit); awari's take a block of 1 past
    // 2 entries in memory, so that the spill space's blocks are written and read back.
    const test::Spills in_memory =
        check_wld_levels(OwareGame(Rules::abapa()), max_n, {.threads = 2, .stack_limit = 2});
    CHECK(in_memory.peak > 0); // the spill path ran
    CHECK(in_memory.blocks == 0);
    const test::Spills past = check_wld_levels(OwareGame(Rules::awari()), max_n,
                                               {.threads = 2, .stack_limit = 2, .spill_memory = 2});
    CHECK(past.peak > 2);
    CHECK(past.blocks > 0);
}

TEST_CASE("wld engine: resumes from every safe point, and refuses a changed generation") {
    const bool quick = test::quick();
    test::check_scan_resume<WldRetrogradeSolver>(OwareGame(Rules::abapa()), quick ? 7 : 9, 2, kWld);
    test::check_scan_resume<WldRetrogradeSolver>(OwareGame(Rules::awari()), quick ? 7 : 8, 1, kWld);
}
