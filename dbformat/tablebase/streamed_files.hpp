// The files behind the streamed engine (retro/streamed_sources.hpp) in `owaredb generate`:
// the smaller levels' value files, read in index order, and the level's exit file, a
// scratch file beside it ("<rules>-NN.exits") that lives while the level is solved.
#pragma once

#include "dbformat/reader.hpp"
#include "retro/streamed_sources.hpp"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <vector>

namespace owaredb {

class DatabaseDir;

/// Levels 0..n-1 of a value directory, read through one block at a time per thread and
/// level (LevelReader::read_sorted): the memory they take is a few blocks per thread.
class FileSmallerLevels final : public SmallerLevelValues {
  public:
    /// Opens the files of levels 0..n-1 and checks them (rule set, level, size, kind).
    /// Throws std::runtime_error naming the file when one is missing, damaged, of another
    /// level, or capture-bounded (--compact: its capture positions hold no value).
    /// `threads`: the most threads that will read at once (OpenMP thread numbers).
    FileSmallerLevels(const DatabaseDir& db, int n, int threads);
    ~FileSmallerLevels() override;
    void read(int level, std::span<const uint64_t> indices,
              std::span<int8_t> values) const override;

  private:
    std::vector<db::LevelReader> readers_;
    // cursors_[thread * levels + level]
    mutable std::vector<db::SortedCursor> cursors_;
    int threads_;
};

/// The exit file of a level: appended by the first pass, read by the scans, fsync'ed and
/// checksummed (XXH3-64, as the level files) at safe points so that a checkpoint can say
/// which exits it was saved with.
class ExitFile final : public ExitStore {
  public:
    /// No I/O until the first call; the file is created by reset() or found by resume().
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

    /// "abapa-24.owdb" -> "abapa-24.exits".
    static std::filesystem::path beside(const std::filesystem::path& level_file);

  private:
    void open(bool truncate);
    std::filesystem::path path_;
    int fd_ = -1;
    uint64_t size_ = 0;
    struct Hash;
    std::unique_ptr<Hash> hash_;
};

} // namespace owaredb
