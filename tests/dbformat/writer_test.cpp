// Determinism and atomicity of the writer.
#include <doctest/doctest.h>

#include <csignal>
#include <sys/resource.h>

#include "dbformat/reader.hpp"
#include "dbformat/writer.hpp"
#include "helpers.hpp"

using namespace owaredb::db;
using namespace owaredb::db::test;

TEST_CASE("identical bytes with 1, 2 and 3 OpenMP threads") {
    SyntheticSpec s;
    s.entries = quick() ? 100000 : 400000;
    s.n = 10;
    s.dont_care = 0.03;
    auto values = synthetic_values(s);
    auto meta = meta_for("abapa", 10, values.size());
    for (auto dict : {DictionaryMode::Off, DictionaryMode::On, DictionaryMode::Auto}) {
        WriterOptions o;
        o.level = 5;
        o.dictionary = dict;
        o.block_candidates = {1024, 4096, 16384};
        o.sample_entries = 1 << 17;
        o.threads = 1;
        auto one = encode_level(meta, values, o);
        o.threads = 2;
        auto two = encode_level(meta, values, o);
        o.threads = 3;
        auto three = encode_level(meta, values, o);
        CHECK(one == two);
        CHECK(one == three);
        // And the file on disk is those bytes.
        TempDir dir;
        write_level(dir / "abapa-10.owdb", meta, values, o);
        CHECK(read_bytes(dir / "abapa-10.owdb") == one);
    }
}

TEST_CASE("a simulated crash never reads as valid") {
    TempDir dir;
    auto values = sample_values(5000, 4);
    auto meta = meta_for("abapa", 4, values.size());
    WriterOptions o;
    o.threads = 2;
    o.block_entries = 512;
    auto bytes = encode_level(meta, values, o);
    auto path = dir / "abapa-04.owdb";

    // Killed mid-write: only a partial temp file exists; the level is "not available".
    for (std::size_t len : {std::size_t(0), std::size_t(40), bytes.size() / 3, bytes.size() - 1}) {
        write_bytes(path.string() + ".tmp",
                    std::vector<uint8_t>(bytes.begin(), bytes.begin() + std::ptrdiff_t(len)));
        CHECK(LevelReader(path).open().code() == ErrorCode::NotFound);
        CHECK_FALSE(LevelReader(path.string() + ".tmp").open().ok());
        // A file system that lost the tail after rename (no fsync) is still caught.
        write_bytes(path, std::vector<uint8_t>(bytes.begin(), bytes.begin() + std::ptrdiff_t(len)));
        CHECK(LevelReader(path).open().code() == ErrorCode::Corrupt);
        std::filesystem::remove(path);
    }
    // A rerun writes its own temp file, never the leftover one (removing stale temp files
    // is the job of the writer holding the directory lock: DirectoryLock), and produces
    // the valid level.
    const auto leftover = read_bytes(path.string() + ".tmp");
    write_level(path, meta, values, o);
    CHECK(read_bytes(path.string() + ".tmp") == leftover);
    LevelReader r(path);
    REQUIRE(r.open().ok());
    CHECK(r.verify(2).ok());
    CHECK(read_bytes(path) == bytes);
}

TEST_CASE("I/O errors throw, name the file and leave no file behind") {
    TempDir dir;
    auto values = sample_values(200000, 8, 3, 0);
    auto meta = meta_for("abapa", 8, values.size());
    WriterOptions o;
    o.threads = 2;
    o.block_entries = 1024;
    o.level = 1;

    CHECK_THROWS_WITH_AS(write_level(dir / "missing" / "abapa-08.owdb", meta, values, o),
                         doctest::Contains("missing/abapa-08.owdb.tmp"), std::runtime_error);

    // A full disk, simulated by a file size limit: write() fails with EFBIG.
    auto path = dir / "abapa-08.owdb";
    write_level(path, meta, values, o); // an older, complete version
    auto before = read_bytes(path);
    auto alt = values;
    alt[0] = 1;
    alt[1] = 2;
    struct rlimit old;
    REQUIRE(getrlimit(RLIMIT_FSIZE, &old) == 0);
    auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
    struct rlimit small = old;
    small.rlim_cur = 4096;
    REQUIRE(setrlimit(RLIMIT_FSIZE, &small) == 0);
    std::string message;
    try {
        write_level(path, meta, alt, o);
    } catch (const std::runtime_error& e) {
        message = e.what();
    }
    setrlimit(RLIMIT_FSIZE, &old);
    std::signal(SIGXFSZ, old_handler);
    CHECK(message.find("abapa-08.owdb.tmp") != std::string::npos);
    CHECK(message.find("too large") != std::string::npos); // strerror(EFBIG)
    CHECK_FALSE(std::filesystem::exists(path.string() + ".tmp"));
    CHECK(read_bytes(path) == before); // the old level is untouched
}

