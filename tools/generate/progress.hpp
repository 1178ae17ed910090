// What `owaredb generate` shows while it works (pipeline.hpp and the builders): the
// progress line with its ETA on stderr, the value counts of a level, and the children's
// values for the start-position lines.
#pragma once

#include "cli/active_clock.hpp"
#include "cli/run_rate.hpp"
#include "cli/system_stats.hpp"
#include "cli/write_rate.hpp"
#include "generate/build_record.hpp"
#include "generate/phase_times.hpp"
#include "generate/preflight.hpp"
#include "oware/ranking.hpp"
#include "progress_line.hpp"
#include "retro/bellman.hpp"
#include "retro/sweep.hpp"
#include "retro/value_array.hpp"
#include "tablebase/database_dir.hpp"
#include "tablebase/game_levels.hpp"
#include "tablebase/level_checkpoint.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <string>

namespace owaredb::cli {

using Clock = std::chrono::steady_clock;

/// value -> number of positions with it.
inline std::map<int, uint64_t> histogram(const ValueArray& values) {
    std::array<uint64_t, 256> counts{};
    for (uint64_t i = 0; i < values.size(); ++i) ++counts[static_cast<uint8_t>(values[i])];
    std::map<int, uint64_t> h;
    for (int b = 0; b < 256; ++b)
        if (counts[b]) h[static_cast<int8_t>(b)] = counts[b];
    return h;
}

/// value -> number of positions with it, from a file's counts of stored bytes.
inline std::map<int, uint64_t> histogram(const db::Histogram& counts) {
    std::map<int, uint64_t> h;
    for (int b = 0; b < 256; ++b)
        if (counts.counts[b]) h[static_cast<int8_t>(b)] = counts.counts[b];
    return h;
}

/// Progress on stderr: one redrawn line on a terminal, a plain line every 10 s otherwise.
class ProgressDisplay {
  public:
    // Work units for the ETA: a position of level n costs about (n + 10) units (measured:
    // positions/s fall by a quarter from n = 14 to n = 22), so the estimate does not grow
    // as the levels get larger.
    static double work(uint64_t level_size, int n) {
        return static_cast<double>(level_size) * (n + 10);
    }

    /// The work of the levels of `levels` that have no file in `db` yet.
    static double work_to_do(const LevelDir& db, const GameLevels& levels) {
        double work_left = 0;
        for (int n = 0; n <= levels.max_level; ++n)
            if (levels.contains(n) && !std::filesystem::exists(db.path(n)))
                work_left += work(db.level_size(n), n);
        return work_left;
    }

    /// What earlier processes of a run did, as the build record measured it.
    struct Recorded {
        RunRate rate;     ///< work and wall seconds (solving and writing), for the run's ETA
        WriteRate writes; ///< the files' write times, for the level's
    };
    /// The levels of `levels` that `db` holds, by its build record. A level the record does
    /// not describe adds nothing.
    static Recorded recorded(const LevelDir& db, const GameLevels& levels) {
        Recorded r;
        const BuildRecord record(db.dir());
        for (int n = 0; n <= levels.max_level; ++n)
            if (levels.contains(n))
                if (const std::optional<LevelRow> row = record.find(db.path(n))) {
                    r.rate.add_earlier(work(db.level_size(n), n),
                                       row->seconds + row->write_seconds);
                    r.writes.add(row->mode, db.level_size(n), row->write_seconds);
                }
        return r;
    }

    /// `total_work`: the work of the levels to build (work_to_do()); `earlier`: what earlier
    /// processes of this run did (recorded()).
    explicit ProgressDisplay(double total_work, Recorded earlier = {})
        : remaining_(total_work), rate_(earlier.rate), writes_(earlier.writes) {}

