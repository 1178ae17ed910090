// The consistency check of `owaredb verify` (tablebase/bellman_check.hpp): the streamed
// check, which reads every value through sorted batches, finds exactly what the in-memory
// check finds, on correct levels and on levels with wrong values planted in them. On
// boards of P != 6 pits a side both checks are held against a reference check whose moves
// come from tests/retro/reference_oware.hpp (rules written again, sharing no code with
// solver/oware), on levels in memory and in files.
#include "../retro/reference_oware.hpp"
#include "oware/oware_game.hpp"
#include "quick.hpp"
#include "retro/solve_in_memory.hpp"
#include "tablebase/bellman_check.hpp"
#include "tablebase/database_dir.hpp"
#include "tablebase/streamed_files.hpp"
#include "temp_dir.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <span>
#include <stdexcept>
#include <utility>
#include <vector>

using namespace owaredb;

namespace {

// Levels 0..n as the streamed check reads them.
InMemorySmallerLevels as_files(const std::vector<ValueArray>& levels, int n) {
    std::vector<const int8_t*> pointers;
    for (int k = 0; k <= n; ++k) pointers.push_back(levels[size_t(k)].data());
    return InMemorySmallerLevels(pointers);
}

// The values of one level, read through a reader that fails at one level.
class FailingFiles final : public SmallerLevelValues {
  public:
    FailingFiles(const SmallerLevelValues& inner, int failing) : inner_(inner), failing_(failing) {}
    void read(int level, std::span<const uint64_t> indices,
              std::span<int8_t> values) const override {
        if (level == failing_) throw std::runtime_error("level file unreadable");
        inner_.read(level, indices, values);
    }

  private:
    const SmallerLevelValues& inner_;
    int failing_;
};

} // namespace

TEST_CASE("streamed consistency check: correct levels pass, at every batch size") {
    const int max_n = test::quick() ? 9 : 10;
    for (const char* name : {"abapa", "awari"}) {
        CAPTURE(name);
        const OwareGame game(*Rules::by_name(name));
        const auto levels = solve_in_memory(game, max_n, 2);
        for (int n = 0; n <= max_n; ++n) {
            CAPTURE(n);
            const uint64_t size = game.level_size(n);
            const auto files = as_files(levels, n);
            REQUIRE(first_bellman_mismatch(game, n, levels, {2}) == size);
            for (uint64_t batch : {uint64_t(1), uint64_t(777), size})
                for (int threads : {1, 2}) {
                    if (batch == 1 && size > 5000) continue; // one position a batch: slow
                    CAPTURE(batch);
                    CAPTURE(threads);
                    CHECK(first_streamed_bellman_mismatch(game, n, files, {threads}, batch) ==
                          size);
                }
        }
    }
}

TEST_CASE("streamed Bellman values of a run of ranks: those of the same positions unranked") {
    // values_of_ranks walks each chunk with game.next from one unrank; values() unranks
    // every slot. Runs that start mid-level and cross chunk boundaries (16 Ki positions).
    const OwareGame game(Rules::awari());
    const int n = 10;
    const auto levels = solve_in_memory(game, n, 2);
    const auto files = as_files(levels, n);
    const uint64_t size = game.level_size(n);
    REQUIRE(size > 40000);
    // first, count: plain variables, since clang 14 lambdas cannot capture structured bindings
    for (const auto& run :
         {std::pair<uint64_t, uint64_t>{0, 1}, {0, size}, {12345, 20000}, {size - 16385, 16385}}) {
        const uint64_t first = run.first, count = run.second;
        CAPTURE(first);
        CAPTURE(count);
        StreamedBellman by_ranks(game, n, files, 2, count);
        StreamedBellman unranked(game, n, files, 2, count);
        const std::span<const int8_t> a = by_ranks.values_of_ranks(first, count);
        const std::vector<int8_t> expected = [&] {
            const std::span<const int8_t> b =
                unranked.values(count, [&](uint64_t slot) { return game.unrank(n, first + slot); });
            return std::vector<int8_t>(b.begin(), b.end());
        }();
        REQUIRE(a.size() == count);
        CHECK(std::equal(a.begin(), a.end(), expected.begin(), expected.end()));
        // On a solved level the Bellman value of a position is its stored value.
        CHECK(std::equal(a.begin(), a.end(), levels[size_t(n)].data() + first));
    }
    StreamedBellman bellman(game, n, files, 2, 100);
    CHECK_THROWS_AS(bellman.values_of_ranks(size - 50, 51), std::logic_error); // past the level
    CHECK_THROWS_AS(bellman.values_of_ranks(0, 101), std::logic_error);        // over the batch
}

