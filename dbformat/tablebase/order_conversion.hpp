// A level moved between our rank order and Romein & Bal's published order out of core:
// within a memory budget, with sequential reads of the source and sequential writes, for
// levels far larger than memory (level 48 is 204 GB). `owaredb export`, `import` and
// `compare` use it.
//
// The two orders interleave the matrices M_s of tablebase/published_layout.hpp, ours by
// rows and theirs by columns. Three passes:
//   1. The source is read once in its order. Each run (a row of ours, a column of theirs)
//      is put in the target order within itself (a permutation of at most a few MB, in
//      cache) and appended to the work file of its matrix, "pass1-S".
//   2. Each matrix is transposed into "pass2-S", the runs of the target order one after
//      the other, with the other permutation applied: whole if it fits the budget, else in
//      bands of runs (the file is then read ceil(size / budget) times).
//   3. The caller reads the level in the target order from the pass-2 files (this class is
//      a db::ValueSource), merging the 49 files run by run: sequential in each.
// Every work file is written atomically, and its XXH3 checksum is kept beside it (pass 1's
// in the marker "pass1.done", each pass-2 file's in "pass2-S.sum"). A killed conversion
// resumes: pass 1 is done when the marker names the same level, direction, source size and
// source identity (ConversionOptions::source_identity), and a matrix of pass 2 is done when
// its "pass2-S" file and checksum are there. A work file left by an earlier process is read
// whole and checked against its checksum before it is used; when one does not match, the
// conversion starts again from the source, as when the marker names another conversion.
// Disk: about twice the level (the pass-2
// files and the caller's output), at most once the level plus one matrix at any time of
// passes 1 and 2.
#pragma once

#include "dbformat/raw_level.hpp"
#include "dbformat/writer.hpp"
#include "tablebase/published_layout.hpp"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace owaredb {

enum class OrderDirection {
    to_published, ///< the source is in our rank order, the result in theirs
    to_ours,      ///< the source is in their order, the result in ours
};

/// Where a conversion stands: pass 1 or 2, positions of the level done in it and in all.
struct ConversionProgress {
    int pass = 1;
    uint64_t done = 0, total = 0;
};

struct ConversionOptions {
    /// Holds the work files; created if missing, refused if a symbolic link. Left in place when the
    /// conversion fails or is killed (a rerun resumes from it); remove_work_files() empties it.
    std::filesystem::path work_dir;
    /// Bytes the conversion may use, its tables included (budget_needed() is the least).
    uint64_t memory = uint64_t(1) << 30;
    /// At most this many bytes for a band of pass 2, in and out (0: what the budget
    /// leaves). Small values force the banded transpose of levels that would fit whole.
    uint64_t band_bytes = 0;
    /// OpenMP threads for the transposes: the caller's count, at least 1 (0, left unset, is
    /// refused with std::invalid_argument). The files do not depend on it.
    int threads = 0;
    /// What names the source, such as source_file_identity() of the file it reads: work
    /// files are taken over only by a conversion of the same level, direction, size and
    /// identity. Empty names no source in particular (work files of any source of the
    /// same size would be taken over: set it whenever the source is a file).
    std::string source_identity;
    /// Called every few tens of MB of each pass, from the calling thread.
    std::function<void(const ConversionProgress&)> progress;
};

/// The identity of a source file for ConversionOptions::source_identity: its path, device,
/// inode, size, modification and change times, so that a file replaced, rewritten or
/// touched (a re-downloaded `scores.N`, another directory's level) is another source. Throws
/// std::runtime_error naming the file when it cannot be read.
std::string source_file_identity(const std::filesystem::path& file);

class ConvertedLevel final : public db::ValueSource {
  public:
    /// Runs (or resumes) passes 1 and 2 for level n, `source` holding its values in the
    /// order opposite to `direction`'s result (size level_size(n)). Throws
    /// std::runtime_error naming the file and the reason on failure (a full disk, a
    /// damaged source, a budget under budget_needed(n)).
    ConvertedLevel(int n, OrderDirection direction, const db::ValueSource& source,
                   const ConversionOptions& options);
    ~ConvertedLevel() override;

    /// The least budget that converts level n: its tables and one run of each matrix.
    static uint64_t budget_needed(int n);
    /// Whether `dir` holds the work files of a conversion (`work_dir` of a killed run).
    static bool has_work_files(const std::filesystem::path& dir);

    /// db::ValueSource: the level in the target order, read from any number of threads at
    /// once, in any order; each value is checked to lie in -n..n.
    uint64_t size() const override;
    void read(uint64_t begin, std::span<int8_t> out) const override;

    /// Removes the work files and the work directory if it is then empty (after the
    /// caller has safely written what it read).
    void remove_work_files();
    /// The same for the work directory `dir` of a conversion whose result is there already
    /// (a run killed after writing it); nothing if `dir` is not a directory (or is a link).
    static void discard_work_files(const std::filesystem::path& dir);

  private:
    bool resumable(const std::string& marker) const;
    void pass1(const db::ValueSource& source, const std::string& marker) const;
    void pass2(int s) const;
    void read_piece(uint64_t begin, std::span<int8_t> out) const;
    std::filesystem::path work_file(int pass, int s) const;

    int n_;
    OrderDirection direction_;
    ConversionOptions options_;
    PublishedLayout layout_;
    std::vector<std::optional<db::RawLevelFile>> matrices_; // the pass-2 files, by s

    // Where read() starts walking the runs of the target order: every kRunsPerMark-th run,
    // the offset it starts at and how many runs of each matrix come before it.
    struct Mark {
        uint64_t begin = 0;
        std::vector<uint64_t> runs_before; // by s
    };
    std::vector<Mark> marks_;
};

} // namespace owaredb
