// owaredb generate: builds every missing level 0..N of a rule set, in increasing n, with
// the level pipeline of tools/generate/ (pipeline.hpp): this file parses the options,
// validates them into the run's settings (the levels, the threads and the memory budget
// per process, resolved once: cli/run_settings.hpp), checks before anything is written that
// the largest level fits the memory (preflight.hpp), takes the directory's lock, and picks
// the builder: value levels in one process (each in memory or streamed, as the mode plan
// says), bound levels (--bounds), or value levels split between the ranks of an MPI job
// (under mpirun).
#include "cli/options.hpp"
#include "cli/run_settings.hpp"
#include "cli/stop_signals.hpp"
#include "commands.hpp"
#include "database_options.hpp"
#include "generate/builders.hpp"
#include "generate/pipeline.hpp"
#include "generate/plan.hpp"
#include "generate/preflight.hpp"
#include "mpi_job.hpp"
#include "oware/ranking.hpp"
#include "tablebase/game_levels.hpp"

#include <cstdio>
#include <memory>
#include <optional>
#include <string>

namespace owaredb::cli {

namespace {

// What `owaredb generate` was asked for, as parsed.
struct GenerateOptions {
    std::string rules_name, dir, memory, mode = "auto", disk, rates;
    int max_seeds = 20, game = 0, threads = 0, pits = 6;
    bool game_given = false, max_seeds_given = false;
    bool compact = false, bounds = false, plan = false;
    double checkpoint_minutes = 10;
};

// What the run does, once the options are validated: the builders' settings (the levels,
// the threads), the memory budget of this process, and the levels as the title names them.
struct GenerateRun {
    BuildSettings settings;
    MemoryBudget budget;
    std::string levels;
};

void add_generate_options(po::options_description& opts, GenerateOptions& o) {
    opts.add_options()("rules", po::value(&o.rules_name)->default_value("abapa"),
                       rules_help().c_str())(
        "max-seeds", po::value(&o.max_seeds)->default_value(20),
        "build levels 0..N (0..48; the default finishes in a few minutes on 2 cores)")(
        "game", po::value(&o.game),
        "build exactly the levels a game of K seeds per pit reaches (1..4 on 6 pits a side): "
        "0..12K-2 and 12K (2PK on P pits a side), without 12K-1, which no such game has (its "
        "first capture takes at least 2); instead of --max-seeds")(
        "pits", po::value(&o.pits)->default_value(6),
        "the board: pits a side, 1..8 (files <rules>-pP-NN.owdb unless 6; a directory holds "
        "one board)")("dir", po::value(&o.dir)->default_value(kDefaultDatabaseDir),
                      "database directory")(
        "compact", po::bool_switch(&o.compact),
        "write capture-bounded files: about a quarter smaller, probes do one ply of capture "
        "search (see dbformat/README.md); in-memory mode only")(
        "bounds", po::bool_switch(&o.bounds),
        "build the bound files (gM, gN: what each side can force whatever the rule for endless "
        "play; docs/values.md) instead of the value files; in-memory mode only")(
        "checkpoint-minutes", po::value(&o.checkpoint_minutes)->default_value(10),
        "save a level's working state this often (at the first safe point after; less often "
        "if saving would take over 5 % of the time), so that a killed run resumes inside the "
        "level; 0: as often as that allows, -1: never")(
        "memory", po::value(&o.memory),
        "memory budget, e.g. 600M or 20G (default: 90 % of the available memory); a run "
        "whose largest level does not fit stops before it starts; under mpirun, per rank "
        "(default: that share of the node's ranks)")(
        "mode", po::value(&o.mode)->default_value("auto"),
        "auto: each level in memory if it fits --memory, else streamed (smaller levels read "
        "from their files, 1 byte a position), else streamed-4bit (4 bits a position in "
        "memory; on disk the exits and a bitmap a threshold, compressed; boards of up to 6 "
        "pits), else streamed-2bit (2 bits a position, the same on disk and a map of a bit "
        "a position; slower); in-memory, streamed, streamed-4bit or streamed-2bit: every "
        "level so")(
        "plan", po::bool_switch(&o.plan),
        "write nothing: print per level the mode this run would use, its memory, its disk peak "
        "(with the smaller levels' files) and the wall hours at --threads from measured CPU "
        "rates (--dir's owaredb-build.jsonl if it has any, a mode it never pairs with the base "
        "mode taking the committed pairing, else docs/data/build-rates.jsonl); "
        "a level whose file is in --dir is shown built (its size counted, no time), and the "
        "others' files are estimated from the largest of those (else of the files the rates' "
        "records measured); exit 0 if every level fits "
        "--memory and --disk, else 1")(
        "disk", po::value(&o.disk),
        "with --plan: the disk to plan for, e.g. 1T (default: the free space of --dir, or of "
        "its nearest existing parent, and the files of the planned levels there)")(
        "rates", po::value(&o.rates),
        "with --plan: the rates from this file of owaredb-build.jsonl records (another "
        "machine's, say) instead of --dir's or the committed ones; a mode it never pairs "
        "with the base mode takes the committed pairing");
    add_threads_option(opts, o.threads, "parallel threads (0 = one per core)");
}

// Parses `args` into `o`; false after --help.
bool parse_generate_options(const Args& args, GenerateOptions& o) {
    po::options_description opts("options");
    add_generate_options(opts, o);
    po::variables_map vm;
    if (!parse_args(args,
                    "usage: owaredb generate [--rules R] [--max-seeds N | --game K] [--pits P] "
                    "[--dir DIR] [--threads T] "
                    "[--compact] [--bounds] [--checkpoint-minutes M] [--memory SIZE] "
                    "[--mode auto|in-memory|streamed|streamed-4bit|streamed-2bit] [--plan [--disk "
                    "SIZE] [--rates FILE]]",
                    opts, {}, vm))
        return false;
    o.game_given = vm.count("game") > 0;
    o.max_seeds_given = !vm["max-seeds"].defaulted();
    return true;
}

// The levels to build: 0..--max-seeds, or those of a game of --game seeds per pit (then
// o.max_seeds becomes its largest level).
GameLevels wanted_levels(GenerateOptions& o) {
    if (o.max_seeds < 0 || o.max_seeds > kMaxSeeds)
        throw UsageError("--max-seeds must be between 0 and 48, got " +
                         std::to_string(o.max_seeds));
    if (!o.game_given) return GameLevels::up_to(o.max_seeds, o.pits);
    if (o.max_seeds_given)
        throw UsageError("--game K builds the levels up to " + std::to_string(2 * o.pits) +
                         "K; give it or --max-seeds, not both");
    const int largest = kMaxSeeds / (2 * o.pits);
    if (o.game < 1 || o.game > largest)
        throw UsageError("--game must be between 1 and " + std::to_string(largest) +
                         " (seeds per pit" +
                         (o.pits == 6 ? "" : " on " + std::to_string(o.pits) + " pits a side") +
                         ": at most 48 seeds), got " + std::to_string(o.game));
    const GameLevels wanted = GameLevels::of_game(o.game, o.pits);
    o.max_seeds = wanted.max_level;
    return wanted;
}

// "levels 0..N, directory D", with the level a game leaves out and the board if not 6.
std::string levels_text(const GenerateOptions& o, const GameLevels& wanted) {
    return (wanted.skipped < 0 ? "levels 0.." + std::to_string(o.max_seeds)
                               : "levels 0.." + std::to_string(wanted.skipped - 1) + " and " +
                                     std::to_string(o.max_seeds) + " (a game of " +
                                     std::to_string(o.game) + " seeds per pit)") +
           (o.pits == 6 ? "" : ", a board of " + std::to_string(o.pits) + " pits a side") +
           ", directory " + o.dir;
}

// Checks what holds in every mode (UsageError) and resolves the run's settings.
GenerateRun validate(GenerateOptions& o) {
    const Rules rules = rules_from_name(o.rules_name);
    require_pits(o.pits);
    // One board a directory: --pits must agree with the level files already there.
    resolve_pits(DatabaseOptions{o.dir, o.rules_name, o.pits});
    const GameLevels wanted = wanted_levels(o);
    if (o.bounds && o.compact) throw UsageError("--compact applies to value files, not --bounds");
    if (!(o.checkpoint_minutes >= 0 || o.checkpoint_minutes == -1))
        throw UsageError("--checkpoint-minutes must be >= 0, or -1 for no checkpoints");
    // --memory is per rank; the default shares the node's memory between its ranks.
    const MemoryBudget budget = resolve_memory_budget(o.memory, MpiJob::current_ranks_on_node());
    if (o.pits != 6 && o.compact) throw UsageError("--compact is for the 6-pit board only");
    if (o.pits > kMaxBoundsPitsPerSide && o.bounds)
        throw UsageError(
            "--bounds is for boards of up to " + std::to_string(kMaxBoundsPitsPerSide) +
            " pits a side (the bounds solver's move counter), not " + std::to_string(o.pits));
    return {{o.dir, rules, o.threads, o.checkpoint_minutes, o.pits, wanted},
            budget,
            levels_text(o, wanted)};
}

// Value levels split between the ranks of `job`: every level streamed.
int run_distributed(const GenerateOptions& o, const GenerateRun& run, MpiJob& job) {
    if (o.pits != 6)
        throw UsageError("under mpirun the board is the 6-pit one; build --pits " +
                         std::to_string(o.pits) + " in one process");
    if (o.bounds || o.compact)
        throw UsageError(std::string(o.bounds ? "--bounds" : "--compact") +
                         " is built in one process only; run it without mpirun");
    if (o.mode != "auto" && o.mode != "streamed")
        throw UsageError("under mpirun every level is built in distributed (streamed) mode; "
                         "--mode " +
                         o.mode + " is for one process");
    // Every rank checks its own memory before anything is written.
    const int rank = job.rank(), ranks = job.ranks();
    check_memory(o.max_seeds, distributed_bytes(o.max_seeds, rank, ranks, kMinRequestBytes),
                 "distributed mode on rank " + std::to_string(rank) + " of " +
                     std::to_string(ranks) + (rank == 0 ? ", which writes each level" : ""),
                 run.budget);
    std::unique_ptr<db::DirectoryLock> lock;
    if (rank == 0) lock = prepare_output_directory(o.dir);
    job.broadcast(0); // the directory exists before any rank looks into it
    const auto builder = distributed_levels(run.settings, job, run.budget);
    return run_levels(*builder, run.settings.levels,
                      "owaredb generate: rules " + run.settings.rules.name + ", " + run.levels +
                          ", " + std::to_string(ranks) + " MPI ranks x " +
                          std::to_string(o.threads) + " threads",
                      "levels", o.threads);
}

// Value levels (in memory or streamed, as the plan says) or bound levels, in this process.
int run_in_process(const GenerateOptions& o, const GenerateRun& run) {
    ModePlan plan(o.mode, run.budget, o.pits, kBuildFootprint);
    plan.set_build_threads(o.threads);
    if (o.bounds) {
        if (o.mode == "streamed" || o.mode == "streamed-4bit" || o.mode == "streamed-2bit")
            throw UsageError("--bounds is built in memory only; --mode " + o.mode +
                             " is for value files");
        // Working state 2 bytes per position, smaller levels 2 bytes (both bounds).
        check_memory(o.max_seeds, in_memory_bytes(o.max_seeds, 2, 2, o.pits),
                     "in-memory mode (bound levels up to " + std::to_string(o.max_seeds - 1) +
                         " are kept; bounds have no streamed mode)",
                     run.budget);
    } else {
        check_plan(plan, o.max_seeds);
        if (o.compact && plan.streamed(o.max_seeds))
            throw UsageError("--compact needs every level in memory, and level " +
                             std::to_string(o.max_seeds) +
                             " is streamed: drop --compact, or give more --memory");
    }
    const auto lock = prepare_output_directory(o.dir);
    // With checkpoints, a signal stops the run at the next safe point with the level's work
    // saved; without, it ends the run at once, as it always did.
    std::optional<StopSignals> stop;
    if (o.checkpoint_minutes >= 0)
        stop.emplace("owaredb generate: stopping at the next safe point, once the level's "
                     "checkpoint is saved (signal again to stop at once)");
    const std::string head =
        "owaredb generate: " + std::string(o.bounds ? "bounds (gM, gN), " : "") + "rules " +
        run.settings.rules.name + ", " + run.levels + ", " + std::to_string(o.threads) +
        " threads" + (o.compact ? ", compact (capture-bounded) files" : "");
    const auto builder =
        o.bounds ? bound_levels(run.settings) : value_levels(run.settings, plan, o.compact);
    return run_levels(*builder, run.settings.levels, head, o.bounds ? "bound levels" : "levels",
                      o.threads);
}

// --plan: what run_in_process() would choose and check, printed; nothing is written.
int run_plan(const GenerateOptions& o, const GenerateRun& run) {
    if (o.bounds) throw UsageError("--plan plans value levels; drop --bounds");
    ModePlan plan(o.mode, run.budget, o.pits, kBuildFootprint);
    plan.set_build_threads(o.threads);
    return print_build_plan({"rules " + run.settings.rules.name + ", " + run.levels, o.dir, o.disk,
                             o.rates, run.settings.levels, o.checkpoint_minutes >= 0, o.threads,
                             run.settings.rules},
                            plan);
}

} // namespace

int cmd_generate(const Args& args) {
    GenerateOptions o;
    if (!parse_generate_options(args, o)) return 0;
    if (!o.plan && !o.disk.empty()) throw UsageError("--disk is for --plan");
    if (!o.plan && !o.rates.empty()) throw UsageError("--rates is for --plan");
    const GenerateRun run = validate(o);
    if (o.plan) return run_plan(o, run);
    if (MpiJob* job = MpiJob::current()) return run_distributed(o, run, *job);
    return run_in_process(o, run);
}

} // namespace owaredb::cli
