#include <doctest/doctest.h>

#include "dbformat/format.hpp"
#include "dbformat/status.hpp"

using namespace owaredb::db;

TEST_CASE("level file names") {
    CHECK(level_file_name("abapa", 7) == "abapa-07.owdb");
    CHECK(level_file_name("awari", 48) == "awari-48.owdb");
    CHECK(level_file_name("omweso_4x8", 100) == "omweso_4x8-100.owdb");
    CHECK(level_path("/db", "awari", 0) == std::filesystem::path("/db/awari-00.owdb"));
    CHECK_THROWS_AS(level_file_name("Abapa", 1), std::invalid_argument);
    CHECK_THROWS_AS(level_file_name("a-b", 1), std::invalid_argument);
    CHECK_THROWS_AS(level_file_name("", 1), std::invalid_argument);
    CHECK_THROWS_AS(level_file_name("abapa", 128), std::invalid_argument);

    auto p = parse_level_file_name("abapa-07.owdb");
    REQUIRE(p);
    CHECK(p->rules == "abapa");
    CHECK(p->n == 7);
    CHECK(parse_level_file_name("awari-48.owdb")->n == 48);
    CHECK_FALSE(parse_level_file_name("abapa-7.owdb"));
    CHECK_FALSE(parse_level_file_name("abapa-007.owdb"));
    CHECK_FALSE(parse_level_file_name("abapa-07.owdb.tmp"));
    CHECK_FALSE(parse_level_file_name("abapa-xx.owdb"));
    CHECK_FALSE(parse_level_file_name("-07.owdb"));
    CHECK_FALSE(parse_level_file_name("abapa-200.owdb"));
}

TEST_CASE("status and result") {
    Status ok;
    CHECK(ok.ok());
    Status bad(ErrorCode::Corrupt, "f: broken", 3);
    CHECK_FALSE(bad.ok());
    CHECK(bad.block() == 3);
    CHECK(std::string(to_string(ErrorCode::NotFound)) == "not found");
    Result<int> r = 5;
    CHECK(r.ok());
    CHECK(*r == 5);
    CHECK(r.status().ok());
    Result<int> e = bad;
    CHECK_FALSE(e.ok());
    CHECK(e.status().message() == "f: broken");
}
