#include "tools/database_dir.hpp"

#include "solver/ranking.hpp"

namespace owaredb::cli {

DatabaseDir::DatabaseDir(std::filesystem::path dir, Rules rules)
    : dir_(std::move(dir)), rules_(std::move(rules)) {}

std::filesystem::path DatabaseDir::path(int n) const {
    return db::level_path(dir_, rules_.name, static_cast<uint32_t>(n));
}

db::LevelMeta DatabaseDir::meta(int n) const {
    return {rules_.name, rules_.knob_bytes(), static_cast<uint32_t>(n), level_size(n)};
}

db::Status DatabaseDir::load(int n, ValueArray& out, int threads) const {
    db::ReaderOptions options;
    options.expect = db::Expectation::exactly(meta(n));
    options.cache_bytes = 1 << 20; // read_all decodes straight into `out`
    db::LevelReader reader(path(n), options);
    ValueArray values(level_size(n));
    db::Status s = reader.read_all(values.span(), threads);
    if (s.ok()) out = std::move(values);
    return s;
}

db::WriteReport DatabaseDir::save(int n, const ValueArray& values, int threads) const {
    std::filesystem::create_directories(dir_);
    db::WriterOptions options;
    options.threads = threads;
    return db::write_level(path(n), meta(n), values.span(), options);
}

} // namespace owaredb::cli
