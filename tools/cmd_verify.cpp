// owaredb verify: every checksum of every level file, then the Bellman consistency of
// every stored value against the stored levels:
//   V(p) == max over legal moves (captured - V(child)), or the terminal value,
// recomputed in parallel from the files alone. The first mismatch is reported.
//
// Bound files (<rules>-NN.bounds.owdb) in the directory are checked the same way: every
// checksum, then every stored pair against its equations over the stored bound levels,
//   gM(p) == max over moves (captured + gN(child)), gN(p) == min over moves gM(child),
// or the terminal split. This is a necessary condition only: gM, gN are the LEAST fixed
// point of these equations, and a larger fixed point (e.g. one crediting a cycle to a
// side) would pass it too.
//
// Under mpirun (docs/distributed.md) the ranks share the work: the files' checksums are
// split between them, and every level's consistency check too (each rank checks its slice
// of the level, the first mismatch is the smallest of theirs); rank 0 prints the report.
//
// The value check runs level by level in one of two modes (--mode): in memory (levels
// 0..n loaded, 1 byte a position each, on every rank), or streamed (no level in memory:
// the moves of a batch of positions are sorted and their values read from the files in
// order, tablebase/bellman_check.hpp), which needs memory for its batch only. auto: in
// memory while levels 0..n fit --memory, streamed from the first level that does not.
//
// Our files may be of any board of P pits a side (--pits, default the directory's; a
// directory holds one board): the checks run on BasicOwareGame<P>, chosen once per check
// (with_oware_game). Romein & Bal's published files are of the standard board only.
#include "cli/options.hpp"
#include "cli/system_stats.hpp"
#include "commands.hpp"
#include "database_options.hpp"
#include "level_modes.hpp"
#include "mpi_job.hpp"
#include "oware/ranking.hpp"
#include "owaredb/probe.hpp"
#include "retro/bellman.hpp"
#include "stored_levels.hpp"
#include "tablebase/bellman_check.hpp"
#include "tablebase/bounds_dir.hpp"
#include "tablebase/database_dir.hpp"
#include "tablebase/game_levels.hpp"
#include "tablebase/streamed_files.hpp"
#include "verify_record.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>

