// A level solved in this process and not yet written, with the scratch files that go once
// its file is written: what the value and bound builders share (value_levels.cpp,
// bound_levels.cpp).
#pragma once

#include "cli/stop_signals.hpp"
#include "cli/system_stats.hpp"
#include "generate/level_row.hpp"
#include "generate/progress.hpp"
#include "oware/oware_game.hpp"
#include "retro/value_array.hpp"
#include "tablebase/level_checkpoint.hpp"
#include "tablebase/level_dir.hpp"
#include "tablebase/scan_files.hpp"
#include "tablebase/streamed_files.hpp"

#include <algorithm>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace owaredb::cli {

struct SolvedLevel {
    ValueArray entries;
    std::optional<LevelCheckpoint> checkpoint;
    std::unique_ptr<ExitFile> exits; ///< streamed levels only
    /// streamed-4bit and streamed-2bit levels only: the scan files, and the values read from them
    /// and the engine's words (`entries` is then empty).
    std::unique_ptr<ScanFiles> scan;
    std::unique_ptr<db::ValueSource> source;
    /// What the engine counted as it solved the level (its scans; the scan engines' spills).
    LevelStats stats{};
    /// The level's file is written: its checkpoint and exit file are not needed any more.
    /// `row` gets the time earlier runs spent on the level (it was resumed), and the stats.
    void written(LevelRow& row) {
        row.scans = stats.scans;
        if (scan) row.spilled_peak = stats.spilled_peak;
        if (checkpoint) {
            checkpoint->level_written();
            if (const std::optional<db::CheckpointTime> t = checkpoint->earlier()) {
                row.earlier_seconds = double(t->wall_ms) / 1000;
                row.earlier_cpu_seconds = double(t->cpu_ms) / 1000;
            } else {
                row.earlier_unknown = true;
            }
        }
        if (exits) exits->remove();
        if (scan) scan->remove_all();
    }
};

/// Level n's checkpoint for an engine of word format `format`, saved every
/// `checkpoint_minutes` and when a signal asks the run to stop (StopSignals), with its news
/// on `display`. -1: none (nullopt); a checkpoint left by an earlier run is then removed,
/// saying so, since this run will not resume from it.
inline std::optional<LevelCheckpoint> level_checkpoint(const LevelDir& db, int n, uint32_t format,
                                                       double checkpoint_minutes,
                                                       ProgressDisplay& display) {
    if (checkpoint_minutes < 0) {
        const std::filesystem::path left = db::checkpoint_path(db.path(n));
        std::error_code ec;
        if (std::filesystem::remove(left, ec))
            display.note(n, "removed the checkpoint " + left.string() +
                                ": --checkpoint-minutes -1 neither saves nor resumes one");
        return std::nullopt;
    }
    const auto started = std::chrono::steady_clock::now();
    const double cpu_started = cpu_seconds();
    auto run_time = [started, cpu_started] {
        const double wall =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        return db::CheckpointTime{uint64_t(wall * 1000),
                                  uint64_t(std::max(0.0, cpu_seconds() - cpu_started) * 1000)};
    };
    LevelCheckpoint checkpoint(
        db.path(n), db.meta(n), db.level_size(n), format, 60 * checkpoint_minutes,
        [&display, n](const std::string& what) { display.note(n, what); }, run_time);
    checkpoint.stop_when(&StopSignals::requested);
    return checkpoint;
}

/// How solve_level_in_memory() runs a level.
struct InMemoryRun {
    int threads = 1;
    double checkpoint_minutes = 0; ///< -1: no checkpoint
    /// For the progress line, where the solver takes them (value levels:
    /// threshold_shares()); empty: even.
    std::vector<double> threshold_shares{};
};

/// Solves level n of `game` (the board of `db`) in memory with Solver<Game> over the smaller
/// `levels`, resuming from its checkpoint if there is one.
template <template <class> class Solver, class Game>
SolvedLevel solve_level_in_memory(const Game& game, const LevelDir& db, int n,
                                  const std::vector<ValueArray>& levels, InMemoryRun run,
                                  ProgressDisplay& display) {
    std::vector<const int8_t*> smaller;
    for (const auto& l : levels) smaller.push_back(l.data());
    Solver<Game> solver(game, smaller, run.threads);
    if constexpr (requires { solver.set_threshold_shares(std::move(run.threshold_shares)); })
        solver.set_threshold_shares(std::move(run.threshold_shares));
    SolvedLevel solved{
        ValueArray(),
        level_checkpoint(db, n, Solver<Game>::kCheckpointFormat, run.checkpoint_minutes, display),
        nullptr, nullptr, nullptr};
    display.level_started(n, db.level_size(n), LevelMode::InMemory,
                          solved.checkpoint ? &*solved.checkpoint : nullptr);
    solved.entries = solver.solve(
        n, [&](const LevelProgress& p) { display.update(p); }, &solved.stats,
        solved.checkpoint ? &*solved.checkpoint : nullptr);
    return solved;
}

} // namespace owaredb::cli