TEST_CASE("blocks compressed while measuring are reused: same bytes as a fixed encoding") {
    // The automatic choice keeps the frames of the chosen candidate's sample blocks; the
    // file must be exactly what compressing every block with that choice gives, whatever
    // share of the level the sample covers (all of it, a region, a part).
    SyntheticSpec s;
    s.shape = SyntheticShape::Markov;
    s.entries = quick() ? 150000 : 600000;
    s.n = 12;
    s.dont_care = 0.02;
    auto values = synthetic_values(s);
    auto meta = meta_for("abapa", 12, values.size());
    for (uint32_t one_in : {1u, 8u, 1000000u}) {
        CAPTURE(one_in);
        WriterOptions o;
        o.level = 3;
        o.block_candidates = {1024, 4096, 16384};
        o.sample_one_in = one_in;
        o.threads = 2;
        WriteReport chosen;
        auto automatic = encode_level(meta, values, o, &chosen);
        WriterOptions fixed = o;
        fixed.block_entries = chosen.block_entries;
        fixed.symbol_bits = chosen.symbol_bits;
        CHECK(encode_level(meta, values, fixed) == automatic);
        o.threads = 1;
        CHECK(encode_level(meta, values, o) == automatic);
    }
}

TEST_CASE("default options: zstd level and block size by level size, no dictionary") {
    WriterOptions o;
    CHECK(o.threads == 0); // none: the caller gives its own, or the writer refuses
    CHECK(o.level == WriterOptions::kLevelBySize);
    CHECK(o.dictionary == DictionaryMode::Off);
    CHECK(o.block_entries == 0);
    CHECK(o.symbol_bits == 0);
    CHECK(o.sample_one_in == 8);
    // Levels under 24 Mi entries (abapa n <= 17): zstd 6 on 2^18-entry blocks; under 2 Gi
    // (n <= 29): zstd 1 on 2^14; larger: zstd 13 on 2^16 (writer.hpp, dbformat/README.md).
    CHECK(encoding_for(o, 0).level == 6);
    CHECK(encoding_for(o, 1339702).level == 6); // abapa level 12
    CHECK(encoding_for(o, 1339702).block_entries == 1u << 18);
    CHECK(encoding_for(o, 20768748).level == 6); // abapa level 17
    CHECK(encoding_for(o, 20768748).block_entries == 1u << 18);
    CHECK(encoding_for(o, (24u << 20) - 1).block_entries == 1u << 18);
    CHECK(encoding_for(o, 24u << 20).block_entries == 1u << 14);
    CHECK(encoding_for(o, 24u << 20).level == 1);
    CHECK(encoding_for(o, 33245212).level == 1); // abapa level 18
    CHECK(encoding_for(o, 33245212).block_entries == 1u << 14);
    CHECK(encoding_for(o, 1482519324).level == 1); // abapa level 28
    CHECK(encoding_for(o, 2025703680).level == 1); // abapa level 29
    CHECK(encoding_for(o, (uint64_t(1) << 31) - 1).level == 1);
    CHECK(encoding_for(o, uint64_t(1) << 31).level == 13);
    CHECK(encoding_for(o, uint64_t(1) << 31).block_entries == 1u << 16);
    CHECK(encoding_for(o, 2742236068).level == 13); // abapa level 30
    CHECK(encoding_for(o, uint64_t(1) << 34).level == 13);
    auto values = sample_values(300000, 12);
    WriteReport rep;
    o.threads = 2;
    auto bytes = encode_level(meta_for("abapa", 12, values.size()), values, o, &rep);
    CHECK(rep.level == 6);
    CHECK(rep.block_entries == 1u << 18);
    CHECK(rep.dictionary_bytes == 0);
    // The file says which zstd level it was written with.
    LevelReader r = LevelReader::from_memory(bytes, "default");
    REQUIRE(r.info().ok());
    CHECK(r.info()->codec_level == 6);
    CHECK(r.info()->block_entries == 1u << 18);
}

