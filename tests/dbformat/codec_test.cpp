// The symbol check every decoded block goes through (dbformat/codec.hpp): its table and
// vector paths against the definition, one symbol at a time with symbol_at().
#include <doctest/doctest.h>

#include "dbformat/codec.hpp"

#include <cstdint>
#include <random>
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
