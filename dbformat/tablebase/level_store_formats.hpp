// The formats open_level_store() knows (level_store.cpp lists them): each one's store, made
// for a directory that holds its files. Private to tablebase.
#pragma once

#include "tablebase/level_store.hpp"

namespace owaredb {

/// owaredb's level files, "<rules>-NN.owdb" (values) and "<rules>-NN.bounds.owdb" (bounds)
/// of any board (tablebase/database_dir.hpp, bounds_dir.hpp).
std::unique_ptr<LevelStore> our_level_store(const std::filesystem::path& dir, const Rules& rules,
                                            int pits, int threads);
/// Romein & Bal's published awari files "scores.N" (tablebase/published_dir.hpp).
std::unique_ptr<LevelStore> published_level_store(const std::filesystem::path& dir,
                                                  const Rules& rules, int pits, int threads);

/// A level that cannot be opened, and why: what LevelStore::source gives for a kind, rule
/// set or board its directory cannot hold.
class RefusedSource final : public LevelSource {
  public:
    explicit RefusedSource(db::Status why) : why_(std::move(why)) {}
    db::Status open() const override { return why_; }
    bool stale() const override { return true; } // the directory is looked at anew
    db::Status read(std::span<const uint64_t>, std::span<int8_t>) const override { return why_; }
    bool capture_bounded() const override { return false; }

  private:
    db::Status why_;
};

} // namespace owaredb
