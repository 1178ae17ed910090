// The size estimate of a level file that generate's free-space check uses
// (tablebase/level_dir.hpp, estimated_file_bytes): generous for files of every size, and in
// proportion to the level, so that small levels are not refused on a small disk.
#include "dbformat/writer.hpp"
#include "oware/ranking.hpp"
#include "oware/rules.hpp"
#include "tablebase/level_dir.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <random>
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
        std::vector<int8_t> values(level_size(n));
        std::uniform_int_distribution<int> value(-n, n);
        for (int8_t& v : values) v = static_cast<int8_t>(value(rng));
        const fs::path file = db::level_path(dir, rules.name, uint32_t(n));
        db::write_level(file, {rules.name, rules.knob_bytes(), uint32_t(n), level_size(n)}, values);
        const uint64_t written = fs::file_size(file);
        const uint64_t estimate = estimated_file_bytes(level_size(n));
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
