// The run ETA's rate (cli/run_rate.hpp): a resumed run estimates from the whole run's
// history, not from the first minutes of the process that resumed it.
#include "cli/run_rate.hpp"

#include <doctest/doctest.h>

using owaredb::cli::RunRate;

TEST_CASE("a run from nothing: the rate is this process's own") {
    RunRate rate;
    CHECK_FALSE(rate.seconds_left(100, 0, 10));  // nothing done yet
    CHECK_FALSE(rate.seconds_left(100, 5, 0.5)); // under a second measured
    CHECK(*rate.seconds_left(100, 20, 10) == doctest::Approx(50));
    CHECK(*rate.seconds_left(0, 20, 10) == doctest::Approx(0));
}

TEST_CASE("earlier work without a time, or a time without work, adds nothing") {
    RunRate rate;
    rate.add_earlier(1000, 0); // a level whose build record has no time
    rate.add_earlier(0, 300);  // a level resumed from 0 %
    rate.add_earlier(-5, -1);
    CHECK(rate.earlier_work() == 0);
    CHECK(rate.earlier_seconds() == 0);
    CHECK_FALSE(rate.seconds_left(100, 0, 0));
}

TEST_CASE("a resumed run: the earlier processes' work steadies the estimate") {
    // Figures of the 36-seed awari run (#26), in G work units (positions x (n + 10)): its
    // build record gives levels 0..30 as 369 units in 5,579 s; 1,586 units were left when
    // the resumed process's first two minutes covered 8 % of level 31 (151 units), in a
    // threshold phase faster than the level's average.
    RunRate rate;
    rate.add_earlier(369, 5579);
    const double left = 1586, here_work = 0.08 * 151, here_seconds = 120;
    // This process alone says 4.4 hours; with the run's history, 6.6.
    const RunRate alone;
    CHECK(*alone.seconds_left(left, here_work, here_seconds) / 3600 ==
          doctest::Approx(1586 * 120 / 12.08 / 3600));
    const double hours = *rate.seconds_left(left, here_work, here_seconds) / 3600;
    CHECK(hours == doctest::Approx(1586 * 5699 / 381.08 / 3600));
    CHECK(hours > 6.5);
    CHECK(hours < 6.7);
    // Ten more minutes at a quarter of that speed (a slower phase, 10 % of the level) move
    // it by 20 minutes, where this process alone would go from 4.4 to 11.6 hours.
    const double slow = 0.10 * 151;
    const double later = *rate.seconds_left(left - slow, here_work + slow, 720) / 3600;
    CHECK(later - hours == doctest::Approx(0.35).epsilon(0.05));
    const double alone_later = *alone.seconds_left(left - slow, here_work + slow, 720) / 3600;
    CHECK(alone_later == doctest::Approx(11.56).epsilon(0.01));
}

TEST_CASE("the run's end: the level in progress by its own ETA, the levels after it by the "
          "run's rate") {
    // The lost 36-seed run (#26) at 89 % of level 36, its last level, read "ETA level 37:01,
    // run 31:05": the run's average rate, most of it from levels built in memory, is above
    // a streamed level's, so the run was to end six minutes before its last level did.
    RunRate rate;
    rate.add_earlier(369, 5579);
    const double level_left = 37 * 60 + 1, level_work_left = 0.11 * 1700;
    // On the last level, the run ends with the level.
    CHECK(*rate.run_seconds_left(level_left, level_work_left, 0, 100, 3600) ==
          doctest::Approx(level_left));
    // With levels after it, they come at the run's rate: (369 + 100) units in 9,179 s.
    CHECK(*rate.run_seconds_left(level_left, level_work_left, 50, 100, 3600) ==
          doctest::Approx(level_left + 50 * 9179.0 / 469));
    // While the level has no estimate of its own (its first second), all of it at the
    // run's rate, as before.
    CHECK(*rate.run_seconds_left(std::nullopt, level_work_left, 50, 100, 3600) ==
          doctest::Approx((level_work_left + 50) * 9179.0 / 469));
    // Nothing measured at all: no estimate, whatever the level says of the levels after it.
    const RunRate none;
    CHECK_FALSE(none.run_seconds_left(level_left, level_work_left, 50, 0, 0));
    CHECK(*none.run_seconds_left(level_left, level_work_left, 0, 0, 0) ==
          doctest::Approx(level_left));
}
