// owaredb stats: per level, the number of positions and how many have each value; with
// --bounds, from the bound files, how many are exact (gM + gN = n) and how many have each
// gM and each gN. Our files may be of any board of P pits a side (--pits, default the
// directory's); Romein & Bal's published ones are of the standard board.
#include "cli/json.hpp"
#include "cli/options.hpp"
#include "commands.hpp"
#include "database_options.hpp"
#include "level_modes.hpp"
#include "oware/ranking.hpp"
#include "owaredb/probe.hpp"
#include "retro/binomial.hpp"
#include "stored_levels.hpp"
#include "tablebase/all_configurations.hpp"
#include "tablebase/bounds_dir.hpp"
#include "tablebase/database_dir.hpp"
#include "tablebase/game_levels.hpp"
#include "tablebase/streamed_bellman.hpp"
#include "tablebase/streamed_files.hpp"

#include <omp.h>

#include <cstdio>
#include <functional>
#include <iostream>
#include <map>

namespace owaredb::cli {

namespace {

struct LevelCounts {
    int seeds = 0;
    uint64_t positions = 0;
    std::map<int, uint64_t> values;
};

// The board, where it is not the standard one: JSON gets "pits":P after "rules", text
// ", P pits a side" after the rules' name (a 6-pit directory's output is as it always was).
void print_json(const std::string& rules, int pits, const std::vector<LevelCounts>& levels) {
    Json array = Json::array();
    for (const LevelCounts& l : levels) {
        Json values = Json::object();
        for (auto [v, c] : l.values) values[std::to_string(v)] = c;
        Json level = {
            {"seeds", l.seeds}, {"positions", l.positions}, {"values", std::move(values)}};
        array.push_back(std::move(level));
    }
    if (pits == 6)
        print_json_line({{"rules", rules}, {"levels", std::move(array)}});
    else
        print_json_line({{"rules", rules}, {"pits", pits}, {"levels", std::move(array)}});
}

void print_text(const std::string& rules, int pits, const std::vector<LevelCounts>& levels) {
    std::cout << "rules " << rules << board_suffix(pits) << "\n";
    for (const LevelCounts& l : levels) {
        std::cout << "level " << l.seeds << ": " << l.positions << " positions\n ";
        for (auto [v, c] : l.values) std::cout << " " << v << ":" << c;
        std::cout << "\n";
    }
}

void add_counts(std::map<int, uint64_t>& to, const ValueCounts& counts) {
    for (int v = -kMaxSeeds; v <= kMaxSeeds; ++v)
        if (uint64_t c = counts[size_t(v + kMaxSeeds)]) to[v] += c;
}

// stats --bounds: per bound file present, positions, exact positions and the histograms of
// gM and gN. JSON: {"rules":R,"kind":"bounds","levels":[{"seeds":n,"positions":P,
// "exact":E,"gM":{"0":c,...},"gN":{...}},...]}.
int bounds_stats(const BoundsDir& db, bool json, int threads) {
    struct Counts {
        int seeds = 0;
        uint64_t positions = 0, exact = 0;
        std::map<int, uint64_t> gm, gn;
    };
    std::vector<Counts> levels;
    for (int n = 0; n <= kMaxSeeds; ++n) {
        if (!std::filesystem::exists(db.path(n))) continue;
        ValueArray bounds;
        if (db::Status st = db.load(n, bounds, threads); !st.ok())
            throw std::runtime_error(st.message());
        Counts c;
        c.seeds = n;
        c.positions = db.level_size(n);
        std::array<uint64_t, kMaxSeeds + 1> gm{}, gn{};
        for (uint64_t i = 0; i < c.positions; ++i) {
            const BoundPair b = bound_pair(bounds.data(), i);
            ++gm[b.gm];
            ++gn[b.gn];
            c.exact += b.gm + b.gn == n;
        }
        for (int v = 0; v <= n; ++v) {
            if (gm[v]) c.gm[v] = gm[v];
            if (gn[v]) c.gn[v] = gn[v];
        }
        levels.push_back(std::move(c));
    }
    if (levels.empty())
        throw std::runtime_error("no " + db.rules().name + " bound files in '" + db.dir().string() +
                                 "' (see owaredb generate --bounds)");
    if (json) {
        Json array = Json::array();
        auto histogram = [](const std::map<int, uint64_t>& h) {
            Json o = Json::object();
            for (auto [v, c] : h) o[std::to_string(v)] = c;
            return o;
        };
        for (const Counts& l : levels)
            array.push_back({{"seeds", l.seeds},
                             {"positions", l.positions},
                             {"exact", l.exact},
                             {"gM", histogram(l.gm)},
                             {"gN", histogram(l.gn)}});
        if (db.pits() == 6)
            print_json_line({{"rules", db.rules().name}, {"kind", "bounds"}, {"levels", array}});
        else
            print_json_line({{"rules", db.rules().name},
                             {"pits", db.pits()},
                             {"kind", "bounds"},
                             {"levels", array}});
        return 0;
    }
    std::cout << "rules " << db.rules().name << board_suffix(db.pits()) << ", bounds (gM, gN)\n";
    for (const Counts& l : levels) {
        char share[32];
        std::snprintf(share, sizeof share, "%.2f",
                      l.positions ? 100.0 * double(l.exact) / double(l.positions) : 0.0);
        std::cout << "level " << l.seeds << ": " << l.positions << " positions, " << l.exact
                  << " exact (" << share << "%)\n  gM:";
        for (auto [v, c] : l.gm) std::cout << " " << v << ":" << c;
        std::cout << "\n  gN:";
        for (auto [v, c] : l.gn) std::cout << " " << v << ":" << c;
        std::cout << "\n";
    }
    return 0;
}

// What `owaredb stats` was asked.
struct StatsOptions {
    DatabaseOptions db;
    int threads = 0, from = 0, up_to = kMaxSeeds;
    bool json = false, all = false, bounds = false;
    std::string mode, memory;
    bool mode_given = false; ///< --mode or --memory given
};

// Reads the command line into `o`; false after printing the help it asked for.
bool parse_stats_options(const Args& args, StatsOptions& o) {
    po::options_description opts("options");
    add_database_options(opts, o.db);
    add_pits_option(opts, o.db);
    add_threads_option(opts, o.threads);
    opts.add_options()("json", po::bool_switch(&o.json), "print JSON")(
        "all-configurations", po::bool_switch(&o.all),
        "count every distribution of n seeds, C(n+11,11) (C(n+2P-1,2P-1) on P pits a side), "
        "valuing those outside the databases by one ply of search (as Lincke's databases "
        "index them)")(
        "bounds", po::bool_switch(&o.bounds),
        "read the bound files (owaredb generate --bounds) instead of the value files: per "
        "level the exact positions (gM + gN = n) and the counts of each gM and gN")(
        "values-from", po::value(&o.from)->default_value(0),
        "count levels N..(--values-up-to) only (a long --all-configurations count split over "
        "several runs)")("values-up-to", po::value(&o.up_to)->default_value(kMaxSeeds),
                         "count levels 0..N only");
    add_level_mode_options(opts,
                           "with --all-configurations, value each level's positions outside "
                           "the databases",
                           o.mode, o.memory);
    po::variables_map vm;
    if (!parse_args(args,
                    "usage: owaredb stats [--dir DIR] [--rules R] [--pits P] [--json] "
                    "[--values-from N] [--values-up-to N]\n"
                    "       owaredb stats --all-configurations [--dir DIR] [--rules R] [--pits P] "
                    "[--json] [--mode auto|in-memory|streamed] [--memory SIZE] [--values-from N] "
                    "[--values-up-to N]\n"
                    "       owaredb stats --bounds [--dir DIR] [--rules R] [--pits P] [--json]",
                    opts, {}, vm))
        return false;
    o.mode_given = !vm["mode"].defaulted() || vm.count("memory");
    return true;
}

// UsageError for options that contradict each other (those that need the directory are
// checked with it).
void validate(const StatsOptions& o) {
    if (o.up_to < 0 || o.up_to > kMaxSeeds)
        throw UsageError("--values-up-to must be 0.." + std::to_string(kMaxSeeds) + ", got " +
                         std::to_string(o.up_to));
    if (o.from < 0 || o.from > o.up_to)
        throw UsageError("--values-from must be 0.." + std::to_string(o.up_to) +
                         " (--values-up-to), got " + std::to_string(o.from));
    if (!o.all && o.mode_given)
        throw UsageError("--mode and --memory apply to --all-configurations");
}

// stats --bounds over the directory of `stored`.
int stats_of_bounds(const StatsOptions& o, const LevelStore& stored) {
    if (o.all) throw UsageError("--all-configurations applies to value files, not --bounds");
    if (o.from > 0 || o.up_to < kMaxSeeds)
        throw UsageError("--values-from and --values-up-to apply to value files, not --bounds");
    if (!stored.stores_bounds())
        throw UsageError("'" + o.db.dir + "' holds " + stored.values_words() + ", no bound files");
    return bounds_stats(BoundsDir(o.db.dir, stored.rules(), stored.pits()), o.json, o.threads);
}

// The game whose levels `stored` holds (GameLevels), its missing levels below the highest
// present noted on stderr: --all-configurations values positions outside the databases
// from every smaller level, so it refuses them (`all`); plain counts are per level and are
// printed, with the gap named. The level a game of k seeds per pit never reaches is no gap.
GameLevels game_of(const LevelStore& stored, const std::string& dir, bool all) {
    std::vector<int> missing;
    const int pits = stored.pits();
    const std::vector<int> present = stored.levels();
    const int top = present.empty() ? -1 : present.back();
    const GameLevels game =
        present.empty() ? GameLevels::up_to(-1, pits) : GameLevels::of_directory(present, pits);
    for (int n = 0; n < top; ++n)
        if (!stored.has(n) && n != game.skipped) missing.push_back(n);
    if (game.skipped >= 0)
        std::fprintf(stderr, "owaredb stats: note: level %d is %s\n", game.skipped,
                     game.why_not(game.skipped).c_str());
    if (missing.empty()) return game;
    std::string names;
    for (int n : missing) names += (names.empty() ? "" : ", ") + std::to_string(n);
    const std::string what = (missing.size() == 1 ? "level " : "levels ") + names +
                             (missing.size() == 1 ? " is" : " are") + " missing in '" + dir +
                             "' (levels up to " + std::to_string(top) + " are there)";
    if (all)
        throw std::runtime_error(what + ": --all-configurations needs every level 0.." +
                                 std::to_string(top) + " (" + generate_command({}, pits, top, {}) +
                                 " builds them)");
    std::fprintf(stderr, "owaredb stats: note: %s\n", what.c_str());
    return game;
}

// What the value counts of a directory carry from level to level: the options, the levels,
// which levels are held in memory, and the exact values of levels 0..k-1, kept when
// --all-configurations needs them or a capture-bounded file has to be completed (both need
// every smaller level).
struct ValueStats {
    const StatsOptions& o;
    const LevelStore& stored;
    GameLevels game;
    LevelModePlan& plan;
    std::vector<ValueArray> loaded;
};

// Loads levels up to n into s.loaded (those not there yet).
void load_up_to(int n, ValueStats& s) {
    while (static_cast<int>(s.loaded.size()) <= n) {
        const int k = static_cast<int>(s.loaded.size());
        if (k == s.game.skipped) { // no capture reaches it: keeps loaded[k] = level k
            s.loaded.emplace_back();
            continue;
        }
        ValueArray values;
        if (db::Status st = s.stored.load(k, values, s.loaded); !st.ok())
            throw std::runtime_error(k == n ? st.message()
                                            : "level " + std::to_string(n) +
                                                  " is capture-bounded and needs level " +
                                                  std::to_string(k) + ": " + st.message());
        s.loaded.push_back(std::move(values));
    }
}

// --all-configurations: adds to `counts` the values of level n's positions outside the
// databases (one ply over levels 0..n, streamed from the files or in memory), and makes its
// positions every distribution of n seeds over the 2P pits.
void add_outside_counts(int n, bool streamed, ValueStats& s, LevelCounts& counts) {
    const LevelStore& stored = s.stored;
    const int pits = stored.pits();
    if (streamed) {
        const std::unique_ptr<SmallerLevelValues> files = stored.streamed(n);
        LevelCheckProgress progress(n, true);
        add_counts(counts.values, with_oware_game(stored.rules(), pits, [&](const auto& game) {
                       return streamed_outside_value_counts(game, n, *files, s.o.threads,
                                                            s.plan.batch_positions(),
                                                            std::ref(progress));
                   }));
        progress.clear();
    } else {
        add_counts(counts.values, with_oware_game(stored.rules(), pits, [&](const auto& game) {
                       return outside_value_counts(game, n, s.loaded, s.o.threads);
                   }));
    }
    counts.positions = binomial(n + 2 * pits - 1, 2 * pits - 1);
}

// The counts of level n (present): its values' histogram, read from the file or from the
// level in memory (a capture-bounded file is completed in memory only), with
// --all-configurations the positions outside the databases too.
LevelCounts level_counts(int n, ValueStats& s) {
    const bool capture_bounded = s.stored.capture_bounded(n);
    LevelCounts counts{n, s.stored.level_size(n), {}};
    // --all-configurations of a level too large for levels 0..n in memory: streamed from
    // the files (which must then be exact: a capture-bounded file is completed in memory
    // only).
    const bool streamed = s.o.all && s.plan.streamed(n);
    if (!streamed && (s.o.all || capture_bounded)) {
        load_up_to(n, s);
        std::array<uint64_t, 256> h{};
        for (int8_t v : s.loaded[n].span()) ++h[static_cast<uint8_t>(v)];
        for (int b = 0; b < 256; ++b)
            if (h[b]) counts.values[static_cast<int8_t>(b)] = h[b];
    } else {
        if (streamed) std::vector<ValueArray>().swap(s.loaded); // levels above stream too
        const db::Histogram h = s.stored.histogram(n);
        for (int b = 0; b < 256; ++b)
            if (uint64_t c = h.counts[b]) counts.values[static_cast<int8_t>(b)] = c;
    }
    if (s.o.all) add_outside_counts(n, streamed, s, counts);
    return counts;
}

// stats of the value files (plain counts, or --all-configurations) of `stored`.
int stats_of_values(const StatsOptions& o, const LevelStore& stored, LevelModePlan& plan) {
    ValueStats s{o, stored, game_of(stored, o.db.dir, o.all), plan, {}};
    std::vector<LevelCounts> levels;
    for (int n = o.from; n <= o.up_to; ++n)
        if (stored.has(n)) levels.push_back(level_counts(n, s));
    if (levels.empty())
        throw std::runtime_error(
            "no " + stored.rules().name + " level files in '" + o.db.dir + "'" +
            (o.from > 0 || o.up_to < kMaxSeeds
                 ? " among levels " + std::to_string(o.from) + ".." + std::to_string(o.up_to)
                 : std::string()));
    if (o.json)
        print_json(stored.rules().name, stored.pits(), levels);
    else
        print_text(stored.rules().name, stored.pits(), levels);
    return 0;
}

} // namespace

int cmd_stats(const Args& args) {
    StatsOptions o;
    if (!parse_stats_options(args, o)) return 0;
    validate(o);
    LevelModePlan plan(o.mode, resolve_memory_budget(o.memory, MpiJob::current_ranks_on_node()),
                       kStreamedBellmanBytesPerPosition);
    require_directory(o.db.dir, "(see owaredb generate)");
    const std::unique_ptr<LevelStore> stored = open_store(o.db, o.threads, 0);
    plan.set_board(stored->pits(), streamed_bellman_bytes_per_position(stored->pits()));
    if (o.bounds) return stats_of_bounds(o, *stored);
    return stats_of_values(o, *stored, plan);
}

} // namespace owaredb::cli