TEST_CASE("size tiers: the largest tier at or below the entry count, explicit options win") {
    SyntheticSpec s;
    s.shape = SyntheticShape::Markov;
    s.entries = quick() ? 120000 : 300000;
    s.n = 12;
    s.dont_care = 0.02;
    auto values = synthetic_values(s);
    auto meta = meta_for("abapa", 12, values.size());
    WriterOptions o;
    o.block_candidates = {1024, 4096, 16384};
    o.threads = 2;
    o.size_tiers = {{0, 1, 2048}, {100000, 3, 0}, {1u << 30, 5, 4096}};
    SUBCASE("tier chosen by entries") {
        CHECK(encoding_for(o, 99999).level == 1);
        CHECK(encoding_for(o, 99999).block_entries == 2048);
        CHECK(encoding_for(o, 100000).level == 3);
        CHECK(encoding_for(o, 100000).block_entries == 0); // measured
        CHECK(encoding_for(o, 1u << 30).level == 5);
        WriteReport rep;
        auto tiered = encode_level(meta, values, o, &rep);
        CHECK(rep.level == 3);
        // Block size measured among the candidates, as with an explicit level 3.
        CHECK(
            (rep.block_entries == 1024 || rep.block_entries == 4096 || rep.block_entries == 16384));
        WriterOptions explicit_level = o;
        explicit_level.level = 3;
        CHECK(encode_level(meta, values, explicit_level) == tiered);
        o.threads = 1;
        CHECK(encode_level(meta, values, o) == tiered);
        o.threads = 3;
        CHECK(encode_level(meta, values, o) == tiered);
    }
    SUBCASE("a tier's block size is fixed; block_entries overrides it") {
        o.size_tiers = {{0, 1, 2048}};
        WriteReport rep;
        auto tiered = encode_level(meta, values, o, &rep);
        CHECK(rep.level == 1);
        CHECK(rep.block_entries == 2048);
        WriterOptions fixed = o;
        fixed.level = 1;
        fixed.block_entries = 2048;
        CHECK(encode_level(meta, values, fixed) == tiered);
        o.block_entries = 8192;
        encode_level(meta, values, o, &rep);
        CHECK(rep.level == 1);
        CHECK(rep.block_entries == 8192);
    }
    SUBCASE("an explicit level ignores the tiers") {
        o.level = 4;
        CHECK(encoding_for(o, 99999).level == 4);
        CHECK(encoding_for(o, 99999).block_entries == 0);
        WriteReport rep;
        encode_level(meta, values, o, &rep);
        CHECK(rep.level == 4);
    }
    SUBCASE("bad tiers are refused") {
        o.size_tiers = {};
        CHECK_THROWS_AS(encode_level(meta, values, o), std::invalid_argument);
        o.size_tiers = {{10, 3, 0}};
        CHECK_THROWS_AS(encode_level(meta, values, o), std::invalid_argument);
        o.size_tiers = {{0, 3, 0}, {0, 5, 0}};
        CHECK_THROWS_AS(encode_level(meta, values, o), std::invalid_argument);
        o.size_tiers = {{0, 3, 1000}}; // not a power of two
        CHECK_THROWS_AS(encode_level(meta, values, o), std::invalid_argument);
        o.size_tiers = {{0, 23, 0}};
        CHECK_THROWS_AS(encode_level(meta, values, o), std::invalid_argument);
    }
}

namespace {
// Values handed out by read() only (as a distributed generate's rank 0 gets them), with a
// record of the reads: the writer must not ask for more than its windows at once.
class PiecewiseValues final : public ValueSource {
  public:
    explicit PiecewiseValues(std::span<const int8_t> values) : values_(values) {}
    uint64_t size() const override { return values_.size(); }
    void read(uint64_t begin, std::span<int8_t> out) const override {
        REQUIRE(begin + out.size() <= values_.size());
        largest_read = std::max<uint64_t>(largest_read, out.size());
        read_total += out.size();
        std::copy_n(values_.begin() + std::ptrdiff_t(begin), out.size(), out.begin());
    }
    mutable uint64_t largest_read = 0, read_total = 0;

  private:
    std::span<const int8_t> values_;
};
} // namespace