namespace owaredb::cli {

namespace {

// "UNREADABLE" for a file the system would not let us read (permissions, a directory in
// its place), "DAMAGED" for one whose bytes are wrong.
const char* label(const db::Status& s) {
    return s.code() == db::ErrorCode::Io ? "UNREADABLE" : "DAMAGED";
}

// The level files of one kind found in the directory: which passed every checksum, and
// which did not.
struct Checksums {
    std::vector<int> intact;
    std::vector<int> damaged;
    bool any() const { return !intact.empty() || !damaged.empty(); }
};

// This process's rank and the number of ranks (0 of 1 without mpirun).
int rank() {
    return MpiJob::current_rank();
}
int ranks() {
    return MpiJob::current_ranks();
}
// The sum over the ranks (the value itself without mpirun).
uint64_t sum_over_ranks(uint64_t value) {
    return ranks() > 1 ? MpiJob::current()->sum(value) : value;
}

// Where damage is reported: stdout on rank 0, stderr on the others (whose stdout is
// silenced, so that the report is printed once).
FILE* damage_stream() {
    return rank() == 0 ? stdout : stderr;
}

// The file check of every level whose file is there (`check(n)`: nullopt for none; the
// report's message naming the file); under mpirun each rank checks the files of the levels
// n with n % ranks == rank.
Checksums check_files(const std::function<std::optional<db::VerifyReport>(int)>& check) {
    uint64_t intact = 0, damaged = 0; // bit n: level n
    for (int n = 0; n <= kMaxSeeds; ++n) {
        if (n % ranks() != rank()) continue;
        const std::optional<db::VerifyReport> r = check(n);
        if (!r) continue;
        if (r->ok()) {
            intact |= uint64_t(1) << n;
            continue;
        }
        damaged |= uint64_t(1) << n;
        std::fprintf(damage_stream(), "%s %s\n", label(r->status), r->status.message().c_str());
        for (uint64_t b : r->damaged_blocks)
            std::fprintf(damage_stream(), "  block %llu\n", (unsigned long long)b);
    }
    std::fflush(damage_stream());
    // Each level is one rank's, so the sums are the unions of the ranks' sets.
    intact = sum_over_ranks(intact);
    damaged = sum_over_ranks(damaged);
    Checksums c;
    for (int n = 0; n <= kMaxSeeds; ++n) {
        if (intact >> n & 1) c.intact.push_back(n);
        if (damaged >> n & 1) c.damaged.push_back(n);
    }
    return c;
}

// The first mismatch of a level of `size` positions from position `start` on (those before
// it were found consistent by an earlier run), `first_in(range)` giving the first in a range
// (or size): under mpirun (where `start` is 0: no progress file there) each rank checks its
// slice and the smallest answer wins.
template <class FirstIn>
uint64_t first_mismatch_of_level(uint64_t size, uint64_t start, FirstIn&& first_in) {
    if (ranks() == 1) return first_in(IndexRange{start, size});
    MpiJob& job = *MpiJob::current();
    const std::vector<uint64_t> bounds = slice_bounds(size, ranks(), 64);
    const uint64_t mine = first_in(IndexRange{bounds[size_t(rank())], bounds[size_t(rank()) + 1]});
    const std::vector<uint64_t> all = job.gather(mine);
    const uint64_t first = all.empty() ? size : *std::min_element(all.begin(), all.end());
    return job.broadcast(first);
}

// Consistency, level by level from 0 while every smaller level is intact, up to level
// `up_to`: `check(n)` loads level n, checks it against levels 0..n, prints its line and
// returns whether it is consistent. A missing or damaged level leaves the levels above it
// unchecked: a failure, not a pass. Returns the number of levels found consistent, or -1
// on any failure.
// The level a game of k seeds per pit never reaches (GameLevels: levels 0..12k-2 and 12k
// there, 12k-1 missing; 2Pk and 2Pk-1 on a board of `pits` pits a side) is no gap:
// `skip(n)` is told of it instead.
template <class Check, class Skip>
int check_consistency(const Checksums& files, const char* what, int up_to, int pits, Check&& check,
                      Skip&& skip) {
    int checked = 0, n = 0;
    const GameLevels game = GameLevels::of_directory(files.intact, pits);
    for (; n <= std::min(up_to, kMaxSeeds); ++n) {
        if (n == game.skipped) {
            std::printf("%s %2d: %s, not built; no level needs it\n", what, n,
                        game.why_not(n).c_str());
            skip(n);
            continue;
        }
        if (std::find(files.intact.begin(), files.intact.end(), n) == files.intact.end()) break;
        if (!check(n)) return -1;
        ++checked;
        std::fflush(stdout);
    }
    const auto above =
        std::count_if(files.intact.begin(), files.intact.end(), [&](int k) { return k > up_to; });
    if (above > 0)
        std::printf("%ss above %d: checksums only (--values-up-to %d)\n", what, up_to, up_to);
    if (checked + above < static_cast<long>(files.intact.size())) {
        const bool damaged = std::ranges::find(files.damaged, n) != files.damaged.end();
        std::printf("FAILED: %s %d is %s, so the %ss above it could not be checked for "
                    "consistency\n",
                    what, n, damaged ? "damaged" : "missing", what);
        return -1;
    }
    return checked;
}

// Bound files: checksums, then every pair against its equations. Returns whether all is
// well; `present` says whether any bound file exists.
bool verify_bounds(const BoundsDir& db, int threads, bool& present) {
    const Checksums files = check_files([&](int n) -> std::optional<db::VerifyReport> {
        if (!std::filesystem::exists(db.path(n))) return std::nullopt;
        return db.verify(n, threads);
    });
    present = files.any();
    if (!present) return true;
    std::printf("bound checksums: %zu bound files intact, %zu damaged\n", files.intact.size(),
                files.damaged.size());
    std::fflush(stdout);
    std::vector<ValueArray> levels;
    const int checked = check_consistency(
        files, "bound level", kMaxSeeds, db.pits(),
        [&](int n) {
            ValueArray bounds;
            if (db::Status s = db.load(n, bounds, threads); !s.ok()) {
                std::printf("DAMAGED %s\n", s.message().c_str());
                return false;
            }
            levels.push_back(std::move(bounds));
            const uint64_t size = db.level_size(n);
            const uint64_t bad = first_mismatch_of_level(size, 0, [&](IndexRange range) {
                return with_oware_game(db.rules(), db.pits(), [&](const auto& game) {
                    return first_bounds_mismatch(game, n, levels, threads, range);
                });
            });
            if (bad < size) {
                const BoundPair b = bound_pair(levels[n].data(), bad);
                std::printf("MISMATCH bounds level %d index %llu (%s): stored gM %d gN %d, but its "
                            "moves give different bounds\n",
                            n, (unsigned long long)bad, position_text(db.pits(), n, bad).c_str(),
                            b.gm, b.gn);
                return false;
            }
            std::printf("bounds level %2d: %llu pairs consistent with their moves\n", n,
                        (unsigned long long)size);
            return true;
        },
        [&](int) { levels.emplace_back(); }); // keeps levels[k] = level k
    if (checked > 0)
        std::printf("(bounds consistency is a necessary condition: a larger fixed point of the "
                    "same equations would pass it too)\n");
    return files.damaged.empty() && checked >= 0;
}

bool load_unchecked(int n, const LevelStore& source, LevelModePlan& plan,
                    std::vector<ValueArray>& levels);

// Level n's line for its `size` values found consistent (`streamed` or in memory) in
// `here`; with a progress file (`record`, else null) recorded there, and for a `resumed`
// check what every run that recorded its time spent.
void print_consistent(int n, uint64_t size, bool streamed, const CheckTime& here, bool resumed,
                      VerifyRecord* record) {
    std::printf("level %2d: %llu values consistent (%s, %.1f s, CPU %.1f s", n,
                (unsigned long long)size, streamed ? "streamed" : "in memory", here.wall_seconds,
                here.cpu_seconds);
    if (record) {
        record->record_consistent(n, here);
        if (const std::optional<CheckTime> all = record->time_of(n); all && resumed)
            std::printf("; with the earlier runs %.1f s, CPU %.1f s over %llu positions",
                        all->wall_seconds, all->cpu_seconds, (unsigned long long)all->positions);
    }
    std::printf(")\n");
}

// Every value of level n against its moves, in memory (levels[0..n-1] held, level n
// added) or streamed as the plan says; prints the level's line. Whether all agree. With a
// progress file (`record`, else null), what it records of level n is not checked again
// and what is found is recorded.
bool check_value_level(int n, const LevelStore& source, int threads, LevelModePlan& plan,
                       std::vector<ValueArray>& levels, VerifyRecord* record) {
    const bool streamed = plan.streamed(n);
    const auto started = std::chrono::steady_clock::now();
    const double cpu_started = cpu_seconds();
    // This process's time on the level over its first `positions` (from `start`).
    auto spent = [&](uint64_t positions) {
        return CheckTime{
            positions,
            std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(),
            cpu_seconds() - cpu_started};
    };
    const uint64_t size = source.level_size(n);
    if (record && record->consistent(n)) {
        std::printf("level %2d: %llu values consistent (recorded in the progress file)\n", n,
                    (unsigned long long)size);
        return load_unchecked(n, source, plan, levels);
    }
    const uint64_t start = record ? std::min(record->consistent_prefix(n), size) : 0;
    if (start > 0)
        std::printf("level %2d: its first %llu positions are recorded consistent; checking from "
                    "there\n",
                    n, (unsigned long long)start);
    uint64_t bad = size;
    int stored = 0;
    LevelCheckProgress show(n, streamed, start);
    auto progress = [&](uint64_t done, uint64_t total) {
        show(done, total);
        if (record) record->record_prefix(n, start + done, spent(done));
    };
    try {
        if (streamed) {
            std::vector<ValueArray>().swap(levels); // levels above are streamed too
            const std::unique_ptr<SmallerLevelValues> values = source.streamed(n);
            bad = first_mismatch_of_level(size, start, [&](IndexRange range) {
                return with_oware_game(source.rules(), source.pits(), [&](const auto& game) {
                    return first_streamed_bellman_mismatch(game, n, *values, threads, range,
                                                           plan.batch_positions(), progress);
                });
            });
            if (bad < size) {
                int8_t v = 0;
                values->read(n, std::span(&bad, 1), std::span(&v, 1));
                stored = v;
            }
        } else {
            ValueArray values;
            if (db::Status s = source.load(n, values, levels); !s.ok())
                throw std::runtime_error(s.message());
            levels.push_back(std::move(values));
            bad = first_mismatch_of_level(size, start, [&](IndexRange range) {
                return with_oware_game(source.rules(), source.pits(), [&](const auto& game) {
                    return first_bellman_mismatch(game, n, levels, threads, range, progress);
                });
            });
            if (bad < size) stored = levels[n][bad];
        }
        show.clear();
    } catch (const ProgressFileError&) {
        show.clear();
        throw; // the command's failure (verify_record.hpp), not a damaged level file
    } catch (const std::runtime_error& e) { // a file that cannot be read as it should
        show.clear();
        std::printf("DAMAGED %s\n", e.what());
        return false;
    }
    if (bad < size) {
        std::printf("MISMATCH level %d index %llu%s (%s): stored %d, but its moves give a "
                    "different value\n",
                    n, (unsigned long long)bad, source.where(n, bad).c_str(),
                    position_text(source.pits(), n, bad).c_str(), stored);
        return false;
    }
    print_consistent(n, size, streamed, spent(size - start), start > 0, record);
    return true;
}

// Level n below --values-from: loaded unchecked when the levels above need it in memory,
// else nothing. Whether it could be read.
bool load_unchecked(int n, const LevelStore& source, LevelModePlan& plan,
                    std::vector<ValueArray>& levels) {
    if (plan.streamed(n)) {
        std::vector<ValueArray>().swap(levels); // levels above are streamed too
        return true;
    }
    ValueArray values;
    if (db::Status s = source.load(n, values, levels); !s.ok()) {
        std::printf("DAMAGED %s\n", s.message().c_str());
        return false;
    }
    levels.push_back(std::move(values));
    return true;
}

// The levels --values-from and --values-up-to name.
struct LevelRange {
    int from = 0, up_to = kMaxSeeds;
};

// The consistency of levels range.from..range.up_to of `files` (those found intact) from
// `source`; the levels below range.from are there (they are what captures reach) but not
// checked.
bool check_value_levels(const Checksums& files, const LevelStore& source, int threads,
                        LevelRange range, LevelModePlan& plan, VerifyRecord* record) {
    const int from = range.from, up_to = range.up_to;
    if (from > 0) std::printf("levels below %d: checksums only (--values-from %d)\n", from, from);
    std::vector<ValueArray> levels;
    const int checked = check_consistency(
        files, "level", up_to, source.pits(),
        [&](int n) {
            return n < from ? load_unchecked(n, source, plan, levels)
                            : check_value_level(n, source, threads, plan, levels, record);
        },
        [&](int k) {
            if (levels.size() == size_t(k)) levels.emplace_back(); // keeps levels[k] = level k
        });
    return files.damaged.empty() && checked >= 0;
}

// Value files: each file's own check (LevelStore::check: our checksums; the size of
// Romein & Bal's files, which have none, and each value's range as it is read), then every
// value of the levels of `range` against the Bellman equation, with where the format places a
// position named beside it.
bool verify_values(const LevelStore& store, int threads, LevelRange range, LevelModePlan& plan,
                   VerifyRecord* record) {
    const Checksums files = check_files([&](int n) -> std::optional<db::VerifyReport> {
        if (!store.has(n)) return std::nullopt;
        return store.check(n);
    });
    if (!files.any()) throw std::runtime_error(store.no_levels_message());
    std::printf("%s\n", store.check_summary(files.intact.size(), files.damaged.size()).c_str());
    std::fflush(stdout);
    return check_value_levels(files, store, threads, range, plan, record);
}

bool has_bound_files(const LevelStore& store) {
    if (!store.stores_bounds()) return false;
    const BoundsDir bounds(store.dir(), store.rules(), store.pits());
    for (int n = 0; n <= kMaxSeeds; ++n)
        if (std::filesystem::exists(bounds.path(n))) return true;
    return false;
}

// The value of each start position of k seeds per pit whose level was checked, read
// through the probe library, as a user's program would read it.
void print_start_values(const std::string& dir, const std::string& rules, int up_to,
                        const std::function<bool(int)>& has) {
    const Tablebase tb(dir, rules);
    for (int k = 1; 12 * k <= std::min(up_to, kMaxSeeds); ++k) {
        if (!has(12 * k)) continue;
        const ProbeResult<int> v = tb.value(Position::start(k).pits);
        const char* plural = k == 1 ? "" : "s";
        if (!v.ok()) {
            std::printf("start position, %d seed%s per pit: %s\n", k, plural, v.message().c_str());
            continue;
        }
        const char* result = *v > 0 ? "win" : *v < 0 ? "loss" : "draw";
        std::printf("start position, %d seed%s per pit (%d seeds): value %+d for the first "
                    "player, a %s\n",
                    k, plural, 12 * k, *v, result);
    }
}

// The same on a board of P != 6 pits a side (2Pk seeds), which the probe library does not
// read: the start position (every pit full, so outside the databases) valued by one ply
// of search over its children, read from the files that passed the check.
void print_board_start_values(const LevelStore& db, int up_to) {
    with_oware_game(db.rules(), db.pits(), [&](const auto& game) {
        using State = typename std::decay_t<decltype(game)>::State;
        const int board = 2 * db.pits();
        for (int k = 1; board * k <= std::min(up_to, kMaxSeeds); ++k) {
            const int n = board * k;
            if (!db.has(n)) continue;
            const char* plural = k == 1 ? "" : "s";
            int v = 0;
            try {
                const std::unique_ptr<SmallerLevelValues> files = db.streamed(n); // and level n
                v = bellman_value(game, n, State::start(k), [&](int level, const State& child) {
                    const std::array<uint64_t, 1> index{game.rank(child)};
                    std::array<int8_t, 1> value{};
                    files->read(level, index, value);
                    return int(value[0]);
                });
            } catch (const std::runtime_error& e) {
                std::printf("start position, %d seed%s per pit: %s\n", k, plural, e.what());
                continue;
            }
            const char* result = v > 0 ? "win" : v < 0 ? "loss" : "draw";
            std::printf("start position, %d seed%s per pit (%d seeds, %d pit%s a side): value %+d "
                        "for the first player, a %s\n",
                        k, plural, n, db.pits(), db.pits() == 1 ? "" : "s", v, result);
        }
    });
}

// The progress file `file` of a check of `directory` (none for an empty name), its opening
// lines printed.
std::optional<VerifyRecord> open_record(const std::string& file, VerifiedDirectory directory,
                                        const LevelFiles& files) {
    if (file.empty()) return std::nullopt;
    std::optional<VerifyRecord> record(std::in_place, file, std::move(directory), kMaxSeeds, files);
    for (const std::string& line : record->opening_lines()) std::printf("%s\n", line.c_str());
    std::fflush(stdout);
    return record;
}

} // namespace

int cmd_verify(const Args& args) {
    DatabaseOptions options;
    int threads = 0, values_from = 0, values_up_to = kMaxSeeds;
    std::string mode, memory, progress_file;
    po::options_description opts("options");
    add_database_options(opts, options);
    add_pits_option(opts, options);
    add_threads_option(opts, threads);
    opts.add_options()("values-up-to", po::value(&values_up_to)->default_value(kMaxSeeds),
                       "check the values of levels 0..N against their moves; levels above N get "
                       "their checksums checked only")(
        "values-from", po::value(&values_from)->default_value(0),
        "check the values of levels N..(--values-up-to) only; the levels below get their "
        "checksums checked only (a long check split over several runs)")(
        "progress-file", po::value(&progress_file),
        "record in FILE the levels, and the first positions of a level, found consistent "
        "(rewritten every 30 s); a rerun with the same FILE checks only the rest, as long as "
        "the level files it read are unchanged");
    add_level_mode_options(opts, "check each level's values", mode, memory);
    po::variables_map vm;
    if (!parse_args(args,
                    "usage: owaredb verify [--dir DIR] [--rules R] [--pits P] [--threads T] "
                    "[--values-from N] [--values-up-to N] [--mode auto|in-memory|streamed] "
                    "[--memory SIZE] [--progress-file FILE]",
                    opts, {}, vm))
        return 0;
    if (values_up_to < 0)
        throw UsageError("--values-up-to must be >= 0, got " + std::to_string(values_up_to));
    if (values_from < 0 || values_from > values_up_to)
        throw UsageError("--values-from must be 0.." + std::to_string(values_up_to) +
                         " (--values-up-to), got " + std::to_string(values_from));
    LevelModePlan plan(mode, resolve_memory_budget(memory, MpiJob::current_ranks_on_node()),
                       kStreamedCheckBytesPerPosition);
    require_directory(options.dir);
    if (!progress_file.empty() && ranks() > 1)
        throw UsageError("--progress-file is for one process: under mpirun each rank checks a "
                         "slice of every level");
    if (rank() != 0 && !std::freopen("/dev/null", "w", stdout))
        throw std::runtime_error("cannot silence the standard output of rank " +
                                 std::to_string(rank()));
    const std::unique_ptr<LevelStore> store = open_store(options, threads, 0);
    const int pits = store->pits();
    const Rules& rules = store->rules();
    plan.set_board(pits, streamed_check_bytes_per_position(pits));
    if (pits != 6)
        std::printf("board: %d pit%s a side (%s-%s-NN.owdb)\n", pits, pits == 1 ? "" : "s",
                    rules.name.c_str(), board_tag(pits).c_str());
    const bool value_files = !store->levels().empty();
    // A directory of bound files alone is checked as such; otherwise the value files come
    // first (an empty directory is an error there).
    bool bound_files = false;
    std::optional<VerifyRecord> record = open_record(
        progress_file, {options.dir, rules.name, pits, std::string(store->format())},
        {[&](int n) { return store->path(n); }, [&](int n) { return store->level_size(n); }});
    const bool values_ok = value_files || !has_bound_files(*store)
                               ? verify_values(*store, threads, {values_from, values_up_to}, plan,
                                               record ? &*record : nullptr)
                               : true;
    const bool bounds_ok = !store->stores_bounds() ||
                           verify_bounds(BoundsDir(options.dir, rules, pits), threads, bound_files);
    const bool ok = values_ok && bounds_ok;
    if (ok && value_files && pits == 6)
        print_start_values(options.dir, rules.name, values_up_to,
                           [&](int n) { return store->has(n); });
    else if (ok && value_files && rank() == 0)
        print_board_start_values(*store, values_up_to);
    std::printf("%s\n", ok ? "verify: OK" : "verify: FAILED");
    return ok ? 0 : 1;
}

} // namespace owaredb::cli
