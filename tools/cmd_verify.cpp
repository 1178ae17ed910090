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
// (with_oware_game), and the start positions' values are read through the probe library
// on every board. Romein & Bal's published files are of the standard board only.
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

// What the value check of a directory carries from level to level: where the values
// come from, the threads, which levels are held in memory and the levels held (levels[k]
// = level k, while the plan keeps them), and the progress file (null without one).
struct ValueCheck {
    const LevelStore& source;
    int threads;
    LevelModePlan& plan;
    std::vector<ValueArray> levels;
    VerifyRecord* record;
};

// The first position of a level whose stored value its moves contradict (the level's size
// when there is none), that stored value and the value its moves give.
struct Mismatch {
    uint64_t index;
    int stored = 0, moves = 0;
};

// The value that position `index` of level n gets from its moves, its children's values
// read by `value_of(level, rank)`.
template <class ValueOf>
int moves_value(const LevelStore& source, int n, uint64_t index, ValueOf&& value_of) {
    return with_oware_game(source.rules(), source.pits(), [&](const auto& game) {
        using State = typename std::decay_t<decltype(game)>::State;
        return bellman_value(game, n, game.unrank(n, index), [&](int level, const State& child) {
            return int(value_of(level, game.rank(child)));
        });
    });
}

bool load_unchecked(int n, ValueCheck& c);

// The first mismatch of level n from position `start` on: level n streamed, or loaded
// beside levels 0..n-1 in memory, as the plan says; `progress(done, total)` is told how far
// the check is. Throws std::runtime_error for a file that cannot be read as it should.
template <class Progress>
Mismatch first_value_mismatch(int n, uint64_t start, ValueCheck& c, Progress& progress) {
    const uint64_t size = c.source.level_size(n);
    Mismatch bad{size};
    if (c.plan.streamed(n)) {
        std::vector<ValueArray>().swap(c.levels); // levels above are streamed too
        const std::unique_ptr<SmallerLevelValues> values = c.source.streamed(n);
        bad.index = first_mismatch_of_level(size, start, [&](IndexRange range) {
            return with_oware_game(c.source.rules(), c.source.pits(), [&](const auto& game) {
                return first_streamed_bellman_mismatch(
                    game, n, *values, {c.threads, range, progress}, c.plan.batch_positions());
            });
        });
        if (bad.index == size) return bad;
        auto value_of = [&](int level, uint64_t rank) {
            int8_t v = 0;
            values->read(level, std::span(&rank, 1), std::span(&v, 1));
            return v;
        };
        bad.stored = value_of(n, bad.index);
        bad.moves = moves_value(c.source, n, bad.index, value_of);
        return bad;
    }
    ValueArray values;
    if (db::Status s = c.source.load(n, values, c.levels); !s.ok())
        throw std::runtime_error(s.message());
    c.levels.push_back(std::move(values));
    bad.index = first_mismatch_of_level(size, start, [&](IndexRange range) {
        return with_oware_game(c.source.rules(), c.source.pits(), [&](const auto& game) {
            return first_bellman_mismatch(game, n, c.levels, {c.threads, range, progress});
        });
    });
    if (bad.index == size) return bad;
    auto value_of = [&](int level, uint64_t rank) { return c.levels[size_t(level)][rank]; };
    bad.stored = value_of(n, bad.index);
    bad.moves = moves_value(c.source, n, bad.index, value_of);
    return bad;
}

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

