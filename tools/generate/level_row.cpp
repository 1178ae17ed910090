#include "generate/level_row.hpp"

#include <algorithm>
#include <cstdio>

namespace owaredb::cli {

void print_summary(const std::vector<LevelRow>& rows, const std::string& what) {
    const bool bounds = std::any_of(rows.begin(), rows.end(), [](auto& r) { return r.exact; });
    const bool ranks = std::any_of(rows.begin(), rows.end(),
                                   [](auto& r) { return r.peak_rss.size() > 1 || r.messages; });
    std::printf("\n%5s %11s %13s %9s %12s %8s %17s %10s %8s %9s", "level", "mode", "positions",
                "seconds", "positions/s", "write s", ranks ? "peak MiB r0/other" : "peak MiB",
                "file KiB", "bits/pos", "cpu s");
    if (ranks) std::printf(" %10s", "msgs/pos");
    if (bounds)
        std::printf(" %13s %7s\n", "exact", "exact%");
    else
        std::printf("  %s\n", "values (V>0 / V=0 / V<0)");
    for (const LevelRow& r : rows) {
        char rate[32] = "(loaded)";
        if ((!r.loaded || r.recorded) && r.seconds > 0)
            std::snprintf(rate, sizeof rate, "%.0f", double(r.positions) / r.seconds);
        const uint64_t first = r.peak_rss.empty() ? 0 : r.peak_rss[0];
        char peak[48];
        if (ranks) {
            const uint64_t other =
                r.peak_rss.size() < 2 ? 0
                                      : *std::max_element(r.peak_rss.begin() + 1, r.peak_rss.end());
            std::snprintf(peak, sizeof peak, "%.0f / %.0f", double(first) / (1 << 20),
                          double(other) / (1 << 20));
        } else {
            std::snprintf(peak, sizeof peak, "%.0f", double(first) / (1 << 20));
        }
        const std::string mode = r.loaded && !r.recorded ? "loaded"
                                                         : r.mode + (r.earlier_unknown ? "+" : "") +
                                                               (r.recorded ? "*" : "");
        std::printf("%5d %11s %13llu %9.2f %12s %8.2f %17s %10.1f %8.3f %9.2f", r.n, mode.c_str(),
                    (unsigned long long)r.positions, r.seconds, rate, r.write_seconds, peak,
                    double(r.file_bytes) / 1024, r.bits_per_position(), r.cpu_seconds);
        if (ranks) {
            char msgs[32] = "-";
            if (r.messages && r.positions)
                std::snprintf(msgs, sizeof msgs, "%.3f", double(*r.messages) / double(r.positions));
            std::printf(" %10s", msgs);
        }
        if (bounds) {
            const uint64_t exact = r.exact.value_or(0);
            std::printf(" %13llu %7.2f\n", (unsigned long long)exact,
                        r.positions ? 100.0 * double(exact) / double(r.positions) : 0);
        } else {
            uint64_t win = 0, draw = 0, loss = 0;
            for (auto [v, c] : r.values) (v > 0 ? win : v == 0 ? draw : loss) += c;
            std::printf("  %llu / %llu / %llu\n", (unsigned long long)win, (unsigned long long)draw,
                        (unsigned long long)loss);
        }
    }
    if (std::any_of(rows.begin(), rows.end(), [](auto& r) { return r.earlier_unknown; }))
        std::printf("\n(+: resumed from a checkpoint that does not record the time of the runs "
                    "before: its seconds and cpu s are this run's part only)\n");
    if (std::any_of(rows.begin(), rows.end(), [](auto& r) { return r.recorded; }))
        std::printf("\n(*: built by an earlier run; its seconds, memory and cpu s as that run "
                    "recorded them in owaredb-build.jsonl)\n");
    if (ranks)
        std::printf("\n(peak MiB r0/other: the peak RSS of rank 0, which writes each level, and "
                    "the largest of the other ranks'; msgs/pos: propagation messages of 8 bytes "
                    "between ranks per position of the level)\n");
    if (!bounds) {
        std::printf("\nvalue distribution (value:count):\n");
        for (const LevelRow& r : rows) {
            std::printf("%5d ", r.n);
            for (auto [v, c] : r.values) std::printf(" %d:%llu", v, (unsigned long long)c);
            std::printf("\n");
        }
    }
    double total = 0, cpu = 0;
    for (const LevelRow& r : rows) {
        total += r.seconds + r.write_seconds;
        cpu += r.cpu_seconds;
    }
    const int last = rows.empty() ? 0 : rows.back().n;
    std::printf("\ntotal: %.1f s solving, loading and writing %s 0..%d (%.1f s of CPU)%s\n", total,
                what.c_str(), last, cpu,
                std::any_of(rows.begin(), rows.end(), [](auto& r) { return r.recorded; })
                    ? ", levels built by earlier runs counted as they were built"
                    : "");
}

} // namespace owaredb::cli
