// A directory's value levels as the commands that read stored levels whole see them
// (verify's value check, stats): owaredb's level files or Romein & Bal's published ones
// (tablebase/directory_format.hpp) behind one interface, so that each command is written
// once for both formats.
#pragma once

#include "dbformat/reader.hpp"
#include "oware/oware_game.hpp"
#include "retro/streamed_sources.hpp"
#include "retro/value_array.hpp"
#include "tablebase/database_dir.hpp"
#include "tablebase/published_dir.hpp"

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace owaredb::cli {

class StoredLevels {
  public:
    virtual ~StoredLevels() = default;

    virtual const OwareGame& game() const = 0;
    /// The file that holds level n (it may not exist).
    virtual std::filesystem::path path(int n) const = 0;
    /// Whether level n's file is there (not whether it is valid).
    bool has(int n) const { return std::filesystem::exists(path(n)); }

    /// Level n whole, as exact values in our rank order; `smaller` = levels 0..n-1 for a
    /// capture-bounded file (generate --compact). The reader's status on failure, naming
    /// the file; `out` is then untouched.
    virtual db::Status load(int n, ValueArray& out,
                            const std::vector<ValueArray>& smaller) const = 0;
    /// Level n and the levels its captures reach, read by rank as the streamed checks ask
    /// (throws std::runtime_error naming a file that is missing or damaged).
    virtual std::unique_ptr<SmallerLevelValues> streamed(int n) const = 0;
    /// How many times each stored value occurs in level n (order does not matter: no
    /// permutation, no decompression into memory). Throws std::runtime_error naming the file.
    virtual db::Histogram histogram(int n) const = 0;
    /// Whether level n's file holds capture-bounded values (then its histogram is not the
    /// values'); false for a missing file. Throws std::runtime_error for a damaged one.
    virtual bool capture_bounded(int n) const = 0;
    /// How a message names the position of level n at our rank `index` besides its rank:
    /// empty for our files, ", offset K of DIR/scores.N" for the published ones.
    virtual std::string where(int n, uint64_t index) const = 0;
};

/// Our level files of `db`, read with `threads` threads.
std::unique_ptr<StoredLevels> our_stored_levels(const DatabaseDir& db, int threads);
/// Romein & Bal's files of `dir` (awari), read with `threads` threads.
std::unique_ptr<StoredLevels> published_stored_levels(const PublishedDir& dir, int threads);

} // namespace owaredb::cli
