// `owaredb generate --plan`: what a run would choose and need, level by level, before
// buying or borrowing a machine for it: the mode (working word) ModePlan picks, the memory
// check_plan() checks, the disk peak disk_need() gives (preflight.hpp), and the hours from
// CPU rates measured by earlier runs (their owaredb-build.jsonl records). It writes
// nothing, creates no directory and takes no lock.
#pragma once

#include "generate/preflight.hpp"
#include "mode_plan.hpp"
#include "tablebase/game_levels.hpp"
#include "tablebase/level_dir.hpp"

#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace owaredb::cli {

/// One measured build of a level: the fields of an owaredb-build.jsonl line a rate needs.
struct RateRecord {
    int level = 0;
    uint64_t positions = 0;
    LevelMode mode = LevelMode::InMemory;
    double cpu_seconds = 0; ///< user + system, all threads
    int threads = 0;
    std::string finished;    ///< UTC, "2026-12-04T22:35:48Z"
    std::string file;        ///< the level's file name, "awari-28.owdb"; empty when not recorded
    uint64_t file_bytes = 0; ///< its size; 0 when not recorded
};

/// The records of owaredb-build.jsonl text that give a rate: levels built in one process
/// (in-memory, streamed, streamed-4bit, streamed-2bit) at level kMinRateLevel or above, with their
/// full CPU time. Other lines (other modes, torn or foreign lines, comments such as the committed
/// file's "about" line) are skipped.
std::vector<RateRecord> parse_rate_records(std::istream& in);

/// Levels below this take under a second; their CPU time is mostly fixed costs.
inline constexpr int kMinRateLevel = 12;

/// The committed rates, docs/data/build-rates.jsonl, compiled into the program.
std::string_view builtin_build_rates();

/// CPU seconds a position, by level and mode, fitted on measured records. One line over the
/// largest levels measured, whatever their mode: a mode measured at a level the base mode
/// was measured at too (a paired run) is put on the base mode's scale by its ratio there,
/// so that its larger levels steer the line's trend; a mode never paired is taken at its
/// pairing in the lender's records when they have one, else at its measured cost against
/// the line.
class RateModel {
  public:
    /// From `records` (parse_rate_records(); the last record of a level and mode wins).
    /// A mode `records` never pair with the base mode takes its ratio from `lender`'s
    /// levels that pair it with the base mode, when there are any (the committed rates,
    /// for a directory whose own records are one run's: a level built once, in one mode).
    /// Throws std::runtime_error when `records` is empty.
    explicit RateModel(const std::vector<RateRecord>& records,
                       const std::vector<RateRecord>& lender = {});

    /// CPU seconds (all threads together) one position of level n takes in `mode`; below
    /// first_level(), what one of first_level() takes.
    double cpu_per_position(int n, LevelMode mode) const;
    /// The mode the line is of (the one with the most levels measured).
    LevelMode base() const { return base_; }
    /// The line: intercept + slope * n CPU seconds a position of the base mode, fitted
    /// over the levels first_level..last_level (the largest 10 measured, a level's rates
    /// in the base mode and in the paired modes, each divided by its ratio, averaged).
    double intercept() const { return intercept_; }
    double slope() const { return slope_; }
    int first_level() const { return first_; }
    int last_level() const { return last_; }
    /// What `mode` costs against the line: the mean of its rate over the base mode's at
    /// the levels paired_levels() names (the lender's when borrowed()), else (a mode
    /// measured but never paired) of its rate over the line's at the levels it was
    /// measured at. measured() is false for a mode without records; one neither measured
    /// nor borrowed is taken as the mode before it (streamed as the base mode,
    /// streamed-4bit as streamed, streamed-2bit as streamed-4bit).
    double ratio(LevelMode mode) const { return ratio_[index(mode)]; }
    bool measured(LevelMode mode) const { return measured_[index(mode)]; }
    const std::vector<int>& paired_levels(LevelMode mode) const { return paired_[index(mode)]; }
    bool borrowed(LevelMode mode) const { return borrowed_[index(mode)]; }

  private:
    static int index(LevelMode mode);
    void fit(const std::vector<std::pair<int, double>>& points);

    LevelMode base_ = LevelMode::InMemory;
    double intercept_ = 0, slope_ = 0;
    int first_ = 0, last_ = 0;
    double ratio_[4] = {1, 1, 1, 1};
    bool measured_[4] = {false, false, false, false};
    bool borrowed_[4] = {false, false, false, false};
    std::vector<int> paired_[4];
};

/// How many threads' worth of the measured (2-thread) rate `threads` threads give.
double effective_threads(int threads);

/// One level of a plan.
struct PlanRow {
    int level = 0;
    uint64_t positions = 0;
    LevelMode mode = LevelMode::InMemory;
    uint64_t memory = 0;       ///< plan_memory_bytes()
    uint64_t disk_peak = 0;    ///< files of the smaller levels + the level's own peak
    uint64_t files_before = 0; ///< the files of the smaller levels, built or estimated
    double hours = 0;          ///< wall hours
    bool fits_memory = true, fits_disk = true;
    bool built = false; ///< its file is in the directory: nothing to do, its size counted
};

/// The plan of a whole run, and its totals.
struct BuildPlan {
    std::vector<PlanRow> rows;
    double hours = 0;         ///< wall hours, all levels
    uint64_t peak_memory = 0; ///< the largest row memory
    uint64_t peak_disk = 0;   ///< the largest row disk_peak
    uint64_t files = 0;       ///< every level's file, built or estimated
    bool fits() const;
};

/// The plan of building `levels` (value files) as `plan` chooses their modes, with
/// checkpoints or without, against `disk_bytes` of disk for all their files, at `rates` on
/// `threads`. With `dir`, the levels whose file is there are built (their size counted, no
/// time), and the others' files are estimated from the bits a position of the largest
/// smaller level there (LevelDir::measured_file_bits), as generate's preflight does; a
/// smaller level whose file is not there counts with the size a record of `records` gives
/// for a file of that name (the same rule set and board), when one does.
BuildPlan make_build_plan(const ModePlan& plan, const GameLevels& levels, bool checkpoints,
                          uint64_t disk_bytes, const RateModel& rates, int threads,
                          const LevelDir* dir = nullptr,
                          const std::vector<RateRecord>& records = {});

/// What `generate --plan` was asked: the run as generate would make it.
struct PlanRequest {
    std::string title; ///< "rules awari, levels 0..46 and 48 (...), directory D"
    std::string dir;   ///< --dir (its owaredb-build.jsonl, its files, its free space)
    /// --disk, or empty: the free space of dir or its nearest parent, and the files of the
    /// planned levels already in dir
    std::string disk;
    /// --rates: a file of owaredb-build.jsonl records to take the rates from instead of
    /// dir's or the committed ones; empty: those
    std::string rates;
    GameLevels levels;
    bool checkpoints = true;
    int threads = 1;
    Rules rules; ///< the files' rule set
};

/// Prints the plan of `request` with `plan`'s modes on stdout; 0 when every level fits,
/// 1 when one does not. UsageError for a bad --disk.
int print_build_plan(const PlanRequest& request, const ModePlan& plan);

} // namespace owaredb::cli
