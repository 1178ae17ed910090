// The symbol check every decoded block goes through (dbformat/codec.hpp): its table and
// vector paths against the definition, one symbol at a time with symbol_at(). The block
// codecs, found by the header's codec byte: a round trip through the interface, and an
// unknown byte refused by name, by the header parser, the reader and the writer.
#include <doctest/doctest.h>

#include "dbformat/codec.hpp"
#include "dbformat/layout.hpp"
#include "dbformat/reader.hpp"
#include "dbformat/writer.hpp"
#include "helpers.hpp"

#include <cstdint>
#include <numeric>
#include <random>
#include <stdexcept>
#include <vector>

using owaredb::db::detail::symbol_at;
using owaredb::db::detail::symbols_below;

namespace {

bool by_definition(const std::vector<uint8_t>& packed, uint64_t count, unsigned bits,
                   unsigned limit) {
    for (uint64_t i = 0; i < count; ++i)
        if (symbol_at(packed.data(), i, bits) >= limit) return false;
    return true;
}

void set_symbol(std::vector<uint8_t>& packed, uint64_t i, unsigned bits, unsigned symbol) {
    const uint64_t bit = i * bits;
    const unsigned mask = (1u << bits) - 1;
    packed[bit >> 3] = uint8_t((packed[bit >> 3] & ~(mask << (bit & 7))) | (symbol << (bit & 7)));
}

} // namespace

TEST_CASE("symbols_below agrees with symbol_at, one bad symbol anywhere, padding ignored") {
    std::mt19937_64 rng(26);
    for (unsigned bits : {1u, 2u, 4u, 8u}) {
        const unsigned symbols = 1u << bits;
        for (uint64_t count : {1ull, 3ull, 7ull, 64ull, 1001ull}) {
            for (unsigned limit = 1; limit <= symbols; ++limit) {
                CAPTURE(bits);
                CAPTURE(count);
                CAPTURE(limit);
                std::vector<uint8_t> packed((count * bits + 7) / 8);
                // Every symbol below the limit, the padding bits set: still fine.
                for (uint8_t& byte : packed) byte = 0xff;
                for (uint64_t i = 0; i < count; ++i)
                    set_symbol(packed, i, bits, unsigned(rng() % limit));
                CHECK(symbols_below(packed.data(), count, bits, limit));
                CHECK(by_definition(packed, count, bits, limit));
                if (limit == symbols) continue; // no symbol is outside
                // One symbol at or above the limit: first, last, and one in between.
                for (uint64_t at : {uint64_t(0), count - 1, count / 2}) {
                    std::vector<uint8_t> bad = packed;
                    set_symbol(bad, at, bits, limit + unsigned(rng() % (symbols - limit)));
                    CHECK_FALSE(by_definition(bad, count, bits, limit));
                    CHECK_FALSE(symbols_below(bad.data(), count, bits, limit));
                }
            }
        }
    }
}

TEST_CASE("symbols_below on random bytes: the same answer as the definition") {
    std::mt19937_64 rng(36);
    for (int trial = 0; trial < 2000; ++trial) {
        const unsigned bits = 1u << (rng() % 4);
        const uint64_t count = 1 + rng() % 40;
        const unsigned limit = 1 + unsigned(rng() % (1u << bits));
        std::vector<uint8_t> packed((count * bits + 7) / 8);
        // Mostly small symbols, so that both answers occur.
        for (uint8_t& byte : packed) byte = uint8_t(rng() % 4 == 0 ? rng() : 0);
        CAPTURE(bits);
        CAPTURE(count);
        CAPTURE(limit);
        CHECK(symbols_below(packed.data(), count, bits, limit) ==
              by_definition(packed, count, bits, limit));
    }
}

TEST_CASE("codec byte 1 is zstd; blocks round trip through the interface, with a dictionary") {
    using namespace owaredb::db::detail;
    const auto found = find_codec(kCodecZstd);
    REQUIRE(found.ok());
    const Codec& zstd = **found;
    CHECK(zstd.id == 1);
    CHECK(std::string(zstd.name) == "zstd");
    std::mt19937 rng(5);
    std::vector<uint8_t> samples;
    std::vector<std::size_t> sizes;
    for (int b = 0; b < 64; ++b) {
        for (int i = 0; i < 4096; ++i) samples.push_back(uint8_t(rng() % 5 + (i % 64 == 0)));
        sizes.push_back(4096);
    }
    const std::span<const uint8_t> block(samples.data(), 4096);
    const std::vector<uint8_t> trained = zstd.train(samples, sizes, 4096);
    CHECK_FALSE(trained.empty());
    for (const auto& dictionary : {std::vector<uint8_t>{}, trained}) {
        CAPTURE(dictionary.size());
        const auto writer = zstd.open(dictionary, 3, true);
        REQUIRE(writer.ok());
        CHECK((*writer)->dictionary() == dictionary);
        std::vector<uint8_t> frame, again;
        (*writer)->compressor(3)->compress(block, frame);
        (*writer)->compressor(3)->compress(block, again);
        CHECK(frame == again); // deterministic
        CHECK(frame.size() <= zstd.bound(block.size()));
        const auto reader = zstd.open(dictionary, 0, false);
        REQUIRE(reader.ok());
        std::vector<uint8_t> out(block.size());
        REQUIRE((*reader)->decompress(frame, out).ok());
        CHECK(std::equal(out.begin(), out.end(), block.begin()));
        out.resize(block.size() - 1); // a block of another size is corrupt
        CHECK((*reader)->decompress(frame, out).code() == owaredb::db::ErrorCode::Corrupt);
    }
}

TEST_CASE("an unknown codec byte is refused by name, wherever it is met") {
    using namespace owaredb::db;
    using namespace owaredb::db::detail;
    const auto none = find_codec(7);
    REQUIRE_FALSE(none.ok());
    CHECK(none.status().code() == ErrorCode::Unsupported);
    CHECK(none.status().message() == "unknown codec byte 7 (this build knows 1 zstd)");

    // A header that says codec 7, with a valid checksum.
    auto values = test::sample_values(3000, 4);
    const auto meta = test::meta_for("abapa", 4, values.size());
    WriterOptions o;
    o.block_entries = 512;
    o.threads = 2;
    std::vector<uint8_t> bytes = encode_level(meta, values, o);
    const auto header_bytes = parse_prefix(std::span<const uint8_t>(bytes).first(kPrefixBytes));
    REQUIRE(header_bytes.ok());
    auto parsed =
        parse_header(std::span<const uint8_t>(bytes).first(*header_bytes + kChecksumBytes));
    REQUIRE(parsed.ok());
    Header h = *parsed;
    CHECK(h.codec == kCodecZstd); // what every file so far says
    h.codec = 7;
    const std::vector<uint8_t> header = serialize_header(h);
    const auto refused = parse_header(header);
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.status().code() == ErrorCode::Unsupported);
    CHECK(refused.status().message().find("unknown codec byte 7") != std::string::npos);
    // The same file with that header: the reader names the byte.
    std::copy(header.begin(), header.end(), bytes.begin());
    LevelReader r = LevelReader::from_memory(bytes, "codec7");
    const Status opened = r.open();
    CHECK(opened.code() == ErrorCode::Unsupported);
    CHECK(opened.message().find("unknown codec byte 7") != std::string::npos);
    // A writer asked for it refuses before writing.
    o.codec = 7;
    CHECK_THROWS_WITH_AS(encode_level(meta, values, o),
                         "unknown codec byte 7 (this build knows 1 zstd)", std::invalid_argument);
}
