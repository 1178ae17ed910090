// owaredb generate: builds every missing level 0..N of a rule set, in increasing n.
//
// A level is built in one of two modes (generate_preflight.hpp): in memory, with every
// smaller level in memory (1 byte per position; present levels are read back from their
// files, which checks every block), or streamed, with the smaller levels read from their
// files in order and 1 byte of working state a position (retro/streamed_retrograde.hpp),
// when the in-memory build does not fit --memory. Missing levels are solved and written
// atomically. Inside a level the sweep saves its working state at safe points
// (tablebase/level_checkpoint.hpp). A killed run therefore resumes inside the level it
// was solving and ends with the same files as an uninterrupted one.
//
// With --bounds it builds the bound files (gM, gN; docs/values.md, Convention-free bounds)
// the same way, with the bounds solver (retro/bounds.hpp), beside any value files.
#include "cli/options.hpp"
#include "cli/system_stats.hpp"
#include "commands.hpp"
#include "dbformat/checkpoint.hpp"
#include "generate_distributed.hpp"
#include "generate_preflight.hpp"
#include "generate_progress.hpp"
#include "oware/oware_game.hpp"
#include "retro/bellman.hpp"
#include "retro/bounds.hpp"
#include "retro/retrograde.hpp"
#include "retro/streamed_retrograde.hpp"
#include "tablebase/bounds_dir.hpp"
#include "tablebase/database_dir.hpp"
#include "tablebase/level_checkpoint.hpp"
#include "tablebase/streamed_files.hpp"

#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <optional>

