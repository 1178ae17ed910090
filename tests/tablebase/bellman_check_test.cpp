// The consistency check of `owaredb verify` (tablebase/bellman_check.hpp): the streamed
// check, which reads every value through sorted batches, finds exactly what the in-memory
// check finds, on correct levels and on levels with wrong values planted in them.
#include "oware/oware_game.hpp"
#include "quick.hpp"
#include "retro/solve_in_memory.hpp"
#include "tablebase/bellman_check.hpp"

#include <doctest/doctest.h>

#include <stdexcept>
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
            REQUIRE(first_bellman_mismatch(game, n, levels, 2) == size);
            for (uint64_t batch : {uint64_t(1), uint64_t(777), size})
                for (int threads : {1, 2}) {
                    if (batch == 1 && size > 5000) continue; // one position a batch: slow
                    CAPTURE(batch);
                    CAPTURE(threads);
                    CHECK(first_streamed_bellman_mismatch(game, n, files, threads, {}, batch) ==
                          size);
                }
        }
    }
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
            const uint64_t expected = first_bellman_mismatch(game, n, levels, 2);
            CHECK(expected <= at); // the planted value, or a parent of it before it
            const auto files = as_files(levels, n);
            // Small and uneven batches on two threads, one batch on one.
            for (uint64_t batch : {uint64_t(1000), size / 4 + 1, size})
                CHECK(first_streamed_bellman_mismatch(game, n, files, batch == size ? 1 : 2, {},
                                                      batch) == expected);
            // Only the part of the level a rank checks (verify under mpirun).
            const IndexRange after{expected + 1, size};
            CHECK(first_streamed_bellman_mismatch(game, n, files, 2, after, 999) ==
                  first_bellman_mismatch(game, n, levels, 2, after));
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
        const uint64_t expected = first_bellman_mismatch(game, n, levels, 2);
        CHECK(expected < size);
        CHECK(first_streamed_bellman_mismatch(game, n, as_files(levels, n), 2, {}, 5000) ==
              expected);
    }
}

TEST_CASE("streamed consistency check: progress after every batch, up to the range's size") {
    const OwareGame game(*Rules::by_name("awari"));
    const auto levels = solve_in_memory(game, 9, 1);
    const auto files = as_files(levels, 9);
    const IndexRange range{100, game.level_size(9) - 5};
    std::vector<uint64_t> seen;
    uint64_t reported_total = 0;
    CHECK(first_streamed_bellman_mismatch(game, 9, files, 2, range, 10000,
                                          [&](uint64_t done, uint64_t total) {
                                              seen.push_back(done);
                                              reported_total = total;
                                          }) == game.level_size(9));
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
                                     game, 8, FailingFiles(files, failing), threads, {}, 1000),
                                 "level file unreadable", std::runtime_error);
}
