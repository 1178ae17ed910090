// The distributed engine (retro/streamed_retrograde.hpp with a RankLink): K ranks, each
// solving its slice of a level and exchanging the propagations that cross slices, put
// together give the one-process engine's bytes, for K = 1..4, 1 and 2 threads a rank, on
// Oware (both rule sets) and on the toy ring game. The ranks are threads of this process
// (thread_ranks.hpp); tests/tools/mpi_test.sh runs the same under mpirun.
#include "oware/oware_game.hpp"
#include "quick.hpp"
#include "retro/rank_link.hpp"
#include "retro/retrograde.hpp"
#include "retro/streamed_retrograde.hpp"
#include "thread_ranks.hpp"
#include "toy_game.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <thread>
#include <utility>
#include <vector>

using namespace owaredb;

namespace {

struct RankResult {
    ValueArray slice;
    LevelStats stats;
    distributed::RoundStats rounds;
    uint64_t first = 0, last = 0;
};

// Level n solved by `ranks` ranks (threads) over the reference's smaller levels.
template <RetroGame Game>
std::vector<RankResult> solve_distributed(const Game& game, const std::vector<ValueArray>& ref,
                                          int n, int ranks, int threads,
                                          size_t stack_limit = sweep::kStackLimit) {
    test::ThreadRanks link(ranks);
    InMemorySmallerLevels smaller(level_pointers(ref, n));
    std::vector<RankResult> results(static_cast<size_t>(ranks));
    std::vector<std::thread> workers;
    for (int r = 0; r < ranks; ++r)
        workers.emplace_back([&, r] {
            InMemoryExitStore exits;
            StreamedRetrogradeSolver<Game> solver(game, smaller, exits, threads, 0, &link.link(r));
            solver.set_stack_limit(stack_limit);
            RankResult& mine = results[size_t(r)];
            std::tie(mine.first, mine.last) = solver.slice(n);
            mine.slice = solver.solve(n, {}, &mine.stats);
            mine.rounds = solver.round_stats();
        });
    for (auto& w : workers) w.join();
    return results;
}

// The messages a distributed solve of level n should send, from the level's values: every
// position that joins a set (value not 0) goes once to each other rank that holds some of
// its un-move parents; and, for comparison, the parents that lie on another rank.
struct Crossings {
    uint64_t messages = 0;  // (child, other rank) pairs
    uint64_t parents = 0;   // parents on another rank
    uint64_t two_ranks = 0; // children with parents on two or more other ranks
    uint64_t several = 0;   // pairs whose rank holds several of the child's parents
};
template <RetroGame Game>
Crossings crossings(const Game& game, const ValueArray& level, int n, int ranks) {
    const auto bounds = slice_bounds(game.level_size(n), ranks, distributed::kSliceUnit);
    Crossings c;
    for (uint64_t i = 0; i < game.level_size(n); ++i) {
        if (level.data()[i] == 0) continue;
        const int own = owner_of(bounds, i);
        std::vector<int> others; // a rank for each parent elsewhere
        game.for_each_parent(game.unrank(n, i), [&](const auto& parent) {
            const int r = owner_of(bounds, game.rank(parent));
            if (r != own) others.push_back(r);
        });
        c.parents += others.size();
        std::sort(others.begin(), others.end());
        uint64_t ranks_here = 0;
        for (size_t j = 0; j < others.size(); ++j) {
            if (j > 0 && others[j] == others[j - 1]) continue;
            ++ranks_here;
            c.several += j + 1 < others.size() && others[j + 1] == others[j];
        }
        c.messages += ranks_here;
        c.two_ranks += ranks_here >= 2;
    }
    return c;
}

template <RetroGame Game>
void check_distributed(const Game& game, int max_n, int ranks, int threads,
                       size_t stack_limit = sweep::kStackLimit) {
    const std::vector<ValueArray> ref =
        sweep::solve_levels_in_memory<RetrogradeSolver>(game, max_n, 2);
    uint64_t messages = 0, rescans = 0;
    Crossings expected;
    for (int n = 0; n <= max_n; ++n) {
        CAPTURE(n);
        const std::vector<RankResult> results =
            solve_distributed(game, ref, n, ranks, threads, stack_limit);
        const Crossings level = crossings(game, ref[size_t(n)], n, ranks);
        expected.messages += level.messages;
        expected.parents += level.parents;
        expected.two_ranks += level.two_ranks;
        expected.several += level.several;
        // The slices tile the level in rank order, and their bytes are the level's.
        uint64_t at = 0;
        for (const RankResult& r : results) {
            REQUIRE(r.first == at);
            REQUIRE(r.slice.size() == r.last - r.first);
            CHECK(std::memcmp(r.slice.data(), ref[size_t(n)].data() + r.first, r.slice.size()) ==
                  0);
            at = r.last;
            messages += r.rounds.messages;
            rescans += r.stats.scans - uint64_t(n);
            if (ranks == 1) CHECK(r.rounds.messages == 0);
        }
        CHECK(at == game.level_size(n));
    }
    // Slices that share no propagation would prove nothing about the exchange.
    if (ranks > 1) CHECK(messages > 0);
    // One message for each child and other rank that holds some of its parents, however
    // many parents there (ranks that hold several regenerate them: such messages occur);
    // children whose parents lie on two other ranks are among them.
    CHECK(messages == expected.messages);
    if (ranks > 1) CHECK(expected.several > 0);
    if (ranks > 1) CHECK(expected.messages < expected.parents);
    if (ranks > 2) CHECK(expected.two_ranks > 0);
    // Every rank rescans when any rank overflowed (each counts its scans).
    if (stack_limit < sweep::kStackLimit) CHECK(rescans > 0);
}

} // namespace