namespace owaredb::cli {

namespace {

struct LevelRow {
    int n = 0;
    uint64_t positions = 0;
    bool loaded = false; // read from an existing file rather than solved
    LevelMode mode = LevelMode::InMemory;
    double seconds = 0;       // solving (or loading) the level
    double write_seconds = 0; // compressing and writing its file
    uint64_t peak_rss = 0;
    uint64_t file_bytes = 0;
    double bits_per_position = 0;
    std::map<int, uint64_t> values;
};

void print_table(const std::vector<LevelRow>& rows) {
    std::printf("\n%5s %9s %13s %9s %12s %8s %9s %10s %8s  %s\n", "level", "mode", "positions",
                "seconds", "positions/s", "write s", "peak MiB", "file KiB", "bits/pos",
                "values (V>0 / V=0 / V<0)");
    for (const LevelRow& r : rows) {
        uint64_t win = 0, draw = 0, loss = 0;
        for (auto [v, c] : r.values) (v > 0 ? win : v == 0 ? draw : loss) += c;
        char rate[32] = "(loaded)";
        if (!r.loaded && r.seconds > 0)
            std::snprintf(rate, sizeof rate, "%.0f", static_cast<double>(r.positions) / r.seconds);
        std::printf("%5d %9s %13llu %9.2f %12s %8.2f %9.0f %10.1f %8.3f  %llu / %llu / %llu\n", r.n,
                    r.loaded ? "loaded" : mode_name(r.mode), (unsigned long long)r.positions,
                    r.seconds, rate, r.write_seconds, static_cast<double>(r.peak_rss) / (1 << 20),
                    static_cast<double>(r.file_bytes) / 1024, r.bits_per_position,
                    (unsigned long long)win, (unsigned long long)draw, (unsigned long long)loss);
    }
    std::printf("\nvalue distribution (value:count):\n");
    for (const LevelRow& r : rows) {
        std::printf("%5d ", r.n);
        for (auto [v, c] : r.values) std::printf(" %d:%llu", v, (unsigned long long)c);
        std::printf("\n");
    }
}

// The bound files of levels 0..max_seeds: the same loop as for values, with the bounds
// solver, 2 bytes per position of every level in memory.
// A generous estimate of a level file's size, for the free-space check: 6 bits per entry
// (files measure 1.5-4.5 bits/position) and 16 MiB for the format's overhead.
uint64_t estimated_file_bytes(int n, int entries_per_position) {
    return level_size(n) * uint64_t(entries_per_position) * 6 / 8 + (uint64_t(16) << 20);
}

bool capture_bounded(const std::filesystem::path& file) {
    db::Result<db::LevelInfo> info = db::LevelReader(file).info();
    return info.ok() && info->meta.capture_bounded;
}

// A level just solved, its checkpoint and (streamed) its exit file, to be told when the
// level's file is written.
struct SolvedLevel {
    ValueArray entries;
    LevelCheckpoint checkpoint;
    std::unique_ptr<ExitFile> exits;
    void written() {
        checkpoint.level_written();
        if (exits) exits->remove();
    }
};

LevelCheckpoint level_checkpoint(const LevelDir& db, int n, uint32_t format,
                                 double checkpoint_minutes, ProgressDisplay& display) {
    return LevelCheckpoint(db.path(n), db.meta(n), level_size(n), format, 60 * checkpoint_minutes,
                           [&display, n](const std::string& what) { display.note(n, what); });
}

// Solves level n with Solver<OwareGame> over the smaller `levels`, showing progress and
// saving checkpoints every `checkpoint_minutes` (-1: none), resuming from one if present.
template <template <class> class Solver>
SolvedLevel solve_level(const LevelDir& db, int n, const std::vector<ValueArray>& levels,
                        int threads, double checkpoint_minutes, ProgressDisplay& display) {
    std::vector<const int8_t*> smaller;
    for (const auto& l : levels) smaller.push_back(l.data());
    Solver<OwareGame> solver(db.game(), smaller, threads);
    display.level_started(n, level_size(n), LevelMode::InMemory);
    SolvedLevel solved{
        ValueArray(),
        level_checkpoint(db, n, Solver<OwareGame>::kCheckpointFormat, checkpoint_minutes, display),
        nullptr};
    solved.entries = solver.solve(
        n, [&](const LevelProgress& p) { display.update(p); }, nullptr,
        checkpoint_minutes >= 0 ? &solved.checkpoint : nullptr);
    return solved;
}

// Solves level n in streamed mode: the smaller levels are read from their files in `db`
// (each once, in order: the engine pushes their values to their capture parents), the
// exits go to the scratch file beside the level's.
SolvedLevel solve_streamed(const DatabaseDir& db, int n, int threads, double checkpoint_minutes,
                           ProgressDisplay& display) {
    FileSmallerLevels smaller(db, n, threads);
    SolvedLevel solved{ValueArray(),
                       level_checkpoint(db, n,
                                        StreamedRetrogradeSolver<OwareGame>::kCheckpointFormat,
                                        checkpoint_minutes, display),
                       std::make_unique<ExitFile>(ExitFile::beside(db.path(n)))};
    StreamedRetrogradeSolver<OwareGame> solver(db.game(), smaller, *solved.exits, threads);
    display.level_started(n, level_size(n), LevelMode::Streamed);
    solved.entries = solver.solve(
        n, [&](const LevelProgress& p) { display.update(p); }, nullptr,
        checkpoint_minutes >= 0 ? &solved.checkpoint : nullptr);
    return solved;
}

// A level file that exists needs no checkpoint or exit file: those left by a run killed
// after writing the file are removed.
void remove_stale_checkpoint(const LevelDir& db, int n) {
    std::error_code ec;
    std::filesystem::remove(db::checkpoint_path(db.path(n)), ec);
    std::filesystem::remove(ExitFile::beside(db.path(n)), ec);
}

// Disk a level needs while it is built: its file, its checkpoint (the working words) and,
// streamed, its exit file (1 byte a position).
uint64_t disk_needed(int n, int entries_per_position, double checkpoint_minutes,
                     LevelMode mode = LevelMode::InMemory) {
    const uint64_t word_bytes = mode == LevelMode::InMemory ? 2 : 1;
    return estimated_file_bytes(n, entries_per_position) +
           (checkpoint_minutes >= 0 ? word_bytes * level_size(n) : 0) +
           (mode == LevelMode::Streamed ? level_size(n) : 0);
}

int generate_bounds(const Rules& rules, const std::string& dir, int max_seeds, int threads,
                    double checkpoint_minutes) {
    BoundsDir db(dir, rules);
    std::printf("owaredb generate: bounds (gM, gN), rules %s, levels 0..%d, directory %s, %d "
                "threads\n",
                rules.name.c_str(), max_seeds, dir.c_str(), threads);
    std::fflush(stdout);
    ProgressDisplay display(ProgressDisplay::work_to_do(db, max_seeds));

    struct Row {
        int n = 0;
        uint64_t positions = 0, exact = 0, file_bytes = 0, peak_rss = 0;
        bool loaded = false;
        double seconds = 0, write_seconds = 0;
    };
    std::vector<ValueArray> levels;
    std::vector<Row> rows;
    for (int n = 0; n <= max_seeds; ++n) {
        Row row;
        row.n = n;
        row.positions = level_size(n);
        reset_peak_rss();
        auto t0 = Clock::now();
        ValueArray bounds;
        db::Status loaded = db.load(n, bounds, threads);
        if (loaded.ok()) {
            row.loaded = true;
            remove_stale_checkpoint(db, n);
            row.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
            std::error_code ec;
            row.file_bytes = std::filesystem::file_size(db.path(n), ec);
        } else {
            if (loaded.code() != db::ErrorCode::NotFound)
                std::fprintf(stderr, "level %d: existing bound file unusable, rebuilding it: %s\n",
                             n, loaded.message().c_str());
            check_level_fits(n, 0, "", disk_needed(n, 2, checkpoint_minutes), dir, 0, false);
            SolvedLevel solved =
                solve_level<BoundsSolver>(db, n, levels, threads, checkpoint_minutes, display);
            bounds = std::move(solved.entries);
            row.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
            if (row.positions > (1u << 24)) display.writing();
            auto w0 = Clock::now();
            db::WriteReport report = db.save(n, bounds, threads);
            solved.written();
            display.level_finished();
            row.write_seconds = std::chrono::duration<double>(Clock::now() - w0).count();
            row.file_bytes = report.file_bytes;
            std::printf("level %2d bounds solved: %llu positions in %.2f s, %.3f bits/position "
                        "on disk\n",
                        n, (unsigned long long)row.positions, row.seconds,
                        row.positions ? 8.0 * double(row.file_bytes) / double(row.positions) : 0);
            std::fflush(stdout);
        }
        row.peak_rss = peak_rss_bytes();
        for (uint64_t i = 0; i < row.positions; ++i) {
            const BoundPair b = bound_pair(bounds.data(), i);
            row.exact += b.gm + b.gn == n;
        }
        rows.push_back(row);
        levels.push_back(std::move(bounds));
    }

    std::printf("\n%5s %13s %9s %12s %8s %9s %10s %8s %13s %7s\n", "level", "positions", "seconds",
                "positions/s", "write s", "peak MiB", "file KiB", "bits/pos", "exact", "exact%");
    double total = 0;
    for (const Row& r : rows) {
        char rate[32] = "(loaded)";
        if (!r.loaded && r.seconds > 0)
            std::snprintf(rate, sizeof rate, "%.0f", static_cast<double>(r.positions) / r.seconds);
        const double share = r.positions ? 100.0 * double(r.exact) / double(r.positions) : 0;
        std::printf("%5d %13llu %9.2f %12s %8.2f %9.0f %10.1f %8.3f %13llu %7.2f\n", r.n,
                    (unsigned long long)r.positions, r.seconds, rate, r.write_seconds,
                    static_cast<double>(r.peak_rss) / (1 << 20),
                    static_cast<double>(r.file_bytes) / 1024,
                    r.positions ? 8.0 * double(r.file_bytes) / double(r.positions) : 0,
                    (unsigned long long)r.exact, share);
        total += r.seconds + r.write_seconds;
    }
    std::printf("\ntotal: %.1f s solving, loading and writing bound levels 0..%d\n", total,
                max_seeds);
    std::printf("\nstart positions (k seeds in every pit, one ply over the bound files):\n");
    for (int k = 1; 12 * k <= max_seeds; ++k) {
        const BoundPair b = bounds_equation(
            db.game(), 12 * k, Position::start(k), [&](int level, const Position& child) {
                return bound_pair(levels[level].data(), rank(child));
            });
        std::printf("  %d per pit (%2d seeds): gM %d, gN %d%s under %s\n", k, 12 * k, b.gm, b.gn,
                    b.gm + b.gn == 12 * k ? " (exact)" : "", rules.name.c_str());
    }
    return 0;
}

// Which mode builds each level (generate --mode): `forced` if given, else in memory while
// that fits the budget and streamed from the first level where it does not. Throws, before
// anything is written, when the largest level fits in no allowed mode.
class ModePlan {
  public:
    ModePlan(const std::string& mode, uint64_t budget, bool budget_given)
        : budget_(budget), budget_given_(budget_given) {
        if (mode == "in-memory")
            forced_ = LevelMode::InMemory;
        else if (mode == "streamed")
            forced_ = LevelMode::Streamed;
        else if (mode != "auto")
            throw UsageError("--mode must be auto, in-memory or streamed, got '" + mode + "'");
    }
    LevelMode mode(int n) const {
        if (forced_) return *forced_;
        return budget_ == 0 || in_memory_bytes(n, 2, 1) <= budget_ ? LevelMode::InMemory
                                                                   : LevelMode::Streamed;
    }
    // Throws when level n does not fit in the mode it would be built in.
    void check(int n) const {
        if (mode(n) == LevelMode::InMemory)
            check_level_fits(n, in_memory_bytes(n, 2, 1),
                             "in-memory mode (levels up to " + std::to_string(n - 1) + " are kept" +
                                 (forced_ ? "; --mode streamed needs less" : "") + ")",
                             0, ".", budget_, budget_given_);
        else
            check_level_fits(n, streamed_bytes(n, 0), "streamed mode", 0, ".", budget_,
                             budget_given_);
    }

