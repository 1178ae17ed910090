// owaredb bench-probe: probe throughput with a warm cache, batch throughput, and the
// latency of a cold probe (fresh tablebase: file opened, index read, block decompressed).
#include "cli/options.hpp"
#include "commands.hpp"
#include "database_options.hpp"
#include "oware/ranking.hpp"
#include "owaredb/probe.hpp"

#include <chrono>
#include <cstdio>
#include <random>

namespace owaredb::cli {

int cmd_bench_probe(const Args& args) {
    DatabaseOptions db;
    int level = 0;
    uint64_t samples = 0;
    po::options_description opts("options");
    add_database_options(opts, db);
    opts.add_options()("level", po::value(&level)->default_value(16),
                       "level to probe (must exist)")(
        "samples", po::value(&samples)->default_value(2000000), "random probes to time");
    po::variables_map vm;
    if (!parse_args(args, "usage: owaredb bench-probe [--dir DIR] [--rules R] [--level N]", opts,
                    {}, vm))
        return 0;
    require_directory(db.dir, "(see owaredb generate)");
    const std::string rules_name = resolve_rules(db).name;
    const std::string& dir = db.dir;
    if (level < 0 || level > kMaxSeeds) throw UsageError("--level must be 0..48");
    using Clock = std::chrono::steady_clock;
    std::mt19937_64 rng(1);
    std::vector<Pits> positions(samples);
    for (auto& p : positions) p = unrank<6>(level, rng() % level_size<6>(level)).pits;

    // Cold: a fresh tablebase per probe, first probe of each (file open + block decode).
    double cold = 0;
    const int cold_runs = 20;
    for (int k = 0; k < cold_runs; ++k) {
        Tablebase fresh(dir, rules_name);
        auto t0 = Clock::now();
        ProbeResult<int> v = fresh.value(positions[k]);
        cold += std::chrono::duration<double>(Clock::now() - t0).count();
        if (!v) throw std::runtime_error(v.message());
    }
    // Warm: a cache big enough for the level, filled by one pass, then timed.
    TablebaseOptions big;
    big.cache_bytes = std::size_t(2) << 30;
    Tablebase tb(dir, rules_name, big);
    long long sink = 0;
    for (const Pits& p : positions) sink += *tb.value(p);
    auto t0 = Clock::now();
    for (const Pits& p : positions) sink += *tb.value(p);
    double warm = std::chrono::duration<double>(Clock::now() - t0).count();
    std::vector<ProbeResult<int>> results(positions.size(), ProbeResult<int>(0));
    t0 = Clock::now();
    tb.values(positions, results);
    double batch = std::chrono::duration<double>(Clock::now() - t0).count();
    std::printf("level %d (%llu positions), %llu random probes, 1 thread\n", level,
                (unsigned long long)level_size<6>(level), (unsigned long long)samples);
    std::printf("  warm probes/s        %12.0f\n", samples / warm);
    std::printf("  warm batch values/s  %12.0f\n", samples / batch);
    std::printf("  cold probe latency   %12.3f ms (mean of %d fresh tablebases)\n",
                1e3 * cold / cold_runs, cold_runs);
    std::printf("  (checksum %lld)\n", sink);
    return 0;
}

} // namespace owaredb::cli
