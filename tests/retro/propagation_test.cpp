// The propagation mechanics every engine shares (retro/sweep.hpp): roots wait on a
// thread's stack for a batch, drain() visits every parent of every position it pops, once
// per un-move, with the state the stack carried, and a scan that leaves roots waiting is an
// error rather than a level with positions whose parents never heard of them.
#include "retro/sweep.hpp"
#include "toy_game.hpp"

#include <doctest/doctest.h>

#include <map>
#include <stdexcept>
#include <vector>

using namespace owaredb;
using test::RingGame;

namespace {

// The parents of position `index` of level n, as the game lists them (with repeats).
std::vector<uint64_t> parents_of(const RingGame& game, int n, uint64_t index) {
    std::vector<uint64_t> out;
    game.for_each_parent(game.unrank(n, index),
                         [&](const RingGame::State& p) { out.push_back(game.rank(p)); });
    return out;
}

// Sets `s` up for level n of `game` with every word 0; the result owns the words.
ValueArray zeroed_level(sweep::State& s, const RingGame& game, int n) {
    ValueArray words = sweep::start(s, n, game.level_size(n));
    std::fill(s.words, s.words + s.size, uint16_t(0));
    return words;
}

} // namespace

TEST_CASE("propagate: roots wait for a batch; drain visits each parent of each, nothing else") {
    const int n = 20;
    const RingGame game(n);
    sweep::State s;
    const ValueArray words = zeroed_level(s, game, n);
    REQUIRE(s.roots_waiting == sweep::kRootsWaiting);
    REQUIRE(s.size > sweep::kRootsWaiting + 3);

    std::map<uint64_t, int> visits_expected; // parent index -> times, from the roots' lists
    std::map<uint64_t, int> lost_expected;
    std::map<uint64_t, int> visits;
    std::map<uint64_t, int> lost_children; // visits that came from a root with tag 1
    // A visit that never lets a parent join: propagation stops at the roots' parents.
    auto visit = [&](bool tag, uint64_t k, bool full) {
        CHECK_FALSE(full);
        ++visits[k];
        lost_children[k] += tag;
        return false;
    };
    sweep::StackFor<RingGame> stack;
    const size_t roots = sweep::kRootsWaiting - 1;
    for (uint64_t i = 0; i < roots; ++i) {
        for (uint64_t k : parents_of(game, n, i)) {
            ++visits_expected[k];
            lost_expected[k] += static_cast<int>(i % 2);
        }
        sweep::propagate(game, s, i << 1 | (i % 2), stack, visit);
    }
    // Fewer roots than a batch: nothing visited yet, every root on the stack with its state.
    CHECK(visits.empty());
    REQUIRE(stack.entries.size() == roots);
    for (size_t r = 0; r < roots; ++r) {
        CHECK(stack.entries[r].entry == (r << 1 | (r % 2)));
        CHECK(stack.entries[r].state == game.unrank(n, r));
    }
    sweep::drain(game, s, stack, visit);
    CHECK(stack.empty());
    CHECK(visits == visits_expected);
    CHECK(lost_children == lost_expected); // each visit with its own root's tag
    CHECK(s.propagated.load() == roots);

    // One more root than a batch holds: propagate() drains by itself.
    visits.clear();
    for (uint64_t i = 0; i < sweep::kRootsWaiting; ++i)
        sweep::propagate(game, s, i << 1, stack, visit);
    CHECK(stack.empty());
    CHECK_FALSE(visits.empty());
    CHECK(s.propagated.load() == roots + sweep::kRootsWaiting);
}

