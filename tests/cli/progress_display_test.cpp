// The line `owaredb generate` shows while a large level's file is compressed and written
// (generate/progress.hpp): it estimates the write from the last level written in the same
// mode, else from the last level written at all; without a rate it says only that it
// writes, and a write it expects to take under a second it does not announce.
#include "generate/progress.hpp"

#include "temp_dir.hpp"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <unistd.h>

#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <thread>

namespace {

using namespace owaredb;
using namespace owaredb::cli;

// What `show` writes to stderr.
std::string stderr_of(const std::function<void()>& show) {
    test::TempDir dir;
    const std::filesystem::path file = dir / "stderr";
    std::fflush(stderr);
    const int saved = ::dup(2);
    const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    REQUIRE(saved >= 0);
    REQUIRE(fd >= 0);
    ::dup2(fd, 2);
    ::close(fd);
    show();
    std::fflush(stderr);
    ::dup2(saved, 2);
    ::close(saved);
    std::ifstream in(file);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

} // namespace

TEST_CASE("ProgressDisplay::writing: no estimate before any level was written") {
    ProgressDisplay display(0);
    display.level_started(17, 20'000'000, LevelMode::InMemory);
    CHECK(stderr_of([&] { display.writing(); }) == "level 17: compressing and writing the file\n");
}

TEST_CASE("ProgressDisplay::writing: the last level of the mode sets the rate") {
    ProgressDisplay display(0);
    // 2 us a position in memory, 5 us streamed.
    display.level_started(20, 1'000'000, LevelMode::InMemory);
    display.level_finished(2.0);
    display.level_started(21, 30'000'000, LevelMode::InMemory);
    CHECK(stderr_of([&] { display.writing(); }) ==
          "level 21: compressing and writing the file (about 1:00)\n");
    display.level_finished(60.0);
    // The first streamed level has no streamed rate yet: the last level's, 2 us.
    display.level_started(22, 45'000'000, LevelMode::Streamed);
    CHECK(stderr_of([&] { display.writing(); }) ==
          "level 22: compressing and writing the file (about 1:30)\n");
    display.level_finished(225.0);
    display.level_started(23, 1'000'000'000, LevelMode::Streamed);
    CHECK(stderr_of([&] { display.writing(); }) ==
          "level 23: compressing and writing the file (about 1:23:20)\n");
    // An in-memory level again: the in-memory rate, not the last (streamed) one.
    display.level_started(24, 3'000'000, LevelMode::InMemory);
    CHECK(stderr_of([&] { display.writing(); }) ==
          "level 24: compressing and writing the file (about 0:06)\n");
}

TEST_CASE("ProgressDisplay::writing: a write expected under a second is not announced") {
    ProgressDisplay display(0);
    display.level_started(17, 20'000'000, LevelMode::InMemory);
    display.level_finished(0.2); // 10 ns a position
    display.level_started(18, 33'000'000, LevelMode::InMemory);
    CHECK(stderr_of([&] { display.writing(); }).empty()); // 0.33 s
    display.level_finished(0.33);
    display.level_started(19, 150'000'000, LevelMode::InMemory);
    CHECK(stderr_of([&] { display.writing(); }) ==
          "level 19: compressing and writing the file (about 0:02)\n");
}

TEST_CASE("ProgressDisplay::estimate: the run never ends before its level, and on the last level "
          "the two ETAs are one (#50)") {
    // A run resumed after levels that took 100 s for one level's work. In its first minute a
    // level's own rate rests on seconds of one phase (here half the level in about a second),
    // and the run's rate estimates it: the line read "ETA level 0:01, run 0:34" on the last
    // level before.
    const int n = 20;
    const uint64_t size = 80'000'000;
    const double level_work = ProgressDisplay::work(size, n);
    ProgressDisplay::Recorded earlier;
    earlier.rate.add_earlier(level_work, 100);
    ProgressDisplay last(level_work, earlier);
    ProgressDisplay not_last(3 * level_work, earlier);
    LevelProgress p;
    p.level = n;
    p.threshold = 1;
    for (ProgressDisplay* d : {&last, &not_last}) {
        d->level_started(n, size, LevelMode::InMemory);
        (void)d->estimate(p);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1200));
    p.pass_fraction = 0.5;
    const ProgressDisplay::Eta at_last = last.estimate(p);
    REQUIRE(at_last.level);
    REQUIRE(at_last.run);
    CHECK(*at_last.run == doctest::Approx(*at_last.level));
    // Half a level's work at (1.5 levels' work in about 101.2 s): about 34 s.
    CHECK(*at_last.level == doctest::Approx(0.5 * 101.2 / 1.5).epsilon(0.05));
    const ProgressDisplay::Eta before_last = not_last.estimate(p);
    REQUIRE(before_last.level);
    REQUIRE(before_last.run);
    CHECK(*before_last.level == doctest::Approx(*at_last.level).epsilon(0.01));
    CHECK(*before_last.run > *before_last.level + 100); // two more levels
}
