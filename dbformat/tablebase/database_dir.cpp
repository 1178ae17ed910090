#include "tablebase/database_dir.hpp"

#include "oware/ranking.hpp"
#include "tablebase/capture_bound.hpp"

#include <set>

namespace owaredb {

DatabaseDir::DatabaseDir(std::filesystem::path dir, Rules rules, bool compact)
    : dir_(std::move(dir)), game_(std::move(rules)), compact_(compact) {}

std::filesystem::path DatabaseDir::path(int n) const {
    return db::level_path(dir_, rules().name, static_cast<uint32_t>(n));
}

db::LevelMeta DatabaseDir::meta(int n) const {
    return {rules().name, rules().knob_bytes(), static_cast<uint32_t>(n), level_size(n)};
}

db::Status DatabaseDir::load(int n, ValueArray& out, int threads,
                             const std::vector<ValueArray>& smaller) const {
    db::ReaderOptions options;
    options.expect = expectation(n);
    options.cache_bytes = 1 << 20; // read_all decodes straight into `out`
    db::LevelReader reader(path(n), options);
    db::Result<db::LevelInfo> info = reader.info();
    if (!info.ok()) return info.status();
    ValueArray values(level_size(n));
    db::Status s = reader.read_all(values.span(), threads);
    if (!s.ok()) return s;
    if (info->meta.capture_bounded) {
        if (smaller.size() < static_cast<std::size_t>(n))
            return db::Status(db::ErrorCode::Mismatch,
                              path(n).string() +
                                  ": capture-bounded values need every smaller level loaded");
        decode_capture_bounded(game_, n, values.span(), level_pointers(smaller, n), threads);
    }
    out = std::move(values);
    return s;
}

db::WriteReport DatabaseDir::save(int n, const ValueArray& values, int threads,
                                  const std::vector<ValueArray>& smaller) const {
    std::filesystem::create_directories(dir_);
    db::WriterOptions options;
    options.threads = threads;
    db::LevelMeta m = meta(n);
    if (!compact_) return db::write_level(path(n), m, values.span(), options);
    ValueArray stored(values.size());
    encode_capture_bounded(game_, n, values.span(), level_pointers(smaller, n), stored.span(),
                           threads);
    m.capture_bounded = true;
    return db::write_level(path(n), m, stored.span(), options);
}

std::vector<std::string> rule_sets_in(const std::filesystem::path& dir) {
    std::set<std::string> found;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
        if (auto name = db::parse_level_file_name(entry.path().filename().string()))
            found.insert(std::string(name->rules));
    return {found.begin(), found.end()};
}

} // namespace owaredb