// Every value of level n against its moves, in memory (c.levels[0..n-1] held, level n
// added) or streamed as the plan says; prints the level's line. Whether all agree. With a
// progress file (c.record), what it records of level n is not checked again and what is
// found is recorded.
bool check_value_level(int n, ValueCheck& c) {
    const auto started = std::chrono::steady_clock::now();
    const double cpu_started = cpu_seconds();
    // This process's time on the level over its first `positions` (from `start`).
    auto spent = [&](uint64_t positions) {
        return CheckTime{
            positions,
            std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(),
            cpu_seconds() - cpu_started};
    };
    const uint64_t size = c.source.level_size(n);
    if (c.record && c.record->consistent(n)) {
        std::printf("level %2d: %llu values consistent (recorded in the progress file)\n", n,
                    (unsigned long long)size);
        return load_unchecked(n, c);
    }
    const uint64_t start = c.record ? std::min(c.record->consistent_prefix(n), size) : 0;
    if (start > 0)
        std::printf("level %2d: its first %llu positions are recorded consistent; checking from "
                    "there\n",
                    n, (unsigned long long)start);
    Mismatch bad{size};
    LevelCheckProgress show(n, c.plan.streamed(n), start);
    auto progress = [&](uint64_t done, uint64_t total) {
        show(done, total);
        if (c.record) c.record->record_prefix(n, start + done, spent(done));
    };
    try {
        bad = first_value_mismatch(n, start, c, progress);
        show.clear();
    } catch (const ProgressFileError&) {
        show.clear();
        throw; // the command's failure (verify_record.hpp), not a damaged level file
    } catch (const std::runtime_error& e) { // a file that cannot be read as it should
        show.clear();
        std::printf("DAMAGED %s\n", e.what());
        return false;
    }
    if (bad.index < size) {
        std::printf("MISMATCH level %d index %llu%s (%s): stored %d, but its moves give %d\n", n,
                    (unsigned long long)bad.index, c.source.where(n, bad.index).c_str(),
                    position_text(c.source.pits(), n, bad.index).c_str(), bad.stored, bad.moves);
        return false;
    }
    print_consistent(n, size, c.plan.streamed(n), spent(size - start), start > 0, c.record);
    return true;
}

// Level n below --values-from: loaded unchecked when the levels above need it in memory,
// else nothing. Whether it could be read.
bool load_unchecked(int n, ValueCheck& c) {
    if (c.plan.streamed(n)) {
        std::vector<ValueArray>().swap(c.levels); // levels above are streamed too
        return true;
    }
    ValueArray values;
    if (db::Status s = c.source.load(n, values, c.levels); !s.ok()) {
        std::printf("DAMAGED %s\n", s.message().c_str());
        return false;
    }
    c.levels.push_back(std::move(values));
    return true;
}

// What `owaredb verify` was asked.
struct VerifyOptions {
    DatabaseOptions db;
    int threads = 0;
    int values_from = 0;
    int values_up_to = kMaxSeeds;
    std::string mode, memory, progress_file;
};

// The consistency of levels --values-from..--values-up-to of `files` (those found intact)
// from c.source; the levels below --values-from are there (they are what captures reach)
// but not checked.
bool check_value_levels(const Checksums& files, ValueCheck& c, const VerifyOptions& o) {
    const int from = o.values_from;
    if (from > 0) std::printf("levels below %d: checksums only (--values-from %d)\n", from, from);
    const int checked = check_consistency(
        files, "level", o.values_up_to, c.source.pits(),
        [&](int n) { return n < from ? load_unchecked(n, c) : check_value_level(n, c); },
        [&](int k) {
            if (c.levels.size() == size_t(k)) c.levels.emplace_back(); // keeps levels[k] = level k
        });
    return files.damaged.empty() && checked >= 0;
}

// Value files: each file's own check (LevelStore::check: our checksums; the size of
// Romein & Bal's files, which have none, and each value's range as it is read), then every
// value of levels --values-from..--values-up-to against the Bellman equation, with where
// the format places a position named beside it.
bool verify_values(const LevelStore& store, const VerifyOptions& o, LevelModePlan& plan,
                   VerifyRecord* record) {
    const Checksums files = check_files([&](int n) -> std::optional<db::VerifyReport> {
        if (!store.has(n)) return std::nullopt;
        return store.check(n);
    });
    if (!files.any()) throw std::runtime_error(store.no_levels_message());
    std::printf("%s\n", store.check_summary(files.intact.size(), files.damaged.size()).c_str());
    std::fflush(stdout);
    ValueCheck check{store, o.threads, plan, {}, record};
    return check_value_levels(files, check, o);
}

bool has_bound_files(const LevelStore& store) {
    if (!store.stores_bounds()) return false;
    const BoundsDir bounds(store.dir(), store.rules(), store.pits());
    for (int n = 0; n <= kMaxSeeds; ++n)
        if (std::filesystem::exists(bounds.path(n))) return true;
    return false;
}

