// Where a level's solving time went, phase by phase (owaredb-build.jsonl's "phases"), from
// the progress updates the engines send: so that a mode's thresholds can be compared with
// another's apart from the passes every mode makes alike (the capture exits, the first pass).
#pragma once

#include "retro/progress.hpp"

#include <map>
#include <string>

namespace owaredb::cli {

/// Wall and CPU seconds of one phase.
struct PhaseTime {
    double seconds = 0;
    double cpu_seconds = 0;
};
/// By phase name: an engine's own step ("capture exits"), "first pass", "thresholds".
using PhaseTimes = std::map<std::string, PhaseTime>;

/// The phase an update belongs to: its step, else "first pass" (threshold 0), else
/// "thresholds" (all of them, with every pass an engine makes for one).
std::string phase_name(const LevelProgress& p);

/// Splits a level's time at the updates where the phase changes: a phase runs from its
/// first update to the next phase's first (the first phase from start()), so its times are
/// as exact as the updates are frequent. Times are given by the caller (a clock that leaves
/// out stops, the process's CPU): the class only adds them up.
class PhaseClock {
  public:
    /// A level starts at (wall, cpu): what an earlier level measured is dropped.
    void start(double wall, double cpu);
    /// The phase in progress ("" before the first update).
    const std::string& current() const { return current_; }
    /// An update of phase `name` at (wall, cpu): a new name ends the phase in progress there.
    void at(const std::string& name, double wall, double cpu);
    /// The phases so far, the one in progress ended at (wall, cpu); none before an update.
    PhaseTimes until(double wall, double cpu) const;

  private:
    PhaseTimes done_;
    std::string current_;
    double wall0_ = 0, cpu0_ = 0; // where the phase in progress began
};

} // namespace owaredb::cli
