#include "dbformat/layout.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "dbformat/bytes.hpp"
#include "dbformat/checksum.hpp"
#include "dbformat/codec.hpp"

namespace owaredb::db::detail {

namespace {

Status corrupt(std::string what) {
    return Status(ErrorCode::Corrupt, std::move(what));
}

bool is_power_of_two(uint64_t v) {
    return v != 0 && (v & (v - 1)) == 0;
}

} // namespace

std::vector<uint8_t> serialize_header(const Header& h) {
    std::vector<uint8_t> out;
    const auto& m = h.meta;
    std::size_t size = kFixedHeaderBytes + m.rules.size() + m.knobs.size() + h.value_map.size() +
                       h.dictionary.size();
    out.reserve(size + kChecksumBytes);
    put_bytes(out, kMagic);
    put_u16(out, kFormatVersion);
    put_u16(out, m.capture_bounded ? kFlagCaptureBounded : 0); // flags
    put_u32(out, static_cast<uint32_t>(size));
    put_u8(out, h.codec);
    put_u8(out, h.symbol_bits);
    put_u8(out, static_cast<uint8_t>(h.codec_level));
    put_u8(out, static_cast<uint8_t>(m.rules.size()));
    put_u32(out, m.n);
    put_u64(out, m.entries);
    put_u32(out, h.block_entries);
    put_u16(out, static_cast<uint16_t>(h.value_map.size()));
    put_u16(out, static_cast<uint16_t>(m.kind)); // kind (0 = values: the former reserved 0)
    put_u64(out, h.block_count);
    put_u32(out, static_cast<uint32_t>(m.knobs.size()));
    put_u32(out, static_cast<uint32_t>(h.dictionary.size()));
    put_bytes(out, {reinterpret_cast<const uint8_t*>(m.rules.data()), m.rules.size()});
    put_bytes(out, m.knobs);
    for (int8_t v : h.value_map) put_u8(out, static_cast<uint8_t>(v));
    put_bytes(out, h.dictionary);
    put_u64(out, checksum(out));
    return out;
}

Result<uint32_t> parse_prefix(std::span<const uint8_t> prefix) {
    if (prefix.size() < kPrefixBytes) return corrupt("too short for a level file header");
    if (!std::equal(kMagic.begin(), kMagic.end(), prefix.begin()))
        return corrupt("not an owaredb level file (no owaredb signature)");
    ByteCursor c(prefix.subspan(kMagic.size()));
    uint16_t version = c.u16();
    uint16_t flags = c.u16();
    uint32_t size = c.u32();
    if (version != kFormatVersion)
        return Status(ErrorCode::Unsupported, "format version " + std::to_string(version) +
                                                  ", this reader supports " +
                                                  std::to_string(kFormatVersion));
    if ((flags & ~kFlagCaptureBounded) != 0)
        return corrupt("unknown header flags " + std::to_string(flags));
    if (size < kFixedHeaderBytes) return corrupt("header size field too small");
    return size;
}

Result<Header> parse_header(std::span<const uint8_t> bytes) {
    auto size = parse_prefix(bytes);
    if (!size.ok()) return size.status();
    if (bytes.size() != std::size_t(*size) + kChecksumBytes)
        return corrupt("header length does not match its size field");
    auto body = bytes.first(*size);
    uint64_t stored = get_le(bytes.data() + *size, 8);
    if (!checksum_matches(stored, checksum(body))) return corrupt("header checksum mismatch");

    ByteCursor c(body.subspan(kPrefixBytes));
    Header h;
    h.meta.capture_bounded = (get_le(bytes.data() + 10, 2) & kFlagCaptureBounded) != 0;
    h.codec = c.u8();
    h.symbol_bits = c.u8();
    h.codec_level = static_cast<int8_t>(c.u8());
    uint8_t name_len = c.u8();
    h.meta.n = c.u32();
    h.meta.entries = c.u64();
    h.block_entries = c.u32();
    uint16_t symbols = c.u16();
    uint16_t kind = c.u16();
    h.block_count = c.u64();
    uint32_t knobs_len = c.u32();
    uint32_t dict_len = c.u32();
    if (c.failed()) return corrupt("header truncated");

    if (auto codec = find_codec(h.codec); !codec.ok()) return codec.status();
    if (kind > static_cast<uint16_t>(LevelKind::Bounds))
        return Status(ErrorCode::Unsupported, "unknown level kind " + std::to_string(kind));
    h.meta.kind = static_cast<LevelKind>(kind);
    const bool bounds = h.meta.kind == LevelKind::Bounds;
    if (bounds && h.meta.capture_bounded) return corrupt("a bounds file cannot be capture-bounded");
    if (bounds && h.meta.entries % 2 != 0) return corrupt("a bounds file has an odd entry count");
    if (h.symbol_bits != 1 && h.symbol_bits != 2 && h.symbol_bits != 4 && h.symbol_bits != 8)
        return corrupt("invalid symbol width " + std::to_string(h.symbol_bits));
    if (h.meta.n > kMaxLevel) return corrupt("seed count " + std::to_string(h.meta.n));
    if (!is_power_of_two(h.block_entries) || h.block_entries < kMinBlockEntries ||
        h.block_entries > kMaxBlockEntries)
        return corrupt("invalid block size " + std::to_string(h.block_entries));
    uint64_t want_blocks =
        h.meta.entries / h.block_entries + (h.meta.entries % h.block_entries != 0 ? 1 : 0);
    if (h.block_count != want_blocks) return corrupt("block count does not match entries");
    if (knobs_len > kMaxKnobsBytes) return corrupt("knob blob too large");
    if (dict_len > kMaxDictionaryBytes) return corrupt("dictionary too large");
    if (symbols > (1u << h.symbol_bits)) return corrupt("more symbols than the width allows");
    if ((symbols == 0) != (h.meta.entries == 0))
        return corrupt("value map size does not match entries");
    if (std::size_t(kFixedHeaderBytes) + name_len + knobs_len + symbols + dict_len != *size)
        return corrupt("header size does not match its fields");

    auto name = c.bytes(name_len);
    h.meta.rules.assign(name.begin(), name.end());
    auto knobs = c.bytes(knobs_len);
    h.meta.knobs.assign(knobs.begin(), knobs.end());
    auto map = c.bytes(symbols);
    bool seen[256] = {};
    for (uint8_t raw : map) {
        auto v = static_cast<int8_t>(raw);
        bool in_range = bounds ? v >= 0 && v <= int(h.meta.n)
                               : v == kDontCare || (v >= -int(h.meta.n) && v <= int(h.meta.n));
        if (!in_range)
            return corrupt("value map holds " + std::to_string(v) + " outside " +
                           (bounds ? "0..n" : "-n..n"));
        if (seen[raw]) return corrupt("value map lists " + std::to_string(v) + " twice");
        seen[raw] = true;
        h.value_map.push_back(v);
    }
    auto dict = c.bytes(dict_len);
    h.dictionary.assign(dict.begin(), dict.end());
    if (c.failed()) return corrupt("header truncated");
    if (!valid_rules_name(h.meta.rules)) return corrupt("invalid rule-set name");
    return h;
}

} // namespace owaredb::db::detail
