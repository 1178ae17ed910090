#include "cli/system_stats.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <ctime>
#include <fstream>
#include <sstream>

namespace owaredb::cli {

bool reset_peak_rss() {
    std::ofstream f("/proc/self/clear_refs");
    f << "5";
    return static_cast<bool>(f);
}

uint64_t peak_rss_bytes() {
    std::ifstream f("/proc/self/status");
    std::string line;
    while (std::getline(f, line))
        if (line.rfind("VmHWM:", 0) == 0) {
            std::istringstream in(line.substr(6));
            uint64_t kb = 0;
            in >> kb;
            return kb * 1024;
        }
    return 0;
}

bool stderr_is_terminal() {
    return isatty(STDERR_FILENO) == 1;
}

std::string format_duration(double seconds) {
    if (seconds < 0) seconds = 0;
    auto s = static_cast<uint64_t>(seconds + 0.5);
    char buf[64];
    if (s >= 3600)
        std::snprintf(buf, sizeof buf, "%llu:%02llu:%02llu", (unsigned long long)(s / 3600),
                      (unsigned long long)(s / 60 % 60), (unsigned long long)(s % 60));
    else
        std::snprintf(buf, sizeof buf, "%llu:%02llu", (unsigned long long)(s / 60),
                      (unsigned long long)(s % 60));
    return buf;
}

std::string utc_timestamp() {
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return text;
}

double cpu_seconds() {
    rusage usage{};
    if (::getrusage(RUSAGE_SELF, &usage) != 0) return 0;
    auto seconds = [](const timeval& t) { return double(t.tv_sec) + double(t.tv_usec) * 1e-6; };
    return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

} // namespace owaredb::cli