TEST_CASE("slice bounds: whole units, as even as they go, and the owner of every index") {
    const auto b = slice_bounds(10 * 16 + 5, 3, 16); // 11 units
    CHECK(b == std::vector<uint64_t>{0, 48, 112, 165});
    CHECK(owner_of(b, 0) == 0);
    CHECK(owner_of(b, 47) == 0);
    CHECK(owner_of(b, 48) == 1);
    CHECK(owner_of(b, 164) == 2);
    // More ranks than units: empty slices, and every index still has one owner.
    const auto e = slice_bounds(20, 4, 16);
    CHECK(e == std::vector<uint64_t>{0, 0, 16, 16, 20});
    CHECK(owner_of(e, 3) == 1);
    CHECK(owner_of(e, 16) == 3);
}

namespace {

// Oware that counts its ranks (the work a child message costs its receiver).
struct CountingGame : OwareGame {
    using OwareGame::OwareGame;
    mutable uint64_t ranked = 0;
    uint64_t rank(const State& s) const {
        ++ranked;
        return OwareGame::rank(s);
    }
};

struct Delivered {
    std::vector<std::pair<uint64_t, bool>> visits; // (parent, child's tag), sorted
    uint64_t ranked = 0;                           // parents ranked by the receiver
};

// Rank 0 of 3 walks the parents of its slice of level n (every position joining a set,
// its tag the index's low bit) through a ChildRoute of `bits` un-move bits; rank r
// receives its messages: the visits that deliver() makes there, and the ranks it took.
Delivered deliver_to(int n, int r, int bits) {
    CountingGame game(Rules::awari());
    const auto bounds = slice_bounds(game.level_size(n), 3, distributed::kSliceUnit);
    distributed::ChildRoute sender(bounds, bounds[0], bounds[1] - bounds[0], bits);
    for (uint64_t i = bounds[0]; i < bounds[1]; ++i) {
        game.for_each_parent(game.unrank(n, i),
                             [&](const auto& parent) { sender.elsewhere(game.rank(parent)); });
        sender.send(i << 1 | (i & 1));
    }
    std::vector<std::vector<uint64_t>> outboxes(3);
    sender.append_to(outboxes);
    sweep::State s;
    const ValueArray words = sweep::start(s, n, bounds[size_t(r) + 1] - bounds[size_t(r)]);
    s.base = bounds[size_t(r)];
    sweep::StackFor<CountingGame> stack;
    distributed::ChildRoute receiver(bounds, s.base, s.size, bits);
    Delivered d;
    game.ranked = 0;
    sweep::deliver(
        game, s, outboxes[size_t(r)], stack,
        [&](bool tag, uint64_t k, bool) {
            d.visits.push_back({k, tag});
            return false;
        },
        receiver);
    d.ranked = game.ranked;
    std::sort(d.visits.begin(), d.visits.end());
    return d;
}

} // namespace

