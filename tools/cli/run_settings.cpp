#include "cli/run_settings.hpp"

#include "cli/options.hpp"

#include <algorithm>
#include <fstream>
#include <thread>

namespace owaredb::cli {

namespace {

// MemAvailable from /proc/meminfo, or 0 when unknown (then memory is not checked).
uint64_t available_memory() {
    std::ifstream in("/proc/meminfo");
    std::string key;
    uint64_t kib = 0;
    std::string unit;
    while (in >> key >> kib >> unit)
        if (key == "MemAvailable:") return kib << 10;
    return 0;
}

} // namespace

int resolve_threads(int requested) {
    if (requested > 0) return requested;
    return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

MemoryBudget resolve_memory_budget(const std::string& text, int ranks_on_node) {
    if (!text.empty()) return {parse_bytes("--memory", text), true};
    return {available_memory() / 10 * 9 / uint64_t(std::max(1, ranks_on_node)), false};
}

} // namespace owaredb::cli
