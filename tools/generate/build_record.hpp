// The record a database directory keeps of how each of its levels was built: one JSON line
// per level in "<dir>/owaredb-build.jsonl", appended (and synced) as soon as the level's
// file is written. A run that spans several processes (killed and resumed, one night after
// another, a machine shared with other work) thus still ends with every level's measured
// row: mode, wall and CPU seconds, peak memory, threads, when and by which binary. A row
// belongs to the file it describes by name and size; a file rebuilt or replaced since has
// no row until its new one is appended (the last row of a file wins).
#pragma once

#include "generate/level_row.hpp"

#include <filesystem>
#include <optional>
#include <string>

namespace owaredb::cli {

class BuildRecord {
  public:
    /// The record of the directory `dir`; nothing is read or written here.
    explicit BuildRecord(const std::filesystem::path& dir);
    const std::filesystem::path& path() const { return path_; }

    /// Appends the row of a level just built into `file` (its file name and size identify
    /// it), with `threads` and the time now. A failure (disk full, read-only directory) is
    /// reported on stderr and does not stop the run: the level file itself is safe.
    void append(const std::filesystem::path& file, const LevelRow& row, int threads) const;

    /// The last row recorded for `file` at its current size, if any: its mode, seconds,
    /// write seconds, CPU seconds, peak memory and messages (the caller keeps n, positions,
    /// file size and the values it read from the file). Lines that do not parse (a write
    /// cut short by a crash) are skipped.
    std::optional<LevelRow> find(const std::filesystem::path& file) const;

  private:
    std::filesystem::path path_;
};

} // namespace owaredb::cli
