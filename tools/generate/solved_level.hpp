// A level solved in this process and not yet written, with the scratch files that go once
// its file is written: what the value and bound builders share (value_levels.cpp,
// bound_levels.cpp).
#pragma once

#include "generate/progress.hpp"
#include "oware/oware_game.hpp"
#include "retro/value_array.hpp"
#include "tablebase/level_checkpoint.hpp"
#include "tablebase/level_dir.hpp"
#include "tablebase/streamed_files.hpp"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace owaredb::cli {

struct SolvedLevel {
    ValueArray entries;
    std::optional<LevelCheckpoint> checkpoint;
    std::unique_ptr<ExitFile> exits; ///< streamed levels only
    /// The level's file is written: its checkpoint and exit file are not needed any more.
    void written() {
        if (checkpoint) checkpoint->level_written();
        if (exits) exits->remove();
    }
};

/// Level n's checkpoint for an engine of word format `format`, saved every
/// `checkpoint_minutes` (-1: none, nullopt), with its news on `display`.
inline std::optional<LevelCheckpoint> level_checkpoint(const LevelDir& db, int n, uint32_t format,
                                                       double checkpoint_minutes,
                                                       ProgressDisplay& display) {
    if (checkpoint_minutes < 0) return std::nullopt;
    return LevelCheckpoint(db.path(n), db.meta(n), level_size(n), format, 60 * checkpoint_minutes,
                           [&display, n](const std::string& what) { display.note(n, what); });
}

/// Solves level n in memory with Solver<OwareGame> over the smaller `levels`, resuming from
/// its checkpoint if there is one.
template <template <class> class Solver>
SolvedLevel solve_level_in_memory(const LevelDir& db, int n, const std::vector<ValueArray>& levels,
                                  int threads, double checkpoint_minutes,
                                  ProgressDisplay& display) {
    std::vector<const int8_t*> smaller;
    for (const auto& l : levels) smaller.push_back(l.data());
    Solver<OwareGame> solver(db.game(), smaller, threads);
    display.level_started(n, level_size(n), LevelMode::InMemory);
    SolvedLevel solved{
        ValueArray(),
        level_checkpoint(db, n, Solver<OwareGame>::kCheckpointFormat, checkpoint_minutes, display),
        nullptr};
    solved.entries = solver.solve(
        n, [&](const LevelProgress& p) { display.update(p); }, nullptr,
        solved.checkpoint ? &*solved.checkpoint : nullptr);
    return solved;
}

} // namespace owaredb::cli
