#include "cli/active_clock.hpp"

#include "cli/system_stats.hpp"

#include <chrono>

namespace owaredb::cli {

namespace {

double wall_seconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

} // namespace

ActiveClock::ActiveClock() : ActiveClock(wall_seconds(), cpu_seconds()) {}

double ActiveClock::elapsed() {
    return update(wall_seconds(), cpu_seconds());
}

} // namespace owaredb::cli