TEST_CASE("drain: a parent that joins propagates further, carrying its state") {
    const int n = 5;
    const RingGame game(n);
    // Every batch size: one batch for the whole ancestry (the defaults), or many.
    const std::pair<size_t, size_t> batches[] = {
        {sweep::kVisitBatch, sweep::kRootsWaiting}, {1, 1}, {5, 3}};
    for (const auto& batch : batches) {
        // Named copies: CAPTURE's lambda cannot take a structured binding under clang 14.
        const size_t visit_batch = batch.first, roots_waiting = batch.second;
        CAPTURE(visit_batch);
        CAPTURE(roots_waiting);
        sweep::State s;
        const ValueArray words = zeroed_level(s, game, n);
        s.visit_batch = visit_batch;
        s.roots_waiting = roots_waiting;
        // Every parent joins the first time it is visited (word 0 -> 1), so drain()
        // reaches the whole ancestry of the root: compare with a plain breadth-first search.
        auto visit = [&](bool, uint64_t k, bool) {
            if (s.words[k]) return false;
            s.words[k] = 1;
            return true;
        };
        const uint64_t root = game.level_size(n) / 2;
        s.words[root] = 1;
        sweep::StackFor<RingGame> stack;
        sweep::propagate(game, s, root << 1, stack, visit);
        sweep::drain(game, s, stack, visit);

        std::vector<bool> reached(s.size, false);
        std::vector<uint64_t> queue{root};
        reached[root] = true;
        for (size_t q = 0; q < queue.size(); ++q)
            for (uint64_t k : parents_of(game, n, queue[q]))
                if (!reached[k]) {
                    reached[k] = true;
                    queue.push_back(k);
                }
        uint64_t joined = 0;
        for (uint64_t i = 0; i < s.size; ++i) {
            CHECK(bool(s.words[i]) == reached[i]);
            joined += s.words[i];
        }
        CHECK(joined == queue.size());
        CHECK(s.propagated.load() == queue.size()); // each joined position propagated once
    }
}

TEST_CASE("order_by_page: parents sorted by their words' pages, in order within a page") {
    // Bytes of 5 pages and a bit (2 MiB each); the parents' indices spread over them.
    sweep::BasicState<sweep::WholeWords<uint8_t>> s;
    const uint64_t size = 5 * (uint64_t(1) << 21) + 1000;
    const ValueArray words = sweep::start(s, 7, size);
    for (const uint64_t max_buckets : {sweep::kMaxPageBuckets, uint64_t(2)}) {
        CAPTURE(max_buckets);
        // Buckets of one page, or of 4 pages where at most 2 buckets are allowed (6 pages).
        const uint64_t pages_a_bucket = max_buckets == 2 ? 4 : 1;
        sweep::PropagationStack<int> stack;
        uint64_t x = 12345;
        for (int j = 0; j < 3000; ++j) {
            x = x * 6364136223846793005u + 1442695040888963407u;
            stack.parents.push_back({(x >> 20) % size << 1 | (x & 1), j});
        }
        const auto before = stack.parents;
        sweep::order_by_page(s, stack, max_buckets);
        REQUIRE(stack.parents.size() == before.size());
        std::vector<bool> seen(before.size(), false);
        for (size_t j = 0; j < stack.parents.size(); ++j) {
            const auto& p = stack.parents[j];
            // The same entry with the same state: the state numbers the entries.
            REQUIRE(p.entry == before[size_t(p.state)].entry);
            CHECK_FALSE(seen[size_t(p.state)]);
            seen[size_t(p.state)] = true;
            CHECK(s.page(p.entry >> 1) == (p.entry >> 1) >> 21);
            if (j == 0) continue;
            const auto& q = stack.parents[j - 1];
            const uint64_t bucket = s.page(p.entry >> 1) / pages_a_bucket;
            const uint64_t previous = s.page(q.entry >> 1) / pages_a_bucket;
            CHECK(previous <= bucket);
            if (previous == bucket) CHECK(q.state < p.state); // the order generated
        }
    }
}

TEST_CASE("run_segments: a scan that leaves roots on the stack is an error, not a quiet loss") {
    const int n = 4;
    const RingGame game(n);
    using Stack = sweep::StackFor<RingGame>;
    for (int threads : {1, 2}) {
        CAPTURE(threads);
        sweep::State s;
        ValueArray words = sweep::start(s, n, game.level_size(n));
        auto never = [](bool, uint64_t, bool) { return false; };
        sweep::Steps steps{.first_segment =
                               [&](uint64_t begin, uint64_t end, sweep::SweepProgress&) {
                                   std::fill(s.words + begin, s.words + end, uint16_t(0));
                               },
                           .threshold =
                               [&](int t, sweep::SweepProgress& progress) {
                                   return sweep::scan_level<Stack>(
                                       s, threads, t, progress,
                                       [&](uint64_t begin, uint64_t, int, Stack& stack) {
                                           // A scan that propagates from its first position and
                                           // forgets to drain.
                                           sweep::propagate(game, s, begin << 1, stack, never);
                                       });
                               },
                           .finish = [] {}};
        CHECK_THROWS_AS(sweep::run_segments(s, SweepPoint{}, {.threads = threads}, steps),
                        std::logic_error);
    }
}
