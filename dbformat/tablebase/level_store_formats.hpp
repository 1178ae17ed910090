// The formats open_level_store() knows (level_store.cpp lists them): how each one's files
// are found in a directory, and its store. Private to tablebase.
#pragma once

#include "tablebase/level_store.hpp"

namespace owaredb {

/// A file format of stored levels: its name (LevelStore::format), the words that name its
/// files found in a directory with the first of them, e.g. "owaredb level files
/// (awari-NN.owdb)" (for the message that refuses a directory of two formats; nullopt when
/// the directory holds none), and its store.
struct StoreFormat {
    std::string_view name;
    std::optional<std::string> (*found)(const std::filesystem::path& dir);
    std::unique_ptr<LevelStore> (*open)(const std::filesystem::path& dir, const Rules& rules,
                                        int pits, int threads);
};

/// owaredb's level files, "<rules>-NN.owdb" (values) and "<rules>-NN.bounds.owdb" (bounds)
/// of any board (tablebase/database_dir.hpp, bounds_dir.hpp): our_level_store.cpp.
extern const StoreFormat kOurFormat;
/// Romein & Bal's published awari files "scores.N" (tablebase/published_dir.hpp):
/// published_level_store.cpp.
extern const StoreFormat kPublishedFormat;

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
