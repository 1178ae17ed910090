// A directory of level files for one rule set: the glue between the solver's in-memory
// value arrays and dbformat's files.
#pragma once

#include "dbformat/reader.hpp"
#include "dbformat/writer.hpp"
#include "solver/rules.hpp"
#include "solver/value_array.hpp"

#include <filesystem>
#include <string>

namespace owaredb::cli {

class DatabaseDir {
  public:
    DatabaseDir(std::filesystem::path dir, Rules rules);

    const std::filesystem::path& dir() const { return dir_; }
    const Rules& rules() const { return rules_; }
    std::filesystem::path path(int n) const;
    db::LevelMeta meta(int n) const;

    /// Reads level n completely into `out`, checking every block checksum and that the
    /// file is the level asked for. On failure returns the reader's status (NotFound for
    /// a missing file) and leaves `out` untouched.
    db::Status load(int n, ValueArray& out, int threads) const;

    /// Writes level n atomically; throws on failure (disk full, permissions...).
    db::WriteReport save(int n, const ValueArray& values, int threads) const;

  private:
    std::filesystem::path dir_;
    Rules rules_;
};

} // namespace owaredb::cli
