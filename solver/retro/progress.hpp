// What the engines report while they solve a level (for progress displays) and after
// (statistics), and the throttle that keeps reports from worker threads to one a second.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <vector>

namespace owaredb {

/// What the analyser is doing, for progress displays. Calls come from worker threads,
/// one at a time, at most about once a second.
struct LevelProgress {
    int level = 0;
    int threshold = 0;        ///< 0 before the thresholds: the first pass, or `step`
    uint64_t done = 0;        ///< positions (units of `step`) done in the current pass
    uint64_t total = 0;       ///< positions in the level (units of `step`)
    double pass_fraction = 0; ///< estimated fraction of the whole level done
    /// While threshold is 0: what an engine does before its first pass, if it does
    /// something (the streamed engine's "capture exits"); nullptr: the first pass.
    const char* step = nullptr;
};
using ProgressFn = std::function<void(const LevelProgress&)>;

/// The shares of a level's n thresholds in the time they take together, for progress:
/// index t = 1..n (index 0 unused, 0), summing to 1. Threshold t scans the level and
/// propagates the positions it decides, those of value +t and -t; deciding a position
/// costs about as much as scanning kScansPerDecided of them (docs/results.md), so
/// threshold t takes about (the fraction of positions of value +-t) + 1 / kScansPerDecided
/// of the level. `counts[v]` are the positions of value v of a smaller level of the same
/// parity, whose shape the level's follows (at awari level 22 thresholds 4..1 take 46 % of
/// the thresholds' time, where even shares give them 18 %); without counts, even shares.
inline constexpr double kScansPerDecided = 300;
inline std::vector<double> threshold_shares(int n, const std::map<int, uint64_t>& counts) {
    std::vector<double> shares(n + 1, 0.0);
    if (n < 1) return shares;
    uint64_t total = 0;
    for (const auto& [v, c] : counts) total += c;
    double sum = 0;
    for (int t = 1; t <= n; ++t) {
        double decided = 0;
        if (total)
            for (int v : {t, -t})
                if (auto it = counts.find(v); it != counts.end())
                    decided += double(it->second) / double(total);
        shares[t] = decided + 1 / kScansPerDecided;
        sum += shares[t];
    }
    for (int t = 1; t <= n; ++t) shares[t] /= sum;
    return shares;
}

/// What a level's sweep did, after it.
struct LevelStats {
    double first_pass_seconds = 0; ///< with any step before the first pass
    double sweep_seconds = 0;
    uint64_t scans = 0;      ///< threshold scans, including overflow rescans
    uint64_t propagated = 0; ///< positions whose parents were generated
    /// The 4- and 2-bit engines (scan_solver.hpp): the most parents one thread's full
    /// propagation stack held spilled at once, in this solve() (0: no stack filled up).
    uint64_t spilled_peak = 0;
};

/// Lets one report through at most once a second, from whichever thread asks first:
/// worker threads call it as they finish pieces of work, and the others go on at once.
class ReportThrottle {
  public:
    /// Calls report() unless another thread is reporting or the last report was less than
    /// a second ago.
    template <class F> void maybe(F&& report) {
        std::unique_lock lock(mutex_, std::try_to_lock);
        if (!lock.owns_lock() || Clock::now() - last_ < std::chrono::seconds(1)) return;
        last_ = Clock::now();
        report();
    }

  private:
    using Clock = std::chrono::steady_clock;
    std::mutex mutex_;
    Clock::time_point last_ = Clock::now();
};

} // namespace owaredb
