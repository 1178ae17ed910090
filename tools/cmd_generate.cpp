// owaredb generate: builds every missing level 0..N of a rule set, in increasing n, with
// the level pipeline of tools/generate/ (pipeline.hpp): this file parses the options,
// checks before anything is written that the largest level fits the memory (preflight.hpp),
// takes the directory's lock, and picks the builder: value levels in one process (each in
// memory or streamed, as the plan says), bound levels (--bounds), or value levels split
// between the ranks of an MPI job (under mpirun).
#include "cli/options.hpp"
#include "cli/run_settings.hpp"
#include "commands.hpp"
#include "database_options.hpp"
#include "generate/builders.hpp"
#include "generate/pipeline.hpp"
#include "generate/preflight.hpp"
#include "mpi_job.hpp"
#include "oware/ranking.hpp"
#include "tablebase/game_levels.hpp"

#include <cstdio>
#include <memory>
#include <string>

namespace owaredb::cli {

int cmd_generate(const Args& args) {
    std::string rules_name, dir;
    int max_seeds = 0, game = 0, threads = 0, pits = 6;
    bool compact = false, bounds = false;
    double checkpoint_minutes = 10;
    std::string memory, mode = "auto";
    po::options_description opts("options");
    opts.add_options()("rules", po::value(&rules_name)->default_value("abapa"),
                       "rule set: abapa|awari")(
        "max-seeds", po::value(&max_seeds)->default_value(20),
        "build levels 0..N (0..48; the default finishes in a few minutes on 2 cores)")(
        "game", po::value(&game),
        "build exactly the levels a game of K seeds per pit reaches (1..4 on 6 pits a side): "
        "0..12K-2 and 12K (2PK on P pits a side), without 12K-1, which no such game has (its "
        "first capture takes at least 2); instead of --max-seeds")(
        "pits", po::value(&pits)->default_value(6),
        "the board: pits a side, 1..8 (files <rules>-pP-NN.owdb unless 6; a directory holds "
        "one board)")("dir", po::value(&dir)->default_value(kDefaultDatabaseDir),
                      "database directory")(
        "compact", po::bool_switch(&compact),
        "write capture-bounded files: about a quarter smaller, probes do one ply of capture "
        "search (see dbformat/README.md); in-memory mode only")(
        "bounds", po::bool_switch(&bounds),
        "build the bound files (gM, gN: what each side can force whatever the rule for endless "
        "play; docs/values.md) instead of the value files; in-memory mode only")(
        "checkpoint-minutes", po::value(&checkpoint_minutes)->default_value(10),
        "save a level's working state this often (at the first safe point after; less often "
        "if saving would take over 5 % of the time), so that a killed run resumes inside the "
        "level; 0: as often as that allows, -1: never")(
        "memory", po::value(&memory),
        "memory budget, e.g. 600M or 20G (default: 90 % of the available memory); a run "
        "whose largest level does not fit stops before it starts; under mpirun, per rank "
        "(default: that share of the node's ranks)")(
        "mode", po::value(&mode)->default_value("auto"),
        "auto: each level in memory if it fits --memory, else streamed (smaller levels read "
        "from their files, 1 byte a position); in-memory or streamed: every level so");
    add_threads_option(opts, threads, "parallel threads (0 = one per core)");
    po::variables_map vm;
    if (!parse_args(args,
                    "usage: owaredb generate [--rules R] [--max-seeds N | --game K] [--pits P] "
                    "[--dir DIR] [--threads T] "
                    "[--compact] [--bounds] [--checkpoint-minutes M] [--memory SIZE] "
                    "[--mode auto|in-memory|streamed]",
                    opts, {}, vm))
        return 0;
    const Rules rules = rules_from_name(rules_name);
    require_pits(pits);
    // One board a directory: --pits must agree with the level files already there.
    resolve_pits(DatabaseOptions{dir, rules_name, pits});
    if (max_seeds < 0 || max_seeds > kMaxSeeds)
        throw UsageError("--max-seeds must be between 0 and 48, got " + std::to_string(max_seeds));
    GameLevels wanted = GameLevels::up_to(max_seeds, pits);
    if (vm.count("game")) {
        if (!vm["max-seeds"].defaulted())
            throw UsageError("--game K builds the levels up to " + std::to_string(2 * pits) +
                             "K; give it or --max-seeds, not both");
        const int largest = kMaxSeeds / (2 * pits);
        if (game < 1 || game > largest)
            throw UsageError("--game must be between 1 and " + std::to_string(largest) +
                             " (seeds per pit" +
                             (pits == 6 ? "" : " on " + std::to_string(pits) + " pits a side") +
                             ": at most 48 seeds), got " + std::to_string(game));
        wanted = GameLevels::of_game(game, pits);
        max_seeds = wanted.max_level;
    }
    if (bounds && compact) throw UsageError("--compact applies to value files, not --bounds");
    if (!(checkpoint_minutes >= 0 || checkpoint_minutes == -1))
        throw UsageError("--checkpoint-minutes must be >= 0, or -1 for no checkpoints");
    // --memory is per rank; the default shares the node's memory between its ranks.
    const MemoryBudget budget = resolve_memory_budget(memory, MpiJob::current_ranks_on_node());
    const BuildSettings settings{dir, rules, threads, checkpoint_minutes, pits, wanted};
    const std::string levels =
        (wanted.skipped < 0 ? "levels 0.." + std::to_string(max_seeds)
                            : "levels 0.." + std::to_string(wanted.skipped - 1) + " and " +
                                  std::to_string(max_seeds) + " (a game of " +
                                  std::to_string(game) + " seeds per pit)") +
        (pits == 6 ? "" : ", a board of " + std::to_string(pits) + " pits a side") +
        ", directory " + dir;

    if (pits != 6 && compact) throw UsageError("--compact is for the 6-pit board only");
    if (pits > kMaxBoundsPitsPerSide && bounds)
        throw UsageError(
            "--bounds is for boards of up to " + std::to_string(kMaxBoundsPitsPerSide) +
            " pits a side (the bounds solver's move counter), not " + std::to_string(pits));
    if (MpiJob* job = MpiJob::current()) {
        if (pits != 6)
            throw UsageError("under mpirun the board is the 6-pit one; build --pits " +
                             std::to_string(pits) + " in one process");
        // Under mpirun every level is streamed, split between the ranks.
        if (bounds || compact)
            throw UsageError(std::string(bounds ? "--bounds" : "--compact") +
                             " is built in one process only; run it without mpirun");
        if (mode != "auto" && mode != "streamed")
            throw UsageError("under mpirun every level is built in distributed (streamed) mode; "
                             "--mode " +
                             mode + " is for one process");
        // Every rank checks its own memory before anything is written.
        const int rank = job->rank(), ranks = job->ranks();
        check_memory(max_seeds, distributed_bytes(max_seeds, rank, ranks, kMinRequestBytes),
                     "distributed mode on rank " + std::to_string(rank) + " of " +
                         std::to_string(ranks) + (rank == 0 ? ", which writes each level" : ""),
                     budget);
        std::unique_ptr<db::DirectoryLock> lock;
        if (rank == 0) lock = prepare_output_directory(dir);
        job->broadcast(0); // the directory exists before any rank looks into it
        const auto builder = distributed_levels(settings, *job, budget);
        return run_levels(*builder, wanted,
                          "owaredb generate: rules " + rules.name + ", " + levels + ", " +
                              std::to_string(ranks) + " MPI ranks x " + std::to_string(threads) +
                              " threads",
                          "levels");
    }
    const ModePlan plan(mode, budget, pits, kBuildFootprint);
    if (bounds) {
        if (mode == "streamed")
            throw UsageError("--bounds is built in memory only; --mode streamed is for value "
                             "files");
        // Working state 2 bytes per position, smaller levels 2 bytes (both bounds).
        check_memory(max_seeds, in_memory_bytes(max_seeds, 2, 2, pits),
                     "in-memory mode (bound levels up to " + std::to_string(max_seeds - 1) +
                         " are kept; bounds have no streamed mode)",
                     budget);
    } else {
        check_plan(plan, max_seeds);
        if (compact && plan.mode(max_seeds) == LevelMode::Streamed)
            throw UsageError("--compact needs every level in memory, and level " +
                             std::to_string(max_seeds) +
                             " is streamed: drop --compact, or give more --memory");
    }
    const auto lock = prepare_output_directory(dir);
    const std::string head = "owaredb generate: " + std::string(bounds ? "bounds (gM, gN), " : "") +
                             "rules " + rules.name + ", " + levels + ", " +
                             std::to_string(threads) + " threads" +
                             (compact ? ", compact (capture-bounded) files" : "");
    const auto builder = bounds ? bound_levels(settings) : value_levels(settings, plan, compact);
    return run_levels(*builder, wanted, head, bounds ? "bound levels" : "levels");
}

} // namespace owaredb::cli
