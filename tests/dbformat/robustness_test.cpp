// Damaged, truncated, mismatched and missing files: each gives a clear error, never a value.
#include <doctest/doctest.h>

#include "dbformat/reader.hpp"
#include "dbformat/writer.hpp"
#include "helpers.hpp"

using namespace owaredb::db;
using namespace owaredb::db::test;

namespace {

struct Fixture {
    LevelMeta meta = meta_for("abapa", 6, 3000);
    std::vector<int8_t> values = sample_values(3000, 6, 11, 0.05);
    std::vector<uint8_t> bytes;
    LevelInfo info;

    explicit Fixture(DictionaryMode dict = DictionaryMode::Off) {
        WriterOptions o;
        o.threads = 2;
        o.block_entries = 256; // 12 blocks, the last one partial
        o.level = 3;
        o.dictionary = dict;
        if (dict == DictionaryMode::On) o.dictionary_bytes = 1024;
        bytes = encode_level(meta, values, o);
        auto r = LevelReader::from_memory(bytes, "fixture");
        info = *r.info();
    }
};

// Every value the reader returns equals the original; errors are allowed. Returns whether
// any read failed.
bool reads_are_correct_or_errors(const LevelReader& r, const std::vector<int8_t>& values,
                                 uint32_t block) {
    bool failed = false;
    for (uint64_t i = 0; i < values.size(); i += block / 4) {
        auto v = r.value(i);
        if (!v.ok()) {
            failed = true;
            CHECK_FALSE(v.status().message().empty());
            continue;
        }
        REQUIRE(int(*v) == int(values[i]));
    }
    return failed;
}

} // namespace

TEST_CASE("missing file, empty file, directory, garbage") {
    TempDir dir;
    LevelReader missing(dir / "abapa-05.owdb");
    CHECK(missing.open().code() == ErrorCode::NotFound);
    CHECK(missing.value(0).status().code() == ErrorCode::NotFound);
    CHECK(missing.open().message().find("abapa-05.owdb") != std::string::npos);

    write_bytes(dir / "abapa-06.owdb", {});
    LevelReader empty(dir / "abapa-06.owdb");
    CHECK(empty.open().code() == ErrorCode::Corrupt);
    CHECK(empty.open().message().find("empty file") != std::string::npos);

    std::filesystem::create_directory(dir / "abapa-07.owdb");
    LevelReader directory(dir / "abapa-07.owdb");
    CHECK(directory.open().code() == ErrorCode::Io);
    CHECK(directory.open().message().find("is a directory") != std::string::npos);
    CHECK_FALSE(directory.value(0).ok());
    CHECK_FALSE(directory.verify(2).ok());
    CHECK_FALSE(directory.histogram(2).ok());
    CHECK_FALSE(directory.info().ok());

    write_bytes(dir / "abapa-08.owdb", std::vector<uint8_t>(5000, 'x'));
    LevelReader garbage(dir / "abapa-08.owdb");
    CHECK(garbage.open().code() == ErrorCode::Corrupt);
    CHECK(garbage.open().message().find("not an owaredb level file") != std::string::npos);
    // So is a short one: it is not called "truncated".
    write_bytes(dir / "abapa-08.owdb", {'h', 'i', '\n'});
    LevelReader text(dir / "abapa-08.owdb");
    CHECK(text.open().message().find("not an owaredb level file") != std::string::npos);
}

TEST_CASE("constructing readers does no I/O") {
    TempDir dir;
    Fixture f;
    auto path = dir / "abapa-06.owdb";
    LevelReader r(path, {}); // the file does not exist yet: no error until first use
    write_bytes(path, f.bytes);
    CHECK(r.open().ok());
    CHECK(*r.value(5) == f.values[5]);
}

