#include "generate/phase_times.hpp"

namespace owaredb::cli {

std::string phase_name(const LevelProgress& p) {
    if (p.step) return p.step;
    return p.threshold == 0 ? "first pass" : "thresholds";
}

void PhaseClock::start(double wall, double cpu) {
    done_.clear();
    current_.clear();
    wall0_ = wall;
    cpu0_ = cpu;
}

void PhaseClock::at(const std::string& name, double wall, double cpu) {
    if (name == current_) return;
    if (!current_.empty()) {
        PhaseTime& t = done_[current_];
        t.seconds += wall - wall0_;
        t.cpu_seconds += cpu - cpu0_;
        wall0_ = wall;
        cpu0_ = cpu;
    }
    current_ = name;
}

PhaseTimes PhaseClock::until(double wall, double cpu) const {
    PhaseTimes times = done_;
    if (!current_.empty()) {
        PhaseTime& t = times[current_];
        t.seconds += wall - wall0_;
        t.cpu_seconds += cpu - cpu0_;
    }
    return times;
}

} // namespace owaredb::cli
