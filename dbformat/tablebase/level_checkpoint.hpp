// A level's checkpoint file as the threshold sweep sees it (retro/checkpoint.hpp): it
// restores the working words a killed run saved, and saves them again at safe points, at
// most once per interval, so that a kill loses at most about one interval of work.
#pragma once

#include "dbformat/checkpoint.hpp"
#include "dbformat/format.hpp"
#include "retro/checkpoint.hpp"

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>

namespace owaredb {

/// Thrown by LevelCheckpoint::reached() when the run was asked to stop (stop_when()): the
/// sweep ends there, its words saved (what() says where, or why they could not be).
struct CheckpointStop : std::runtime_error {
    CheckpointStop(const std::string& what, bool saved) : std::runtime_error(what), saved(saved) {}
    bool saved; ///< whether this safe point's words reached the checkpoint file
};

class LevelCheckpoint final : public SweepCheckpoint {
  public:
    /// Says what happened (resumed, a checkpoint ignored and why, a save that failed).
    using Report = std::function<void(const std::string&)>;
    /// This run's time on the level so far, asked at each save: a save records it plus
    /// the earlier runs' (earlier()), so that a level's cost survives its resumes.
    using RunTime = std::function<db::CheckpointTime()>;

    /// The checkpoint of the level whose file is `level_file`, described by `meta`, of
    /// `positions` positions, for the engine whose words are encoded as `word_format` (the
    /// solver's kCheckpointFormat),
    /// saved at the first safe point after each `interval_seconds` (0: at every one), or
    /// after 20 times the last save's duration if that is longer (saving costs <= 5 %).
    LevelCheckpoint(const std::filesystem::path& level_file, db::LevelMeta meta, uint64_t positions,
                    uint32_t word_format, double interval_seconds, Report report, RunTime run_time);

    /// The saved words if the file is intact and of this level and engine; a damaged or
    /// foreign file is reported and ignored (the level starts afresh), never trusted.
    std::optional<SweepPoint> restore(std::span<uint8_t> words) override;
    /// Saves atomically when due, and at the level's last safe point (after which its file
    /// is written) also when the level was saved or resumed before. A save that fails (a
    /// full disk) is reported once and the level goes on: the checkpoint is a convenience,
    /// the level file is what matters. When `stop` (stop_when) says so, saves whether due
    /// or not and throws CheckpointStop.
    bool reached(const SweepPoint& point, std::span<const uint8_t> words) override;
    /// A run that may be asked to stop (a signal): reached() asks `stop` at each safe point.
    void stop_when(std::function<bool()> stop) { stop_ = std::move(stop); }
    void note(const std::string& what) override { report_(what); }

    /// Once the level's file is written: removes the checkpoint and reports how many saves
    /// the level made and what they cost, if any.
    void level_written() const;
    /// The time earlier runs spent on the level, as the checkpoint restore() resumed from
    /// recorded it: zero when the level started afresh, none when that checkpoint did not
    /// record it (version 2).
    std::optional<db::CheckpointTime> earlier() const { return earlier_; }
    /// The file's path ("<rules>-NN[.bounds].checkpoint" beside the level file).
    const std::filesystem::path& path() const { return path_; }

  private:
    bool save(const SweepPoint& point, std::span<const uint8_t> words);
    std::filesystem::path path_;
    db::LevelMeta meta_;
    uint64_t positions_;
    uint32_t word_format_;
    std::chrono::duration<double> interval_;
    Report report_;
    RunTime run_time_;
    std::function<bool()> stop_;
    std::optional<db::CheckpointTime> earlier_ = db::CheckpointTime{};
    std::chrono::steady_clock::time_point last_save_;
    std::chrono::duration<double> last_save_cost_{0};
    int saves_ = 0;
    bool resumed_ = false; // restore() found a point
    double seconds_saving_ = 0;
    bool failed_ = false;
};

} // namespace owaredb
