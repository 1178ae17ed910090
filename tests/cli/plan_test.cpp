// generate --plan (generate/plan.hpp): the rates it reads from build records, the line it
// fits, and a small plan (a game of 1 seed per pit) whose modes, memory, disk and hours
// are checked by hand.
#include "generate/plan.hpp"
#include "generate/preflight.hpp"
#include "tablebase/level_dir.hpp"

#include "dbformat/writer.hpp"
#include "oware/rules.hpp"
#include "temp_dir.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <vector>

#include <sstream>

namespace {

using namespace owaredb;
using namespace owaredb::cli;

// doctest::Approx's margin has an absolute part of about 1e-5 (its scale of 1): any two
// rates of microseconds a position would compare equal. The rates here compare relatively.
doctest::Approx relative(double value) {
    return doctest::Approx(value).scale(0);
}

std::string record(int level, const char* mode, double us_a_position, const char* finished,
                   const char* file = nullptr, uint64_t file_bytes = 0) {
    std::ostringstream line;
    line << R"({"level":)" << level << R"(,"positions":1000000,"mode":")" << mode
         << R"(","cpu_seconds":)" << us_a_position << R"(,"threads":2,"finished":")" << finished
         << R"(","earlier_unknown":false)";
    if (file) line << R"(,"file":")" << file << R"(","file_bytes":)" << file_bytes;
    return line.str() + "}\n";
}

TEST_CASE("parse_rate_records keeps the last record of a level and mode, and only rates") {
    std::istringstream in(R"({"about":"a comment line"})"
                          "\n" +
                          record(20, "in-memory", 9, "2026-12-01T00:00:00Z") +
                          record(20, "in-memory", 1, "2026-12-02T00:00:00Z") + // rebuilt
                          record(21, "mpi x 4", 1, "2026-12-02T00:00:00Z") +
                          record(11, "in-memory", 1, "2026-12-02T00:00:00Z") + // too small
                          R"({"level":22,"positions":1000000,"mode":"streamed","cpu_seconds":2,)"
                          R"("threads":2,"finished":"x","earlier_unknown":true})"
                          "\n"
                          R"({"level":23,"positi)");
    const std::vector<RateRecord> r = parse_rate_records(in);
    REQUIRE(r.size() == 1);
    CHECK(r[0].level == 20);
    CHECK(r[0].cpu_seconds == 1);
    CHECK(r[0].finished == "2026-12-02T00:00:00Z");
    CHECK(r[0].file.empty());
    CHECK(r[0].file_bytes == 0);

    std::istringstream sized(record(20, "in-memory", 1, "a", "awari-20.owdb", 37211533));
    const std::vector<RateRecord> s = parse_rate_records(sized);
    REQUIRE(s.size() == 1);
    CHECK(s[0].file == "awari-20.owdb");
    CHECK(s[0].file_bytes == 37211533);
}

TEST_CASE("RateModel: a line over the base mode, other modes by their measured ratio") {
    // In memory 1.0, 1.1, 1.2 us a position at levels 20..22: -1.0 + 0.1 n us. Streamed
    // 1.32 us at 22 is 1.1x the line there; streamed-4bit 1.584 us is 1.2x streamed.
    std::istringstream in(record(20, "in-memory", 1.0, "a") + record(21, "in-memory", 1.1, "b") +
                          record(22, "in-memory", 1.2, "c") + record(22, "streamed", 1.32, "d") +
                          record(22, "streamed-4bit", 1.584, "e") +
                          record(22, "streamed-2bit", 2.64, "f"));
    const RateModel m(parse_rate_records(in));
    CHECK(m.base() == LevelMode::InMemory);
    CHECK(m.slope() == relative(0.1e-6));
    CHECK(m.intercept() == relative(-1.0e-6));
    CHECK(m.cpu_per_position(30, LevelMode::InMemory) == relative(2.0e-6));
    // Below the fitted levels the line is not followed (it is -0.5 us at 5): level 20's rate.
    CHECK(m.first_level() == 20);
    CHECK(m.cpu_per_position(5, LevelMode::InMemory) == relative(1.0e-6));
    CHECK(m.ratio(LevelMode::Streamed) == doctest::Approx(1.1));
    CHECK(m.cpu_per_position(30, LevelMode::Nibble) == relative(2.0e-6 * 1.1 * 1.2));
    // streamed-2bit, 2.64 us at 22, is 2x streamed: its own ratio, not streamed-4bit's.
    CHECK(m.measured(LevelMode::Wld));
    CHECK(m.cpu_per_position(30, LevelMode::Wld) == relative(2.0e-6 * 1.1 * 2));
    // A falling rate is noise: flat at the mean.
    std::istringstream falling(record(20, "streamed", 2, "a") + record(21, "streamed", 1, "b"));
    const RateModel flat(parse_rate_records(falling));
    CHECK(flat.base() == LevelMode::Streamed);
    CHECK(flat.slope() == 0);
    CHECK(flat.cpu_per_position(40, LevelMode::Streamed) == relative(1.5e-6));
    CHECK_FALSE(flat.measured(LevelMode::Nibble));
    CHECK_FALSE(flat.measured(LevelMode::Wld));
    CHECK(flat.ratio(LevelMode::Wld) == flat.ratio(LevelMode::Nibble));
    CHECK(flat.ratio(LevelMode::InMemory) == 1);
}

