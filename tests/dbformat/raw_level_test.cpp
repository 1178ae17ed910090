// Headerless level files (dbformat/raw_level.hpp, Romein & Bal's scores.N): exact reads,
// and every way such a file can be wrong gives an error naming the file and the offset.
#include "dbformat/raw_level.hpp"
#include "helpers.hpp"

#include <doctest/doctest.h>

#include <sys/stat.h>

#include <array>
#include <vector>

using namespace owaredb::db;
using namespace owaredb::db::test;

namespace {

void write_values(const std::filesystem::path& path, const std::vector<int8_t>& values) {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(values.data()), std::streamsize(values.size()));
}

} // namespace

TEST_CASE("raw level file: reads exactly what is stored, in runs and at offsets") {
    TempDir dir;
    std::vector<int8_t> stored(1000);
    for (size_t i = 0; i < stored.size(); ++i) stored[i] = int8_t(int(i % 13) - 6);
    write_values(dir / "scores.6", stored);
    Result<RawLevelFile> f = RawLevelFile::open(dir / "scores.6", stored.size(), 6);
    REQUIRE(f.ok());
    CHECK(f->entries() == 1000);
    std::vector<int8_t> out(1000);
    REQUIRE(f->read(0, out).ok());
    CHECK(out == stored);
    std::vector<int8_t> some(7);
    REQUIRE(f->read(993, some).ok());
    CHECK(some == std::vector<int8_t>(stored.end() - 7, stored.end()));
    const std::vector<uint64_t> offsets = {999, 0, 500, 13, 13};
    std::vector<int8_t> at(offsets.size());
    REQUIRE(f->read_at(offsets, at).ok());
    for (size_t i = 0; i < offsets.size(); ++i) CHECK(at[i] == stored[offsets[i]]);
    CHECK(f->read(994, some).code() == ErrorCode::OutOfRange);
    const std::vector<uint64_t> past = {1000};
    std::vector<int8_t> one(1);
    CHECK(f->read_at(past, one).code() == ErrorCode::OutOfRange);
    f->will_need(0, 1000); // advice only: no effect on values
    f->done_with(0, 1000);
    REQUIRE(f->read(0, out).ok());
    CHECK(out == stored);
}

TEST_CASE("raw level file: a value outside -n..n is an error naming file and offset") {
    TempDir dir;
    std::vector<int8_t> stored(5000, 0);
    stored[4321] = 7; // level 6: values -6..6
    write_values(dir / "scores.6", stored);
    Result<RawLevelFile> f = RawLevelFile::open(dir / "scores.6", stored.size(), 6);
    REQUIRE(f.ok());
    std::vector<int8_t> out(5000);
    const Status s = f->read(0, out);
    CHECK(s.code() == ErrorCode::Corrupt);
    CHECK(s.message().find("scores.6: offset 4321 holds 7, outside -6..6") != std::string::npos);
    std::vector<int8_t> before(4321);
    CHECK(f->read(0, before).ok());
    const std::vector<uint64_t> offsets = {3, 4321};
    std::vector<int8_t> two(2);
    CHECK(f->read_at(offsets, two).message().find("offset 4321") != std::string::npos);
    stored[4321] = -128;
    write_values(dir / "scores.6", stored);
    Result<RawLevelFile> g = RawLevelFile::open(dir / "scores.6", stored.size(), 6);
    REQUIRE(g.ok());
    CHECK(g->read(0, out).message().find("holds -128") != std::string::npos);
}

TEST_CASE("raw level file: the histogram counts every value; a bad one is named, lowest first") {
    TempDir dir;
    // Over several of its 4 Mi chunks, so that threads count parts and a later chunk's bad
    // value cannot hide an earlier one's.
    std::vector<int8_t> stored((uint64_t(1) << 22) * 3 + 12345);
    std::array<uint64_t, 256> expected{};
    for (size_t i = 0; i < stored.size(); ++i) {
        stored[i] = int8_t(int((i * 7919) % 11) - 5);
        ++expected[uint8_t(stored[i])];
    }
    write_values(dir / "scores.5", stored);
    Result<RawLevelFile> f = RawLevelFile::open(dir / "scores.5", stored.size(), 5);
    REQUIRE(f.ok());
    for (int threads : {1, 2, 3}) {
        Result<Histogram> h = f->histogram(threads);
        REQUIRE(h.ok());
        CHECK(h->counts == expected);
        CHECK(h->total() == stored.size());
    }
    stored[(uint64_t(1) << 22) * 2 + 9] = 6;
    stored[(uint64_t(1) << 22) + 77] = -6;
    write_values(dir / "scores.5", stored);
    Result<RawLevelFile> g = RawLevelFile::open(dir / "scores.5", stored.size(), 5);
    REQUIRE(g.ok());
    Result<Histogram> bad = g->histogram(2);
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.status().code() == ErrorCode::Corrupt);
    CHECK(bad.status().message().find("offset " + std::to_string((uint64_t(1) << 22) + 77) +
                                      " holds -6") != std::string::npos);
}

