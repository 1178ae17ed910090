// Commands that go over stored levels (verify, stats --all-configurations) hold levels
// 0..n in memory, 1 byte a position each, while that fits the memory budget, and stream
// the larger levels from their files in sorted batches (tablebase/streamed_bellman.hpp),
// with memory for the batch only. This is that choice (--mode, --memory), and the progress
// line of a streamed level.
#pragma once

#include "cli/active_clock.hpp"
#include "cli/options.hpp"
#include "mode_plan.hpp"
#include "mpi_job.hpp"
#include "progress_line.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

namespace owaredb::cli {

/// Adds --mode and --memory, their help naming what `what` does with a level ("check each
/// level's values", "value each level's positions outside the databases").
inline void add_level_mode_options(po::options_description& opts, const std::string& what,
                                   std::string& mode, std::string& memory) {
    opts.add_options()(
        "mode", po::value(&mode)->default_value("auto"),
        ("auto: " + what +
         " in memory (levels 0..n loaded) while that fits --memory, else streamed (values read "
         "from the files in sorted batches; memory for the batch only); in-memory or streamed: "
         "every level so")
            .c_str())("memory", po::value(&memory),
                      "memory budget, e.g. 600M or 20G (default: 90 % of the available memory; "
                      "under mpirun per rank, the node's memory shared between its ranks)");
}

/// Which levels are in memory (the run's ModePlan, kReadFootprint: a byte a position each)
/// and how large a streamed batch is, from --mode and the memory budget.
class LevelModePlan {
  public:
    /// `budget`: the process's (cli/run_settings.hpp); `bytes_per_position`: what a
    /// streamed batch takes a position.
    LevelModePlan(const std::string& mode, MemoryBudget budget, uint64_t bytes_per_position)
        : plan_(mode, budget, 6, kReadFootprint), bytes_per_position_(bytes_per_position) {}
    /// The levels are of a board of `pits` pits a side (6 until told otherwise) and a
    /// streamed batch takes `bytes_per_position` a position there (more moves, more
    /// requests). Call before the first streamed().
    void set_board(int pits, uint64_t bytes_per_position) {
        plan_.set_board(pits);
        bytes_per_position_ = bytes_per_position;
    }
    /// Whether level n is streamed (in auto mode, it and every larger level do not fit).
    bool streamed(int n) const { return plan_.streamed(n); }
    /// Positions per streamed batch: what the budget leaves beside a margin (64 MiB), at
    /// least 64 Ki; 4 Mi without a budget.
    uint64_t batch_positions() const {
        const uint64_t margin = uint64_t(64) << 20, budget = plan_.budget().bytes;
        if (budget == 0) return uint64_t(1) << 22;
        const uint64_t left = budget > margin ? budget - margin : 0;
        return std::max<uint64_t>(uint64_t(1) << 16, left / bytes_per_position_);
    }

  private:
    ModePlan plan_;
    uint64_t bytes_per_position_;
};

/// The progress of a pass over a level's positions (verify's check, stats' count), streamed
/// or in memory, on stderr (rank 0's; one redrawn line on a terminal, a line every 10 s
/// otherwise, the first after 10 s so that a log gets none for a short level): a level of
/// billions of positions takes minutes. `already`: the positions an earlier run checked
/// (verify --progress-file), counted in the share shown, not in the rate the ETA comes from.
class LevelCheckProgress {
  public:
    LevelCheckProgress(int n, bool streamed, uint64_t already = 0)
        : n_(n), streamed_(streamed), already_(already) {}
    /// `done` of this run's `total` positions.
    void operator()(uint64_t done, uint64_t total) {
        if (MpiJob::current_rank() != 0 || total == 0) return;
        const double elapsed = clock_.elapsed(); // pauses left out (cli/active_clock.hpp)
        if (!line_.terminal() && elapsed < 10) return;
        const std::string eta = done > 0 && elapsed > 1
                                    ? format_duration(elapsed * double(total - done) / double(done))
                                    : "?";
        char line[120];
        std::snprintf(line, sizeof line, "level %2d (%s): %3.0f%% of %llu positions | ETA %s", n_,
                      streamed_ ? "streamed" : "in memory",
                      100.0 * double(already_ + done) / double(already_ + total),
                      (unsigned long long)(already_ + total), eta.c_str());
        line_.show(line);
    }
    void clear() const {
        if (MpiJob::current_rank() == 0) line_.clear();
    }

  private:
    int n_;
    bool streamed_;
    uint64_t already_;
    ActiveClock clock_;
    ProgressLine line_;
};

} // namespace owaredb::cli
