// What `owaredb verify --progress-file FILE` keeps between runs, so that a check of hours
// (a level of 14 G positions streamed) survives a kill: the levels whose every value was
// found consistent, and how many of the first positions of one more level were, each fact
// kept only while the level files it was read from are unchanged.
//
// A level's consistency is a statement about the files of levels 0..n (its own values and
// those its moves reach), so a fact about level n holds while those files have the size
// and modification time they had when it was recorded. FILE holds each level file's stamp;
// a rerun drops every fact about a level at or above the first file that changed, been
// added or gone, and says which. FILE is rewritten whole (temp file, fsync, rename): a kill
// leaves the previous version or the new one, and carries the XXH3 checksum of its text, so
// that a damaged or edited file is refused, naming it, rather than trusted.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace owaredb::cli {

/// Which check a progress file belongs to: a file of another directory, rule set, board or
/// format is refused (it is the wrong file, not a stale one).
struct VerifiedDirectory {
    std::filesystem::path dir; ///< made absolute when recorded
    std::string rules;
    int pits = 6;
    std::string format; ///< "owaredb" or "published"
    bool operator==(const VerifiedDirectory&) const = default;
};

/// A level file as stat() saw it; a missing file is {absent}.
struct LevelFileStamp {
    bool present = false;
    uint64_t bytes = 0;
    int64_t modified_ns = 0;
    bool operator==(const LevelFileStamp&) const = default;
};

/// The stamp of the file at `path` (absent when there is none).
LevelFileStamp stamp_of(const std::filesystem::path& path);

/// What checking a level's values cost: wall and CPU seconds over `positions` of them. A
/// check resumed from a progress file adds its time to what earlier runs recorded; a part
/// checked by a run that recorded no time (an older owaredb) is not in `positions`, so that
/// seconds / positions stays a true rate.
struct CheckTime {
    uint64_t positions = 0;
    double wall_seconds = 0;
    double cpu_seconds = 0;
    CheckTime& operator+=(const CheckTime& t) {
        positions += t.positions;
        wall_seconds += t.wall_seconds;
        cpu_seconds += t.cpu_seconds;
        return *this;
    }
};

/// A progress file that cannot be written (its directory missing, a full disk): the
/// check's own failure, not a damaged level file.
struct ProgressFileError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// The levels of the directory checked.
struct LevelFiles {
    /// Level n's file (it may not exist).
    std::function<std::filesystem::path(int n)> path;
    /// Level n's positions: a recorded prefix is shorter.
    std::function<uint64_t(int n)> positions;
};

class VerifyRecord {
  public:
    /// Opens the record at `file` for `directory`, levels 0..max_level, whose level n lives
    /// at files.path(n): reads what `file` holds if it exists (and keeps the facts whose files
    /// are unchanged), else starts empty, and writes it at once, so that a file that cannot
    /// be written fails before the check starts. `min_seconds_between_writes` bounds how often
    /// record_prefix rewrites the file. Throws std::runtime_error naming `file` when it is
    /// not a progress file or is one of another check (VerifiedDirectory), cannot be read, or
    /// does not fit: its checksum does not match its text (a file of version 1, from an
    /// owaredb before checksums, has none), or it records a level outside 0..max_level, a
    /// level consistent whose file was absent, or a prefix or time of more positions than
    /// the level has. ProgressFileError when it cannot be written.
    VerifyRecord(std::filesystem::path file, VerifiedDirectory directory, int max_level,
                 LevelFiles files, double min_seconds_between_writes = 30);

    /// What the record held when opened, for the check's first lines: "FILE: new",
    /// "FILE (written T): levels 0..33 consistent, level 34's first K positions", and a
    /// line for facts dropped because a file changed.
    const std::vector<std::string>& opening_lines() const { return opening_lines_; }

    /// Whether every value of level n was found consistent with these files.
    bool consistent(int n) const;
    /// How many of the first positions (in rank order) of level n were found consistent: 0
    /// when none are recorded; the level's size is never stored here (consistent(n) is).
    uint64_t consistent_prefix(int n) const;

    /// The time recorded for checking level n: for a consistent level, the whole check's
    /// (every run's that recorded one); for the level of consistent_prefix(), its prefix's.
    /// None when no time is recorded (a record of an older owaredb, or nothing yet).
    std::optional<CheckTime> time_of(int n) const;

    /// Level n found consistent, written at once; `this_run` is what this process spent on
    /// it, added to what the record held for its prefix when opened. Throws
    /// ProgressFileError naming the file when it cannot be written (disk full, permissions).
    void record_consistent(int n, const CheckTime& this_run = {});
    /// The first `positions` positions of level n found consistent, `this_run` spent on them
    /// by this process (as record_consistent); written when at least
    /// min_seconds_between_writes passed since the last write (a kill loses at most that much
    /// of the check). Throws as record_consistent.
    void record_prefix(int n, uint64_t positions, const CheckTime& this_run = {});

  private:
    void write();

    std::filesystem::path file_;
    VerifiedDirectory directory_;
    std::vector<LevelFileStamp> stamps_; ///< levels 0..max_level, as they are now
    // What earlier runs spent on level n's prefix, as the record held it when opened.
    CheckTime earlier_time(int n) const;

    std::vector<bool> consistent_;
    std::vector<CheckTime> times_; ///< of the consistent levels; positions 0: none recorded
    int prefix_level_ = -1;
    uint64_t prefix_positions_ = 0;
    CheckTime prefix_time_;
    int opened_prefix_level_ = -1; ///< the prefix when opened, and its time
    CheckTime opened_prefix_time_;
    double min_seconds_between_writes_;
    double last_write_ = -1; ///< steady-clock seconds of the last fact written, -1 before any
    std::vector<std::string> opening_lines_;
};

} // namespace owaredb::cli
