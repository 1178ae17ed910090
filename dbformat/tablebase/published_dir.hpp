// Romein & Bal's published Awari databases (2002; re-published by VU Amsterdam in 2024,
// DOI 10.48338/vu01-11wjke): a directory of files "scores.0" .. "scores.46" and
// "scores.48", one per seed count, each exactly |D_n| bytes: one signed byte per position,
// the value for the side to move (-n..n; awari rules, endless play 0), at the position's
// offset in their order (oware/ranking.hpp: published_rank), with no header. Ours stores
// the same values in our rank order: converting is a permutation.
#pragma once

#include "dbformat/raw_level.hpp"
#include "dbformat/writer.hpp"
#include "oware/position.hpp"
#include "retro/streamed_sources.hpp"
#include "retro/value_array.hpp"

#include <filesystem>
#include <optional>
#include <vector>

namespace owaredb {

class PublishedDir {
  public:
    explicit PublishedDir(std::filesystem::path dir);
    const std::filesystem::path& dir() const { return dir_; }

    /// "<dir>/scores.N".
    std::filesystem::path path(int n) const;
    /// The level n in "scores.N", if `file_name` is one (N = 0..48 written without leading
    /// zeros, as the release names them).
    static std::optional<int> level_of(const std::string& file_name);
    /// The levels of the published files in `dir` (sorted; empty if none or unreadable).
    static std::vector<int> levels_in(const std::filesystem::path& dir);

    /// Opens level n's file: it must be a regular file of exactly |D_n| bytes, and each
    /// value read from it lies in -n..n (db::RawLevelFile, whose errors name file and offset).
    db::Result<db::RawLevelFile> open(int n) const;

    /// Reads level n whole into `out` in our rank order (out[rank(p)] = the value at
    /// published_rank(p)), in parallel. On failure returns why and leaves `out` untouched.
    db::Status load(int n, ValueArray& out, int threads) const;

    /// Writes `values` (level n in our rank order) as "scores.N" in their order,
    /// atomically (a temp file, fsync, rename). Throws on failure (disk full, permissions).
    /// Memory: the level once more, in their order.
    void save(int n, const ValueArray& values, int threads) const;

  private:
    std::filesystem::path dir_;
};

/// A published level file as a db::ValueSource in their order (what import and compare
/// convert), the kernel asked to read ahead of each read. Throws std::runtime_error naming
/// the file and offset for a value outside -n..n.
class PublishedFileValues final : public db::ValueSource {
  public:
    explicit PublishedFileValues(const db::RawLevelFile& file) : file_(file) {}
    uint64_t size() const override { return file_.entries(); }
    void read(uint64_t begin, std::span<int8_t> out) const override;

  private:
    const db::RawLevelFile& file_;
};

/// Levels of a published directory as the streamed checks read them (verify, stats):
/// values asked for by our rank, read at their offsets from the memory-mapped files. The
/// levels a capture from level n reaches, and with `and_level_n` level n itself, as
/// FileSmallerLevels has them.
class PublishedLevels final : public SmallerLevelValues {
  public:
    /// Opens those files; throws std::runtime_error with the reason (naming the file) when
    /// one is missing or of the wrong size.
    PublishedLevels(const PublishedDir& dir, int n, bool and_level_n);
    void read(int level, std::span<const uint64_t> indices,
              std::span<int8_t> values) const override;

  private:
    std::vector<std::optional<db::RawLevelFile>> files_; // by level; none: not reached
};

} // namespace owaredb
