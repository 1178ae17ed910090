// The sweep over words of any width (retro/word_store.hpp): packed 2- and 4-bit words read
// and write as bytes do, each word atomic whatever its neighbours in the container do, and
// the sweep's building blocks (claim, value_visit, propagate, drain, the checkpoints'
// bytes) give over them what they give over bytes: the toy game's won and lost positions
// of the game of quiet moves alone, by counters (4 bits) and without (2 bits, as Lincke's
// WLD: a parent of a won child looks at its other children), with several threads.
#include "quick.hpp"
#include "retro/sweep.hpp"
#include "retro/word_store.hpp"
#include "toy_game.hpp"

#include <doctest/doctest.h>
#include <omp.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <vector>

using namespace owaredb;
using test::RingGame;

namespace {

template <class Store> using StateOf = sweep::BasicState<Store>;

// The words of a value attractor: 0..3 open quiet moves (unassigned), won, lost. Four bits.
constexpr uint8_t kWon = 14;
constexpr uint8_t kLost = 15;
bool assigned(uint8_t w) {
    return w >= kWon;
}

int quiet_moves(const RingGame& game, const RingGame::State& state) {
    int moves = 0;
    game.for_each_move(state, [&](int captured, const auto&) { moves += captured == 0; });
    return moves;
}

// 1 won, -1 lost, 0 neither, for the game where only quiet moves count and a side without
// one loses: by iteration to the fixed point, the reference.
std::vector<int> reference_values(const RingGame& game, int n) {
    const uint64_t size = game.level_size(n);
    std::vector<int> v(size, 0);
    for (bool changed = true; changed;) {
        changed = false;
        for (uint64_t i = 0; i < size; ++i) {
            if (v[i] != 0) continue;
            bool any_lost = false;
            bool all_won = true;
            game.for_each_move(game.unrank(n, i), [&](int captured, const auto& child) {
                if (captured) return;
                const int c = v[game.rank(child)];
                any_lost |= c == -1;
                all_won &= c == 1;
            });
            if (any_lost || all_won) {
                v[i] = any_lost ? 1 : -1;
                changed = true;
            }
        }
    }
    return v;
}

template <class Store> std::vector<int> values_of(const StateOf<Store>& s) {
    std::vector<int> v(s.size);
    for (uint64_t i = 0; i < s.size; ++i) {
        const uint8_t w = s.word(i).load();
        v[i] = w == kWon ? 1 : w == kLost ? -1 : 0;
    }
    return v;
}

// Every position with no quiet move is lost; propagation (value_visit's counters) finds the
// rest, the roots shared among `threads` threads, each with its own stack.
template <class Store>
std::vector<int> solve_with_counters(const RingGame& game, int n, int threads) {
    StateOf<Store> s;
    const ValueArray owner = sweep::start(s, n, game.level_size(n));
    std::vector<uint64_t> roots;
    for (uint64_t i = 0; i < s.size; ++i) {
        const int moves = quiet_moves(game, game.unrank(n, i));
        s.word(i).store(static_cast<uint8_t>(moves), std::memory_order_relaxed);
        if (moves == 0) roots.push_back(i);
    }
    const auto visit = sweep::value_visit(
        s, assigned, [](bool) { return kWon; },
        [](uint8_t old, bool) {
            return std::pair{old == 1 ? kLost : static_cast<uint8_t>(old - 1), old == 1};
        });
#pragma omp parallel num_threads(threads)
    {
        sweep::StackFor<RingGame> stack;
#pragma omp for schedule(dynamic, 1)
        for (size_t r = 0; r < roots.size(); ++r)
            if (sweep::claim(s, roots[r], kLost, assigned))
                sweep::propagate(game, s, roots[r] << 1 | 1, stack, visit);
        sweep::drain(game, s, stack, visit);
    }
    return values_of(s);
}

// The same without counters: 0 unknown, kWon, kLost in two bits (won 1, lost 2 here), and a
// parent of a won child lost once every quiet child of it is won. One thread: two threads
// that each make one of two siblings won may each miss the other's word.
template <class Store> std::vector<int> solve_without_counters(const RingGame& game, int n) {
    constexpr uint8_t won = 1;
    constexpr uint8_t lost = 2;
    StateOf<Store> s;
    const ValueArray owner = sweep::start(s, n, game.level_size(n));
    for (uint64_t i = 0; i < s.size; ++i) s.word(i).store(0);
    auto is_assigned = [](uint8_t w) { return w != 0; };
    auto visit = [&](bool child_lost, uint64_t k, bool) {
        if (child_lost) return sweep::claim(s, k, won, is_assigned);
        bool all_won = true;
        game.for_each_move(game.unrank(n, k), [&](int captured, const auto& child) {
            if (!captured) all_won &= s.word(game.rank(child)).load() == won;
        });
        return all_won && sweep::claim(s, k, lost, is_assigned);
    };
    sweep::StackFor<RingGame> stack;
    for (uint64_t i = 0; i < s.size; ++i)
        if (quiet_moves(game, game.unrank(n, i)) == 0 && sweep::claim(s, i, lost, is_assigned))
            sweep::propagate(game, s, i << 1 | 1, stack, visit);
    sweep::drain(game, s, stack, visit);
    std::vector<int> v(s.size);
    for (uint64_t i = 0; i < s.size; ++i) {
        const uint8_t w = s.word(i).load();
        v[i] = w == won ? 1 : w == lost ? -1 : 0;
    }
    return v;
}

} // namespace

