// Checkpoint files (dbformat/checkpoint.hpp): round trip, and every way a checkpoint can
// be wrong is refused with its reason, never read as valid.
#include "dbformat/checkpoint.hpp"
#include "dbformat/checksum.hpp"
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
    h.spent = CheckpointTime{3'600'123, 7'000'456};
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
    CHECK(exit_file_path("d/abapa-24.owdb") == "d/abapa-24.exits");
    CHECK(rank_exit_file_path("d/abapa-24.owdb", 3) == "d/abapa-24.rank3.exits");
    CHECK(is_rank_exit_file("d/abapa-24.owdb", "abapa-24.rank12.exits"));
    CHECK_FALSE(is_rank_exit_file("d/abapa-24.owdb", "abapa-24.exits"));
    CHECK_FALSE(is_rank_exit_file("d/abapa-24.owdb", "abapa-25.rank0.exits"));
    CHECK_FALSE(is_rank_exit_file("d/abapa-24.owdb", "abapa-24.rank0.checkpoint"));
    CHECK(owaredb::db::detail::is_temp_file_name("abapa-24.checkpoint.tmp.123.0"));
    CHECK_FALSE(owaredb::db::detail::is_temp_file_name("abapa-24.checkpoint"));
    CHECK(owaredb::db::detail::is_temp_file_name("scores.48.tmp.123.0"));
    CHECK_FALSE(owaredb::db::detail::is_temp_file_name("scores.48"));
    CHECK_FALSE(owaredb::db::detail::is_temp_file_name("scores..tmp.1.0"));
    CHECK_FALSE(owaredb::db::detail::is_temp_file_name("scores.4x.tmp.1.0"));
    CHECK_FALSE(owaredb::db::detail::is_temp_file_name("scores.48.tmp.1.x"));
}

TEST_CASE("checkpoint file: round trip, and each kind of damage refused") {
    TempDir dir;
    const auto path = dir / "abapa-09.checkpoint";
    const std::vector<uint8_t> data = payload(5000);
    const CheckpointHeader h = header(data.size());
    CheckpointFound found;
    const CheckpointProgress& progress = found.progress;
    std::vector<uint8_t> back(data.size());

    CHECK(read_checkpoint(path, h, found, back).code() == ErrorCode::NotFound);
    write_checkpoint(path, h, data);
    REQUIRE(read_checkpoint(path, h, found, back).ok());
    CHECK(back == data);
    CHECK(progress == h.progress);
    REQUIRE(found.spent);
    CHECK(found.spent == h.spent);
    // The expected header's progress fields and time do not matter, only the identity.
    CheckpointHeader other_progress = h;
    other_progress.progress = {};
    other_progress.spent = {};
    CHECK(read_checkpoint(path, other_progress, found, back).ok());
    CHECK(found.spent == h.spent);

    SUBCASE("another level, rule set, engine, kind or size is a mismatch") {
        for (int change = 0; change < 5; ++change) {
            CheckpointHeader e = h;
            if (change == 0) e.level.n = 10;
            if (change == 1) e.level.rules = "awari";
            if (change == 2) e.engine = 8;
            if (change == 3) e.level.kind = LevelKind::Bounds;
            if (change == 4) e.level.knobs = {1, 2, 4};
            CAPTURE(change);
            CHECK(read_checkpoint(path, e, found, back).code() == ErrorCode::Mismatch);
        }
        CheckpointHeader bigger = header(data.size() + 2);
        std::vector<uint8_t> big(bigger.payload_bytes);
        CHECK(read_checkpoint(path, bigger, found, big).code() != ErrorCode::Ok);
    }
    SUBCASE("every flipped byte is refused or reads the saved words; every truncation refused") {
        // A flip inside a compressed piece that leaves its words as they were (a zstd frame
        // header bit that does not matter) reads back the saved words, which the words'
        // checksum proves: what matters is that no other words are ever returned.
        const std::vector<uint8_t> good = read_bytes(path);
        int refused = 0;
        for (std::size_t at = 0; at < good.size(); at += (at < 200 ? 1 : 97)) {
            std::vector<uint8_t> bad = good;
            bad[at] ^= 0x40;
            write_bytes(path, bad);
            CAPTURE(at);
            std::fill(back.begin(), back.end(), 0);
            if (read_checkpoint(path, h, found, back).ok())
                CHECK(back == data);
            else
                ++refused;
        }
        CHECK(refused > 150);
        for (std::size_t size :
             {std::size_t(0), std::size_t(10), std::size_t(60), good.size() - 1}) {
            write_bytes(path, std::vector<uint8_t>(good.begin(), good.begin() + long(size)));
            CAPTURE(size);
            CHECK(read_checkpoint(path, h, found, back).code() == ErrorCode::Corrupt);
        }
        CHECK(progress == h.progress); // never overwritten by a refused file
    }
    SUBCASE("a rewrite replaces it whole") {
        CheckpointHeader later = h;
        later.progress = {99, 0, 0, 1};
        const std::vector<uint8_t> data2 = payload(5000);
        write_checkpoint(path, later, data2);
        REQUIRE(read_checkpoint(path, h, found, back).ok());
        CHECK(progress == later.progress);
        std::size_t files = 0;
        for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir.path()))
            ++files;
        CHECK(files == 1); // no temp file left
    }
}