TEST_CASE("a file of another rule set, n, knobs or size under the right name") {
    TempDir dir;
    Fixture f;
    auto path = dir / "awari-07.owdb"; // holds abapa n=6
    write_bytes(path, f.bytes);
    auto expect = [&](Expectation e) {
        ReaderOptions o;
        o.expect = std::move(e);
        return LevelReader(path, o);
    };
    Expectation e = Expectation::exactly(f.meta);
    CHECK(expect(e).open().ok());

    Expectation rules = e;
    rules.rules = "awari";
    auto r = expect(rules);
    CHECK(r.open().code() == ErrorCode::Mismatch);
    CHECK(r.open().message().find("'abapa' n=6") != std::string::npos);
    CHECK(r.value(0).status().code() == ErrorCode::Mismatch);

    Expectation n = e;
    n.n = 7;
    CHECK(expect(n).open().code() == ErrorCode::Mismatch);
    Expectation knobs = e;
    knobs.knobs = std::vector<uint8_t>{1, 2, 4};
    CHECK(expect(knobs).open().code() == ErrorCode::Mismatch);
    Expectation entries = e;
    entries.entries = 2999;
    CHECK(expect(entries).open().code() == ErrorCode::Mismatch);
}

TEST_CASE("truncated files never open") {
    Fixture f;
    const std::size_t step = quick() ? 7 : 1;
    for (std::size_t len = 0; len < f.bytes.size(); len += step) {
        std::vector<uint8_t> cut(f.bytes.begin(), f.bytes.begin() + std::ptrdiff_t(len));
        auto r = LevelReader::from_memory(std::move(cut), "cut");
        CAPTURE(len);
        REQUIRE_FALSE(r.open().ok());
        CHECK(r.open().code() == ErrorCode::Corrupt);
        CHECK_FALSE(r.value(0).ok());
    }
    // And through the file system, at a few lengths.
    TempDir dir;
    for (std::size_t len : {std::size_t(1), std::size_t(15), std::size_t(100), f.bytes.size() / 2,
                            f.bytes.size() - 1}) {
        auto path = dir / "abapa-06.owdb";
        write_bytes(path,
                    std::vector<uint8_t>(f.bytes.begin(), f.bytes.begin() + std::ptrdiff_t(len)));
        LevelReader r(path);
        CHECK(r.open().code() == ErrorCode::Corrupt);
        CHECK(r.open().message().find(path.string()) != std::string::npos);
    }
}

TEST_CASE("flipped bits: never a wrong value, verify always notices") {
    for (auto dict : {DictionaryMode::Off, DictionaryMode::On}) {
        Fixture f(dict);
        CAPTURE(f.info.dictionary_bytes);
        const uint64_t data_start = f.info.header_bytes;
        const uint64_t index_start = data_start + f.info.data_bytes;
        const uint64_t trailer_start = index_start + f.info.index_bytes;
        const std::size_t step = quick() ? 13 : 1;
        for (std::size_t pos = 0; pos < f.bytes.size(); pos += step) {
            for (int bit = 0; bit < 8; bit += quick() ? 3 : 1) {
                auto bytes = f.bytes;
                bytes[pos] ^= uint8_t(1u << bit);
                auto r = LevelReader::from_memory(std::move(bytes), "flipped");
                CAPTURE(pos);
                CAPTURE(bit);
                Status open = r.open();
                if (pos < data_start || (pos >= index_start && pos < trailer_start)) {
                    // Header or index: rejected before any use.
                    REQUIRE_FALSE(open.ok());
                    CHECK_FALSE(r.value(0).ok());
                    continue;
                }
                if (pos >= trailer_start) {
                    // Trailer: the index offset and end marker are checked at open; the
                    // whole-file checksum only by verify.
                    if (open.ok()) {
                        CHECK_FALSE(reads_are_correct_or_errors(r, f.values, 256));
                        auto rep = r.verify(1);
                        CHECK_FALSE(rep.ok());
                        CHECK_FALSE(rep.file_checksum_ok);
                    }
                    continue;
                }
                // Data: the damaged block is reported, every other value is still right.
                REQUIRE(open.ok());
                reads_are_correct_or_errors(r, f.values, 256);
                auto rep = r.verify(1);
                REQUIRE_FALSE(rep.ok());
                REQUIRE(rep.damaged_blocks.size() == 1);
                CHECK(rep.status.block() == rep.damaged_blocks[0]);
                uint64_t b = rep.damaged_blocks[0];
                auto v = r.value(b * 256);
                REQUIRE_FALSE(v.ok());
                CHECK(v.status().block() == b);
                CHECK(v.status().message().find("block " + std::to_string(b)) != std::string::npos);
                CHECK_FALSE(r.histogram(1).ok());
            }
        }
    }
}

TEST_CASE("another format version is reported as unsupported") {
    Fixture f;
    auto bytes = f.bytes;
    bytes[8] = 2; // version field
    auto r = LevelReader::from_memory(std::move(bytes), "v2");
    CHECK(r.open().code() == ErrorCode::Unsupported);
}