TEST_CASE("streamed requests in 8 bytes: the layout for 36 and 48 seeds, and its bounds") {
    // Positions of levels 0..n on 12 pits: C(n + 12, 12).
    const StreamedRequestLayout upto36 = StreamedRequestLayout::for_positions(69668534468ull);
    CHECK(upto36.offset_bits == 37); // 2^36 < C(48, 12) <= 2^37
    CHECK(upto36.slot_bits == 27);
    const StreamedRequestLayout upto48 = StreamedRequestLayout::for_positions(1399358844975ull);
    CHECK(upto48.offset_bits == 41);
    CHECK(upto48.slot_bits == 23);
    // The last offset and the last slot come back whole, and apart.
    for (const StreamedRequestLayout& l : {upto36, upto48}) {
        const uint64_t offset = (uint64_t(1) << l.offset_bits) - 1, slot = l.max_batch() - 1;
        CHECK(l.offset(l.pack(offset, slot)) == offset);
        CHECK(l.slot(l.pack(offset, slot)) == slot);
        CHECK(l.offset(l.pack(offset, 0)) == offset);
        CHECK(l.slot(l.pack(0, slot)) == slot);
        CHECK(l.pack(offset - 1, slot) < l.pack(offset, 0)); // sorted by offset first
    }
    CHECK(StreamedRequestLayout::for_positions(1).offset_bits == 1);
    CHECK(StreamedRequestLayout::for_positions(uint64_t(1) << 48).offset_bits == 48);
    CHECK_THROWS_AS(StreamedRequestLayout::for_positions((uint64_t(1) << 48) + 1),
                    std::length_error);
    // Where the slots can name them (2^53 here), a batch holds the positions asked for.
    // (The bound itself, 2^27 at 36 seeds, needs levels too large for a test.)
    const OwareGame game(Rules::awari());
    const auto levels = solve_in_memory(game, 4, 1);
    const auto files = as_files(levels, 4);
    const StreamedBellman bellman(game, 4, files, 1, 1000);
    CHECK(bellman.batch_positions() == 1000);
}

TEST_CASE("streamed consistency check: planted wrong values are found where the in-memory "
          "check finds them") {
    const int n = test::quick() ? 9 : 10;
    for (const char* name : {"abapa", "awari"}) {
        CAPTURE(name);
        const OwareGame game(*Rules::by_name(name));
        auto levels = solve_in_memory(game, n, 2);
        const uint64_t size = game.level_size(n);
        // Wrong values at a spread of indices (each a value of the level, but the wrong one),
        // one at a time, and then in a smaller level (the parents that capture into it fail).
        for (uint64_t at : {uint64_t(0), size / 3, size / 2 + 17, size - 1}) {
            CAPTURE(at);
            const int8_t kept = levels[size_t(n)][at];
            levels[size_t(n)][at] = static_cast<int8_t>(kept == 0 ? 1 : -kept);
            const uint64_t expected = first_bellman_mismatch(game, n, levels, {2});
            CHECK(expected <= at); // the planted value, or a parent of it before it
            const auto files = as_files(levels, n);
            // Small and uneven batches on two threads, one batch on one.
            for (uint64_t batch : {uint64_t(1000), size / 4 + 1, size})
                CHECK(first_streamed_bellman_mismatch(game, n, files, {batch == size ? 1 : 2},
                                                      batch) == expected);
            // Only the part of the level a rank checks (verify under mpirun).
            const IndexRange after{expected + 1, size};
            CHECK(first_streamed_bellman_mismatch(game, n, files, {2, after}, 999) ==
                  first_bellman_mismatch(game, n, levels, {2, after}));
            levels[size_t(n)][at] = kept;
        }
        // A capture child of the level's first capturing position, made very bad for its
        // mover: that capture becomes its parent's best move, so the parent fails.
        int smaller = -1;
        uint64_t child = 0;
        for (uint64_t i = 0; i < size && smaller < 0; ++i)
            game.for_each_move(game.unrank(n, i), [&](int captured, const Position& c) {
                if (captured > 0 && smaller < 0) smaller = n - captured, child = game.rank(c);
            });
        REQUIRE(smaller >= 0);
        levels[size_t(smaller)][child] = -60;
        const uint64_t expected = first_bellman_mismatch(game, n, levels, {2});
        CHECK(expected < size);
        CHECK(first_streamed_bellman_mismatch(game, n, as_files(levels, n), {2}, 5000) == expected);
    }
}

