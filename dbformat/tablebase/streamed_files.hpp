// The files behind the streamed engine (retro/streamed_sources.hpp) in `owaredb generate`:
// the smaller levels' value files, read in index order, and the level's exit file, a
// scratch file beside it ("<rules>-NN.exits") that lives while the level is solved.
#pragma once

#include "dbformat/reader.hpp"
#include "oware/oware_game.hpp"
#include "retro/streamed_sources.hpp"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <vector>

namespace owaredb {

class DatabaseDir;

/// The smaller levels that a capture from level n reaches (n - kMaxCapture .. n -
/// kMinCapture: not n - 1, which a k-seeds-per-pit game may leave out), and with
/// `and_level_n` level n itself (verify's streamed check: the quiet moves), read through
/// one block at a time per thread and level (LevelReader::read_sorted): the memory they
/// take is a few blocks per thread.
/// Whether a streamed source for level n holds level k: the levels a capture from n
/// reaches (n - kMaxCapture .. n - kMinCapture; on a board of P pits a side a capture
/// takes up to 3P seeds), and level n itself with `and_level_n`.
/// FileSmallerLevels and PublishedLevels (published_dir.hpp) open exactly these.
inline bool streamed_source_holds(int n, int k, bool and_level_n, int pits_per_side) {
    return k == n ? and_level_n : n - k >= kMinCapture && n - k <= 3 * pits_per_side;
}

class FileSmallerLevels final : public SmallerLevelValues {
  public:
    /// Opens the files of those levels and checks them (rule set, level, size, kind).
    /// Throws std::runtime_error naming the file when one is missing, damaged, of another
    /// level, or capture-bounded (--compact: its capture positions hold no value); read()
    /// of another level is a std::logic_error.
    /// `threads`: the most threads that will read at once (OpenMP thread numbers).
    FileSmallerLevels(const DatabaseDir& db, int n, int threads, bool and_level_n = false);
    ~FileSmallerLevels() override;
    void read(int level, std::span<const uint64_t> indices,
              std::span<int8_t> values) const override;

  private:
    std::vector<std::optional<db::LevelReader>> readers_; // by level; none: not reached
    // cursors_[thread * levels + level]
    mutable std::vector<db::SortedCursor> cursors_;
    int threads_;
};

/// The exit file of a level: appended by the first pass, read by the scans, fsync'ed and
/// checksummed (XXH3-64, as the level files) at safe points so that a checkpoint can say
/// which exits it was saved with.
class ExitFile final : public ExitStore {
  public:
    /// No I/O until the first call; the file is created anew by reset() (whatever was at
    /// the path, a planted link included, is removed, never written through) or found by
    /// resume() (a regular file, not through a link).
    explicit ExitFile(std::filesystem::path path);
    ~ExitFile() override;
    void reset() override;
    bool resume(uint64_t size, uint64_t checksum) override;
    void append(std::span<const int8_t> exits) override;
    uint64_t sync() override;
    void read(uint64_t begin, std::span<int8_t> out) const override;
    /// Deletes the file (once the level's file is written).
    void remove();
    const std::filesystem::path& path() const { return path_; }

  private:
    void open(bool truncate);
    std::filesystem::path path_;
    int fd_ = -1;
    uint64_t size_ = 0;
    struct Hash;
    std::unique_ptr<Hash> hash_;
};

} // namespace owaredb