TEST_CASE("unknown header flags are rejected, the capture-bounded flag is not") {
    Fixture f;
    for (uint8_t flags : {2, 4, 0x80}) {
        auto bytes = f.bytes;
        bytes[10] = flags;
        auto r = LevelReader::from_memory(std::move(bytes), "flags");
        CHECK(r.open().code() == ErrorCode::Corrupt);
        CHECK(r.open().message().find("flags") != std::string::npos);
    }
    auto bytes = f.bytes;
    bytes[10] = 1; // a known flag, but the header checksum no longer matches
    auto r = LevelReader::from_memory(std::move(bytes), "flag1");
    CHECK(r.open().message().find("header checksum") != std::string::npos);
}

TEST_CASE("read_values: the values value() reads, and the first failure with its index") {
    Fixture f; // 12 blocks of 256 entries
    const auto good = LevelReader::from_memory(f.bytes, "good");
    // A copy with one byte of block 5 flipped: the blocks follow the header, and the index
    // (12 bytes a block, the size first) precedes the index checksum and the trailer.
    const uint64_t index = f.bytes.size() - 24 - 8 - 12 * f.info.block_count;
    auto size_of = [&](uint64_t b) {
        uint32_t s = 0;
        for (int k = 3; k >= 0; --k) s = s << 8 | f.bytes[index + 12 * b + k];
        return s;
    };
    uint64_t at = f.info.header_bytes;
    for (uint64_t b = 0; b < 5; ++b) at += size_of(b);
    auto bytes = f.bytes;
    bytes[at + size_of(5) / 2] ^= 0x55;
    const auto damaged = LevelReader::from_memory(std::move(bytes), "damaged");
    REQUIRE_FALSE(damaged.value(5 * 256).ok());
    REQUIRE(damaged.value(4 * 256 + 255).ok());
    REQUIRE(damaged.value(6 * 256).ok());
    TempDir dir;
    const LevelReader missing(dir / "abapa-06.owdb");

    // Every entry through one batch, in a scrambled order, equals value().
    std::vector<ValueQuery> queries;
    for (uint64_t i = 0; i < f.values.size(); ++i) queries.push_back({&good, (i * 7919) % 3000});
    std::vector<int8_t> values(queries.size());
    Status error;
    REQUIRE(LevelReader::read_values(queries, values, error) == queries.size());
    CHECK(error.ok());
    for (std::size_t i = 0; i < queries.size(); ++i)
        REQUIRE(int(values[i]) == int(f.values[queries[i].index]));

    // Mixed readers: stops at the first failing query, whatever fails later.
    auto first_failure = [&](std::vector<ValueQuery> q, Status& e) {
        std::vector<int8_t> v(q.size());
        std::size_t n = LevelReader::read_values(q, v, e);
        for (std::size_t i = 0; i < n; ++i)
            CHECK(int(v[i]) == int(f.values[q[i].index])); // readers hold the same values
        return n;
    };
    CHECK(first_failure({{&good, 1},
                         {&damaged, 3},
                         {&good, 2999},
                         {&damaged, 5 * 256 + 9},
                         {&good, 3000},
                         {&missing, 0}},
                        error) == 3);
    CHECK(error.code() == ErrorCode::Corrupt);
    CHECK(error.block() == 5u);
    CHECK(first_failure({{&good, 1}, {&good, 3000}, {&damaged, 5 * 256}}, error) == 1);
    CHECK(error.code() == ErrorCode::OutOfRange);
    CHECK(first_failure({{&missing, 0}, {&good, 1}}, error) == 0);
    CHECK(error.code() == ErrorCode::NotFound);
    // More queries than one internal chunk, the failure late.
    std::vector<ValueQuery> many(20, ValueQuery{&good, 77});
    many[17] = {&damaged, 5 * 256 + 1};
    CHECK(first_failure(many, error) == 17);
    CHECK(error.block() == 5u);
    // Sizes that differ.
    std::vector<int8_t> two(2);
    CHECK(LevelReader::read_values(std::span(queries).first(3), two, error) == 0);
    CHECK(error.code() == ErrorCode::InvalidArgument);
    CHECK(LevelReader::read_values({}, {}, error) == 0);
}
