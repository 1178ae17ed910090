// owaredb bench-generate: the cost of the retrograde analyser against one forward pass.
//
// Solves levels 0..max-1 in memory (or, with --dir, loads them from a database directory),
// then for each measured level n: one forward pass (every legal move generated, every
// child ranked, every capture child's value read) and the full analysis of D_n, each with
// 1 thread (unless --threads-only) and with T threads, in the same run. The last column is
// the cost per position of the T-thread analysis over that of the first level measured:
// how much dearer a position of a large level is than one of a small one.
#include "cli/options.hpp"
#include "commands.hpp"
#include "database_options.hpp"
#include "oware/oware_game.hpp"
#include "retro/retrograde.hpp"
#include "retro/solve_in_memory.hpp"
#include "tablebase/database_dir.hpp"

#include <chrono>
#include <cstdio>
#include <iostream>

namespace owaredb::cli {

namespace {
template <class F> double seconds(F&& f) {
    auto t0 = std::chrono::steady_clock::now();
    f();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Levels 0..top-1 of `game`, solved here or, with a `dir`, loaded from its files; says
// which and how long it took.
std::vector<ValueArray> smaller_levels(const OwareGame& game, const std::string& dir, int top,
                                       int threads) {
    std::vector<ValueArray> solved;
    double setup = 0;
    if (dir.empty()) {
        std::cout << "solving levels 0.." << top - 1 << " first (" << threads << " threads)..."
                  << std::endl;
        setup = seconds([&] { solved = solve_in_memory(game, top - 1, threads); });
    } else {
        std::cout << "loading levels 0.." << top - 1 << " from " << dir << "..." << std::endl;
        const DatabaseDir files(dir, game.rules(), false, kPitsPerSide);
        setup = seconds([&] {
            for (int n = 0; n < top; ++n) {
                ValueArray level;
                const db::Status status = files.load(n, level, threads, solved);
                if (!status.ok()) throw std::runtime_error(status.message());
                solved.push_back(std::move(level));
            }
        });
    }
    std::printf("  done in %.1f s\n\n", setup);
    return solved;
}

} // namespace

int cmd_bench_generate(const Args& args) {
    std::string rules_name, dir;
    std::vector<int> levels;
    int threads = 0;
    bool threads_only = false;
    po::options_description opts("options");
    opts.add_options()("rules", po::value(&rules_name)->default_value("abapa"),
                       rules_help().c_str())(
        "levels", po::value(&levels)->multitoken()->default_value({18, 19, 20}, "18 19 20"),
        "levels to measure (all smaller ones are solved first)")(
        "dir", po::value(&dir),
        "load the smaller levels from this database directory instead of solving them")(
        "threads-only", po::bool_switch(&threads_only),
        "skip the 1-thread runs (large levels: they take the longest)");
    add_threads_option(opts, threads, "parallel threads (0 = one per core)");
    po::variables_map vm;
    if (!parse_args(args,
                    "usage: owaredb bench-generate [--levels N...] [--threads T] [--dir DIR] "
                    "[--threads-only]",
                    opts, {}, vm))
        return 0;
    Rules rules = rules_from_name(rules_name);
    if (levels.empty()) throw UsageError("--levels needs at least one level");
    for (int n : levels)
        if (n < 1 || n > 40) throw UsageError("levels must be between 1 and 40");
    const int top = *std::max_element(levels.begin(), levels.end());
    OwareGame game(rules);

    const std::vector<ValueArray> solved = smaller_levels(game, dir, top, threads);
    std::vector<const int8_t*> smaller;
    for (const auto& l : solved) smaller.push_back(l.data());

    std::printf("%5s %12s %9s %9s %9s %9s %8s %8s %12s %10s %8s %8s\n", "level", "positions",
                "fwd 1t s", "gen 1t s", "gen Tt s", "fwd Tt s", "gen/fwd", "speedup", "pos/s/core",
                "cost/pos", "first s", "sweep s");
    uint64_t sink = 0;
    double first_cost = 0; // T-thread seconds per position of the first level measured
    for (int n : levels) {
        std::vector<const int8_t*> below(smaller.begin(), smaller.begin() + n);
        RetrogradeSolver<OwareGame> one(game, below, 1), many(game, below, threads);
        const double size = static_cast<double>(level_size<6>(n));
        double f1 = 0, g1 = 0;
        if (!threads_only) {
            f1 = seconds([&] { sink += one.forward_pass(n); });
            g1 = seconds([&] { sink += one.solve(n).size(); });
        }
        LevelStats stats;
        double gt = seconds([&] { sink += many.solve(n, {}, &stats).size(); });
        double ft = seconds([&] { sink += many.forward_pass(n); });
        if (first_cost == 0) first_cost = gt / size;
        const double ratio = gt / size / first_cost;
        if (threads_only)
            std::printf("%5d %12.0f %9s %9s %9.2f %9.2f %8.2f %8s %12.0f %10.2f %8.2f %8.2f\n", n,
                        size, "-", "-", gt, ft, gt / ft, "-", size / gt / threads, ratio,
                        stats.first_pass_seconds, stats.sweep_seconds);
        else
            std::printf(
                "%5d %12.0f %9.2f %9.2f %9.2f %9.2f %8.2f %8.2f %12.0f %10.2f %8.2f %8.2f\n", n,
                size, f1, g1, gt, ft, g1 / f1, g1 / gt, size / g1, ratio, stats.first_pass_seconds,
                stats.sweep_seconds);
        std::fflush(stdout);
    }
    std::printf(
        "\n(checksum %llu; gen/fwd: 1-thread generation time over 1-thread forward pass"
        " (with --threads-only: %d-thread over %d-thread); speedup: 1-thread over "
        "%d-thread generation; cost/pos: %d-thread seconds per position over the first "
        "level's; first s, sweep s: the %d-thread generation's first pass and threshold sweep)\n",
        static_cast<unsigned long long>(sink), threads, threads, threads, threads, threads);
    return 0;
}

} // namespace owaredb::cli