  private:
    uint64_t budget_;
    bool budget_given_;
    std::optional<LevelMode> forced_;
};

} // namespace

int cmd_generate(const Args& args) {
    std::string rules_name, dir;
    int max_seeds = 0, threads = 0;
    bool compact = false, bounds = false;
    double checkpoint_minutes = 10;
    std::string memory, mode = "auto";
    po::options_description opts("options");
    opts.add_options()("rules", po::value(&rules_name)->default_value("abapa"),
                       "rule set: abapa|awari")(
        "max-seeds", po::value(&max_seeds)->default_value(20),
        "build levels 0..N (0..48; the default finishes in a few minutes on 2 cores)")(
        "dir", po::value(&dir)->default_value("owaredb-data"), "database directory")(
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
                    "usage: owaredb generate [--rules R] [--max-seeds N] [--dir DIR] [--threads T] "
                    "[--compact] [--bounds] [--checkpoint-minutes M] [--memory SIZE] "
                    "[--mode auto|in-memory|streamed]",
                    opts, {}, vm))
        return 0;
    Rules rules = rules_from_name(rules_name);
    if (max_seeds < 0 || max_seeds > kMaxSeeds)
        throw UsageError("--max-seeds must be between 0 and 48, got " + std::to_string(max_seeds));
    if (bounds && compact) throw UsageError("--compact applies to value files, not --bounds");
    if (!(checkpoint_minutes >= 0 || checkpoint_minutes == -1))
        throw UsageError("--checkpoint-minutes must be >= 0, or -1 for no checkpoints");
    // Before anything is written: the top level must fit this machine's memory.
    uint64_t budget = memory_budget(memory.empty() ? 0 : parse_bytes("--memory", memory));
    if (MpiJob* job = MpiJob::current()) {
        // --memory is per rank; the default shares the node's memory between its ranks.
        if (memory.empty()) budget /= uint64_t(job->ranks_on_node());
        // Under mpirun every level is streamed, split between the ranks.
        if (bounds || compact)
            throw UsageError(std::string(bounds ? "--bounds" : "--compact") +
                             " is built in one process only; run it without mpirun");
        if (mode != "auto" && mode != "streamed")
            throw UsageError("under mpirun every level is built in distributed (streamed) mode; "
                             "--mode " +
                             mode + " is for one process");
        return generate_distributed(*job, rules, dir, max_seeds, threads, budget, !memory.empty());
    }
    const ModePlan plan(mode, budget, !memory.empty());
    if (bounds) {
        if (mode == "streamed")
            throw UsageError("--bounds is built in memory only; --mode streamed is for value "
                             "files");
        // Working state 2 bytes per position, smaller levels 2 bytes (both bounds).
        check_level_fits(max_seeds, in_memory_bytes(max_seeds, 2, 2),
                         "in-memory mode (bound levels up to " + std::to_string(max_seeds - 1) +
                             " are kept; bounds have no streamed mode)",
                         0, dir, budget, !memory.empty());
    } else {
        plan.check(max_seeds);
        if (compact && plan.mode(max_seeds) == LevelMode::Streamed)
            throw UsageError("--compact needs every level in memory, and level " +
                             std::to_string(max_seeds) +
                             " is streamed: drop --compact, or give more --memory");
    }
    const auto lock = prepare_output_directory(dir);
    if (bounds) return generate_bounds(rules, dir, max_seeds, threads, checkpoint_minutes);

