#include "tablebase/level_dir.hpp"

#include "oware/ranking.hpp"

namespace owaredb {

LevelDir::LevelDir(std::filesystem::path dir, Rules rules, db::LevelKind kind,
                   uint64_t entries_per_position)
    : dir_(std::move(dir)), game_(std::move(rules)), kind_(kind),
      entries_per_position_(entries_per_position) {}

std::filesystem::path LevelDir::path(int n) const {
    return db::level_path(dir_, rules().name, static_cast<uint32_t>(n), kind_);
}

db::LevelMeta LevelDir::meta(int n) const {
    db::LevelMeta m{rules().name, rules().knob_bytes(), static_cast<uint32_t>(n),
                    entries_per_position_ * level_size(n)};
    m.kind = kind_;
    return m;
}

db::Status LevelDir::read_level(int n, ValueArray& values, db::LevelInfo& info, int threads) const {
    db::ReaderOptions options;
    options.expect = expectation(n);
    options.cache_bytes = 1 << 20; // read_all decodes straight into `values`
    db::LevelReader reader(path(n), options);
    db::Result<db::LevelInfo> read_info = reader.info();
    if (!read_info.ok()) return read_info.status();
    info = *read_info;
    values = ValueArray(entries_per_position_ * level_size(n));
    return reader.read_all(values.span(), threads);
}

db::WriteReport LevelDir::write_level(int n, const db::LevelMeta& m,
                                      std::span<const int8_t> entries, int threads) const {
    return write_level(n, m, db::SpanValues(entries), threads);
}

db::WriteReport LevelDir::write_level(int n, const db::LevelMeta& m, const db::ValueSource& entries,
                                      int threads) const {
    std::filesystem::create_directories(dir_);
    db::WriterOptions options;
    options.threads = threads;
    return db::write_level(path(n), m, entries, options);
}

} // namespace owaredb
