#include "dbformat/format.hpp"

#include <charconv>
#include <stdexcept>

namespace owaredb::db {

bool valid_rules_name(std::string_view rules) {
    if (rules.empty() || rules.size() > kMaxRulesNameLength) return false;
    for (char c : rules) {
        bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
        if (!ok) return false;
    }
    return true;
}

bool valid_board_tag(std::string_view board) {
    if (board.empty() || board.size() > 8) return false;
    for (char c : board)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))) return false;
    return true;
}

const char* to_string(LevelKind kind) {
    return kind == LevelKind::Bounds ? "bounds" : "values";
}

std::string level_file_name(std::string_view rules, uint32_t n, LevelKind kind,
                            std::string_view board) {
    if (!valid_rules_name(rules))
        throw std::invalid_argument("invalid rule-set name '" + std::string(rules) + "'");
    if (!board.empty() && !valid_board_tag(board))
        throw std::invalid_argument("invalid board tag '" + std::string(board) + "'");
    if (n > kMaxLevel)
        throw std::invalid_argument("seed count " + std::to_string(n) + " exceeds " +
                                    std::to_string(kMaxLevel));
    // Two digits keep "ls" order equal to numeric order for every Oware level.
    std::string digits = std::to_string(n);
    if (digits.size() < 2) digits.insert(0, "0");
    return std::string(rules) + (board.empty() ? "" : "-" + std::string(board)) + "-" + digits +
           (kind == LevelKind::Bounds ? ".bounds.owdb" : ".owdb");
}

std::filesystem::path level_path(const std::filesystem::path& dir, std::string_view rules,
                                 uint32_t n, LevelKind kind, std::string_view board) {
    return dir / level_file_name(rules, n, kind, board);
}

std::optional<LevelName> parse_level_file_name(std::string_view name) {
    constexpr std::string_view ext = ".owdb";
    if (name.size() <= ext.size() || name.substr(name.size() - ext.size()) != ext)
        return std::nullopt;
    name.remove_suffix(ext.size());
    constexpr std::string_view bounds = ".bounds";
    LevelKind kind = LevelKind::Values;
    if (name.size() > bounds.size() && name.substr(name.size() - bounds.size()) == bounds) {
        name.remove_suffix(bounds.size());
        kind = LevelKind::Bounds;
    }
    auto dash = name.rfind('-');
    if (dash == std::string_view::npos) return std::nullopt;
    std::string_view rules = name.substr(0, dash), digits = name.substr(dash + 1), board;
    if (auto board_dash = rules.find('-'); board_dash != std::string_view::npos) {
        board = rules.substr(board_dash + 1);
        rules = rules.substr(0, board_dash);
        if (!valid_board_tag(board)) return std::nullopt;
    }
    if (!valid_rules_name(rules) || digits.size() < 2 || digits.size() > 3) return std::nullopt;
    uint32_t n = 0;
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
    if (ec != std::errc() || end != digits.data() + digits.size() || n > kMaxLevel)
        return std::nullopt;
    // Only the canonical spelling round-trips (so "x-007.owdb" is not level 7).
    if (level_file_name(rules, n) != std::string(rules) + "-" + std::string(digits) + ".owdb")
        return std::nullopt;
    return LevelName{std::string(rules), n, kind, std::string(board)};
}

} // namespace owaredb::db
