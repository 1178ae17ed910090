// A directory of level files for one rule set: the glue between the game's in-memory
// value arrays and dbformat's files. Every command and the probe library name, check and
// read level files through it.
#pragma once

#include "dbformat/reader.hpp"
#include "dbformat/writer.hpp"
#include "oware/oware_game.hpp"
#include "retro/value_array.hpp"
#include "tablebase/level_dir.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace owaredb {

class DatabaseDir : public LevelDir {
  public:
    /// `compact`: save() writes capture-bounded files (dbformat/README.md), smaller but
    /// slower to probe. load() reads either kind. Files "<dir>/<rules>-NN.owdb", one entry
    /// per position (LevelDir: dir(), rules(), with_game(f), path(n), meta(n), expectation(n)), on
    /// a board of `pits_per_side` pits a side ("<dir>/<rules>-pP-NN.owdb" unless 6; compact
    /// files are for 6 only: std::invalid_argument).
    DatabaseDir(std::filesystem::path dir, Rules rules, bool compact, int pits_per_side);

    /// Reads level n completely into `out` as exact values, checking every block checksum
    /// and that the file is the level asked for. `smaller` holds the exact values of levels
    /// 0..n-1 (needed to complete a capture-bounded file; may be shorter otherwise). On
    /// failure returns the reader's status (NotFound for a missing file) and leaves `out`
    /// untouched.
    db::Status load(int n, ValueArray& out, int threads,
                    const std::vector<ValueArray>& smaller) const;

    /// Writes level n (exact `values`) atomically; throws on failure (disk full,
    /// permissions...). A compact directory needs `smaller` = levels 0..n-1.
    db::WriteReport save(int n, const ValueArray& values, int threads,
                         const std::vector<ValueArray>& smaller) const;
    /// Writes level n, exact values read piecewise from `values` (a level that is not in
    /// memory in one piece: `mpirun ... generate`); not for a compact directory.
    db::WriteReport save(int n, const db::ValueSource& values, int threads) const;

  private:
    bool compact_;
};

/// The rule sets that have level files (of any kind) in `dir`, sorted by name; empty when
/// there are none or `dir` is not a readable directory. Lets the commands default --rules
/// to what a directory holds.
std::vector<std::string> rule_sets_in(const std::filesystem::path& dir);

/// The boards (pits a side) that level files (of any kind and rule set) in `dir` are for,
/// ascending; empty when there are none. A directory holds one board: the commands refuse
/// one with several (tools/database_options.hpp, resolve_pits).
std::vector<int> board_sizes_in(const std::filesystem::path& dir);

} // namespace owaredb
