// Values written are the values read, for every shape of level and every encoding option.
#include <doctest/doctest.h>

#include "dbformat/reader.hpp"
#include "dbformat/writer.hpp"
#include "helpers.hpp"

using namespace owaredb::db;
using namespace owaredb::db::test;

namespace {

void check_roundtrip(const LevelMeta& meta, const std::vector<int8_t>& values,
                     const WriterOptions& opts, std::size_t cache_bytes = 1 << 20) {
    TempDir dir;
    auto path = level_path(dir.path(), meta.rules, meta.n);
    WriteReport rep = write_level(path, meta, values, opts);
    CHECK(rep.file_bytes == std::filesystem::file_size(path));
    CHECK_FALSE(std::filesystem::exists(path.string() + ".tmp"));

    ReaderOptions ro;
    ro.cache_bytes = cache_bytes;
    ro.expect = Expectation::exactly(meta);
    LevelReader r(path, ro);
    REQUIRE(r.open().ok());
    for (uint64_t i = 0; i < values.size(); ++i) {
        auto v = r.value(i);
        REQUIRE(v.ok());
        if (*v != values[i]) REQUIRE(int(*v) == int(values[i])); // report only failures
    }
    auto past = r.value(values.size());
    CHECK(past.status().code() == ErrorCode::OutOfRange);

    auto info = r.info();
    REQUIRE(info.ok());
    CHECK(info->meta == meta);
    CHECK(info->file_bytes == rep.file_bytes);
    CHECK(info->block_entries == rep.block_entries);
    CHECK(info->symbol_bits == rep.symbol_bits);
    CHECK(info->header_bytes + info->data_bytes + info->index_bytes + 24 == info->file_bytes);

    auto hist = r.histogram(2);
    REQUIRE(hist.ok());
    Histogram want;
    for (int8_t v : values) ++want.counts[uint8_t(v)];
    CHECK(hist->counts == want.counts);

    std::vector<int8_t> all(values.size());
    CHECK(r.read_all(all, 2).ok());
    CHECK(all == values);

    auto report = r.verify(2);
    CHECK(report.ok());
    CHECK(report.file_checksum_ok);
    CHECK(report.damaged_blocks.empty());
}

WriterOptions fixed(uint32_t block, uint8_t bits = 0, DictionaryMode dict = DictionaryMode::Off,
                    int level = 3) {
    WriterOptions o;
    o.threads = 2;
    o.block_entries = block;
    o.symbol_bits = bits;
    o.dictionary = dict;
    o.level = level;
    return o;
}

} // namespace

TEST_CASE("round trip: empty and one-entry levels") {
    const WriterOptions defaults{.threads = 2};
    check_roundtrip(meta_for("abapa", 0, 0), {}, defaults);
    check_roundtrip(meta_for("abapa", 0, 1), {0}, defaults);
    check_roundtrip(meta_for("abapa", 0, 1), {kDontCare}, defaults);
    check_roundtrip(meta_for("awari", 5, 1), {-5}, fixed(64));
}

TEST_CASE("round trip: entry counts around block boundaries") {
    for (uint64_t entries : {63ull, 64ull, 65ull, 127ull, 128ull, 1000ull, 4097ull}) {
        CAPTURE(entries);
        auto values = sample_values(entries, 6, entries);
        check_roundtrip(meta_for("abapa", 6, entries), values, fixed(64));
    }
}

TEST_CASE("round trip: every symbol width, with and without dictionary") {
    // n=0 with kDontCare: 2 symbols; n=1: up to 4; n=5: up to 12; n=20: up to 42.
    for (uint32_t n : {0u, 1u, 5u, 20u, 48u}) {
        auto values = sample_values(20000, n, 100 + n, 0.1);
        auto meta = meta_for("awari", n, values.size());
        for (uint8_t bits : {uint8_t(0), uint8_t(1), uint8_t(2), uint8_t(4), uint8_t(8)}) {
            std::size_t symbols = 0;
            Histogram h;
            for (int8_t v : values) symbols += h.counts[uint8_t(v)]++ == 0;
            if (bits != 0 && (std::size_t(1) << bits) < symbols) {
                CHECK_THROWS_AS(write_level("/nonexistent/x.owdb", meta, values, fixed(256, bits)),
                                std::invalid_argument);
                continue;
            }
            for (auto dict : {DictionaryMode::Off, DictionaryMode::On}) {
                CAPTURE(n);
                CAPTURE(int(bits));
                check_roundtrip(meta, values, fixed(256, bits, dict));
            }
        }
    }
}

TEST_CASE("round trip: automatic choices, uniform and structured data") {
    for (auto shape : {SyntheticShape::Uniform, SyntheticShape::Markov, SyntheticShape::Periodic}) {
        SyntheticSpec s;
        s.shape = shape;
        s.entries = quick() ? 50000 : 300000;
        s.n = 12;
        s.dont_care = 0.02;
        auto values = synthetic_values(s);
        WriterOptions o;
        o.threads = 2;
        o.level = 3;
        o.block_candidates = {1024, 4096, 16384};
        o.sample_entries = 1 << 16;
        check_roundtrip(meta_for("abapa", 12, values.size()), values, o);
    }
}

