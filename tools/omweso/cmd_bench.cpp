// omweso bench: laps/s of the relay simulator and of the never-ending detectors, and the
// census rate in boards/s.
#include "commands.hpp"

#include "omweso/census.hpp"
#include "omweso/position.hpp"
#include "omweso/relay.hpp"
#include "omweso/turn.hpp"

#include <chrono>
#include <cstdio>
#include <iostream>
#include <omp.h>

namespace owaredb::omweso::cli {

namespace {

double now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// docs/rules.md, Omweso: Reference cases: sows forever from pit 0 with a period of 61,776 laps.
constexpr const char* kLongCycle =
    "2 2 1 2 1 2 1 2 1 3 2 3 2 3 2 3; 4 4 4 4 4 4 4 4 0 0 0 0 0 0 0 0";

} // namespace

int cmd_bench(const Args& args) {
    double seconds = 1.0;
    int seeds = 12, threads = 0;
    po::options_description opts("options");
    opts.add_options()("seconds", po::value(&seconds)->default_value(1.0), "time per measurement")(
        "seeds", po::value(&seeds)->default_value(12), "census size for the rate (2..20)");
    owaredb::cli::add_threads_option(opts, threads, "census threads (0: all)");
    po::variables_map vm;
    if (!parse_args(
            args,
            "usage: omweso bench [--seconds X] [--seeds S] [--threads T]\n\n"
            "Measures the pure relay simulator (plain laps), the relay detector and the\n"
            "full-rules turn detector (laps simulated per second while proving the 61,776-lap\n"
            "reference cycle of docs/rules.md, Omweso), and the census rate (boards/s) for S "
            "seeds\n"
            "with 1 and T threads.\n",
            opts, {}, vm))
        return 0;
    if (!(seconds > 0 && seconds <= 600)) throw UsageError("--seconds must be in (0, 600]");
    if (seeds < 2 || seeds > 20) throw UsageError("--seeds must be in 2..20");

    const Position pos = parse_position(kLongCycle);
    const RelayCircuit& c = omweso_circuit();

    // 1. Plain relay laps (the board never ends, so the loop never stops early).
    {
        Packed b = pos.mover();
        int p = 0;
        std::uint64_t laps = 0;
        const double t0 = now();
        double t = t0;
        while (t - t0 < seconds) {
            for (int i = 0; i < 1 << 20; ++i) p = c.sow(b, p);
            laps += 1 << 20;
            t = now();
        }
        std::printf("relay simulator   %12.0f laps/s   (checksum %d)\n", double(laps) / (t - t0),
                    get_pit(b, p));
    }
    // 2. Relay detector and 3. turn detector: prove the 61,776-lap cycle repeatedly.
    auto measure = [&](const char* name, auto prove) {
        std::uint64_t work = 0, period = 0;
        int runs = 0;
        const double t0 = now();
        double t = t0;
        while (t - t0 < seconds || runs == 0) {
            const auto [w, per] = prove();
            work += w;
            period = per;
            ++runs;
            t = now();
        }
        std::printf("%-17s %12.0f laps/s   (%d proofs of the %llu-lap cycle, %.1f ms each)\n", name,
                    double(work) / (t - t0), runs, (unsigned long long)period,
                    1000.0 * (t - t0) / runs);
    };
    measure("relay detector", [&] {
        const RelayResult r = relay(c, pos.mover(), 0);
        return std::pair{r.work_laps, r.cycle ? r.cycle->period_laps : 0};
    });
    measure("turn detector", [&] {
        const std::vector<Turn> ts = turns_from(pos, 0, Start::Forward);
        return std::pair{ts.at(0).work_laps,
                         ts.at(0).never_ending ? ts.at(0).never_ending->period_laps : 0};
    });
    // 4. Census rate.
    for (int th : {1, threads}) {
        const double t0 = now();
        const CensusResult r = census(seeds, 16, th);
        const double dt = now() - t0;
        std::printf(
            "census S=%-2d %2d thread%s %10.0f boards/s (%llu boards, %.2f s, %.0f laps/s)\n",
            seeds, th, th == 1 ? " " : "s", double(r.boards) / dt, (unsigned long long)r.boards, dt,
            double(r.laps) / dt);
        if (th == threads) break;
    }
    return 0;
}

} // namespace owaredb::omweso::cli
