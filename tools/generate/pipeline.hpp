// The one level loop of `owaredb generate`, whatever builds the levels: for each level,
// load it if its file is there and sound, else check that it fits, solve it, write it;
// record one row either way; then the summary table and the start positions' values. What
// differs between the modes (in memory, streamed, bounds, distributed over MPI ranks) is a
// LevelBuilder (builders.hpp); a new mode is a new builder, not a new loop.
#pragma once

#include "generate/level_row.hpp"
#include "generate/progress.hpp"
#include "tablebase/game_levels.hpp"
#include "tablebase/level_dir.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace owaredb::cli {

class LevelBuilder {
  public:
    virtual ~LevelBuilder() = default;
    /// The directory the levels are in.
    virtual const LevelDir& dir() const = 0;
    /// Whether this process prints (one process, or rank 0 of a distributed run).
    virtual bool prints() const { return true; }
    /// Checks level n's file if there is one (every block) and fills row.values or
    /// row.exact; false when it is missing or unusable (then said on stderr), so that the
    /// level is built.
    virtual bool load(int n, LevelRow& row) = 0;
    /// Throws, before level n is solved, when it does not fit (memory, disk).
    virtual void check(int n) const = 0;
    /// Solves level n, showing progress on `display`, and keeps it for write().
    virtual void solve(int n, ProgressDisplay& display) = 0;
    /// Writes the level solved last and fills row.mode, row.file_bytes and row.values /
    /// row.exact / row.messages.
    virtual void write(int n, LevelRow& row) = 0;
    /// "solved (in-memory)", "bounds solved": what the line of a solved level says.
    virtual std::string solved_label(const LevelRow& row) const = 0;
    /// The peak memory of each process since the level started (distributed: collective).
    virtual std::vector<uint64_t> peak_rss() const;
    /// What the start-position lines are computed over: "databases", "bound files".
    virtual std::string files_name() const = 0;
    /// The line of the start position with k seeds in every pit, once its levels are built:
    /// "value +0", "gM 5, gN 3".
    virtual std::string start_position(int k) = 0;
    /// Level n is not part of the run (GameLevels): the builder keeps its place, empty.
    virtual void skip(int n) { (void)n; }
};

/// Builds (or loads) `levels` in increasing order with `builder`, prints the summary and
/// the start positions, and returns the exit status. A run a signal asked to stop
/// (cli/stop_signals.hpp) stops before the next level, or inside a level once its checkpoint
/// is saved (tablebase/level_checkpoint.hpp, CheckpointStop), says so, and returns
/// kStoppedStatus. `title` opens the output; `what`:
/// "levels", "bound levels". `threads`: what the builder was given (per process), recorded
/// with each level built (build_record.hpp).
int run_levels(LevelBuilder& builder, const GameLevels& levels, const std::string& title,
               const std::string& what, int threads);

} // namespace owaredb::cli