    /// Level n of `size` positions starts in `mode`; `checkpoint`, if any, is the one it
    /// may resume from, read at the first update() (after the solver's restore) for the
    /// time earlier processes spent on the level.
    void level_started(int n, uint64_t size, LevelMode mode,
                       const LevelCheckpoint* checkpoint = nullptr) {
        level_ = n;
        level_size_ = size;
        mode_ = mode;
        level_start_ = clock_.elapsed();
        phases_.start(level_start_, cpu_seconds());
        level_from_ = -1;
        level_earlier_seconds_ = 0;
        checkpoint_ = checkpoint;
    }
    // The line says when the level will be done and when the run will, from the rate of
    // the work done: the level's since its start; the run's, the level's ETA plus the
    // levels after it at the run's rate since its start (this process's, weighted by
    // work(), plus what earlier processes recorded, so that a resumed run does not estimate
    // from its first minutes alone: cli/run_rate.hpp). Both leave out the time the process
    // was stopped (cli/active_clock.hpp).
    void update(const LevelProgress& p) {
        if (const std::string phase = phase_name(p); phase != phases_.current())
            phases_.at(phase, clock_.elapsed(), cpu_seconds());
        const Eta eta = estimate(p);
        std::string level_eta = "?", run_eta = "?";
        if (eta.level) level_eta = format_duration(*eta.level);
        if (eta.run) run_eta = format_duration(*eta.run);
        const std::string phase = p.step             ? p.step
                                  : p.threshold == 0 ? "first pass"
                                                     : "threshold " + std::to_string(p.threshold);
        char line[200];
        std::snprintf(line, sizeof line,
                      "level %2d (%s): %-13s %3.0f%% of %llu | ETA level %s, run %s", level_,
                      mode_name(mode_), phase.c_str(), 100 * p.pass_fraction,
                      (unsigned long long)level_size_, level_eta.c_str(), run_eta.c_str());
        line_.show(line);
    }
    /// Seconds until the level in progress is done and until the run is, at `p` (none
    /// while nothing has been measured). The run's is never before the level's, and on the
    /// last level the two are one.
    struct Eta {
        std::optional<double> level, run;
    };
    Eta estimate(const LevelProgress& p) {
        const double elapsed = clock_.elapsed();
        const double level_work = work(level_size_, level_);
        if (level_from_ < 0) {
            level_from_ = p.pass_fraction;
            level_start_ = elapsed;
            if (checkpoint_ && level_from_ > 0)
                if (const std::optional<db::CheckpointTime> t = checkpoint_->earlier()) {
                    level_earlier_seconds_ = double(t->wall_ms) / 1000;
                    rate_.add_earlier(level_from_ * level_work, level_earlier_seconds_);
                }
            checkpoint_ = nullptr; // the solver owns it; read once
        }
        // Work done by this process (not what a checkpoint brought), and work left.
        const double done = done_here_ + (p.pass_fraction - level_from_) * level_work;
        const double left = remaining_ - finished_ - p.pass_fraction * level_work;
        const double level_work_left = (1 - p.pass_fraction) * level_work;
        Eta eta;
        eta.level = level_estimate(p.pass_fraction, elapsed, level_work_left, done);
        eta.run = rate_.run_seconds_left(eta.level, level_work_left, left - level_work_left, done,
                                         elapsed);
        return eta;
    }
    // Compressing a large level takes a while; say so instead of going quiet, and about how
    // long by the last level written. A write that level says will take under a second is
    // not announced ("about 0:00" would be all the line said).
    void writing() {
        char line[120];
        std::string about;
        if (const std::optional<double> w = writes_.seconds(mode_name(mode_), level_size_)) {
            if (*w < 1) return;
            about = " (about " + format_duration(*w) + ")";
        }
        std::snprintf(line, sizeof line, "level %2d: compressing and writing the file%s", level_,
                      about.c_str());
        if (line_.terminal())
            std::fprintf(stderr, "\r%-100s", line);
        else
            std::fprintf(stderr, "%s\n", line);
        std::fflush(stderr);
    }
    // A line about level n that stays on screen (checkpoint news).
    void note(int n, const std::string& what) {
        line_.clear();
        std::fprintf(stderr, "level %2d: %s\n", n, what.c_str());
        std::fflush(stderr);
    }
    /// The level's solving time so far by phase, as this process's updates split it (a
    /// level resumed from a checkpoint: this process's part).
    PhaseTimes phases() { return phases_.until(clock_.elapsed(), cpu_seconds()); }
    /// The level's file was written in `write_seconds`.
    void level_finished(double write_seconds) {
        writes_.add(mode_name(mode_), level_size_, write_seconds);
        finished_ += work(level_size_, level_);
        done_here_ += (1 - std::max(0.0, level_from_)) * work(level_size_, level_);
        line_.clear();
    }