TEST_CASE("streamed consistency check: progress after every batch, up to the range's size") {
    const OwareGame game(*Rules::by_name("awari"));
    const auto levels = solve_in_memory(game, 9, 1);
    const auto files = as_files(levels, 9);
    const IndexRange range{100, game.level_size(9) - 5};
    std::vector<uint64_t> seen;
    uint64_t reported_total = 0;
    CHECK(first_streamed_bellman_mismatch(game, 9, files,
                                          {2, range,
                                           [&](uint64_t done, uint64_t total) {
                                               seen.push_back(done);
                                               reported_total = total;
                                           }},
                                          10000) == game.level_size(9));
    const uint64_t total = range.end - range.begin;
    CHECK(reported_total == total);
    REQUIRE(seen.size() == (total + 9999) / 10000);
    for (size_t i = 0; i + 1 < seen.size(); ++i) CHECK(seen[i] == 10000 * (i + 1));
    CHECK(seen.back() == total);
}

TEST_CASE("streamed consistency check: an unreadable level file is an error, not a pass") {
    const OwareGame game(*Rules::by_name("abapa"));
    const auto levels = solve_in_memory(game, 8, 1);
    const auto files = as_files(levels, 8);
    for (int failing : {8, 5})
        for (int threads : {1, 2})
            CHECK_THROWS_WITH_AS(first_streamed_bellman_mismatch(
                                     game, 8, FailingFiles(files, failing), {threads}, 1000),
                                 "level file unreadable", std::runtime_error);
}

