// Checkpoint files (dbformat/checkpoint.hpp): round trip, and every way a checkpoint can
// be wrong is refused with its reason, never read as valid.
#include "dbformat/checkpoint.hpp"
#include "dbformat/file_io.hpp"
#include "helpers.hpp"

#include <doctest/doctest.h>

#include <numeric>

using namespace owaredb::db;
using namespace owaredb::db::test;

namespace {

CheckpointHeader header(uint64_t payload_bytes) {
    CheckpointHeader h;
    h.level.rules = "abapa";
    h.level.knobs = {1, 2, 3};
    h.level.n = 9;
    h.level.entries = payload_bytes / 2;
    h.engine = 7;
    h.payload_bytes = payload_bytes;
    h.progress = {11, 22, 33, 44, 55};
    return h;
}

std::vector<uint8_t> payload(std::size_t size) {
    std::vector<uint8_t> p(size);
    std::iota(p.begin(), p.end(), uint8_t(5));
    return p;
}

} // namespace

TEST_CASE("checkpoint file: the path sits beside the level file") {
    CHECK(checkpoint_path("d/abapa-24.owdb") == "d/abapa-24.checkpoint");
    CHECK(checkpoint_path("d/abapa-24.bounds.owdb") == "d/abapa-24.bounds.checkpoint");
    CHECK(owaredb::db::detail::is_temp_file_name("abapa-24.checkpoint.tmp.123.0"));
    CHECK_FALSE(owaredb::db::detail::is_temp_file_name("abapa-24.checkpoint"));
}

TEST_CASE("checkpoint file: round trip, and each kind of damage refused") {
    TempDir dir;
    const auto path = dir / "abapa-09.checkpoint";
    const std::vector<uint8_t> data = payload(5000);
    const CheckpointHeader h = header(data.size());
    CheckpointProgress progress{};
    std::vector<uint8_t> back(data.size());

    CHECK(read_checkpoint(path, h, progress, back).code() == ErrorCode::NotFound);
    write_checkpoint(path, h, data);
    REQUIRE(read_checkpoint(path, h, progress, back).ok());
    CHECK(back == data);
    CHECK(progress == h.progress);
    // The expected header's progress fields do not matter, only the identity.
    CheckpointHeader other_progress = h;
    other_progress.progress = {};
    CHECK(read_checkpoint(path, other_progress, progress, back).ok());

    SUBCASE("another level, rule set, engine, kind or size is a mismatch") {
        for (int change = 0; change < 5; ++change) {
            CheckpointHeader e = h;
            if (change == 0) e.level.n = 10;
            if (change == 1) e.level.rules = "awari";
            if (change == 2) e.engine = 8;
            if (change == 3) e.level.kind = LevelKind::Bounds;
            if (change == 4) e.level.knobs = {1, 2, 4};
            CAPTURE(change);
            CHECK(read_checkpoint(path, e, progress, back).code() == ErrorCode::Mismatch);
        }
        CheckpointHeader bigger = header(data.size() + 2);
        std::vector<uint8_t> big(bigger.payload_bytes);
        CHECK(read_checkpoint(path, bigger, progress, big).code() != ErrorCode::Ok);
    }
    SUBCASE("every flipped byte and every truncation is refused") {
        const std::vector<uint8_t> good = read_bytes(path);
        for (std::size_t at = 0; at < good.size(); at += (at < 200 ? 1 : 97)) {
            std::vector<uint8_t> bad = good;
            bad[at] ^= 0x40;
            write_bytes(path, bad);
            CAPTURE(at);
            CHECK_FALSE(read_checkpoint(path, h, progress, back).ok());
        }
        for (std::size_t size :
             {std::size_t(0), std::size_t(10), std::size_t(60), good.size() - 1}) {
            write_bytes(path, std::vector<uint8_t>(good.begin(), good.begin() + long(size)));
            CAPTURE(size);
            CHECK(read_checkpoint(path, h, progress, back).code() == ErrorCode::Corrupt);
        }
        CHECK(progress == h.progress); // never overwritten by a refused file
    }
    SUBCASE("a rewrite replaces it whole") {
        CheckpointHeader later = h;
        later.progress = {99, 0, 0, 1};
        const std::vector<uint8_t> data2 = payload(5000);
        write_checkpoint(path, later, data2);
        REQUIRE(read_checkpoint(path, h, progress, back).ok());
        CHECK(progress == later.progress);
        std::size_t files = 0;
        for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir.path()))
            ++files;
        CHECK(files == 1); // no temp file left
    }
}
