// The size estimate of a level file that generate's free-space check uses
// (tablebase/level_dir.hpp, estimated_file_bytes): generous for files of every size, and in
// proportion to the level, so that small levels are not refused on a small disk.
#include "dbformat/writer.hpp"
#include "oware/ranking.hpp"
#include "oware/rules.hpp"
#include "retro/solve_in_memory.hpp"
#include "tablebase/database_dir.hpp"
#include "tablebase/level_dir.hpp"
#include "temp_dir.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <stdexcept>
#include <string>
#include <tuple>
#include <unistd.h>
#include <vector>

using namespace owaredb;
namespace fs = std::filesystem;

TEST_CASE("the file size estimate covers real files and stays in proportion to the level") {
    const fs::path dir =
        fs::temp_directory_path() / ("owaredb-estimate-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    const Rules rules = Rules::abapa();
    std::mt19937 rng(5);
    uint64_t estimated_0_to_8 = 0, written_0_to_8 = 0;
    for (int n = 0; n <= 14; ++n) {
        // Random values in -n..n: less compressible than any real level.
        std::vector<int8_t> values(level_size<6>(n));
        std::uniform_int_distribution<int> value(-n, n);
        for (int8_t& v : values) v = static_cast<int8_t>(value(rng));
        const fs::path file = db::level_path(dir, rules.name, uint32_t(n));
        db::write_level(file, {rules.name, rules.knob_bytes(6), uint32_t(n), level_size<6>(n)},
                        values, db::WriterOptions{.threads = 2});
        const uint64_t written = fs::file_size(file);
        const uint64_t estimate = estimated_file_bytes(level_size<6>(n));
        CHECK_MESSAGE(estimate >= written, "level " << n);
        if (n <= 8) {
            estimated_0_to_8 += estimate;
            written_0_to_8 += written;
        }
    }
    // Levels 0..8 write about 50 KB of random values (27 KB for real ones); the estimate
    // is within a small multiple of that, not 16 MiB a level (which refused them on a 3 MB
    // disk).
    CHECK(written_0_to_8 < 100'000);
    CHECK(estimated_0_to_8 < 1'000'000);
    // Large levels: the margin grows with the level (index and frames per block).
    const uint64_t big = uint64_t(1) << 34;
    CHECK(estimated_file_bytes(big) >= big * 6 / 8 + big / 64);
    fs::remove_all(dir);
}

// Other boards (#28): a board of P != 6 pits a side is named in the file ("abapa-p4-07.owdb")
// and recorded in the header (a third knob byte, P), while the standard board's names and
// headers are what they were; files of two boards never pass for each other.
TEST_CASE("a level file records its board in its name and its header") {
    CHECK(db::level_file_name("abapa", 7) == "abapa-07.owdb");
    CHECK(db::level_file_name("abapa", 7, db::LevelKind::Values, "p4") == "abapa-p4-07.owdb");
    CHECK(db::level_file_name("awari", 12, db::LevelKind::Bounds, "p7") ==
          "awari-p7-12.bounds.owdb");
    CHECK_THROWS_AS(db::level_file_name("abapa", 7, db::LevelKind::Values, "p-4"),
                    std::invalid_argument);
    auto name = db::parse_level_file_name("awari-p3-05.bounds.owdb");
    REQUIRE(name);
    CHECK(name->rules == "awari");
    CHECK(name->board == "p3");
    CHECK(name->n == 5);
    CHECK(name->kind == db::LevelKind::Bounds);
    CHECK(db::parse_level_file_name("abapa-05.owdb")->board.empty());
    CHECK_FALSE(db::parse_level_file_name("abapa-p4-x-05.owdb"));
    CHECK_FALSE(db::parse_level_file_name("abapa--05.owdb"));

    CHECK(board_tag(6).empty());
    CHECK(board_tag(4) == "p4");
    for (int p = 1; p <= 8; ++p) CHECK(pits_of_board_tag(board_tag(p)) == p);
    CHECK_FALSE(pits_of_board_tag("p6")); // the standard board has no tag
    CHECK_FALSE(pits_of_board_tag("p9"));
    CHECK_FALSE(pits_of_board_tag("q4"));

    CHECK(Rules::abapa().knob_bytes(6).size() == 2);
    std::vector<uint8_t> four = Rules::abapa().knob_bytes(6);
    four.push_back(4);
    CHECK(Rules::abapa().knob_bytes(4) == four);
    CHECK_THROWS_AS(LevelDir("d", Rules::abapa(), db::LevelKind::Values, 1, 9),
                    std::invalid_argument);
    // The directory's game is of its board, whatever the board.
    for (int p = 1; p <= 8; ++p) {
        const LevelDir dir("d", Rules::awari(), db::LevelKind::Values, 1, p);
        const auto [moves, size, rules] = dir.with_game([](const auto& game) {
            return std::tuple(game.kMaxMoves, game.level_size(5), game.rules().name);
        });
        CHECK(moves == p);
        CHECK(size == level_size(p, 5));
        CHECK(rules == "awari");
    }
}

TEST_CASE("levels of a 4-pit board are saved, read back, and refused under the 6-pit name") {
    const fs::path dir =
        fs::temp_directory_path() / ("owaredb-board-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    const Rules rules = Rules::awari();
    const auto levels = solve_in_memory(BasicOwareGame<4>(rules), 6, 1);
    DatabaseDir four(dir, rules, false, 4), six(dir, rules, false, 6);
    CHECK(four.level_size(6) == level_size<4>(6));
    CHECK(four.level_size(6) == level_size(4, 6));
    CHECK(four.path(6).filename() == "awari-p4-06.owdb");
    CHECK(four.meta(6).knobs == rules.knob_bytes(4));
    CHECK(four.meta(6).entries == level_size<4>(6));
    for (int n = 0; n <= 6; ++n) four.save(n, levels[n], 1, {});
    ValueArray back;
    REQUIRE(four.load(6, back, 1, {}).ok());
    CHECK(std::equal(back.span().begin(), back.span().end(), levels[6].span().begin(),
                     levels[6].span().end()));
    CHECK(board_sizes_in(dir) == std::vector<int>{4});
    CHECK(rule_sets_in(dir) == std::vector<std::string>{"awari"});
    // The 4-pit file under the 6-pit name is another level: refused, not read.
    fs::copy_file(four.path(6), six.path(6));
    CHECK(six.load(6, back, 1, {}).code() == db::ErrorCode::Mismatch);
    CHECK(board_sizes_in(dir) == std::vector<int>{4, 6});
    CHECK_THROWS_AS(DatabaseDir(dir, rules, true, 4), std::invalid_argument);
    fs::remove_all(dir);
}

TEST_CASE("a damaged level's report names its file once") {
    const test::TempDir dir;
    DatabaseDir db(dir.path(), Rules::abapa(), false, 3);
    const auto levels = solve_in_memory(BasicOwareGame<3>(Rules::abapa()), 6, 1);
    for (int n = 0; n <= 6; ++n) db.save(n, levels[n], 1, {});
    CHECK(db.verify(6, 1).ok());
    {
        std::fstream f(db.path(6), std::ios::in | std::ios::out | std::ios::binary);
        const auto middle = static_cast<std::streamoff>(fs::file_size(db.path(6)) / 2);
        f.seekg(middle);
        const char byte = static_cast<char>(f.get() ^ 0xff);
        f.seekp(middle);
        f.put(byte);
    }
    const db::VerifyReport r = db.verify(6, 1);
    REQUIRE_FALSE(r.ok());
    const std::string message = r.status.message(), path = db.path(6).string();
    CHECK(message.starts_with(path + ": "));
    CHECK(message.find(path, path.size()) == std::string::npos);
}

// generate's disk check estimates a level's file from the largest smaller level there
// (LevelDir::measured_file_bits): 6 bits a position counted awari 38's file 18 GB where
// level 37's bits give 11 (#49).
TEST_CASE("the file size estimate follows the bits of the largest smaller level there") {
    owaredb::test::TempDir dir;
    const Rules rules = Rules::awari();
    const LevelDir levels(dir.path(), rules, db::LevelKind::Values, 1, 6);
    const auto write = [&](int n) {
        std::vector<int8_t> values(level_size<6>(n));
        for (std::size_t i = 0; i < values.size(); ++i) values[i] = int8_t(i % 7 == 0 ? 2 : -n);
        db::write_level(levels.path(n), levels.meta(n), values, db::WriterOptions{.threads = 2});
        return 8.0 * double(fs::file_size(levels.path(n))) / double(values.size());
    };
    CHECK_FALSE(levels.measured_file_bits(14).has_value()); // nothing there
    write(10);                                              // 184,756 positions: too small
    CHECK_FALSE(levels.measured_file_bits(14).has_value());
    REQUIRE(level_size<6>(12) >= LevelDir::kMeasuredFileEntries);
    const double bits12 = write(12);
    CHECK(levels.measured_file_bits(12) == std::nullopt); // only smaller levels count
    CHECK(levels.measured_file_bits(13) == doctest::Approx(bits12));
    CHECK(levels.measured_file_bits(16) == doctest::Approx(bits12)); // 13..15 missing
    const double bits13 = write(13);
    CHECK(levels.measured_file_bits(16) == doctest::Approx(bits13)); // the largest below

    // 1.1 times the measured bits and the format's margin, never above the generous count.
    const uint64_t entries = uint64_t(1) << 34;
    const uint64_t margin = entries / 32 + (uint64_t(64) << 10);
    CHECK(estimated_file_bytes(entries, 3.8) == uint64_t(double(entries) * 1.1 * 3.8 / 8) + margin);
    CHECK(estimated_file_bytes(entries, 5.9) == estimated_file_bytes(entries));
    CHECK(estimated_file_bytes(entries, std::nullopt) == estimated_file_bytes(entries));
}

// A directory whose smaller levels are capture-bounded (generate --compact), about a
// quarter smaller than exact files, measured an exact level above them a quarter short:
// only files of the level's own kind count, a file of the other kind as missing.
TEST_CASE("the file size estimate counts only files of the kind the level is written in") {
    owaredb::test::TempDir dir;
    const LevelDir levels(dir.path(), Rules::awari(), db::LevelKind::Values, 1, 6);
    // Values spread over `spread` scores at random: files of clearly different sizes.
    const auto write = [&](int n, bool capture_bounded, uint64_t spread) {
        std::vector<int8_t> values(level_size<6>(n));
        uint64_t state = 12345;
        for (int8_t& v : values) {
            state = state * 6364136223846793005u + 1442695040888963407u;
            v = int8_t((state >> 33) % spread);
        }
        db::LevelMeta meta = levels.meta(n);
        meta.capture_bounded = capture_bounded;
        db::write_level(levels.path(n), meta, values, db::WriterOptions{.threads = 2});
        return 8.0 * double(fs::file_size(levels.path(n))) / double(values.size());
    };
    const double exact12 = write(12, false, 2);
    const double bounded13 = write(13, true, 8);
    REQUIRE(bounded13 > exact12 + 1);
    CHECK(levels.measured_file_bits(16) == doctest::Approx(exact12)); // not 13, the other kind
    CHECK(levels.measured_file_bits(16, {}, true) == doctest::Approx(bounded13));
    CHECK_FALSE(levels.measured_file_bits(13, {}, true).has_value()); // 12 is exact
    // A size known elsewhere is of an exact file: it stands in for a bounded file's level,
    // and is not asked for a capture-bounded level.
    std::vector<int> asked;
    const auto known = [&](int n) -> uint64_t {
        asked.push_back(n);
        return level_size<6>(n) / 2; // 4 bits
    };
    CHECK(levels.measured_file_bits(16, known) == doctest::Approx(4.0).epsilon(1e-6));
    CHECK(asked == std::vector<int>{15});
    asked.clear();
    CHECK(levels.measured_file_bits(16, known, true) == doctest::Approx(bounded13));
    CHECK(asked.empty());
}

// generate --plan on a directory without files takes the sizes its build records measured
// (the committed ones: docs/data/build-rates.jsonl), asked level by level; the directory's
// own file wins at a level both know, and the largest level either knows is the one taken.
TEST_CASE("the file size estimate takes sizes known elsewhere when the directory lacks them") {
    owaredb::test::TempDir dir;
    const LevelDir levels(dir.path(), Rules::awari(), db::LevelKind::Values, 1, 6);
    std::vector<int> asked;
    const auto known = [&](int n) -> uint64_t {
        asked.push_back(n);
        return n == 14 ? level_size<6>(14) / 2 : n == 11 ? 1 : 0; // 4 bits at 14
    };
    CHECK(levels.measured_file_bits(16, known) == doctest::Approx(4.0).epsilon(1e-6));
    CHECK(asked == std::vector<int>{15, 14}); // from the top down, stopping at the first
    // Level 11 (701,064 positions) is too small to count, known or not.
    CHECK_FALSE(levels.measured_file_bits(14, known).has_value());

    std::vector<int8_t> values(level_size<6>(15), 1);
    db::write_level(levels.path(15), levels.meta(15), values, db::WriterOptions{.threads = 2});
    const double bits15 = 8.0 * double(fs::file_size(levels.path(15))) / double(values.size());
    CHECK(levels.measured_file_bits(16, known) == doctest::Approx(bits15)); // the file, not 14
    // A level whose file is there is not asked for (its file is what it measures).
    asked.clear();
    CHECK(levels.measured_file_bits(16, [&](int n) -> uint64_t {
        asked.push_back(n);
        return 1;
    }) == doctest::Approx(bits15));
    CHECK(asked.empty());
}
