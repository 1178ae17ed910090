// The byte layout of a level file (see README.md for the full table). Internal to dbformat:
// the writer serializes a Header with it and the reader parses and validates one.
//
//   [header][8: header checksum][blocks...][index][8: index checksum][24: trailer]
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "dbformat/format.hpp"
#include "dbformat/status.hpp"

namespace owaredb::db::detail {

// 0x89 and CR LF SUB catch 7-bit transfers and newline translation, as in PNG.
inline constexpr std::array<uint8_t, 8> kMagic = {0x89, 'O', 'W', 'D', 'B', 0x0D, 0x0A, 0x1A};
inline constexpr std::array<uint8_t, 8> kEndMagic = {'O', 'W', 'D', 'B', 'E', 'N', 'D', 0x0A};

inline constexpr std::size_t kPrefixBytes = 16;      // magic, version, flags, header size
inline constexpr std::size_t kFixedHeaderBytes = 56; // everything before the rules name
inline constexpr std::size_t kChecksumBytes = 8;
inline constexpr std::size_t kIndexEntryBytes = 12; // u32 compressed size, u64 checksum
inline constexpr std::size_t kTrailerBytes = 24;    // u64 index offset, u64 file checksum, magic

inline constexpr uint8_t kCodecZstd = 1; // the codec of every file so far (codec_zstd.cpp)

struct Header {
    LevelMeta meta;
    uint8_t codec = kCodecZstd;
    uint8_t symbol_bits = 8;          // 1, 2, 4 or 8 bits per packed symbol
    int8_t codec_level = 0;           // informational: the codec's level the writer used
    uint32_t block_entries = 1 << 16; // power of two
    uint64_t block_count = 0;
    std::vector<int8_t> value_map;   // symbol -> value, most frequent symbol first
    std::vector<uint8_t> dictionary; // the codec's, shared by all blocks, may be empty

    uint64_t block_symbols(uint64_t block) const {
        uint64_t first = block * block_entries;
        uint64_t left = meta.entries - first;
        return left < block_entries ? left : block_entries;
    }
    uint64_t block_bytes(uint64_t block) const {
        return (block_symbols(block) * symbol_bits + 7) / 8;
    }
    std::size_t max_block_bytes() const { return std::size_t(block_entries) * symbol_bits / 8; }
};

// Serialized header followed by its checksum.
std::vector<uint8_t> serialize_header(const Header& h);

// Header size (the checksum not included) from the first kPrefixBytes of a file, after
// checking magic, version and flags.
Result<uint32_t> parse_prefix(std::span<const uint8_t> prefix);

// Parses and validates a whole header (kPrefixBytes.. included) plus its 8-byte checksum.
// Messages say what is wrong but not which file; the caller adds the path.
Result<Header> parse_header(std::span<const uint8_t> header_and_checksum);

} // namespace owaredb::db::detail
