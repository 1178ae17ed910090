#include "tablebase/database_dir.hpp"

#include "oware/ranking.hpp"
#include "tablebase/capture_bound.hpp"

#include <set>
#include <stdexcept>

namespace owaredb {

DatabaseDir::DatabaseDir(std::filesystem::path dir, Rules rules, bool compact, int pits_per_side)
    : LevelDir(std::move(dir), std::move(rules), db::LevelKind::Values, 1, pits_per_side),
      compact_(compact) {
    if (compact_ && pits() != 6)
        throw std::invalid_argument("capture-bounded (compact) files are for the 6-pit board only");
}

db::Status DatabaseDir::load(int n, ValueArray& out, int threads,
                             const std::vector<ValueArray>& smaller) const {
    ValueArray values;
    db::LevelInfo info;
    db::Status s = read_level(n, values, info, threads);
    if (!s.ok()) return s;
    if (info.meta.capture_bounded) {
        if (pits() != 6)
            return db::Status(db::ErrorCode::Unsupported,
                              path(n).string() +
                                  ": capture-bounded values exist for the 6-pit board only");
        if (smaller.size() < static_cast<std::size_t>(n))
            return db::Status(db::ErrorCode::Mismatch,
                              path(n).string() +
                                  ": capture-bounded values need every smaller level loaded");
        decode_capture_bounded(OwareGame(rules()), n, values.span(), level_pointers(smaller, n),
                               threads);
    }
    out = std::move(values);
    return s;
}

db::WriteReport DatabaseDir::save(int n, const ValueArray& values, int threads,
                                  const std::vector<ValueArray>& smaller) const {
    db::LevelMeta m = meta(n);
    if (!compact_) return write_level(n, m, values.span(), threads);
    ValueArray stored(values.size());
    encode_capture_bounded(OwareGame(rules()), n, values.span(), level_pointers(smaller, n),
                           stored.span(), threads);
    m.capture_bounded = true;
    return write_level(n, m, stored.span(), threads);
}

db::WriteReport DatabaseDir::save(int n, const db::ValueSource& values, int threads) const {
    if (compact_)
        throw std::invalid_argument("a compact level is encoded from the whole level in memory");
    return write_level(n, meta(n), values, threads);
}

std::vector<std::string> rule_sets_in(const std::filesystem::path& dir) {
    std::set<std::string> found;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
        if (auto name = db::parse_level_file_name(entry.path().filename().string()))
            if (pits_of_board_tag(name->board)) found.insert(std::string(name->rules));
    return {found.begin(), found.end()};
}

std::vector<int> board_sizes_in(const std::filesystem::path& dir) {
    std::set<int> found;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
        if (auto name = db::parse_level_file_name(entry.path().filename().string()))
            if (std::optional<int> pits = pits_of_board_tag(name->board)) found.insert(*pits);
    return {found.begin(), found.end()};
}

} // namespace owaredb