    DatabaseDir db(dir, rules, compact);
    std::printf("owaredb generate: rules %s, levels 0..%d, directory %s, %d threads%s\n",
                rules.name.c_str(), max_seeds, dir.c_str(), threads,
                compact ? ", compact (capture-bounded) files" : "");
    std::fflush(stdout);

    ProgressDisplay display(ProgressDisplay::work_to_do(db, max_seeds));

    // The levels in memory: all of them while in-memory mode lasts, none from the first
    // streamed level on (the streamed engine reads them from their files).
    std::vector<ValueArray> levels;
    bool streaming = false;
    std::vector<LevelRow> rows;
    for (int n = 0; n <= max_seeds; ++n) {
        LevelRow row;
        row.n = n;
        row.positions = level_size(n);
        row.mode = plan.mode(n);
        if (row.mode == LevelMode::Streamed && !streaming) {
            streaming = true;
            levels.clear(); // gives their memory back
        }
        reset_peak_rss();
        auto t0 = Clock::now();
        ValueArray values;
        db::Status loaded;
        if (!streaming) {
            loaded = db.load(n, values, threads, levels);
        } else {
            // Checks every block as load() does, without keeping the level.
            db::ReaderOptions options;
            options.expect = db.expectation(n);
            db::Result<db::Histogram> h = db::LevelReader(db.path(n), options).histogram(threads);
            if (h.ok())
                for (int b = 0; b < 256; ++b)
                    if (h->counts[b]) row.values[int8_t(b)] = h->counts[b];
            loaded = h.status();
        }
        if (loaded.ok()) {
            row.loaded = true;
            remove_stale_checkpoint(db, n);
            if (compact && !capture_bounded(db.path(n)))
                std::fprintf(stderr,
                             "level %d: exact values already on disk, kept as they are (remove "
                             "the file to rewrite it compact)\n",
                             n);
        } else {
            if (loaded.code() != db::ErrorCode::NotFound)
                std::fprintf(stderr, "level %d: existing file unusable, rebuilding it: %s\n", n,
                             loaded.message().c_str());
            check_level_fits(n, 0, "", disk_needed(n, 1, checkpoint_minutes, row.mode), dir, 0,
                             false);
            if (compact && streaming)
                throw std::runtime_error("level " + std::to_string(n) +
                                         " is streamed, and --compact needs every level in "
                                         "memory: drop --compact, or give more --memory");
            SolvedLevel solved = streaming
                                     ? solve_streamed(db, n, threads, checkpoint_minutes, display)
                                     : solve_level<RetrogradeSolver>(db, n, levels, threads,
                                                                     checkpoint_minutes, display);
            values = std::move(solved.entries);
            row.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
            if (row.positions > (1u << 24)) display.writing();
            auto w0 = Clock::now();
            db::WriteReport report = db.save(n, values, threads, levels);
            solved.written();
            display.level_finished();
            row.write_seconds = std::chrono::duration<double>(Clock::now() - w0).count();
            row.file_bytes = report.file_bytes;
            row.bits_per_position = report.bits_per_position;
            std::printf("level %2d solved (%s): %llu positions in %.2f s, %.3f bits/position on "
                        "disk\n",
                        n, mode_name(row.mode), (unsigned long long)row.positions, row.seconds,
                        row.bits_per_position);
            std::fflush(stdout);
            row.values = histogram(values);
        }
        if (row.loaded) {
            row.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
            std::error_code ec;
            row.file_bytes = std::filesystem::file_size(db.path(n), ec);
            row.bits_per_position =
                row.positions ? 8.0 * static_cast<double>(row.file_bytes) / row.positions : 0;
            if (!streaming) row.values = histogram(values);
        }
        row.peak_rss = peak_rss_bytes();
        rows.push_back(std::move(row));
        if (!streaming) levels.push_back(std::move(values));
    }
    print_table(rows);
    double total = 0;
    for (const LevelRow& r : rows) total += r.seconds + r.write_seconds;
    std::printf("\ntotal: %.1f s solving, loading and writing levels 0..%d\n", total, max_seeds);

    std::printf("\nstart positions (k seeds in every pit, one ply over the databases):\n");
    ChildValues child_value(db, levels);
    for (int k = 1; 12 * k <= max_seeds; ++k) {
        Position start = Position::start(k);
        const int v = bellman_value(db.game(), 12 * k, start, child_value);
        std::printf("  %d per pit (%2d seeds): value %+d under %s\n", k, 12 * k, v,
                    rules.name.c_str());
    }
    return 0;
}

} // namespace owaredb::cli
