#include "tablebase/level_checkpoint.hpp"

#include "dbformat/checkpoint.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <system_error>

namespace owaredb {

namespace {

using Clock = std::chrono::steady_clock;

db::CheckpointHeader header(const db::LevelMeta& meta, uint32_t word_format, uint64_t bytes) {
    db::CheckpointHeader h;
    h.level = meta;
    h.engine = word_format;
    h.payload_bytes = bytes;
    return h;
}

} // namespace

LevelCheckpoint::LevelCheckpoint(const std::filesystem::path& level_file, db::LevelMeta meta,
                                 uint64_t positions, uint32_t word_format, double interval_seconds,
                                 Report report, RunTime run_time)
    : path_(db::checkpoint_path(level_file)), meta_(std::move(meta)), positions_(positions),
      word_format_(word_format), interval_(interval_seconds), report_(std::move(report)),
      run_time_(std::move(run_time)), last_save_(Clock::now()) {}

std::optional<SweepPoint> LevelCheckpoint::restore(std::span<uint8_t> words) {
    // The words are stored in the machine's byte order: a checkpoint is for resuming on the
    // machine (or the kind of machine) that wrote it, not for exchange.
    db::CheckpointFound found;
    const db::Status s =
        db::read_checkpoint(path_, header(meta_, word_format_, words.size()), found, words);
    const db::CheckpointProgress& progress = found.progress;
    if (s.code() == db::ErrorCode::NotFound) return std::nullopt;
    if (!s.ok()) {
        report_("ignoring the checkpoint, the level starts afresh: " + s.message());
        return std::nullopt;
    }
    SweepPoint p;
    p.first_pass_done = progress[0];
    p.thresholds_done = static_cast<int>(progress[1]);
    p.scans = progress[2];
    p.propagated = progress[3];
    // One slot serves both streamed fields: the gathering is over before the first pass.
    (p.first_pass_done == 0 ? p.exits_gathered : p.exit_checksum) = progress[4];
    if (p.first_pass_done > positions_ || p.thresholds_done > int(meta_.n) ||
        (p.thresholds_done > 0 && p.first_pass_done != positions_)) {
        report_("ignoring the checkpoint, the level starts afresh: " + path_.string() +
                ": impossible progress fields");
        return std::nullopt;
    }
    earlier_ = found.spent;
    resumed_ = true;
    char line[160];
    if (p.first_pass_done == 0 && p.thresholds_done == 0)
        std::snprintf(line, sizeof line, "resuming from its checkpoint, before the first pass");
    else
        std::snprintf(line, sizeof line,
                      "resuming from its checkpoint: first pass %.0f%% done, %d of %u thresholds",
                      positions_ == 0 ? 100.0
                                      : 100.0 * double(p.first_pass_done) / double(positions_),
                      p.thresholds_done, meta_.n);
    report_(line);
    return p;
}

bool LevelCheckpoint::reached(const SweepPoint& point, std::span<const uint8_t> words) {
    const bool stop = stop_ && stop_();
    // Saving costs disk time (about 0.2 s per 40 MB here): at most one save per interval,
    // and never more than 1/20 of the time, so a slow disk and a huge level stretch the
    // interval instead of slowing the level by more than 5 %. A stop saves at once.
    const auto now = Clock::now();
    const bool due = now - last_save_ >= std::max(interval_, 20 * last_save_cost_);
    // The last safe point is followed by the level's file, whose write reads every value
    // and compresses it (26 min of awari 34): a level long enough to have been saved before
    // (or resumed) saves there too, so that a kill during the write resumes from there, and
    // so that an engine may let go what only earlier points need (the scan engines' exits,
    // retro/scan_passes.hpp). A short level saves there only when due, as elsewhere.
    const bool last = point.thresholds_done == int(meta_.n);
    if (!stop && !due && !(last && (saves_ > 0 || resumed_))) return false;
    const bool saved = save(point, words);
    last_save_ = Clock::now();
    last_save_cost_ = last_save_ - now;
    seconds_saving_ += last_save_cost_.count();
    if (stop)
        throw CheckpointStop(saved ? "checkpoint saved at " + path_.string()
                                   : "the checkpoint could not be saved at " + path_.string() +
                                         " (a rerun resumes from the last one saved, if any)",
                             saved);
    return saved;
}

bool LevelCheckpoint::save(const SweepPoint& point, std::span<const uint8_t> words) {
    db::CheckpointHeader h = header(meta_, word_format_, words.size());
    h.progress = {point.first_pass_done, uint64_t(point.thresholds_done), point.scans,
                  point.propagated,
                  point.first_pass_done == 0 ? point.exits_gathered : point.exit_checksum};
    h.spent = earlier_;
    if (h.spent && run_time_) {
        const db::CheckpointTime now_spent = run_time_();
        h.spent->wall_ms += now_spent.wall_ms;
        h.spent->cpu_ms += now_spent.cpu_ms;
    }
    try {
        db::write_checkpoint(path_, h, words);
        ++saves_;
        return true;
    } catch (const std::exception& e) {
        if (!failed_)
            report_(std::string("cannot save a checkpoint, going on without: ") + e.what());
        failed_ = true;
        return false;
    }
}

void LevelCheckpoint::level_written() const {
    std::error_code ec;
    std::filesystem::remove(path_, ec);
    if (saves_ == 0) return;
    char line[80];
    std::snprintf(line, sizeof line, "%d checkpoint%s saved, %.2f s", saves_,
                  saves_ == 1 ? "" : "s", seconds_saving_);
    report_(line);
}

} // namespace owaredb