TEST_CASE("a level read piecewise from a ValueSource: the same bytes, in bounded reads") {
    SyntheticSpec s;
    s.entries = quick() ? 150000 : 500000;
    s.n = 12;
    s.dont_care = 0.02;
    auto values = synthetic_values(s);
    auto meta = meta_for("awari", 12, values.size());
    for (auto dict : {DictionaryMode::Off, DictionaryMode::Auto}) {
        CAPTURE(int(dict));
        WriterOptions o;
        o.level = 3;
        o.dictionary = dict;
        o.block_candidates = {1024, 4096, 16384};
        o.sample_entries = 1 << 16;
        o.window_entries = 10000; // many windows, not a multiple of any block
        o.threads = 2;
        const auto in_memory = encode_level(meta, values, o);
        TempDir dir;
        PiecewiseValues source(values);
        const WriteReport r = write_level(dir / "awari-12.owdb", meta, source, o);
        CHECK(read_bytes(dir / "awari-12.owdb") == in_memory);
        CHECK(r.file_bytes == in_memory.size());
        // Counting, sampling and the blocks: about two passes, never the whole level at once.
        CHECK(source.read_total >= 2 * values.size());
        CHECK(source.read_total <= 3 * values.size());
        CHECK(source.largest_read < values.size() / 2);
    }
    // A bad value is found across windows and named by its index, as in memory.
    values[values.size() - 3] = 100;
    WriterOptions o;
    o.threads = 2;
    o.window_entries = 1000;
    TempDir dir;
    PiecewiseValues source(values);
    const std::string expected = "at index " + std::to_string(values.size() - 3);
    CHECK_THROWS_WITH_AS(write_level(dir / "awari-12.owdb", meta, source, o),
                         doctest::Contains(expected.c_str()), std::invalid_argument);
    CHECK(!std::filesystem::exists(dir / "awari-12.owdb"));
}

namespace {
// Piecewise values whose source says how many of each value it holds (as the 4- and 2-bit
// engines do, from their commit passes), right or wrong.
class CountedValues final : public ValueSource {
  public:
    CountedValues(std::span<const int8_t> values, std::array<uint64_t, 256> counts)
        : values_(values), counts_(counts) {}
    uint64_t size() const override { return values_.size(); }
    void read(uint64_t begin, std::span<int8_t> out) const override {
        read_total += out.size();
        std::copy_n(values_.begin() + std::ptrdiff_t(begin), out.size(), out.begin());
    }
    std::optional<std::array<uint64_t, 256>> counts() const override { return counts_; }
    mutable uint64_t read_total = 0;

  private:
    std::span<const int8_t> values_;
    std::array<uint64_t, 256> counts_;
};
} // namespace

TEST_CASE("a source that knows its counts: one pass fewer, the same bytes; wrong counts "
          "write nothing") {
    SyntheticSpec s;
    s.entries = quick() ? 150000 : 400000;
    s.n = 12;
    s.dont_care = 0.02;
    const auto values = synthetic_values(s);
    // Level 14: values 13 and 14 are in range, and synthetic values of n = 12 never hold them.
    const auto meta = meta_for("awari", 14, values.size());
    std::array<uint64_t, 256> counts{};
    for (int8_t v : values) ++counts[uint8_t(v)];
    WriterOptions o;
    o.level = 3;
    o.block_candidates = {1024, 4096};
    o.sample_entries = 1 << 16;
    o.window_entries = 10000;
    o.threads = 2;
    const auto in_memory = encode_level(meta, values, o);
    TempDir dir;
    {
        CountedValues source(values, counts);
        write_level(dir / "awari-14.owdb", meta, source, o);
        CHECK(read_bytes(dir / "awari-14.owdb") == in_memory);
        // The samples and the blocks, no counting pass.
        CHECK(source.read_total >= values.size());
        CHECK(source.read_total < 2 * values.size());
    }
    std::filesystem::remove(dir / "awari-14.owdb");
    SUBCASE("one entry counted under the wrong value") {
        auto wrong = counts;
        --wrong[uint8_t(int8_t(values[7]))];
        ++wrong[uint8_t(int8_t(values[7] == 1 ? 2 : 1))];
        CountedValues source(values, wrong);
        CHECK_THROWS_WITH_AS(write_level(dir / "awari-14.owdb", meta, source, o),
                             doctest::Contains("its values hold"), std::runtime_error);
    }
    SUBCASE("a value counted that is not there, in range (so absent from the file's map)") {
        const int8_t absent = 13;
        REQUIRE(counts[uint8_t(absent)] == 0);
        auto wrong = counts;
        --wrong[uint8_t(values[7])];
        ++wrong[uint8_t(absent)];
        CountedValues source(values, wrong);
        CHECK_THROWS_WITH_AS(write_level(dir / "awari-14.owdb", meta, source, o),
                             doctest::Contains("its values hold"), std::runtime_error);
    }
    CHECK(!std::filesystem::exists(dir / "awari-14.owdb"));
}