TEST_CASE("packed words: each word reads back what was written, its neighbours untouched") {
    sweep::BasicState<sweep::PackedWords<4>> s4;
    sweep::BasicState<sweep::PackedWords<2>> s2;
    const ValueArray a = sweep::start(s4, 0, 37);
    const ValueArray b = sweep::start(s2, 0, 37);
    CHECK(a.size() == 24); // 37 words of 4 bits: three 64-bit containers
    CHECK(b.size() == 16); // of 2 bits: two
    CHECK(s4.bytes().size() == 24);
    CHECK(s4.as_bytes(37).data() == reinterpret_cast<const uint8_t*>(a.data()));
    for (uint64_t i = 0; i < 37; ++i) {
        s4.word(i).store(static_cast<uint8_t>(i % 16));
        s2.word(i).store(static_cast<uint8_t>(i % 4));
    }
    for (uint64_t i = 0; i < 37; ++i) {
        CHECK(s4.word(i).load() == i % 16);
        CHECK(s2.word(i).load() == i % 4);
    }
    // The bits past the last word are clear (checkpoints save them).
    const unsigned tail = uint8_t(a[23]) >> 4;
    CHECK(tail == 0);
    // Word k is bits (k * 4) % 64 onwards of container k / 16.
    uint64_t first = 0;
    std::memcpy(&first, a.data(), sizeof first);
    const uint64_t fifth = first >> 4 * 5 & 15;
    CHECK(fifth == 5);

    uint8_t expected = 9;
    CHECK_FALSE(s4.word(3).compare_exchange_strong(expected, 12));
    CHECK(expected == 3);
    CHECK(s4.word(3).compare_exchange_strong(expected, 12));
    CHECK(s4.word(3).load() == 12);
    CHECK(s4.word(2).load() == 2);
    CHECK(s4.word(4).load() == 4);
    expected = 1;
    while (!s2.word(17).compare_exchange_weak(expected, 3)) REQUIRE(expected == 1);
    CHECK(s2.word(17).load() == 3);
    CHECK(s2.word(16).load() == 0);
    CHECK(s2.word(18).load() == 2);
}

TEST_CASE("propagation over 4-bit and 2-bit packed words: the byte words' values") {
    const RingGame game(12);
    for (int n : {3, 6, 9, 12}) {
        CAPTURE(n);
        const std::vector<int> reference = reference_values(game, n);
        int decided = 0;
        for (int v : reference) decided += v != 0;
        CHECK(decided > 0);
        CHECK(solve_with_counters<sweep::WholeWords<uint8_t>>(game, n, 1) == reference);
        for (int threads : {1, 2, 4}) {
            CAPTURE(threads);
            CHECK(solve_with_counters<sweep::WholeWords<uint8_t>>(game, n, threads) == reference);
            CHECK(solve_with_counters<sweep::PackedWords<4>>(game, n, threads) == reference);
        }
        CHECK(solve_without_counters<sweep::WholeWords<uint8_t>>(game, n) == reference);
        CHECK(solve_without_counters<sweep::PackedWords<2>>(game, n) == reference);
    }
}

TEST_CASE("packed words under threads: no update of a word is lost to its neighbours'") {
    // Every word of a container is counted up by several threads at once, through the
    // compare-exchange loops (value_visit's close) that propagation uses: neighbouring
    // words on different threads, a few containers, many rounds.
    constexpr uint64_t words = 1000;
    constexpr uint64_t busy = 64;
    sweep::BasicState<sweep::PackedWords<4>> s;
    const ValueArray owner = sweep::start(s, 0, words);
    const auto never = [](uint8_t) { return false; };
    const auto add_one = sweep::value_visit(
        s, never, [](bool) { return uint8_t(0); },
        [](uint8_t old, bool) {
            return std::pair{static_cast<uint8_t>(old + 1), false};
        });
    constexpr uint64_t kPerWord = 15;
    const int rounds = test::quick() ? 20 : 300;
    uint64_t wrong = 0;
    for (int round = 0; round < rounds; ++round) {
        for (uint64_t i = 0; i < busy; ++i) s.word(i).store(0);
#pragma omp parallel for num_threads(4) schedule(static, 1)
        for (uint64_t j = 0; j < busy * kPerWord; ++j) add_one(false, j % busy, false);
        for (uint64_t i = 0; i < busy; ++i) wrong += s.word(i).load() != kPerWord;
    }
    CHECK(wrong == 0);

    // Threads racing to claim each word of 2 bits: exactly one wins each.
    sweep::BasicState<sweep::PackedWords<2>> c;
    const ValueArray claims = sweep::start(c, 0, words);
    for (uint64_t i = 0; i < words; ++i) c.word(i).store(0);
    std::vector<std::atomic<int>> winners(words);
    const auto taken = [](uint8_t w) { return w != 0; };
#pragma omp parallel num_threads(4)
    {
        const int thread = omp_get_thread_num();
        for (uint64_t i = 0; i < words; ++i)
            if (sweep::claim(c, i, static_cast<uint8_t>(1 + thread % 3), taken))
                winners[i].fetch_add(1);
    }
    for (uint64_t i = 0; i < words; ++i) {
        CHECK(winners[i].load() == 1);
        CHECK(c.word(i).load() != 0);
    }
}
