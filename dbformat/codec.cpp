#include "dbformat/codec.hpp"

#include <algorithm>
#include <cstring>
#include <new>
#include <numeric>
#include <stdexcept>
#include <string>

namespace owaredb::db::detail {

SymbolMap build_symbol_map(const ValueCounts& counts) {
    std::vector<int> present;
    for (int b = 0; b < 256; ++b)
        if (counts[b] != 0) present.push_back(b);
    auto value_of = [](int b) { return int(static_cast<int8_t>(static_cast<uint8_t>(b))); };
    std::sort(present.begin(), present.end(), [&](int a, int b) {
        if (counts[a] != counts[b]) return counts[a] > counts[b];
        return value_of(a) < value_of(b);
    });
    SymbolMap map;
    for (std::size_t s = 0; s < present.size(); ++s) {
        map.values.push_back(static_cast<int8_t>(value_of(present[s])));
        map.symbol_of[present[s]] = static_cast<uint8_t>(s);
    }
    return map;
}

uint8_t min_symbol_bits(std::size_t symbols) {
    if (symbols <= 2) return 1;
    if (symbols <= 4) return 2;
    if (symbols <= 16) return 4;
    return 8;
}

void pack_symbols(const int8_t* values, std::size_t count, const SymbolMap& map, unsigned bits,
                  uint8_t* out) {
    std::size_t bytes = (count * bits + 7) / 8;
    if (bits == 8) {
        for (std::size_t i = 0; i < count; ++i) out[i] = map.symbol_of[uint8_t(values[i])];
        return;
    }
    std::memset(out, 0, bytes);
    for (std::size_t i = 0; i < count; ++i) {
        std::size_t bit = i * bits;
        out[bit >> 3] |= uint8_t(map.symbol_of[uint8_t(values[i])] << (bit & 7));
    }
}

bool symbols_below(const uint8_t* packed, uint64_t count, unsigned bits, unsigned limit) {
    if (limit >= (1u << bits)) return true;
    if (bits == 8) {
        // The largest byte, in vectors (a reduction without an early exit).
        uint8_t largest = 0;
        for (uint64_t i = 0; i < count; ++i) largest = std::max(largest, packed[i]);
        return largest < limit;
    }
    // Whole bytes through a table of the bytes whose every field is below the limit.
    std::array<bool, 256> fine{};
    const unsigned per_byte = 8 / bits;
    for (unsigned byte = 0; byte < 256; ++byte) {
        fine[byte] = true;
        for (unsigned k = 0; k < per_byte; ++k)
            if (((byte >> (k * bits)) & ((1u << bits) - 1)) >= limit) fine[byte] = false;
    }
    const uint64_t whole = count / per_byte;
    bool all = true;
    for (uint64_t i = 0; i < whole; ++i) all &= fine[packed[i]];
    for (uint64_t i = whole * per_byte; i < count; ++i) all &= symbol_at(packed, i, bits) < limit;
    return all;
}

// The codecs this build reads and writes, one line each (codec.hpp).
#define OWAREDB_CODECS(X) X(zstd)

#define OWAREDB_DECLARE_CODEC(name) const Codec& name##_codec();
OWAREDB_CODECS(OWAREDB_DECLARE_CODEC)
#undef OWAREDB_DECLARE_CODEC

Result<const Codec*> find_codec(uint8_t id) {
#define OWAREDB_CODEC_ENTRY(name) &name##_codec(),
    static const std::array codecs{OWAREDB_CODECS(OWAREDB_CODEC_ENTRY)};
#undef OWAREDB_CODEC_ENTRY
    std::string known;
    for (const Codec* c : codecs) {
        if (c->id == id) return c;
        known += (known.empty() ? "" : ", ") + std::to_string(c->id) + " " + c->name;
    }
    return Status(ErrorCode::Unsupported,
                  "unknown codec byte " + std::to_string(id) + " (this build knows " + known + ")");
}

} // namespace owaredb::db::detail
