// generate's disk check (generate/preflight.hpp): what a level takes at its peak, part by
// part, what a killed run of it left counted as there already, and the message that names
// them. The figures are level 36 of awari, whose resume was refused for lack of the second
// checkpoint's room counted against the first's (issue 26).
#include "generate/preflight.hpp"
#include "oware/ranking.hpp"
#include "tablebase/level_dir.hpp"
#include "temp_dir.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

namespace {

using namespace owaredb;
using namespace owaredb::cli;
using owaredb::test::TempDir;

constexpr uint64_t kLevel36 = 14257671649; // C(47, 11): positions of 36 seeds on 12 pits

TEST_CASE("disk_need: streamed level 36 takes the exit file and two checkpoints at its peak") {
    REQUIRE(level_size(6, 36) == kLevel36);
    const DiskNeed need = disk_need(36, 1, true, LevelMode::Streamed, 6);
    CHECK(need.file == estimated_file_bytes(kLevel36));
    // The exit file compressed: 3 bits a position and 64 KiB.
    const uint64_t exits = estimated_exit_file_bytes(kLevel36);
    CHECK(exits == kLevel36 * 3 / 8 + 65536);
    CHECK(need.exits == exits);
    CHECK(need.checkpoint == kLevel36); // 1 byte a position streamed
    CHECK(need.on_disk == 0);
    // The file (at most 6.3 bits a position) is smaller than a checkpoint: the peak is a
    // save, the old checkpoint and the new one beside the exit file.
    CHECK(need.file < need.checkpoint);
    CHECK(need.peak() == 2 * kLevel36 + exits);
    CHECK(need.still_needed() == 2 * kLevel36 + exits);

    // Resumed: the checkpoint a killed run left is one of the two.
    DiskNeed resumed = need;
    resumed.on_disk = kLevel36 + 124; // its header too
    CHECK(resumed.still_needed() == kLevel36 + exits - 124);
    // ... and with the exit file too, only the second checkpoint is missing (what is there
    // counts up to the level's own parts: the header past them counts for nothing).
    resumed.on_disk = kLevel36 + exits + 124;
    CHECK(resumed.still_needed() == kLevel36);
    // Never more than the level's own parts count as there (other files, a foreign size).
    resumed.on_disk = 10 * kLevel36;
    CHECK(resumed.still_needed() == kLevel36);
}

TEST_CASE("disk_need: streamed-4bit checkpoints are 4 bits a position, scan files the exits "
          "and the bitmaps") {
    const uint64_t size = level_size(6, 38);
    const DiskNeed need = disk_need(38, 1, true, LevelMode::Nibble, 6);
    CHECK(need.checkpoint == (size + 1) / 2);
    CHECK(need.exits == nibble_scan_bytes(size));
    // Exits 2.3 bits a position, beside bitmaps of 5.0 in all (the larger than the exits).
    CHECK(nibble_scan_bytes(size) == size * 23 / 80 + size * 50 / 80 + (uint64_t(128) << 10));
    // Without checkpoints the same: nothing is pinned beyond what the level keeps.
    CHECK(disk_need(38, 1, false, LevelMode::Nibble, 6).exits == need.exits);
}

TEST_CASE("disk_need: streamed-2bit checkpoints are 2 bits a position; the scan files the "
          "4-bit engine's and three maps of a bit a position") {
    const uint64_t size = level_size(6, 38);
    const DiskNeed need = disk_need(38, 1, true, LevelMode::Wld, 6);
    CHECK(need.checkpoint == (size + 3) / 4);
    CHECK(need.exits == wld_scan_bytes(size, true));
    const uint64_t map = (size + 7) / 8 + (uint64_t(64) << 10);
    CHECK(wld_scan_bytes(size, true) == nibble_scan_bytes(size) + 3 * map);
}

TEST_CASE("disk_need: streamed-2bit without checkpoints pins no map: two") {
    const uint64_t size = level_size(6, 38);
    const DiskNeed need = disk_need(38, 1, false, LevelMode::Wld, 6);
    CHECK(need.checkpoint == 0);
    const uint64_t map = (size + 7) / 8 + (uint64_t(64) << 10);
    CHECK(need.exits == nibble_scan_bytes(size) + 2 * map);
}

TEST_CASE("disk_need: in memory, without checkpoints, bounds") {
    const uint64_t size = level_size(6, 20);
    const DiskNeed in_memory = disk_need(20, 1, true, LevelMode::InMemory, 6);
    CHECK(in_memory.exits == 0);
    CHECK(in_memory.checkpoint == 2 * size); // the 2-byte words
    CHECK(in_memory.peak() == 4 * size);
    const DiskNeed plain = disk_need(20, 1, false, LevelMode::Streamed, 6);
    CHECK(plain.checkpoint == 0);
    CHECK(plain.peak() == estimated_exit_file_bytes(size) + estimated_file_bytes(size));
    const DiskNeed bounds = disk_need(20, 2, false, LevelMode::InMemory, 6);
    CHECK(bounds.peak() == estimated_file_bytes(2 * size));
    CHECK(disk_need(10, 1, true, LevelMode::Streamed, 4).exits ==
          estimated_exit_file_bytes(level_size(4, 10)));
}

TEST_CASE("check_disk: passes what fits, and names the parts of what does not") {
    TempDir dir;
    DiskNeed small;
    small.file = 1 << 20;
    CHECK_NOTHROW(check_disk(3, small, dir.path().string()));

    DiskNeed huge = disk_need(36, 1, true, LevelMode::Streamed, 6);
    huge.exits = huge.checkpoint = uint64_t(1) << 60; // no disk holds this
    huge.on_disk = huge.checkpoint;
    try {
        check_disk(36, huge, dir.path().string());
        FAIL("a level larger than any disk passed");
    } catch (const std::runtime_error& e) {
        const std::string m = e.what();
        CHECK(m.find("level 36 needs about") != std::string::npos);
        CHECK(m.find("the exit file") != std::string::npos);
        CHECK(m.find("two checkpoints of") != std::string::npos);
        CHECK(m.find("of it already there") != std::string::npos);
        CHECK(m.find("--checkpoint-minutes -1") != std::string::npos);
        CHECK(m.find("No space left on device") != std::string::npos);
    }
}

TEST_CASE("LevelDir::scratch_bytes: the checkpoint and exit file a killed run left") {
    TempDir dir;
    const LevelDir db(dir.path(), Rules::awari(), db::LevelKind::Values, 1, 6);
    CHECK(db.scratch_bytes(5) == 0);
    std::ofstream(dir / "awari-05.checkpoint").close();
    std::filesystem::resize_file(dir / "awari-05.checkpoint", 1000);
    CHECK(db.scratch_bytes(5) == 1000);
    std::ofstream(dir / "awari-05.exits").close();
    std::filesystem::resize_file(dir / "awari-05.exits", 24);
    CHECK(db.scratch_bytes(5) == 1024);
    CHECK(db.scratch_bytes(6) == 0); // another level's are not this one's
}

} // namespace
