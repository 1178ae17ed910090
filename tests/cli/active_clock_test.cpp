// The ETAs' clock (cli/active_clock.hpp): spans in which the process got no CPU at all are
// left out, everything else counts.
#include "cli/active_clock.hpp"

#include <doctest/doctest.h>

using owaredb::cli::ActiveClock;

TEST_CASE("a running process: every second counts, busy or sharing the machine") {
    ActiveClock clock(100, 10);
    CHECK(clock.update(101, 11) == doctest::Approx(1));    // one core busy
    CHECK(clock.update(111, 11.5) == doctest::Approx(11)); // niced, 5 % of a core: still running
    CHECK(clock.update(112, 13.5) == doctest::Approx(12)); // two threads
    CHECK(clock.update(112, 13.5) == doctest::Approx(12)); // no time passed
}

TEST_CASE("a stopped process: the pause is left out, the ETA does not take it for slowness") {
    // A level at 40 % after 8 minutes, stopped 20 minutes (SIGSTOP), then 1 minute more.
    ActiveClock clock(0, 0);
    CHECK(clock.update(480, 900) == doctest::Approx(480));
    CHECK(clock.update(1680, 900) == doctest::Approx(480)); // 20 minutes without CPU
    const double active = clock.update(1740, 1010);
    CHECK(active == doctest::Approx(540));
    // ETA of the level at 45 %: from active time 11 minutes, from wall time 35.
    CHECK(active * (1 - 0.45) / 0.45 == doctest::Approx(660));
}

TEST_CASE("short quiet spans count: waiting a moment is not a pause") {
    ActiveClock clock(0, 0);
    CHECK(clock.update(ActiveClock::kMinGap, 0) == doctest::Approx(ActiveClock::kMinGap));
    CHECK(clock.update(2 * ActiveClock::kMinGap + 1, 0) ==
          doctest::Approx(ActiveClock::kMinGap)); // longer and idle: left out
    // Longer, but with twice the threshold's CPU: running (on a loaded machine), counts.
    const double start = 2 * ActiveClock::kMinGap + 1, span = 2 * ActiveClock::kMinGap;
    CHECK(clock.update(start + span, 2 * ActiveClock::kMaxBusy * span) ==
          doctest::Approx(ActiveClock::kMinGap + span));
}

TEST_CASE("the clock reading the process's own clocks moves forward") {
    ActiveClock clock;
    const double a = clock.elapsed();
    const double b = clock.elapsed();
    CHECK(a >= 0);
    CHECK(b >= a);
}