TEST_CASE("raw level file: a missing file, another size, a directory, a FIFO") {
    TempDir dir;
    CHECK(RawLevelFile::open(dir / "scores.3", 364, 3).status().code() == ErrorCode::NotFound);
    write_values(dir / "scores.3", std::vector<int8_t>(363));
    const Status shorter = RawLevelFile::open(dir / "scores.3", 364, 3).status();
    CHECK(shorter.code() == ErrorCode::Corrupt);
    CHECK(shorter.message().find("scores.3: 363 bytes, but this level has 364") !=
          std::string::npos);
    write_values(dir / "scores.3", std::vector<int8_t>(365));
    CHECK(RawLevelFile::open(dir / "scores.3", 364, 3).status().code() == ErrorCode::Corrupt);
    std::filesystem::create_directory(dir / "scores.4");
    CHECK(RawLevelFile::open(dir / "scores.4", 1, 4).status().message().find("is a directory") !=
          std::string::npos);
    REQUIRE(::mkfifo((dir / "scores.5").c_str(), 0600) == 0);
    CHECK(RawLevelFile::open(dir / "scores.5", 1, 5)
              .status()
              .message()
              .find("is not a regular file") != std::string::npos);
    write_values(dir / "scores.0", std::vector<int8_t>(0));
    Result<RawLevelFile> empty = RawLevelFile::open(dir / "scores.0", 0, 0);
    REQUIRE(empty.ok());
    CHECK(empty->read(0, std::span<int8_t>()).ok());
}

TEST_CASE("raw level file: truncated while mapped, a read is an error and the process lives") {
    // A read of a mapped page past the file's end raises SIGBUS; it killed the process
    // (serve, Python) before reads turned it into an error (issue #52).
    TempDir dir;
    const std::size_t size = 5 * 4096 + 3;
    std::vector<int8_t> stored(size);
    for (size_t i = 0; i < size; ++i) stored[i] = int8_t(int(i % 9) - 4);
    write_values(dir / "scores.4", stored);
    Result<RawLevelFile> f = RawLevelFile::open(dir / "scores.4", size, 4);
    REQUIRE(f.ok());
    std::vector<int8_t> out(100);
    REQUIRE(f->read(0, out).ok());
    std::filesystem::resize_file(dir / "scores.4", 4096); // pages 1.. are gone
    auto is_cut = [](const Status& s) {
        return s.code() == ErrorCode::Corrupt &&
               s.message().find("scores.4: file shorter than when opened") != std::string::npos;
    };
    CHECK(f->read(0, out).ok()); // the first page is still there
    CHECK(is_cut(f->read(size - 100, out)));
    const std::vector<uint64_t> offsets = {0, size - 1};
    std::vector<int8_t> at(2);
    CHECK(is_cut(f->read_at(offsets, at)));
    Result<Histogram> h = f->histogram(2);
    CHECK(is_cut(h.status()));
    // Reads within what is left still answer.
    const std::vector<uint64_t> first = {1, 4095};
    REQUIRE(f->read_at(first, at).ok());
    CHECK(at == std::vector<int8_t>{stored[1], stored[4095]});
}

TEST_CASE("raw level file: a sparse file of level 48's size (203,648,015,935 bytes)") {
    // As large as the published scores.48, without the disk: the offsets at the far end
    // of the largest level are read where the data is.
    TempDir dir;
    const uint64_t size = 203'648'015'935ULL;
    { std::ofstream out(dir / "scores.48", std::ios::binary); }
    std::filesystem::resize_file(dir / "scores.48", size);
    {
        std::fstream out(dir / "scores.48", std::ios::binary | std::ios::in | std::ios::out);
        out.seekp(std::streamoff(size - 1));
        out.put(char(-48));
        out.seekp(std::streamoff(size / 2));
        out.put(char(49));
    }
    Result<RawLevelFile> f = RawLevelFile::open(dir / "scores.48", size, 48);
    REQUIRE(f.ok());
    const std::vector<uint64_t> offsets = {size - 1, 0, size - 2};
    std::vector<int8_t> v(3);
    REQUIRE(f->read_at(offsets, v).ok());
    CHECK(v == std::vector<int8_t>{-48, 0, 0});
    std::vector<int8_t> one(1);
    CHECK(f->read(size / 2, one).message().find("offset 101824007967 holds 49") !=
          std::string::npos);
}