// The value of each start position of k seeds per pit whose level was checked (2Pk seeds
// on a board of P pits a side), read through the probe library, as a user's program would
// read it.
void print_start_values(const LevelStore& store, int up_to) {
    const int pits = store.pits(), board = 2 * pits;
    const Tablebase tb(store.dir(), store.rules().name, pits);
    for (int k = 1; board * k <= std::min(up_to, kMaxSeeds); ++k) {
        const int n = board * k;
        if (!store.has(n)) continue;
        const BoardPits start(static_cast<std::size_t>(board), static_cast<uint8_t>(k));
        const ProbeResult<int> v = tb.value(start);
        const char* plural = k == 1 ? "" : "s";
        if (!v.ok()) {
            std::printf("start position, %d seed%s per pit: %s\n", k, plural, v.message().c_str());
            continue;
        }
        const char* result = *v > 0 ? "win" : *v < 0 ? "loss" : "draw";
        std::printf("start position, %d seed%s per pit (%d seeds%s): value %+d for the first "
                    "player, a %s\n",
                    k, plural, n, board_suffix(pits).c_str(), *v, result);
    }
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

// Reads the command line into `o`; false after printing the help it asked for.
bool parse_verify_options(const Args& args, VerifyOptions& o) {
    po::options_description opts("options");
    add_database_options(opts, o.db);
    add_pits_option(opts, o.db);
    add_threads_option(opts, o.threads);
    opts.add_options()("values-up-to", po::value(&o.values_up_to)->default_value(kMaxSeeds),
                       "check the values of levels 0..N against their moves; levels above N get "
                       "their checksums checked only")(
        "values-from", po::value(&o.values_from)->default_value(0),
        "check the values of levels N..(--values-up-to) only; the levels below get their "
        "checksums checked only (a long check split over several runs)")(
        "progress-file", po::value(&o.progress_file),
        "record in FILE the levels, and the first positions of a level, found consistent "
        "(rewritten every 30 s); a rerun with the same FILE checks only the rest, as long as "
        "the level files it read are unchanged");
    add_level_mode_options(opts, "check each level's values", o.mode, o.memory);
    po::variables_map vm;
    return parse_args(args,
                      "usage: owaredb verify [--dir DIR] [--rules R] [--pits P] [--threads T] "
                      "[--values-from N] [--values-up-to N] [--mode auto|in-memory|streamed] "
                      "[--memory SIZE] [--progress-file FILE]",
                      opts, {}, vm);
}

// UsageError for options that contradict each other or the process (those that need the
// directory are checked with it).
void validate(const VerifyOptions& o) {
    if (o.values_up_to < 0)
        throw UsageError("--values-up-to must be >= 0, got " + std::to_string(o.values_up_to));
    if (o.values_from < 0 || o.values_from > o.values_up_to)
        throw UsageError("--values-from must be 0.." + std::to_string(o.values_up_to) +
                         " (--values-up-to), got " + std::to_string(o.values_from));
}

// verify over the level store of o.db.dir: the value files, then the bound files; the
// command's exit status.
int verify_directory(const VerifyOptions& o, LevelModePlan& plan) {
    const std::unique_ptr<LevelStore> store = open_store(o.db, o.threads, 0);
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
        o.progress_file, {o.db.dir, rules.name, pits, std::string(store->format())},
        {[&](int n) { return store->path(n); }, [&](int n) { return store->level_size(n); }});
    const bool values_ok = value_files || !has_bound_files(*store)
                               ? verify_values(*store, o, plan, record ? &*record : nullptr)
                               : true;
    const bool bounds_ok = !store->stores_bounds() ||
                           verify_bounds(BoundsDir(o.db.dir, rules, pits), o.threads, bound_files);
    const bool ok = values_ok && bounds_ok;
    if (ok && value_files && rank() == 0) print_start_values(*store, o.values_up_to);
    std::printf("%s\n", ok ? "verify: OK" : "verify: FAILED");
    return ok ? 0 : 1;
}

} // namespace

int cmd_verify(const Args& args) {
    VerifyOptions o;
    if (!parse_verify_options(args, o)) return 0;
    validate(o);
    LevelModePlan plan(o.mode, resolve_memory_budget(o.memory, MpiJob::current_ranks_on_node()),
                       kStreamedCheckBytesPerPosition);
    require_directory(o.db.dir);
    if (!o.progress_file.empty() && ranks() > 1)
        throw UsageError("--progress-file is for one process: under mpirun each rank checks a "
                         "slice of every level");
    if (rank() != 0 && !std::freopen("/dev/null", "w", stdout))
        throw std::runtime_error("cannot silence the standard output of rank " +
                                 std::to_string(rank()));
    return verify_directory(o, plan);
}

} // namespace owaredb::cli