TEST_CASE("child messages: the receiver visits its parents of each child, ranking only those") {
    const int n = 9;
    const OwareGame game(Rules::awari());
    const auto bounds = slice_bounds(game.level_size(n), 3, distributed::kSliceUnit);
    CHECK(sweep::unmove_bits(game.level_size(n)) == sweep::kMaxUnmoveBits);
    CHECK(sweep::unmove_bits(uint64_t(1) << 60) == 1);
    CHECK(sweep::unmove_bits(~uint64_t(0)) == 0);
    for (int r = 1; r < 3; ++r) {
        CAPTURE(r);
        // What one process would visit on rank r: each parent there of each child of rank 0.
        std::vector<std::pair<uint64_t, bool>> expected;
        for (uint64_t i = bounds[0]; i < bounds[1]; ++i)
            game.for_each_parent(game.unrank(n, i), [&](const auto& parent) {
                const uint64_t k = game.rank(parent);
                if (owner_of(bounds, k) == r) expected.push_back({k, (i & 1) != 0});
            });
        std::sort(expected.begin(), expected.end());
        REQUIRE(expected.size() > 0);
        // 0 bits: every un-move ranked; 2: the first, then the rest together; 24: each.
        const Delivered all = deliver_to(n, r, 0), two = deliver_to(n, r, 2),
                        each = deliver_to(n, r, sweep::kMaxUnmoveBits);
        CHECK(all.visits == expected);
        CHECK(two.visits == expected);
        CHECK(each.visits == expected);
        // Each child message ranks exactly its parents there (several a message): fewer
        // than the visits, which include the single parents' messages, but some.
        CHECK(each.ranked > 0);
        CHECK(each.ranked < expected.size());
        CHECK(each.ranked < two.ranked);
        CHECK(two.ranked < all.ranked);
    }
}

TEST_CASE("distributed engine: the one-process bytes, Oware abapa") {
    const int max_n = test::quick() ? 8 : 11;
    check_distributed(OwareGame(Rules::abapa()), max_n, 2, 1);
    check_distributed(OwareGame(Rules::abapa()), max_n, 3, 2);
    if (!test::quick()) check_distributed(OwareGame(Rules::abapa()), max_n, 1, 2);
}

TEST_CASE("distributed engine: the one-process bytes, Oware awari") {
    const int max_n = test::quick() ? 8 : 11;
    check_distributed(OwareGame(Rules::awari()), max_n, 2, 2);
    check_distributed(OwareGame(Rules::awari()), max_n, 4, 1);
}

TEST_CASE("distributed engine: the one-process bytes, toy ring game") {
    const test::RingGame game(14);
    check_distributed(game, 14, 3, 1);
    check_distributed(game, 14, 2, 2);
}

TEST_CASE("distributed engine: overflow rescans agreed between the ranks") {
    // Stacks of 2 entries overflow on small levels: a rank that overflowed makes every rank
    // rescan the threshold (the overflow is summed over the ranks).
    const int max_n = test::quick() ? 8 : 10;
    check_distributed(OwareGame(Rules::abapa()), max_n, 3, 1, 2);
    check_distributed(OwareGame(Rules::awari()), max_n, 2, 2, 2);
}
