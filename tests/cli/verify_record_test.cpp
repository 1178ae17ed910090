// verify's progress file (verify_record.hpp): what a rerun may skip. A fact about level n
// holds while the files of levels 0..n are as they were; anything else is checked again.
// A file of another check is refused, a damaged one named, and the file is rewritten whole.
#include "cli/json.hpp"
#include "temp_dir.hpp"
#include "verify_record.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <stdexcept>
#include <string>

namespace {

using namespace owaredb::cli;
using owaredb::test::TempDir;

constexpr int kMaxLevel = 12;

// A directory of level files "lvl-N" (their bytes do not matter here, only their stamps),
// and another for the progress file.
struct Levels {
    TempDir dir, work;
    const std::filesystem::path file = work / "progress.json";
    std::filesystem::path path(int n) const { return dir / ("lvl-" + std::to_string(n)); }
    void write(int n, const std::string& bytes) const { std::ofstream(path(n)) << bytes; }
    // Levels 0..top, level n of n + 1 bytes.
    void write_up_to(int top) const {
        for (int n = 0; n <= top; ++n) write(n, std::string(size_t(n) + 1, 'x'));
    }
    // Level n of kPositions positions.
    static constexpr uint64_t kPositions = 1 << 20;
    LevelFiles path_of() const {
        return {[this](int n) { return path(n); }, [](int) { return kPositions; }};
    }
    VerifiedDirectory identity() const { return {dir.path(), "awari", 6, "owaredb"}; }
    VerifyRecord open(double seconds = 0) const {
        return VerifyRecord(file, identity(), kMaxLevel, path_of(), seconds);
    }
};

std::string read_all(const std::filesystem::path& p) {
    std::ifstream in(p);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

// The progress file rewritten as an owaredb before checksums wrote it (version 1), edited
// by `edit` first.
void rewrite_as_version_1(const Levels& levels, const std::function<void(Json&)>& edit) {
    Json doc = Json::parse(read_all(levels.file));
    doc.erase("checksum");
    doc["owaredb_verify_progress"] = 1;
    edit(doc);
    std::ofstream(levels.file) << doc.dump() << "\n";
}

bool has_line_with(const VerifyRecord& r, const std::string& text) {
    for (const std::string& line : r.opening_lines())
        if (line.find(text) != std::string::npos) return true;
    return false;
}

TEST_CASE("a new progress file records nothing, and is written at once") {
    Levels levels;
    levels.write_up_to(5);
    VerifyRecord r = levels.open();
    CHECK(has_line_with(r, ": new"));
    CHECK_FALSE(r.consistent(0));
    CHECK(r.consistent_prefix(3) == 0);
    // Written before any check, so that a file that cannot be written fails first.
    CHECK(std::filesystem::exists(levels.file));
    CHECK(has_line_with(levels.open(), "no level consistent"));
    CHECK_THROWS_WITH_AS(VerifyRecord(levels.work / "no-such-dir" / "progress.json",
                                      levels.identity(), kMaxLevel, levels.path_of()),
                         doctest::Contains("cannot write the progress file"), ProgressFileError);
}

TEST_CASE("levels and a level's first positions survive a rerun over the same files") {
    Levels levels;
    levels.write_up_to(5);
    {
        VerifyRecord r = levels.open();
        for (int n = 0; n <= 3; ++n) r.record_consistent(n);
        r.record_prefix(4, 1234);
    }
    VerifyRecord again = levels.open();
    for (int n = 0; n <= 3; ++n) CHECK(again.consistent(n));
    CHECK_FALSE(again.consistent(4));
    CHECK(again.consistent_prefix(4) == 1234);
    CHECK(again.consistent_prefix(3) == 0);
    CHECK(has_line_with(again, "levels 0..3 consistent; level 4: its first 1234 positions"));
    // The level found consistent whole leaves no prefix behind.
    again.record_consistent(4);
    VerifyRecord third = levels.open();
    CHECK(third.consistent(4));
    CHECK(third.consistent_prefix(4) == 0);
    CHECK(has_line_with(third, "levels 0..4 consistent"));
    // Nothing but the file itself is left in the directory (temp file renamed over it).
    int entries = 0;
    for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(levels.work.path()))
        ++entries;
    CHECK(entries == 1);
}

TEST_CASE("a changed, new or removed level file drops the facts of its level and above") {
    Levels levels; // each subcase runs the test case anew, so each gets a fresh directory
    // Levels 0..5 written (but `missing`), 0..4 recorded consistent (but `missing`: verify
    // records only the levels it checked), level 5's first 99.
    auto record_over = [&](int missing) {
        for (int n = 0; n <= 5; ++n)
            if (n != missing) levels.write(n, "ab");
        VerifyRecord r = levels.open();
        for (int n = 0; n <= 4; ++n)
            if (n != missing) r.record_consistent(n);
        r.record_prefix(5, 99);
    };
    SUBCASE("changed") {
        record_over(-1);
        levels.write(3, "abc"); // another size
        VerifyRecord r = levels.open();
        CHECK(r.consistent(2));
        CHECK_FALSE(r.consistent(3));
        CHECK_FALSE(r.consistent(4));
        CHECK(r.consistent_prefix(5) == 0);
        CHECK(has_line_with(r, "level 3's file changed since, so levels 3 and above are checked "
                               "again"));
    }
    SUBCASE("appeared") {
        record_over(4);
        levels.write(4, "ab");
        VerifyRecord r = levels.open();
        CHECK(r.consistent(3));
        CHECK_FALSE(r.consistent(4));
        CHECK(has_line_with(r, "level 4's file appeared since"));
    }
    SUBCASE("gone") {
        record_over(-1);
        std::filesystem::remove(levels.path(0));
        VerifyRecord r = levels.open();
        CHECK_FALSE(r.consistent(0));
        CHECK(has_line_with(r, "level 0's file is gone since"));
    }
    SUBCASE("a level above every fact: nothing dropped") {
        record_over(-1);
        levels.write(7, "ab"); // the generation wrote a higher level meanwhile
        VerifyRecord r = levels.open();
        CHECK(r.consistent(4));
        CHECK(r.consistent_prefix(5) == 99);
        CHECK_FALSE(has_line_with(r, "since"));
    }
}

TEST_CASE("the prefix is rewritten at most once per interval; a level's end always") {
    Levels levels;
    levels.write(0, "a");
    VerifyRecord r = levels.open(3600);
    r.record_prefix(0, 10); // the first write is not held back
    r.record_prefix(0, 20); // within the interval: kept in memory only
    CHECK(levels.open().consistent_prefix(0) == 10);
    r.record_consistent(0);
    CHECK(levels.open().consistent(0));
}

TEST_CASE("a level's check time adds up over the runs that checked it, and goes with it") {
    Levels levels;
    levels.write_up_to(5);
    {
        VerifyRecord r = levels.open();
        r.record_consistent(0, {1, 0.5, 0.25});
        r.record_prefix(1, 100, {100, 10, 15}); // a run killed after 100 positions of level 1
    }
    {
        VerifyRecord r = levels.open();
        CHECK(r.time_of(0)->positions == 1);
        CHECK(r.time_of(0)->cpu_seconds == doctest::Approx(0.25));
        CHECK(r.time_of(1)->positions == 100);
        CHECK(r.time_of(2) == std::nullopt);
        // The rerun resumes at position 100: its time joins the killed run's.
        r.record_prefix(1, 150, {50, 4, 6});
        CHECK(r.time_of(1)->positions == 150);
        CHECK(r.time_of(1)->wall_seconds == doctest::Approx(14));
        r.record_consistent(1, {200, 20, 30});
        CHECK(r.time_of(1)->positions == 300);
        CHECK(r.time_of(1)->wall_seconds == doctest::Approx(30));
        CHECK(r.time_of(1)->cpu_seconds == doctest::Approx(45));
    }
    VerifyRecord again = levels.open();
    REQUIRE(again.time_of(1));
    CHECK(again.time_of(1)->positions == 300);
    CHECK(again.time_of(1)->cpu_seconds == doctest::Approx(45));
    // A level whose file changed is checked again, its old time dropped with its fact.
    levels.write(1, "changed");
    CHECK(levels.open().time_of(1) == std::nullopt);
    CHECK(levels.open().time_of(0)->wall_seconds == doctest::Approx(0.5));
}

TEST_CASE("a record without times (an older owaredb's) is read; a resumed check times its part") {
    Levels levels;
    levels.write_up_to(2);
    { levels.open().record_prefix(2, 40); }
    const std::string text = read_all(levels.file);
    REQUIRE(text.find("\"time\"") == std::string::npos);
    // As an older owaredb wrote it: no "times" at all (nor a checksum).
    rewrite_as_version_1(levels, [](Json& doc) { doc.erase("times"); });
    VerifyRecord r = levels.open();
    CHECK(r.consistent_prefix(2) == 40);
    CHECK(r.time_of(2) == std::nullopt);
    r.record_consistent(2, {60, 3, 5});
    // Only the 60 positions this run timed: 3 s over 60 is a true rate, 3 s over 100 is not.
    CHECK(r.time_of(2)->positions == 60);
    CHECK(levels.open().time_of(2)->positions == 60);
}

TEST_CASE("a progress file of another check is refused, a damaged one named") {
    Levels levels;
    levels.write(0, "a");
    levels.open().record_consistent(0);
    const std::string other_rules = "records a check of '" + levels.dir.path().string() +
                                    "' (awari, 6 pits a side, owaredb files), not of";
    CHECK_THROWS_WITH_AS(VerifyRecord(levels.file, {levels.dir.path(), "abapa", 6, "owaredb"},
                                      kMaxLevel, levels.path_of()),
                         doctest::Contains(other_rules.c_str()), std::runtime_error);
    CHECK_THROWS_WITH_AS(VerifyRecord(levels.file, {levels.work.path(), "awari", 6, "owaredb"},
                                      kMaxLevel, levels.path_of()),
                         doctest::Contains("give another --progress-file"), std::runtime_error);
    const std::string text = read_all(levels.file);
    std::ofstream(levels.file) << text.substr(0, text.size() / 2); // cut short
    CHECK_THROWS_WITH_AS(levels.open(), doctest::Contains("is not a verify progress file"),
                         std::runtime_error);
    std::ofstream(levels.file) << "{\"something\": 1}\n";
    CHECK_THROWS_WITH_AS(levels.open(), doctest::Contains("is not a verify progress file"),
                         std::runtime_error);
    std::ofstream(levels.file) << text;
    rewrite_as_version_1(levels, [](Json& doc) { doc["consistent"] = {99}; });
    CHECK_THROWS_WITH_AS(levels.open(), doctest::Contains("level 99 out of range"),
                         std::runtime_error);
}

// The hostile run of #52 (item 3): edits that made verify say OK for a level it never checked.
TEST_CASE("a progress file that does not fit its levels is refused, naming it") {
    Levels levels;
    levels.write_up_to(3);
    {
        VerifyRecord r = levels.open();
        r.record_consistent(0);
        r.record_consistent(1);
        r.record_prefix(2, 10);
    }
    const std::string good = read_all(levels.file);
    const std::string name = "progress file '" + levels.file.string() + "'";
    auto refused = [&](const char* why) {
        CHECK_THROWS_WITH_AS(levels.open(), doctest::Contains(why), std::runtime_error);
        CHECK_THROWS_WITH_AS(levels.open(), doctest::Contains(name.c_str()), std::runtime_error);
    };
    SUBCASE("one digit changed: the checksum does not match") {
        std::string text = good;
        const size_t at = text.find("\"positions\":10");
        REQUIRE(at != std::string::npos);
        text[at + 12] = '9'; // a prefix of 90 positions
        std::ofstream(levels.file) << text;
        refused("checksum does not match");
    }
    SUBCASE("a prefix of -1 positions (2^64 - 1)") {
        rewrite_as_version_1(levels, [](Json& doc) { doc["prefix"]["positions"] = -1; });
        refused("prefix positions -1 out of range");
    }
    SUBCASE("a prefix as long as the level") {
        rewrite_as_version_1(levels,
                             [](Json& doc) { doc["prefix"]["positions"] = Levels::kPositions; });
        refused("out of range 0..1048575");
    }
    SUBCASE("a level 2^40, which would have wrapped to level 0") {
        rewrite_as_version_1(levels, [](Json& doc) { doc["consistent"] = {uint64_t(1) << 40}; });
        refused("level 1099511627776 out of range");
    }
    SUBCASE("a level 1.5, which would have been level 1") {
        rewrite_as_version_1(levels, [](Json& doc) { doc["consistent"] = {1.5}; });
        refused("level 1.5 out of range");
    }
    SUBCASE("a level consistent whose file was not there") {
        rewrite_as_version_1(levels, [](Json& doc) { doc["consistent"] = {0, 1, 9}; });
        refused("level 9 recorded consistent without its file");
    }
    SUBCASE("a time of more positions than the level has") {
        {
            VerifyRecord r = levels.open();
            r.record_consistent(2, {Levels::kPositions, 1, 1});
        }
        rewrite_as_version_1(
            levels, [](Json& doc) { doc["times"][0]["positions"] = Levels::kPositions + 1; });
        refused("timed positions 1048577 out of range");
    }
    SUBCASE("an unchanged file of version 1 (no checksum) is read") {
        rewrite_as_version_1(levels, [](Json&) {});
        VerifyRecord r = levels.open();
        CHECK(r.consistent(1));
        CHECK(r.consistent_prefix(2) == 10);
    }
}

} // namespace
