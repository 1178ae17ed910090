#include "tablebase/published_dir.hpp"

#include "dbformat/file_io.hpp"
#include "oware/oware_game.hpp"
#include "oware/ranking.hpp"
#include "retro/parallel.hpp"
#include "tablebase/streamed_files.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <charconv>
#include <mutex>
#include <stdexcept>

namespace owaredb {

namespace {

// Positions a parallel chunk converts: its first is unranked, the others follow by
// next_in_level.
constexpr uint64_t kChunk = 1 << 16;

} // namespace

PublishedDir::PublishedDir(std::filesystem::path dir) : dir_(std::move(dir)) {}

std::filesystem::path PublishedDir::path(int n) const {
    return dir_ / ("scores." + std::to_string(n));
}

std::optional<int> PublishedDir::level_of(const std::string& file_name) {
    constexpr std::string_view prefix = "scores.";
    if (!file_name.starts_with(prefix)) return std::nullopt;
    const std::string_view digits = std::string_view(file_name).substr(prefix.size());
    // Digits only, no leading zero: "scores.-1" or "scores.+1" is no level of the game, as
    // "scores.49" is not.
    if (digits.empty() || digits.size() > 2 || (digits.size() > 1 && digits[0] == '0') ||
        !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return std::nullopt;
    int n = -1;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
    if (ec != std::errc() || end != digits.data() + digits.size() || n > kMaxSeeds)
        return std::nullopt;
    return n;
}

std::vector<int> PublishedDir::levels_in(const std::filesystem::path& dir) {
    std::vector<int> levels;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
        if (auto n = level_of(entry.path().filename().string())) levels.push_back(*n);
    std::sort(levels.begin(), levels.end());
    return levels;
}

db::Result<db::RawLevelFile> PublishedDir::open(int n) const {
    if (n < 0 || n > kMaxSeeds)
        return db::Status(db::ErrorCode::InvalidArgument, "level " + std::to_string(n) +
                                                              ": outside 0.." +
                                                              std::to_string(kMaxSeeds));
    return db::RawLevelFile::open(path(n), level_size<6>(n), n);
}

db::Status PublishedDir::load(int n, ValueArray& out, int threads) const {
    db::Result<db::RawLevelFile> file = open(n);
    if (!file.ok()) return file.status();
    const uint64_t size = level_size<6>(n);
    ValueArray values(size);
    std::atomic<bool> failed{false};
    db::Status first_error;
    std::mutex error_mutex;
    parallel::for_chunks(threads, 0, size, kChunk, [&](uint64_t begin, uint64_t end) {
        std::array<uint64_t, 1024> offsets;
        std::array<int8_t, 1024> read;
        Position p = unrank<6>(n, begin);
        for (uint64_t i = begin; i < end && !failed.load(std::memory_order_relaxed);) {
            const uint64_t count = std::min<uint64_t>(offsets.size(), end - i);
            for (uint64_t k = 0; k < count; ++k) {
                offsets[k] = published_rank(p);
                if (i + k + 1 < size) p = next_in_level(p);
            }
            if (db::Status s =
                    file->read_at(std::span(offsets).first(count), std::span(read).first(count));
                !s.ok()) {
                const std::lock_guard lock(error_mutex);
                if (!failed.exchange(true)) first_error = s;
                return;
            }
            std::copy_n(read.begin(), count, values.data() + i);
            i += count;
        }
    });
    if (failed) return first_error;
    out = std::move(values);
    return {};
}

void PublishedDir::save(int n, const ValueArray& values, int threads) const {
    const uint64_t size = level_size<6>(n);
    if (values.size() != size)
        throw std::invalid_argument("level " + std::to_string(n) + ": " +
                                    std::to_string(values.size()) + " values for " +
                                    std::to_string(size) + " positions");
    std::vector<int8_t> theirs(size);
    parallel::for_chunks(threads, 0, size, kChunk, [&](uint64_t begin, uint64_t end) {
        Position p = unrank<6>(n, begin);
        for (uint64_t i = begin; i < end; ++i) {
            theirs[published_rank(p)] = values[i];
            if (i + 1 < size) p = next_in_level(p);
        }
    });
    db::detail::AtomicFileSink sink(path(n));
    sink.write(std::span(reinterpret_cast<const uint8_t*>(theirs.data()), theirs.size()));
    sink.commit();
}

void PublishedFileValues::read(uint64_t begin, std::span<int8_t> out) const {
    const uint64_t end = begin + out.size();
    if (end < size()) file_.will_need(end, std::min<uint64_t>(out.size(), size() - end));
    if (db::Status s = file_.read(begin, out); !s.ok()) throw std::runtime_error(s.message());
}

PublishedLevels::PublishedLevels(const PublishedDir& dir, int n, bool and_level_n) {
    for (int k = 0; k <= n; ++k) {
        if (!streamed_source_holds(n, k, and_level_n, kPitsPerSide)) {
            files_.emplace_back();
            continue;
        }
        db::Result<db::RawLevelFile> file = dir.open(k);
        if (!file.ok()) throw std::runtime_error(file.status().message());
        files_.push_back(std::move(*file));
    }
}

void PublishedLevels::read(int level, std::span<const uint64_t> indices,
                           std::span<int8_t> values) const {
    if (level < 0 || level >= int(files_.size()) || !files_[size_t(level)])
        throw std::logic_error("PublishedLevels: level out of range");
    std::array<uint64_t, 1024> offsets;
    for (size_t i = 0; i < indices.size(); i += offsets.size()) {
        const size_t count = std::min(offsets.size(), indices.size() - i);
        for (size_t k = 0; k < count; ++k)
            offsets[k] = published_rank(unrank<6>(level, indices[i + k]));
        if (db::Status s = files_[size_t(level)]->read_at(std::span(offsets).first(count),
                                                          values.subspan(i, count));
            !s.ok())
            throw std::runtime_error(s.message());
    }
}

} // namespace owaredb