// Streamed levels above those memory holds measure the trend best: a mode paired with the
// base mode at one level joins the line through its ratio there (docs/results.md, "The
// 48-seed plan on this machine's rates").
TEST_CASE("RateModel: a paired mode's larger levels join the line on the base mode's scale") {
    // In memory 1.0, 1.1, 1.2 us at 20..22; streamed 2.4 at 22 (2x the in-memory 1.2, paired),
    // then 2.4 at 23 and 24 (1.2 on the in-memory scale: no longer growing). The points
    // 1.0, 1.1, 1.2, 1.2, 1.2 at 20..24: slope 0.05, intercept 0.04 us.
    std::istringstream in(record(20, "in-memory", 1.0, "a") + record(21, "in-memory", 1.1, "b") +
                          record(22, "in-memory", 1.2, "c") + record(22, "streamed", 2.4, "d") +
                          record(23, "streamed", 2.4, "e") + record(24, "streamed", 2.4, "f") +
                          record(23, "streamed-4bit", 2.975, "g"));
    const RateModel m(parse_rate_records(in));
    CHECK(m.base() == LevelMode::InMemory);
    CHECK(m.ratio(LevelMode::Streamed) == doctest::Approx(2.0));
    CHECK(m.paired_levels(LevelMode::Streamed) == std::vector<int>{22});
    CHECK(m.first_level() == 20);
    CHECK(m.last_level() == 24);
    CHECK(m.slope() == relative(0.05e-6));
    CHECK(m.intercept() == relative(0.04e-6));
    CHECK(m.cpu_per_position(24, LevelMode::Streamed) == relative(2.48e-6));
    // streamed-4bit, measured at 23 only, where nothing in memory was: against the line
    // there (1.19 us), 2.5x.
    CHECK(m.measured(LevelMode::Nibble));
    CHECK(m.paired_levels(LevelMode::Nibble).empty());
    CHECK(m.ratio(LevelMode::Nibble) == doctest::Approx(2.5));
    // Without the pairing level the streamed records are not on the in-memory scale: they
    // stay out of the line, which is the in-memory levels' alone.
    std::istringstream unpaired(
        record(20, "in-memory", 1.0, "a") + record(21, "in-memory", 1.1, "b") +
        record(22, "in-memory", 1.2, "c") + record(23, "streamed", 2.4, "e") +
        record(24, "streamed", 2.4, "f"));
    const RateModel u(parse_rate_records(unpaired));
    CHECK(u.last_level() == 22);
    CHECK(u.slope() == relative(0.1e-6));
    CHECK(u.paired_levels(LevelMode::Streamed).empty());
    CHECK(u.ratio(LevelMode::Streamed) == doctest::Approx((2.4 / 1.3 + 2.4 / 1.4) / 2));
}

// A directory's own records (one run's, often one mode a level) seldom pair the words; the
// committed rates do. A mode its records never paired borrows the committed pairing.
TEST_CASE("RateModel: a mode the records never paired borrows its ratio from the lender") {
    // The records: in memory 1.0, 1.1, 1.2 us at 20..22, streamed 2.4 at 23 and 24, never
    // paired. The lender pairs streamed at 2x and streamed-2bit at 3x in-memory at 12.
    const std::string own = record(20, "in-memory", 1.0, "a") + record(21, "in-memory", 1.1, "b") +
                            record(22, "in-memory", 1.2, "c") + record(23, "streamed", 2.4, "e") +
                            record(24, "streamed", 2.4, "f");
    std::istringstream records(own);
    std::istringstream lent(record(12, "in-memory", 0.5, "x") + record(12, "streamed", 1.0, "y") +
                            record(12, "streamed-2bit", 1.5, "z") +
                            record(13, "streamed-2bit", 9, "w")); // no in-memory at 13
    const RateModel m(parse_rate_records(records), parse_rate_records(lent));
    CHECK(m.ratio(LevelMode::Streamed) == doctest::Approx(2.0));
    CHECK(m.paired_levels(LevelMode::Streamed) == std::vector<int>{12});
    CHECK(m.borrowed(LevelMode::Streamed));
    // On the in-memory scale the streamed levels are 1.2, 1.2: they join the line, as in
    // the test above (1.0, 1.1, 1.2, 1.2, 1.2 at 20..24).
    CHECK(m.last_level() == 24);
    CHECK(m.slope() == relative(0.05e-6));
    CHECK(m.intercept() == relative(0.04e-6));
    // streamed-2bit, not in the records, has the lender's ratio; streamed-4bit, in neither,
    // is taken as streamed.
    CHECK_FALSE(m.measured(LevelMode::Wld));
    CHECK(m.borrowed(LevelMode::Wld));
    CHECK(m.ratio(LevelMode::Wld) == doctest::Approx(3.0));
    CHECK_FALSE(m.borrowed(LevelMode::Nibble));
    CHECK(m.ratio(LevelMode::Nibble) == doctest::Approx(2.0));
    CHECK_FALSE(m.borrowed(LevelMode::InMemory));

    // A pairing of the records' own wins over the lender's.
    std::istringstream paired(own + record(22, "streamed", 1.8, "d"));
    std::istringstream lent_again(record(12, "in-memory", 0.5, "x") +
                                  record(12, "streamed", 1.0, "y"));
    const RateModel p(parse_rate_records(paired), parse_rate_records(lent_again));
    CHECK(p.ratio(LevelMode::Streamed) == doctest::Approx(1.5));
    CHECK(p.paired_levels(LevelMode::Streamed) == std::vector<int>{22});
    CHECK_FALSE(p.borrowed(LevelMode::Streamed));
}