namespace {

uint32_t u32_at(const std::vector<uint8_t>& bytes, size_t at) {
    return uint32_t(bytes[at]) | uint32_t(bytes[at + 1]) << 8 | uint32_t(bytes[at + 2]) << 16 |
           uint32_t(bytes[at + 3]) << 24;
}

// A checkpoint file of an older `version` (3: the words stored as they are; 2: also without
// the 16 bytes of time at the end of the header) holding what `current` (version 4) holds,
// whose words are `data`.
std::vector<uint8_t> as_version(const std::vector<uint8_t>& current,
                                const std::vector<uint8_t>& data, uint32_t version) {
    REQUIRE(u32_at(current, 8) == 4);
    const uint32_t header_bytes = u32_at(current, 12);
    const uint32_t old_header = version == 2 ? header_bytes - 16 : header_bytes;
    std::vector<uint8_t> old(current.begin(), current.begin() + 16 + old_header);
    old[8] = uint8_t(version);
    for (int i = 0; i < 4; ++i) old[12 + size_t(i)] = uint8_t(old_header >> (8 * i));
    const uint64_t sum = owaredb::db::detail::checksum(old);
    for (int i = 0; i < 8; ++i) old.push_back(uint8_t(sum >> (8 * i)));
    old.insert(old.end(), data.begin(), data.end());
    old.insert(old.end(), current.end() - 8, current.end()); // the words' checksum
    return old;
}

} // namespace

TEST_CASE("checkpoint file: the words are compressed, in pieces of 64 MiB") {
    TempDir dir;
    const auto path = dir / "abapa-30.checkpoint";
    // 150 MiB of words, three pieces: as a sweep's words, few distinct values in runs.
    std::vector<uint8_t> data((uint64_t(150) << 20) + 7);
    for (std::size_t i = 0; i < data.size(); ++i) data[i] = uint8_t((i / 4096) % 3 + (i % 7 == 0));
    const CheckpointHeader h = header(data.size());
    write_checkpoint(path, h, data);
    CHECK(std::filesystem::file_size(path) < data.size() / 4);
    CheckpointFound found;
    std::vector<uint8_t> back(data.size());
    REQUIRE(read_checkpoint(path, h, found, back).ok());
    CHECK(back == data);
    // A damaged last piece is refused; so is a truncated one.
    std::vector<uint8_t> bytes = read_bytes(path);
    const std::vector<uint8_t> good = bytes;
    bytes[bytes.size() - 100] ^= 0x20;
    write_bytes(path, bytes);
    CHECK(read_checkpoint(path, h, found, back).code() == ErrorCode::Corrupt);
    write_bytes(path, std::vector<uint8_t>(good.begin(), good.end() - 200));
    CHECK(read_checkpoint(path, h, found, back).code() == ErrorCode::Corrupt);
}

TEST_CASE("checkpoint file: versions 3 (words as they are) and 2 (no time) are still read") {
    // A run killed under an older binary resumes under a newer one.
    TempDir dir;
    const auto path = dir / "abapa-09.checkpoint";
    const std::vector<uint8_t> data = payload(300);
    const CheckpointHeader h = header(data.size());
    write_checkpoint(path, h, data);
    const std::vector<uint8_t> v4 = read_bytes(path);
    CheckpointFound found;
    std::vector<uint8_t> back(data.size());

    write_bytes(path, as_version(v4, data, 3));
    REQUIRE(read_checkpoint(path, h, found, back).ok());
    CHECK(back == data);
    CHECK(found.progress == h.progress);
    CHECK(found.spent == h.spent);

    std::vector<uint8_t> v2 = as_version(v4, data, 2);
    write_bytes(path, v2);
    std::fill(back.begin(), back.end(), 0);
    REQUIRE(read_checkpoint(path, h, found, back).ok());
    CHECK(back == data);
    CHECK(found.progress == h.progress);
    CHECK_FALSE(found.spent);
    // A run resumed from it saves the current version with the time still unknown.
    CheckpointHeader resumed = h;
    resumed.spent.reset();
    write_checkpoint(path, resumed, data);
    REQUIRE(read_checkpoint(path, h, found, back).ok());
    CHECK_FALSE(found.spent);
    // Versions it does not know are refused as such.
    v2[8] = 1;
    write_bytes(path, v2);
    CHECK(read_checkpoint(path, h, found, back).code() == ErrorCode::Unsupported);
}
