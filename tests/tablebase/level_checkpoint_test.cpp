// A level's checkpoint as the generator drives it (tablebase/level_checkpoint.hpp): saved
// at a safe point, restored with its progress, removed with the level's file, and the line
// that says how many saves the level made.
#include "tablebase/level_checkpoint.hpp"

#include "temp_dir.hpp"

#include <doctest/doctest.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

using namespace owaredb;

namespace {

struct Fixture {
    test::TempDir dir;
    std::filesystem::path level_file = dir / "abapa-05.owdb";
    db::LevelMeta meta{"abapa", {1, 2}, 5, 16};
    std::vector<std::string> reports;
    int saves_asked_time = 0; // a save asks for the run's time, to record it

    LevelCheckpoint checkpoint(double interval_seconds) {
        return LevelCheckpoint(
            level_file, meta, meta.entries, 3, interval_seconds,
            [this](const std::string& line) { reports.push_back(line); },
            [this] {
                ++saves_asked_time;
                return db::CheckpointTime{1'000, 2'000};
            });
    }
};

SweepPoint halfway() {
    SweepPoint p;
    p.first_pass_done = 16;
    p.thresholds_done = 2;
    p.scans = 7;
    p.propagated = 40;
    p.exit_checksum = 0x1234;
    return p;
}

} // namespace

TEST_CASE("LevelCheckpoint: one save is reported as one checkpoint, singular") {
    Fixture f;
    std::vector<uint8_t> words(16, 0x5a);
    {
        LevelCheckpoint c = f.checkpoint(0);
        c.reached(halfway(), words);
        REQUIRE(std::filesystem::exists(c.path()));
        c.level_written();
        CHECK_FALSE(std::filesystem::exists(c.path()));
    }
    REQUIRE(f.reports.size() == 1);
    CHECK(f.reports[0].starts_with("1 checkpoint saved, "));
    CHECK(f.reports[0].ends_with(" s"));
}

TEST_CASE("LevelCheckpoint: several saves are counted, plural") {
    Fixture f;
    std::vector<uint8_t> words(16, 0x5a);
    LevelCheckpoint c = f.checkpoint(0);
    c.reached(halfway(), words);
    REQUIRE(f.saves_asked_time == 1);
    // The next save waits 20 times the last one's duration (milliseconds here): keep
    // reaching safe points until it is due.
    for (int i = 0; i < 10'000 && f.saves_asked_time < 2; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
        c.reached(halfway(), words);
    }
    REQUIRE(f.saves_asked_time == 2);
    c.level_written();
    REQUIRE(f.reports.size() == 1);
    CHECK(f.reports[0].starts_with("2 checkpoints saved, "));
}

TEST_CASE("LevelCheckpoint: no save, no line; a save restores its progress and words") {
    Fixture f;
    std::vector<uint8_t> words(16);
    for (size_t i = 0; i < words.size(); ++i) words[i] = uint8_t(3 * i + 1);
    {
        LevelCheckpoint never = f.checkpoint(3600);
        never.reached(halfway(), words);
        CHECK_FALSE(std::filesystem::exists(never.path()));
        never.level_written();
        CHECK(f.reports.empty());
    }
    {
        LevelCheckpoint saving = f.checkpoint(0);
        saving.reached(halfway(), words);
    }
    LevelCheckpoint resumed = f.checkpoint(0);
    std::vector<uint8_t> restored(16, 0);
    const std::optional<SweepPoint> p = resumed.restore(restored);
    REQUIRE(p);
    CHECK(p->first_pass_done == 16);
    CHECK(p->thresholds_done == 2);
    CHECK(p->scans == 7);
    CHECK(p->propagated == 40);
    CHECK(p->exit_checksum == 0x1234);
    CHECK(restored == words);
    REQUIRE(resumed.earlier());
    CHECK(resumed.earlier()->wall_ms == 1'000);
    CHECK(resumed.earlier()->cpu_ms == 2'000);
    REQUIRE(f.reports.size() == 1);
    CHECK(f.reports[0] == "resuming from its checkpoint: first pass 100% done, 2 of 5 thresholds");
}

TEST_CASE("LevelCheckpoint: a stop saves at once, whatever the interval, and ends the sweep") {
    // SIGTERM 30 s into a level kept only what the 10-minute interval had saved (#52).
    Fixture f;
    std::vector<uint8_t> words(16, 0x5a);
    LevelCheckpoint c = f.checkpoint(3600);
    bool stop = false;
    c.stop_when([&stop] { return stop; });
    c.reached(halfway(), words); // not due for an hour
    CHECK_FALSE(std::filesystem::exists(c.path()));
    stop = true;
    try {
        c.reached(halfway(), words);
        FAIL("a stop must end the sweep");
    } catch (const CheckpointStop& e) {
        CHECK(e.saved);
        CHECK(std::string(e.what()) == "checkpoint saved at " + c.path().string());
    }
    // What it saved is what a rerun resumes from.
    LevelCheckpoint again = f.checkpoint(3600);
    std::vector<uint8_t> restored(16, 0);
    const std::optional<SweepPoint> p = again.restore(restored);
    REQUIRE(p);
    CHECK(p->thresholds_done == 2);
    CHECK(restored == words);
    // The level's last safe point, before its file is written: a stop stops there too.
    SweepPoint last = halfway();
    last.thresholds_done = int(f.meta.n);
    std::filesystem::remove(c.path());
    CHECK_THROWS_AS(c.reached(last, words), CheckpointStop);
    CHECK(std::filesystem::exists(c.path()));
}

TEST_CASE("LevelCheckpoint: the last safe point is saved when the level was saved or resumed "
          "before, else only when due") {
    // The file's write after the last safe point reads every value and compresses it (26
    // minutes at awari 34): a kill then lost all since the last save, and the scan engines
    // kept their exits on disk for it.
    Fixture f;
    std::vector<uint8_t> words(16, 0x5a);
    SweepPoint last = halfway();
    last.thresholds_done = int(f.meta.n);
    {
        LevelCheckpoint short_level = f.checkpoint(3600); // never saved: not due for an hour
        CHECK_FALSE(short_level.reached(last, words));
        CHECK_FALSE(std::filesystem::exists(short_level.path()));
    }
    LevelCheckpoint long_level = f.checkpoint(3600);
    CHECK_FALSE(long_level.reached(halfway(), words));
    long_level.stop_when([] { return true; });
    CHECK_THROWS_AS(long_level.reached(halfway(), words), CheckpointStop); // saved once
    long_level.stop_when({});
    CHECK_FALSE(long_level.reached(halfway(), words)); // not due
    CHECK(long_level.reached(last, words));            // the last point: saved
    LevelCheckpoint resumed = f.checkpoint(3600);
    std::vector<uint8_t> restored(16, 0);
    REQUIRE(resumed.restore(restored));
    std::filesystem::remove(resumed.path());
    CHECK(resumed.reached(last, words)); // resumed: saved at the last point
    CHECK(std::filesystem::exists(resumed.path()));
}