TEST_CASE("effective_threads: 2 as measured, 80 % up to 16, half a thread beyond") {
    CHECK(effective_threads(2) == 2);
    CHECK(effective_threads(16) == doctest::Approx(12.8));
    CHECK(effective_threads(32) == doctest::Approx(20.8));
}

TEST_CASE("make_build_plan: a game of 1 seed per pit under 59 MB") {
    // Every level streamed needs 56 MiB + 1 byte a position, 4 bits with streamed-4bit; in
    // memory at least 128 MiB. Beside them, 16 bytes a block of the smaller files a
    // capture reaches (levels up to n - 2, in blocks of 2^18 positions) and with 4 or 2
    // bits 24 bytes a chunk of 16,384 positions (the scan store's index). Under 59,000,000
    // bytes levels up to 9 (167,596 positions) stream with a byte, level 10 (351,351) with
    // 4 bits (58,720,256 + 175,676 + 22 chunks + 9 blocks), and level 12 (1,339,702) with 2
    // bits (its 4 bits do not fit), and not even so (58,720,256 + 334,926 + 82 chunks + 12
    // blocks, two of them level 10's: 59,057,342).
    const ModePlan modes("auto", MemoryBudget{59000000, true}, 6, kBuildFootprint);
    // 1 us a position in memory, streamed 2 us, streamed-4bit unmeasured: as streamed.
    std::istringstream in(record(12, "in-memory", 1, "a") + record(13, "in-memory", 1, "b") +
                          record(12, "streamed", 2, "c"));
    const RateModel rates(parse_rate_records(in));
    uint64_t files9 = 0; // the estimated files of levels 0..9
    for (uint64_t size : {1, 12, 78, 364, 1365, 4368, 12375, 31812, 75504, 167596})
        files9 += estimated_file_bytes(size);
    const uint64_t file10 = estimated_file_bytes(351351);
    // A streamed-4bit level's peak is its file and its scan files (the exits and bitmaps).
    const uint64_t peak10 = files9 + file10 + nibble_scan_bytes(351351);
    const BuildPlan p = make_build_plan(modes, GameLevels::of_game(1, 6), false, peak10, rates, 2);
    REQUIRE(p.rows.size() == 12); // 0..10 and 12
    CHECK(p.rows[9].mode == LevelMode::Streamed);
    CHECK(p.rows[9].memory == 58720256 + 167596 + 8 * 16);
    // levels 0..8, its exits and its file
    CHECK(p.rows[9].disk_peak == files9 + estimated_exit_file_bytes(167596));
    const PlanRow& r10 = p.rows[10];
    CHECK(r10.level == 10);
    CHECK(r10.mode == LevelMode::Nibble);
    CHECK(r10.memory == 58720256 + 175676 + 22 * 24 + 9 * 16);
    CHECK(r10.files_before == files9);
    CHECK(r10.disk_peak == peak10);
    CHECK((r10.fits_memory && r10.fits_disk));
    CHECK(r10.hours == relative(2e-6 * 351351 / 2 / 3600));
    const PlanRow& r12 = p.rows[11];
    CHECK(r12.level == 12);
    CHECK(r12.mode == LevelMode::Wld);
    CHECK(r12.memory == 59057342);
    CHECK_FALSE(r12.fits_memory);
    CHECK_FALSE(r12.fits_disk);
    CHECK_FALSE(p.fits());
    CHECK(p.peak_memory == 59057342);
    CHECK(p.files == files9 + file10 + estimated_file_bytes(1339702));
}