namespace {

// The reference check: the first index of level n whose stored value differs from the
// best over the reference's moves of (captured - stored value of the child), or the
// reference's terminal value; the children are found in `levels` by their rank. It shares
// the ranking with the check under test, and nothing else.
template <int P>
uint64_t reference_first_mismatch(const Rules& rules, int n, const std::vector<ValueArray>& levels,
                                  IndexRange range = {}) {
    const uint64_t end = std::min(range.end, level_size<P>(n));
    for (uint64_t i = range.begin; i < end; ++i) {
        const BasicPosition<P> p = unrank<P>(n, i);
        const test::Board board(p.pits.begin(), p.pits.end());
        const auto moves = test::reference_moves(rules, board);
        int v = test::reference_terminal(board);
        if (!moves.empty()) {
            v = -1000;
            for (const auto& m : moves) {
                BasicPosition<P> child;
                for (int pit = 0; pit < 2 * P; ++pit)
                    child.pits[size_t(pit)] = static_cast<uint8_t>(m.child[size_t(pit)]);
                v = std::max(v, m.captured - levels[size_t(n - m.captured)][rank(child)]);
            }
        }
        if (v != levels[size_t(n)][i]) return i;
    }
    return level_size<P>(n);
}

// Correct levels pass both checks (and the reference's); a wrong value planted in level n
// (at several indices), or in a level a capture reaches, is found by both at the index the
// reference finds.
template <int P> void check_board(const Rules& rules, int max_n) {
    CAPTURE(P);
    CAPTURE(rules.name);
    const BasicOwareGame<P> game(rules);
    auto levels = solve_in_memory(game, max_n, 2);
    for (int n = 0; n <= max_n; ++n) {
        CAPTURE(n);
        const uint64_t size = game.level_size(n);
        REQUIRE(reference_first_mismatch<P>(rules, n, levels) == size);
        CHECK(first_bellman_mismatch(game, n, levels, {2}) == size);
        CHECK(first_streamed_bellman_mismatch(game, n, as_files(levels, n), {2}, 100) == size);
    }
    const int n = max_n;
    const uint64_t size = game.level_size(n);
    const auto files = as_files(levels, n);
    for (uint64_t at : {uint64_t(0), size / 2 + 3, size - 1}) {
        CAPTURE(at);
        const int8_t kept = levels[size_t(n)][at];
        levels[size_t(n)][at] = static_cast<int8_t>(kept == 0 ? 1 : -kept);
        const uint64_t expected = reference_first_mismatch<P>(rules, n, levels);
        CHECK(expected <= at); // the planted value, or a parent of it before it
        CHECK(first_bellman_mismatch(game, n, levels, {2}) == expected);
        for (uint64_t batch : {uint64_t(97), size})
            CHECK(first_streamed_bellman_mismatch(game, n, files, {2}, batch) == expected);
        levels[size_t(n)][at] = kept;
    }
    // The child of the level's first capture made very bad for its mover (below any
    // value): the capture becomes its parent's best move, so the parent fails.
    int smaller = -1;
    uint64_t child = 0;
    for (uint64_t i = 0; i < size && smaller < 0; ++i)
        game.for_each_move(game.unrank(n, i), [&](int captured, const BasicPosition<P>& c) {
            if (captured > 0 && smaller < 0) smaller = n - captured, child = game.rank(c);
        });
    REQUIRE(smaller >= 0);
    const int8_t kept = levels[size_t(smaller)][child];
    levels[size_t(smaller)][child] = -60;
    const uint64_t expected = reference_first_mismatch<P>(rules, n, levels);
    CHECK(expected < size);
    CHECK(first_bellman_mismatch(game, n, levels, {2}) == expected);
    CHECK(first_streamed_bellman_mismatch(game, n, files, {2}, 1000) == expected);
    levels[size_t(smaller)][child] = kept;
}

} // namespace

TEST_CASE("consistency check on boards of 2, 3, 4 and 8 pits a side: passes on correct "
          "levels, finds a planted wrong value where the reference does") {
    const bool quick = test::quick();
    for (const Rules& rules : {Rules::abapa(), Rules::awari()}) {
        check_board<2>(rules, quick ? 8 : 11);
        check_board<3>(rules, quick ? 6 : 8);
        check_board<4>(rules, quick ? 5 : 7);
        check_board<8>(rules, 4); // eight moves a position: more requests than on 6 pits
    }
}

TEST_CASE("streamed consistency check of a 4-pit board read from its level files") {
    const test::TempDir dir;
    const int max_n = test::quick() ? 6 : 7;
    for (const Rules& rules : {Rules::abapa(), Rules::awari()}) {
        CAPTURE(rules.name);
        const BasicOwareGame<4> game(rules);
        auto levels = solve_in_memory(game, max_n, 2);
        const DatabaseDir db(dir.path(), rules, false, 4);
        for (int n = 0; n <= max_n; ++n) db.save(n, levels[size_t(n)], 1, {});
        for (int n = 0; n <= max_n; ++n) {
            CAPTURE(n);
            const FileSmallerLevels files(db, n, 2, true);
            CHECK(first_streamed_bellman_mismatch(game, n, files, {2}, 500) == game.level_size(n));
        }
        // A wrong value written into the top level's file: found where the reference finds it.
        const int n = max_n;
        const uint64_t at = game.level_size(n) / 3;
        levels[size_t(n)][at] = static_cast<int8_t>(levels[size_t(n)][at] == 0 ? 2 : 0);
        db.save(n, levels[size_t(n)], 1, {});
        const uint64_t expected = reference_first_mismatch<4>(rules, n, levels);
        CHECK(expected <= at);
        const FileSmallerLevels files(db, n, 2, true);
        CHECK(first_streamed_bellman_mismatch(game, n, files, {2}, 500) == expected);
        CHECK(first_streamed_bellman_mismatch(game, n, files, {1}, game.level_size(n)) == expected);
    }
}

