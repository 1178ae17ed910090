// What `owaredb generate` shows while it works (cmd_generate.cpp, generate_distributed.cpp):
// the progress line with its ETA on stderr, the value counts of a finished level, and the
// children's values for the start-position lines.
#pragma once

#include "cli/system_stats.hpp"
#include "generate_preflight.hpp"
#include "oware/ranking.hpp"
#include "progress_line.hpp"
#include "retro/sweep.hpp"
#include "retro/value_array.hpp"
#include "tablebase/database_dir.hpp"

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

/// Progress on stderr: one redrawn line on a terminal, a plain line every 10 s otherwise.
class ProgressDisplay {
  public:
    // Work units for the ETA: a position of level n costs about (n + 10) units (measured:
    // positions/s fall by a quarter from n = 14 to n = 22), so the estimate does not grow
    // as the levels get larger.
    static double work(int n) { return static_cast<double>(level_size(n)) * (n + 10); }

    /// The work of the levels 0..max_seeds of `db` that have no file yet.
    static double work_to_do(const LevelDir& db, int max_seeds) {
        double work_left = 0;
        for (int n = 0; n <= max_seeds; ++n)
            if (!std::filesystem::exists(db.path(n))) work_left += work(n);
        return work_left;
    }

    explicit ProgressDisplay(double total_work) : remaining_(total_work), start_(Clock::now()) {}

    void level_started(int n, uint64_t size, LevelMode mode) {
        level_ = n;
        level_size_ = size;
        mode_ = mode;
    }
    void update(const LevelProgress& p) {
        const double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
        const double done = finished_ + p.pass_fraction * work(level_);
        std::string eta = "?";
        if (done > 0 && elapsed > 1) eta = format_duration(elapsed * (remaining_ - done) / done);
        const std::string phase = p.gathering        ? "capture exits"
                                  : p.threshold == 0 ? "first pass"
                                                     : "threshold " + std::to_string(p.threshold);
        char line[200];
        std::snprintf(line, sizeof line, "level %2d (%s): %-13s %3.0f%% of %llu positions | ETA %s",
                      level_, mode_name(mode_), phase.c_str(), 100 * p.pass_fraction,
                      (unsigned long long)level_size_, eta.c_str());
        line_.show(line);
    }
    // Compressing a large level takes a while; say so instead of going quiet.
    void writing() {
        char line[120];
        std::snprintf(line, sizeof line, "level %2d: compressing and writing the file", level_);
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
    void level_finished() {
        finished_ += work(level_);
        line_.clear();
    }

  private:
    double remaining_;
    double finished_ = 0;
    ProgressLine line_;
    Clock::time_point start_;
    int level_ = 0;
    uint64_t level_size_ = 0;
    LevelMode mode_ = LevelMode::InMemory;
};

/// The value of a child in a smaller level, for the start-position lines: from memory when
/// the level is there (levels[0..]), else from its file.
class ChildValues {
  public:
    ChildValues(const DatabaseDir& db, const std::vector<ValueArray>& levels)
        : db_(db), levels_(levels) {}
    int operator()(int level, const Position& child) {
        if (level < int(levels_.size())) return levels_[level][rank(child)];
        auto [it, added] = readers_.try_emplace(level, db_.path(level));
        db::Result<int8_t> v = it->second.value(rank(child));
        if (!v.ok()) throw std::runtime_error(v.status().message());
        return *v;
    }

  private:
    const DatabaseDir& db_;
    const std::vector<ValueArray>& levels_;
    std::map<int, db::LevelReader> readers_;
};

} // namespace owaredb::cli