  private:
    // Seconds until the level in progress is done, at `fraction` of it with
    // `level_work_left` units left. Once it has run a minute (or a checkpoint says how long
    // earlier processes spent on it), at its own rate, plus the file's compression and
    // write at the rate of the last level written (cli/write_rate.hpp). Before that its own
    // rate rests on seconds of one phase, and the run's rate (`done` units by this process
    // in `elapsed`, and what earlier processes recorded) estimates it, write included: so
    // that the run never shows an end before its level's, and the last level's two ETAs
    // are one.
    std::optional<double> level_estimate(double fraction, double elapsed, double level_work_left,
                                         double done) const {
        const double in_level = elapsed - level_start_;
        if (level_earlier_seconds_ <= 0 && in_level < 60)
            return rate_.seconds_left(level_work_left, done, elapsed);
        std::optional<double> own;
        if (level_earlier_seconds_ > 0 && fraction > 0)
            own = (level_earlier_seconds_ + in_level) * (1 - fraction) / fraction;
        else if (fraction - level_from_ > 0 && in_level > 1)
            own = in_level * (1 - fraction) / (fraction - level_from_);
        if (own)
            if (const std::optional<double> w = writes_.seconds(mode_name(mode_), level_size_))
                *own += *w;
        return own;
    }

    double remaining_;
    double finished_ = 0;  // the work of the levels finished
    double done_here_ = 0; // the part of it this process did
    ProgressLine line_;
    cli::ActiveClock clock_;           // the run's running time
    PhaseClock phases_;                // the level's time by phase, on clock_ and CPU
    double level_start_ = 0;           // on clock_: the level's first report
    double level_from_ = -1;           // the level's fraction then (-1: none yet)
    double level_earlier_seconds_ = 0; // earlier processes' time on the level, if known
    const LevelCheckpoint* checkpoint_ = nullptr;
    RunRate rate_; // earlier processes' work (this process's is done_here_ and the level's)
    WriteRate writes_;
    int level_ = 0;
    uint64_t level_size_ = 0;
    LevelMode mode_ = LevelMode::InMemory;
};

/// The value of a child in a smaller level, for the start-position lines: from memory when
/// the level is there (levels[0..]), else from its file. On a board of P pits a side.
template <int P> class ChildValues {
  public:
    ChildValues(const DatabaseDir& db, const std::vector<ValueArray>& levels)
        : db_(db), levels_(levels) {}
    int operator()(int level, const BasicPosition<P>& child) {
        if (level < int(levels_.size())) return levels_[level][rank(child)];
        db::ReaderOptions options;
        options.expect = db_.expectation(level);
        auto [it, added] = readers_.try_emplace(level, db_.path(level), options);
        db::Result<int8_t> v = it->second.value(rank(child));
        if (!v.ok()) throw std::runtime_error(v.status().message());
        return *v;
    }

  private:
    const DatabaseDir& db_;
    const std::vector<ValueArray>& levels_;
    std::map<int, db::LevelReader> readers_;
};

/// "value +0": the value of the start position with k seeds in every pit of a board of P
/// pits a side (db's), by one ply over levels from memory (`levels`, as many as are there)
/// or else from their files.
template <int P>
std::string start_value(const DatabaseDir& db, const std::vector<ValueArray>& levels, int k) {
    ChildValues<P> child_value(db, levels);
    const int v = bellman_value(BasicOwareGame<P>(db.rules()), 2 * P * k,
                                BasicPosition<P>::start(k), child_value);
    char line[32];
    std::snprintf(line, sizeof line, "value %+d", v);
    return line;
}

} // namespace owaredb::cli