TEST_CASE("make_build_plan: the levels a directory holds are built, and the next files "
          "estimated from theirs") {
    // Levels 0..12 of awari written (12 has 1,352,078 positions: measured), 13 and 14 to
    // plan, against the free space and the files there.
    owaredb::test::TempDir dir;
    const LevelDir levels(dir.path(), Rules::awari(), db::LevelKind::Values, 1, 6);
    uint64_t files12 = 0;
    for (int n = 0; n <= 12; ++n) {
        std::vector<int8_t> values(level_size(6, n), int8_t(n % 3));
        for (std::size_t i = 0; i < values.size(); i += 5) values[i] = int8_t(-n);
        db::write_level(levels.path(n), levels.meta(n), values, db::WriterOptions{.threads = 1});
        files12 += std::filesystem::file_size(levels.path(n));
    }
    const double bits12 = 8.0 * double(levels.file_bytes(12)) / double(level_size(6, 12));
    const ModePlan modes("auto", MemoryBudget{uint64_t(1) << 30, true}, 6, kBuildFootprint);
    std::istringstream in(record(12, "in-memory", 1, "a"));
    const RateModel rates(parse_rate_records(in));
    const BuildPlan p = make_build_plan(modes, GameLevels::up_to(14, 6), true, uint64_t(1) << 40,
                                        rates, 2, &levels);
    REQUIRE(p.rows.size() == 15);
    for (int n = 0; n <= 12; ++n) {
        CHECK(p.rows[n].built);
        CHECK(p.rows[n].hours == 0);
    }
    CHECK(p.rows[12].disk_peak == files12);
    const PlanRow& r13 = p.rows[13];
    CHECK_FALSE(r13.built);
    CHECK(r13.files_before == files12);
    const DiskNeed need13 = disk_need(13, 1, true, LevelMode::InMemory, 6, bits12);
    CHECK(need13.file == estimated_file_bytes(level_size(6, 13), bits12));
    CHECK(r13.disk_peak == files12 + need13.peak());
    CHECK(r13.hours > 0);
    // Level 14 from level 12's bits too (13 is not built), after level 13's estimate.
    CHECK(p.rows[14].files_before == files12 + need13.file);
    CHECK(p.files == files12 + need13.file +
                         estimated_file_bytes(level_size(6, 14), levels.measured_file_bits(14)));
    CHECK(p.hours == doctest::Approx(r13.hours + p.rows[14].hours));
}

// A directory without files (the 48-seed plan on a new machine): the files are estimated
// from the sizes the build records measured, of files of the same rule set only, rather
// than at the generous 6 bits a position (about 1.5 times what awari's files measure).
TEST_CASE("make_build_plan: on a directory without files, the records' file sizes") {
    owaredb::test::TempDir dir;
    const LevelDir levels(dir.path(), Rules::awari(), db::LevelKind::Values, 1, 6);
    const uint64_t bytes12 = level_size(6, 12) / 2; // 4 bits a position
    std::istringstream in(record(12, "in-memory", 1, "a", "awari-12.owdb", bytes12) +
                          record(13, "in-memory", 1, "b", "abapa-13.owdb", 1000));
    const std::vector<RateRecord> records = parse_rate_records(in);
    const RateModel rates(records);
    const ModePlan modes("auto", MemoryBudget{uint64_t(1) << 30, true}, 6, kBuildFootprint);
    const BuildPlan p = make_build_plan(modes, GameLevels::up_to(14, 6), true, uint64_t(1) << 40,
                                        rates, 2, &levels, records);
    REQUIRE(p.rows.size() == 15);
    uint64_t files12 = 0;
    for (int n = 0; n <= 12; ++n) { // nothing measured below 12 (too small): generous
        CHECK_FALSE(p.rows[n].built);
        files12 += estimated_file_bytes(level_size(6, n));
    }
    CHECK(p.rows[13].files_before == files12);
    // 13 and 14 from awari-12's 4 bits; abapa's 13 is another game's file.
    const uint64_t file13 = estimated_file_bytes(level_size(6, 13), 4.0);
    const uint64_t file14 = estimated_file_bytes(level_size(6, 14), 4.0);
    CHECK(p.rows[13].disk_peak ==
          files12 + disk_need(13, 1, true, LevelMode::InMemory, 6, 4.0).peak());
    CHECK(p.files == files12 + file13 + file14);
    // Without the records: every file at the generous count.
    const BuildPlan plain = make_build_plan(modes, GameLevels::up_to(14, 6), true,
                                            uint64_t(1) << 40, rates, 2, &levels);
    CHECK(plain.files == files12 + estimated_file_bytes(level_size(6, 13)) +
                             estimated_file_bytes(level_size(6, 14)));
}

} // namespace
