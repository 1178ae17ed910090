// Elapsed time that leaves out the spans in which the process did not run at all: while it
// was stopped (SIGSTOP, a suspended job, a paused machine), wall time passes but its CPU
// time does not. An ETA computed from plain wall time after such a pause takes the pause
// for slowness and stays inflated for the rest of the level (a level of an hour resumed
// after a 20-minute stop read 44 minutes left instead of 8).
//
// The rule: between two readings, a span longer than kMinGap seconds in which the process
// used less than kMaxBusy of one core counts as not running. A process merely sharing the
// machine still gets CPU time, so its span counts; one waiting on a slow disk for more
// than kMinGap seconds with no CPU at all is taken as paused (its ETA is then optimistic).
#pragma once

namespace owaredb::cli {

class ActiveClock {
  public:
    static constexpr double kMinGap = 5;     // seconds
    static constexpr double kMaxBusy = 0.01; // cores

    /// Starts now (steady wall clock, this process's CPU time).
    ActiveClock();
    /// Starts at wall time `wall` and process CPU time `cpu`, both in seconds (tests).
    ActiveClock(double wall, double cpu) : last_wall_(wall), last_cpu_(cpu) {}

    /// Reads both clocks now; the seconds the process ran (or could have) since the start.
    double elapsed();
    /// The same for a reading taken by the caller.
    double update(double wall, double cpu) {
        const double gap = wall - last_wall_;
        const double used = cpu - last_cpu_;
        if (gap > 0 && !(gap > kMinGap && used < kMaxBusy * gap)) active_ += gap;
        last_wall_ = wall;
        last_cpu_ = cpu;
        return active_;
    }

  private:
    double last_wall_, last_cpu_;
    double active_ = 0;
};

} // namespace owaredb::cli
