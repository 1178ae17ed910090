// Level files: what one file describes, how it is named, format-wide constants.
//
// A level file stores, for one (rule set, n), an array of signed 8-bit values, one per
// position index 0..entries-1, each in -n..n or kDontCare. The byte layout is documented in
// dbformat/README.md; writer.hpp writes it, reader.hpp reads it.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace owaredb::db {

// A position whose value the caller can recompute (e.g. by a one-ply capture search). It is
// stored like any other symbol and read back unchanged; resolving it is the caller's job.
inline constexpr int8_t kDontCare = -128;

// Format version written into every file; readers reject any other.
inline constexpr uint16_t kFormatVersion = 1;

// Largest level number (the game's seed count n) a file may record: values are int8 and
// -128 is kDontCare, so |value| <= n <= 127. (Oware itself stops at owaredb::kMaxSeeds = 48.)
inline constexpr uint32_t kMaxLevel = 127;

// Limits that keep a damaged or hostile header from asking for absurd allocations.
inline constexpr std::size_t kMaxRulesNameLength = 32;
inline constexpr std::size_t kMaxKnobsBytes = 1 << 16;
inline constexpr uint32_t kMinBlockEntries = 1u << 6;
inline constexpr uint32_t kMaxBlockEntries = 1u << 24;
inline constexpr std::size_t kMaxDictionaryBytes = 1 << 20;

// Header flag bit 0 (LevelMeta::capture_bounded).
inline constexpr uint16_t kFlagCaptureBounded = 1;

// What a level file holds (header field "kind", offset 38; dbformat/README.md, Header).
//   Values: one entry per position, its value in -n..n (or kDontCare).
//   Bounds: two entries per position, interleaved: entry 2i = gM and entry 2i + 1 = gN of
//           position i, each in 0..n (docs/values.md, Convention-free bounds); never
//           capture-bounded. The file of n then has entries = 2 * positions.
enum class LevelKind : uint16_t { Values = 0, Bounds = 1 };

// "values" or "bounds".
const char* to_string(LevelKind kind);

// Identity of a level. Two files are the same level iff rules, knobs, n and entries are
// equal; capture_bounded says how its values are stored.
struct LevelMeta {
    std::string rules;          // rule-set name, see valid_rules_name()
    std::vector<uint8_t> knobs; // opaque bytes from the caller (e.g. a serialized Rules)
    uint32_t n = 0;             // seeds on the board, <= kMaxLevel
    uint64_t entries = 0;       // number of positions (values) in the level
    // False: every stored byte is the exact value. True: a stored byte is only a lower
    // bound, and the value is max(stored, best capture) (solver/capture_bound.hpp). The
    // format just carries the flag; a reader of such a file must complete the values.
    bool capture_bounded = false;
    LevelKind kind = LevelKind::Values;

    bool operator==(const LevelMeta&) const = default;
};

// Rule-set names are 1..kMaxRulesNameLength characters of [a-z0-9_], so they are safe in
// file names and cannot contain the '-' that separates them from n.
bool valid_rules_name(std::string_view rules);

// A board tag names a game's board when it is not the standard one (Oware: "p4" for 4
// pits a side); empty for the standard board. 1..8 characters of [a-z0-9], so that it is
// safe in file names and cannot contain the '-' that separates it from the rule set and n.
bool valid_board_tag(std::string_view board);

// File name of a level, e.g. level_file_name("abapa", 7) == "abapa-07.owdb"; a bounds
// file is "abapa-07.bounds.owdb", so both kinds live side by side in one directory; on
// another board the tag goes between the rule set and n: "abapa-p4-07.owdb". Throws
// std::invalid_argument for an invalid name or tag, or n > kMaxLevel.
std::string level_file_name(std::string_view rules, uint32_t n, LevelKind kind = LevelKind::Values,
                            std::string_view board = {});

// dir / level_file_name(rules, n, kind, board).
std::filesystem::path level_path(const std::filesystem::path& dir, std::string_view rules,
                                 uint32_t n, LevelKind kind = LevelKind::Values,
                                 std::string_view board = {});

// Inverse of level_file_name: {rules, n, kind, board} for a well-formed name, nullopt
// otherwise.
struct LevelName {
    std::string rules;
    uint32_t n = 0;
    LevelKind kind = LevelKind::Values;
    std::string board; ///< empty: the standard board
};
std::optional<LevelName> parse_level_file_name(std::string_view file_name);

} // namespace owaredb::db
