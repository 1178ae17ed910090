// A directory of level files for one rule set: the glue between the game's in-memory
// value arrays and dbformat's files. Every command and the probe library name, check and
// read level files through it.
#pragma once

#include "dbformat/reader.hpp"
#include "dbformat/writer.hpp"
#include "oware/oware_game.hpp"
#include "retro/value_array.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace owaredb {

class DatabaseDir {
  public:
    /// `compact`: save() writes capture-bounded files (dbformat/README.md), smaller but
    /// slower to probe. load() reads either kind.
    DatabaseDir(std::filesystem::path dir, Rules rules, bool compact = false);

    const std::filesystem::path& dir() const { return dir_; }
    const Rules& rules() const { return game_.rules(); }
    const OwareGame& game() const { return game_; }
    /// The file of level n: "<dir>/<rules>-NN.owdb".
    std::filesystem::path path(int n) const;
    /// What the file of level n must record: rule set, knobs, n, number of positions.
    db::LevelMeta meta(int n) const;
    /// A reader's expectation for level n's file (a file claiming anything else is refused).
    db::Expectation expectation(int n) const { return db::Expectation::exactly(meta(n)); }

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

  private:
    std::filesystem::path dir_;
    OwareGame game_;
    bool compact_;
};

/// The rule sets that have level files (of any kind) in `dir`, sorted by name; empty when
/// there are none or `dir` is not a readable directory. Lets the commands default --rules
/// to what a directory holds.
std::vector<std::string> rule_sets_in(const std::filesystem::path& dir);

} // namespace owaredb
