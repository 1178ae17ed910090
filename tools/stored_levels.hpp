// A directory's value levels as the commands that read stored levels whole see them
// (verify's value check, stats): owaredb's level files or Romein & Bal's published ones
// (tablebase/directory_format.hpp) behind one interface, so that each command is written
// once for both formats. Our files may be of any board (P pits a side, 1..8); the code
// that needs the game's rules for a board (the checks, one-ply values) gets it through
// with_oware_game (oware/oware_game.hpp), once per use, from pits() and rules().
#pragma once

#include "dbformat/reader.hpp"
#include "oware/oware_game.hpp"
#include "oware/ranking.hpp"
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

    /// The rule set of the levels.
    virtual const Rules& rules() const = 0;
    /// The board: pits a side (6 for Romein & Bal's files).
    virtual int pits() const = 0;
    /// Positions of level n on this board.
    uint64_t level_size(int n) const { return owaredb::level_size(pits(), n); }
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

/// The text form (2P numbers) of the position of rank `index` in level n of a board of
/// `pits` pits a side.
std::string position_text(int pits, int n, uint64_t index);

/// UsageError unless `pits` is 6: Romein & Bal's published files in `dir` are of the
/// standard board (a --pits P for them is a mistake, said as such).
void require_published_board(const std::string& dir, int pits);

/// Our level files of `db` (of its board), read with `threads` threads.
std::unique_ptr<StoredLevels> our_stored_levels(const DatabaseDir& db, int threads);
/// Romein & Bal's files of `dir` (awari), read with `threads` threads.
std::unique_ptr<StoredLevels> published_stored_levels(const PublishedDir& dir, int threads);

} // namespace owaredb::cli
