// The level loop of `owaredb generate` (generate/pipeline.hpp) driven by a builder of the
// test's own, so that what the loop measures about each level can be checked exactly.
#include "dbformat/checkpoint.hpp"
#include "generate/build_record.hpp"
#include "generate/disk_peak.hpp"
#include "generate/phase_times.hpp"
#include "generate/pipeline.hpp"
#include "tablebase/level_dir.hpp"
#include "temp_dir.hpp"

#include <doctest/doctest.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

namespace {

using namespace owaredb;
using namespace owaredb::cli;

constexpr uint64_t kMiB = 1 << 20;

// What every builder of these tests does alike: awari levels in `dir`, nothing to check, a
// 12-byte file written for each level built.
class TestBuilder : public LevelBuilder {
  public:
    explicit TestBuilder(const std::filesystem::path& dir)
        : dir_(dir, Rules::awari(), db::LevelKind::Values, 1, 6) {}

    const LevelDir& dir() const override { return dir_; }
    void check(int) const override {}
    void write(int n, LevelRow& row) override {
        std::ofstream(dir_.path(n)) << "a level file";
        row.mode = "streamed";
    }
    std::string solved_label(const LevelRow&) const override { return "solved"; }
    std::string files_name() const override { return "databases"; }
    std::string start_position(int) override { return "value +0"; }

  protected:
    LevelDir dir_;
};

// Level 0 "loads" by holding 256 MiB (as the in-memory levels are held while the run is in
// memory); level 1 is built, and its load gives that memory back first, as ValueLevels
// does when the run turns to streamed levels. Solving level 1 touches 16 MiB.
class HandOverBuilder final : public TestBuilder {
  public:
    using TestBuilder::TestBuilder;
    bool load(int n, LevelRow&) override {
        if (n == 0) {
            held_.assign(256 * kMiB, 1); // written: resident
            return true;
        }
        std::vector<char>().swap(held_);
        return false;
    }
    void solve(int, ProgressDisplay&) override {
        std::vector<char> work(16 * kMiB);
        std::memset(work.data(), 1, work.size());
        touched_ = work[work.size() / 2];
    }

  private:
    std::vector<char> held_;
    char touched_ = 0;
};

} // namespace

TEST_CASE("a level's peak memory is its own: not what an earlier level held until it began") {
    // Regression (#26): the first streamed level of the 36-seed run recorded 13.5 GB, the
    // in-memory levels 0..31 that the run held until that level's start and then gave back.
    test::TempDir tmp;
    HandOverBuilder builder(tmp.path());
    CHECK(run_levels(builder, GameLevels::up_to(1, 6), "test run", "levels", 1) == 0);
    const std::optional<LevelRow> row = BuildRecord(tmp.path()).find(builder.dir().path(1));
    REQUIRE(row);
    REQUIRE(row->peak_rss.size() == 1);
    // The process itself (code, doctest, libraries) and level 1's 16 MiB: far under the
    // 256 MiB level 0 held before level 1 started.
    CHECK(row->peak_rss[0] > 16 * kMiB);
    CHECK(row->peak_rss[0] < 128 * kMiB);
}

TEST_CASE("the build record holds the threads the run was given, not the machine's") {
    // Regression (#48): `generate --threads 1` on a 2-core machine recorded "threads":2,
    // OpenMP's default, which the run never used.
    for (int threads : {1, 3, 7}) {
        CAPTURE(threads);
        test::TempDir tmp;
        HandOverBuilder builder(tmp.path());
        CHECK(run_levels(builder, GameLevels::up_to(1, 6), "test run", "levels", threads) == 0);
        std::ifstream in(BuildRecord(tmp.path()).path());
        const std::string text((std::istreambuf_iterator<char>(in)),
                               std::istreambuf_iterator<char>());
        const std::string field = "\"threads\":" + std::to_string(threads) + ",";
        // One line for level 1, the level built (level 0 was loaded).
        CHECK(text.find(field) != std::string::npos);
        CHECK(text.find("\"threads\":") == text.rfind("\"threads\":"));
    }
}

