// A directory of level files for one rule set: the glue between the solver's in-memory
// value arrays and dbformat's files.
#pragma once

#include "dbformat/reader.hpp"
#include "dbformat/writer.hpp"
#include "oware/rules.hpp"
#include "retro/value_array.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace owaredb::cli {

class DatabaseDir {
  public:
    /// `compact`: save() writes capture-bounded files (dbformat/README.md), smaller but
    /// slower to probe. load() reads either kind.
    DatabaseDir(std::filesystem::path dir, Rules rules, bool compact = false);

    const std::filesystem::path& dir() const { return dir_; }
    const Rules& rules() const { return rules_; }
    std::filesystem::path path(int n) const;
    db::LevelMeta meta(int n) const;

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
    Rules rules_;
    bool compact_;
};

} // namespace owaredb::cli