TEST_CASE("in-memory consistency check: the first of several wrong values, across its chunks "
          "and batches, and in ranges that start and end inside them") {
    // The check takes chunks of 2^14 positions in parallel and, in each, batches of 16
    // positions whose children it looks up together: wrong values planted on both sides of
    // those boundaries, several at once, are found at the first index the reference (its
    // own rules, one position at a time) finds, whatever the range and the threads.
    constexpr uint64_t kChunk = 1 << 14;
    const int n = 10;
    for (const Rules& rules : {Rules::abapa(), Rules::awari()}) {
        CAPTURE(rules.name);
        const OwareGame game(rules);
        auto levels = solve_in_memory(game, n, 2);
        const uint64_t size = game.level_size(n); // 351,351: 22 chunks
        REQUIRE(size > 20 * kChunk);
        std::vector<uint64_t> planted = {size - 1,       17 * kChunk + 15, 9 * kChunk + 16,
                                         9 * kChunk - 1, 3 * kChunk,       3 * kChunk - 1};
        if (test::quick()) planted = {9 * kChunk + 16, 9 * kChunk - 1, 3 * kChunk - 1};
        // Planted from the last to the first: after each, the first wrong value moves down.
        for (uint64_t at : planted) {
            CAPTURE(at);
            int8_t& v = levels[size_t(n)][at];
            v = static_cast<int8_t>(v == 0 ? 3 : -v);
            const uint64_t expected = reference_first_mismatch<6>(rules, n, levels);
            CHECK(expected <= at);
            for (int threads : {1, 2})
                CHECK(first_bellman_mismatch(game, n, levels, {threads}) == expected);
            for (const IndexRange range :
                 {IndexRange{expected + 1, size}, IndexRange{kChunk + 5, 9 * kChunk + 3},
                  IndexRange{9 * kChunk - 1, 9 * kChunk + 1}, IndexRange{at, at + 1},
                  IndexRange{size - 1, size + 100}, IndexRange{size, size}}) {
                CAPTURE(range.begin);
                CAPTURE(range.end);
                CHECK(first_bellman_mismatch(game, n, levels, {2, range}) ==
                      reference_first_mismatch<6>(rules, n, levels, range));
            }
        }
    }
}

TEST_CASE("in-memory consistency check with progress: the same answers, slice by slice") {
    // Slices of 2^16 here (the default's least, kBellmanCheckSlice, is more than the level).
    const int n = 10;
    const OwareGame game(Rules::awari());
    auto levels = solve_in_memory(game, n, 2);
    const uint64_t size = game.level_size(n);
    REQUIRE(size > 4 * (uint64_t(1) << 16)); // several slices of 2^16
    const IndexRange range{100, size - 5};
    const uint64_t total = range.end - range.begin;
    std::vector<uint64_t> seen;
    auto record = [&](uint64_t done, uint64_t t) {
        CHECK(t == total);
        seen.push_back(done);
    };
    CHECK(first_bellman_mismatch(game, n, levels, {2, range, record}, 65536) == size);
    REQUIRE(seen.size() == (total + 65535) / 65536);
    for (size_t i = 0; i + 1 < seen.size(); ++i) CHECK(seen[i] == 65536 * (i + 1));
    CHECK(seen.back() == total);
    // A planted wrong value: found as without progress, and no report reaches past it.
    const uint64_t at = size / 2 + 17;
    levels[size_t(n)][at] =
        static_cast<int8_t>(levels[size_t(n)][at] == 0 ? 1 : -levels[size_t(n)][at]);
    const uint64_t expected = first_bellman_mismatch(game, n, levels, {2, range});
    REQUIRE(expected <= at);
    seen.clear();
    CHECK(first_bellman_mismatch(game, n, levels, {2, range, record}, 65536) == expected);
    REQUIRE_FALSE(seen.empty());
    CHECK(range.begin + seen.back() <= expected);
    // The default slices: one, the whole range, so no report before the mismatch.
    seen.clear();
    CHECK(first_bellman_mismatch(game, n, levels, {2, range, record}) == expected);
    CHECK(seen.empty());
}