TEST_CASE("round trip: a tiny cache still returns every value") {
    auto values = sample_values(10000, 9);
    check_roundtrip(meta_for("abapa", 9, values.size()), values, fixed(64), 0);
    check_roundtrip(meta_for("abapa", 9, values.size()), values, fixed(64), 1);
}

TEST_CASE("automatic encoding compresses structured data well") {
    SyntheticSpec s;
    s.shape = SyntheticShape::Markov;
    s.entries = 1 << 18;
    s.n = 20;
    s.stay = 0.95;
    auto values = synthetic_values(s);
    WriterOptions o;
    o.threads = 2;
    o.level = 9;
    WriteReport rep;
    auto bytes = encode_level(meta_for("abapa", 20, values.size()), values, o, &rep);
    CHECK(rep.bits_per_position < 0.6);
    CHECK(bytes.size() == rep.file_bytes);
}

TEST_CASE("writer rejects bad arguments without creating a file") {
    TempDir dir;
    auto path = dir / "abapa-03.owdb";
    std::vector<int8_t> values = {0, 1, 4, -3};
    WriterOptions o;
    o.threads = 2;
    CHECK_THROWS_WITH_AS(write_level(path, meta_for("abapa", 3, 4), values, o),
                         doctest::Contains("index 2"), std::invalid_argument);
    CHECK_THROWS_AS(write_level(path, meta_for("abapa", 3, 5), values, o), std::invalid_argument);
    CHECK_THROWS_AS(write_level(path, meta_for("Abapa", 3, 4), values, o), std::invalid_argument);
    // The caller's thread count is required: none given (0) is refused.
    CHECK_THROWS_WITH_AS(write_level(path, meta_for("abapa", 3, 4), values, WriterOptions{}),
                         doctest::Contains("threads must be at least 1"), std::invalid_argument);
    o.block_entries = 100;
    values[2] = 3;
    CHECK_THROWS_AS(write_level(path, meta_for("abapa", 3, 4), values, o), std::invalid_argument);
    CHECK(std::filesystem::is_empty(dir.path()));
}

TEST_CASE("round trip: the capture-bounded flag is carried in the header") {
    SyntheticSpec s;
    s.entries = 5000;
    s.n = 10;
    auto values = synthetic_values(s);
    LevelMeta meta = meta_for("abapa", 10, values.size());
    meta.capture_bounded = true;
    check_roundtrip(meta, values, fixed(1024)); // compares info().meta with meta
    meta.capture_bounded = false;
    check_roundtrip(meta, values, fixed(1024));
}

TEST_CASE("read_range: any range gives read_all's values, damage and the end are refused") {
    TempDir dir;
    auto values = sample_values(300000, 9);
    auto meta = meta_for("abapa", 9, values.size());
    const auto path = level_path(dir.path(), "abapa", 9);
    WriterOptions wo;
    wo.threads = 2;
    wo.block_entries = 4096; // many blocks, so that ranges start and end inside them
    write_level(path, meta, values, wo);
    LevelReader r(path);
    std::vector<int8_t> all(values.size());
    REQUIRE(r.read_all(all, 2).ok());
    bool same = true;
    for (uint64_t begin : {uint64_t(0), uint64_t(1), uint64_t(4095), uint64_t(4096),
                           uint64_t(123457), uint64_t(values.size() - 5000)})
        for (uint64_t count : {uint64_t(0), uint64_t(1), uint64_t(4096), uint64_t(5000)}) {
            std::vector<int8_t> part(count);
            CHECK(r.read_range(begin, part, 2).ok());
            same =
                same && std::equal(part.begin(), part.end(), all.begin() + std::ptrdiff_t(begin));
        }
    CHECK(same);
    // The caller's thread count is required: none (0) is refused, whatever the range.
    std::vector<int8_t> none;
    CHECK_THROWS_AS((void)r.read_range(0, none, 0), std::invalid_argument);
    CHECK_THROWS_AS((void)r.read_all(all, 0), std::invalid_argument);
    CHECK_THROWS_AS((void)r.histogram(0), std::invalid_argument);
    CHECK_THROWS_AS((void)r.verify(0), std::invalid_argument);
    std::vector<int8_t> past(10);
    CHECK(r.read_range(values.size() - 5, past, 2).code() == ErrorCode::OutOfRange);
    // A damaged block inside the range is found; one outside it is not read.
    auto bytes = read_bytes(path);
    bytes[bytes.size() / 2] ^= 0x40;
    write_bytes(path, bytes);
    LevelReader damaged(path);
    std::vector<int8_t> whole(values.size());
    CHECK(damaged.read_range(0, whole, 2).code() == ErrorCode::Corrupt);
    std::vector<int8_t> head(100);
    CHECK(damaged.read_range(0, head, 2).ok());
}
