// The rate behind a long job's ETA: units of work done per second of running time.
//
// A job that resumes (killed, stopped for the night, resumed in the next session) has
// measured only minutes of its own progress, often in a phase much faster or slower than
// the rest, so a rate from this process alone swings by a factor of several: a resumed
// 36-seed run read "run 9:51:12" and two minutes later "run 2:19:17" when about seven hours
// were left. The work that earlier processes did, in the seconds they took (the build
// record of the levels they wrote, the checkpoint of the level they left), joins this
// process's own measurements, so the estimate starts from the whole run's history.
#pragma once

#include <optional>

namespace owaredb::cli {

class RunRate {
  public:
    /// Records `work` units that earlier processes did in `seconds` of wall time; either
    /// not positive (a level without a recorded time, a level started afresh) adds nothing.
    void add_earlier(double work, double seconds) {
        if (work > 0 && seconds > 0) {
            earlier_work_ += work;
            earlier_seconds_ += seconds;
        }
    }

    /// Seconds for `work_left` more units, at the rate of the earlier work together with
    /// this process's `work_here` units in `seconds_here`; none while less than a second or
    /// no work at all has been measured.
    std::optional<double> seconds_left(double work_left, double work_here,
                                       double seconds_here) const {
        const double work = earlier_work_ + work_here;
        const double seconds = earlier_seconds_ + seconds_here;
        if (!(work > 0) || !(seconds > 1)) return std::nullopt;
        return work_left * seconds / work;
    }

    /// Seconds until the run ends: the level in progress by its own estimate,
    /// `level_seconds_left` (its measured rate: a streamed level's is well below the run's
    /// average, so the run's rate alone put the end of the last level before the level's
    /// own ETA), then `later_work_left` units of the levels after it at the run's rate.
    /// Without the level's estimate, all of it (`level_work_left` too) at the run's rate.
    std::optional<double> run_seconds_left(std::optional<double> level_seconds_left,
                                           double level_work_left, double later_work_left,
                                           double work_here, double seconds_here) const {
        if (!level_seconds_left)
            return seconds_left(level_work_left + later_work_left, work_here, seconds_here);
        if (!(later_work_left > 0)) return level_seconds_left;
        const std::optional<double> later = seconds_left(later_work_left, work_here, seconds_here);
        if (!later) return std::nullopt;
        return *level_seconds_left + *later;
    }

    double earlier_work() const { return earlier_work_; }
    double earlier_seconds() const { return earlier_seconds_; }

  private:
    double earlier_work_ = 0;
    double earlier_seconds_ = 0;
};

} // namespace owaredb::cli
