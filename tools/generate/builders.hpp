// The level builders of `owaredb generate` (pipeline.hpp), one per way of building a level:
// value levels in one process (each in memory or streamed, as the plan says), bound levels
// (in memory), and value levels split between the ranks of an MPI job.
#pragma once

#include "generate/pipeline.hpp"
#include "generate/preflight.hpp"
#include "mpi_job.hpp"
#include "oware/rules.hpp"
#include "tablebase/game_levels.hpp"

#include <memory>
#include <string>

namespace owaredb::cli {

/// What every builder of one run is told.
struct BuildSettings {
    std::string dir;
    Rules rules;
    /// The run's threads, at least 1 (--threads, resolved once: cli/run_settings.hpp), for
    /// every engine and file call of every level.
    int threads = 0;
    /// Checkpoints inside a level this often (retro/checkpoint.hpp); -1: none.
    double checkpoint_minutes = 10;
    /// The board: pits a side (value and bound levels take 1..8 and 1..6; the distributed
    /// builder 6).
    int pits = 6;
    /// The levels the run builds (run_levels is given the same): a builder that looks
    /// ahead for the first level to build passes over the one a game leaves out.
    GameLevels levels;
};

/// Value levels in this process, each in the mode `plan` gives; `compact`: capture-bounded
/// files (in-memory levels only).
std::unique_ptr<LevelBuilder> value_levels(const BuildSettings& settings, const ModePlan& plan,
                                           bool compact);
/// Bound levels (gM, gN) in memory, beside any value files; boards of up to
/// kMaxBoundsPitsPerSide pits a side (std::invalid_argument above).
std::unique_ptr<LevelBuilder> bound_levels(const BuildSettings& settings);
inline constexpr int kMaxBoundsPitsPerSide = 6;
/// Value levels built by every rank of `job` together (each calls this, and run_levels,
/// with the same arguments); `budget` is per rank. No checkpoints inside a level.
std::unique_ptr<LevelBuilder> distributed_levels(const BuildSettings& settings, MpiJob& job,
                                                 MemoryBudget budget);

} // namespace owaredb::cli
