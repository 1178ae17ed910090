#include "tablebase/level_dir.hpp"

#include "dbformat/checkpoint.hpp"
#include "dbformat/file_io.hpp"
#include "oware/ranking.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace owaredb {

std::string board_tag(int pits_per_side) {
    return pits_per_side == 6 ? std::string() : "p" + std::to_string(pits_per_side);
}

std::optional<int> pits_of_board_tag(std::string_view tag) {
    if (tag.empty()) return 6;
    if (tag.size() == 2 && tag[0] == 'p' && tag[1] >= '0' + kMinPitsPerSide &&
        tag[1] <= '0' + kMaxPitsPerSide && tag[1] != '6')
        return tag[1] - '0';
    return std::nullopt;
}

LevelDir::LevelDir(std::filesystem::path dir, Rules rules, db::LevelKind kind,
                   uint64_t entries_per_position, int pits_per_side)
    : dir_(std::move(dir)), rules_(std::move(rules)), kind_(kind),
      entries_per_position_(entries_per_position), pits_(pits_per_side) {
    if (pits_ < kMinPitsPerSide || pits_ > kMaxPitsPerSide)
        throw std::invalid_argument("a board has " + board_sizes_text() + " pits a side, not " +
                                    std::to_string(pits_));
}

uint64_t LevelDir::level_size(int n) const {
    return owaredb::level_size(pits_, n);
}

std::filesystem::path LevelDir::path(int n) const {
    return db::level_path(dir_, rules().name, static_cast<uint32_t>(n), kind_, board_tag(pits_));
}

db::LevelMeta LevelDir::meta(int n) const {
    db::LevelMeta m{rules().name, rules().knob_bytes(pits_), static_cast<uint32_t>(n),
                    entries_per_position_ * level_size(n)};
    m.kind = kind_;
    return m;
}

db::Result<db::Histogram> LevelDir::check(int n, int threads) const {
    db::ReaderOptions options;
    options.expect = expectation(n);
    return db::LevelReader(path(n), options).histogram(threads);
}

db::VerifyReport LevelDir::verify(int n, int threads) const {
    db::ReaderOptions options;
    options.expect = expectation(n);
    return db::LevelReader(path(n), options).verify(threads); // its messages name the file
}

uint64_t LevelDir::file_bytes(int n) const {
    std::error_code ec;
    const uintmax_t bytes = std::filesystem::file_size(path(n), ec);
    return ec ? 0 : uint64_t(bytes);
}

bool LevelDir::capture_bounded(int n) const {
    const db::Result<db::LevelInfo> info = db::LevelReader(path(n)).info();
    return info.ok() && info->meta.capture_bounded;
}

std::optional<double> LevelDir::measured_file_bits(int n,
                                                   const std::function<uint64_t(int)>& known_bytes,
                                                   bool capture_bounded) const {
    for (int below = n - 1; below >= 0; --below) {
        const uint64_t entries = entries_per_position_ * level_size(below);
        if (entries < kMeasuredFileEntries) break;
        uint64_t bytes = file_bytes(below);
        // A file whose header cannot be read counts as exact: its size is all it gives.
        if (bytes && this->capture_bounded(below) != capture_bounded) bytes = 0;
        if (!bytes && known_bytes && !capture_bounded) bytes = known_bytes(below);
        if (bytes) return 8.0 * double(bytes) / double(entries);
    }
    return std::nullopt;
}

uint64_t LevelDir::scratch_bytes(int n) const {
    uint64_t bytes = 0;
    for (const auto& file : {db::checkpoint_path(path(n)), db::exit_file_path(path(n))}) {
        std::error_code ec;
        const uintmax_t size = std::filesystem::file_size(file, ec);
        if (!ec) bytes += uint64_t(size);
    }
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(dir_, ec))
        if (db::is_scan_file(path(n), entry.path().filename().string())) {
            std::error_code size_ec;
            const uintmax_t size = std::filesystem::file_size(entry.path(), size_ec);
            if (!size_ec) bytes += uint64_t(size);
        }
    return bytes;
}

uint64_t LevelDir::level_bytes(int n) const {
    const std::string prefix = path(n).stem().string() + ".";
    uint64_t bytes = 0;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(dir_, ec)) {
        if (!entry.path().filename().string().starts_with(prefix)) continue;
        std::error_code size_ec; // a file removed since the listing counts nothing
        const uintmax_t size = std::filesystem::file_size(entry.path(), size_ec);
        if (!size_ec) bytes += uint64_t(size);
    }
    return bytes;
}

db::Status LevelDir::check_file_types(int n) const {
    const std::filesystem::path level = path(n);
    for (const auto& file : {level, db::checkpoint_path(level), db::exit_file_path(level)})
        if (db::Status s = db::detail::regular_or_missing(file); !s.ok()) return s;
    return {};
}

void LevelDir::remove_scratch(int n) const {
    const std::filesystem::path level = path(n);
    std::error_code ec;
    std::filesystem::remove(db::checkpoint_path(level), ec);
    std::filesystem::remove(db::exit_file_path(level), ec);
    // The ranks' exit files, of any rank count, and the nibble engine's scan files.
    for (const auto& entry : std::filesystem::directory_iterator(dir_, ec)) {
        const std::string name = entry.path().filename().string();
        if (db::is_rank_exit_file(level, name) || db::is_scan_file(level, name))
            std::filesystem::remove(entry.path(), ec);
    }
}

uint64_t estimated_file_bytes(uint64_t entries, std::optional<double> measured_bits) {
    // The margin for the format's overhead (block index, zstd frames, header) grows with
    // the level, from a floor that holds a header with its knobs.
    const uint64_t overhead = entries / 32 + (uint64_t(64) << 10);
    const uint64_t generous = entries * 6 / 8;
    if (!measured_bits) return generous + overhead;
    const double bits = std::min(6.0, 1.1 * std::max(0.0, *measured_bits));
    return std::min(generous, uint64_t(double(entries) * bits / 8)) + overhead;
}

uint64_t estimated_exit_file_bytes(uint64_t positions) {
    return positions * 3 / 8 + (uint64_t(64) << 10);
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
    // Values not in memory (a level of 4 or 2 bits a position, read from its words and scan
    // files) are read and compressed 8 Mi at a time: the writer's default window, 64 Mi,
    // held 64 MiB of values and their compressed blocks beside the words, the largest part
    // of such a level's peak. The bytes do not depend on the window.
    if (!entries.contiguous()) options.window_entries = uint64_t(8) << 20;
    return db::write_level(path(n), m, entries, options);
}

} // namespace owaredb