namespace {

void write_bytes(const std::filesystem::path& file, uint64_t bytes) {
    std::ofstream(file, std::ios::binary) << std::string(bytes, 'x');
}

// Level 1's solve leaves an exit file and a scan file of its own and a file of another level
// (level 10: its name starts like level 1's, "awari-1"), as a killed run of level 10 would.
class ScratchBuilder final : public TestBuilder {
  public:
    using TestBuilder::TestBuilder;
    bool load(int n, LevelRow&) override { return n == 0; }
    void solve(int n, ProgressDisplay& display) override {
        display.level_started(n, 1000, LevelMode::Streamed);
        for (int t : {0, 0, 1, 2}) // a step, the first pass, two thresholds
            display.update(
                {n, t, 0, 1000, 0.25 * t, t == 0 && !stepped_++ ? "capture exits" : nullptr});
        write_bytes(db::exit_file_path(dir_.path(n)), 3 * kMiB);
        write_bytes(db::scan_file_path(dir_.path(n), 7), kMiB);
        write_bytes(db::exit_file_path(dir_.path(10)), 5 * kMiB);
    }

  private:
    int stepped_ = 0;
};

} // namespace

TEST_CASE("the build record holds a level's disk peak: its own files, no other level's") {
    test::TempDir tmp;
    ScratchBuilder builder(tmp.path());
    CHECK(run_levels(builder, GameLevels::up_to(1, 6), "test run", "levels", 1) == 0);
    const std::optional<LevelRow> row = BuildRecord(tmp.path()).find(builder.dir().path(1));
    REQUIRE(row);
    REQUIRE(row->disk_peak);
    CHECK(*row->disk_peak == 4 * kMiB + 12);
    // and its time by phase, as the updates named them
    REQUIRE(row->phases.size() == 3);
    double phases = 0;
    for (const char* name : {"capture exits", "first pass", "thresholds"}) {
        CAPTURE(name);
        REQUIRE(row->phases.count(name) == 1);
        CHECK(row->phases.at(name).seconds >= 0);
        phases += row->phases.at(name).seconds;
    }
    CHECK(phases <= row->seconds);
}

TEST_CASE("PhaseClock splits a level's time where the phase changes") {
    PhaseClock clock;
    CHECK(clock.until(5, 5).empty()); // nothing before the first update
    clock.start(10, 100);
    clock.at("capture exits", 12, 101); // the first phase from start()
    clock.at("capture exits", 15, 103);
    clock.at("first pass", 20, 108);
    clock.at("thresholds", 30, 125);
    clock.at("thresholds", 35, 130);
    const PhaseTimes t = clock.until(40, 140);
    REQUIRE(t.size() == 3);
    CHECK(t.at("capture exits").seconds == 10);
    CHECK(t.at("capture exits").cpu_seconds == 8);
    CHECK(t.at("first pass").seconds == 10);
    CHECK(t.at("first pass").cpu_seconds == 17);
    CHECK(t.at("thresholds").seconds == 10); // the one in progress, ended at until()
    CHECK(t.at("thresholds").cpu_seconds == 15);
    clock.start(50, 200); // the next level: nothing of this one
    CHECK(clock.until(60, 210).empty());
    CHECK(phase_name({1, 0, 0, 1, 0, "capture exits"}) == "capture exits");
    CHECK(phase_name({1, 0, 0, 1, 0, nullptr}) == "first pass");
    CHECK(phase_name({1, 7, 0, 1, 0, nullptr}) == "thresholds");
}

TEST_CASE("DiskPeak keeps the largest sample, a file gone since included") {
    test::TempDir tmp;
    const LevelDir dir(tmp.path(), Rules::awari(), db::LevelKind::Values, 1, 6);
    write_bytes(db::checkpoint_path(dir.path(3)), 2 * kMiB);
    DiskPeak peak(dir, 3); // its first sample: the checkpoint
    std::filesystem::remove(db::checkpoint_path(dir.path(3)));
    write_bytes(dir.path(3), kMiB);
    CHECK(peak.stop() == 2 * kMiB);
    CHECK(peak.stop() == 2 * kMiB); // a second stop answers the same
    CHECK(dir.level_bytes(3) == kMiB);
    CHECK(dir.level_bytes(4) == 0);
}
