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

std::string board_suffix(int pits) {
    return pits == 6 ? ""
                     : ", " + std::to_string(pits) + (pits == 1 ? " pit" : " pits") + " a side";
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

// Which levels value_counts counts, and how.
struct ValueCountOptions {
    int from = 0, up_to = kMaxSeeds;
    bool all = false; // --all-configurations
    int threads = 0;
};

// The game whose levels `stored` holds (GameLevels), its missing levels below the highest
// present noted on stderr: --all-configurations values positions outside the databases
// from every smaller level, so it refuses them (`all`); plain counts are per level and are
// printed, with the gap named. The level a game of k seeds per pit never reaches is no gap.
GameLevels game_of(const LevelStore& stored, const std::string& dir, bool all) {
    std::vector<int> missing, present;
    const int pits = stored.pits();
    for (int n = 0; n <= kMaxSeeds; ++n)
        if (stored.has(n)) present.push_back(n);
    const int top = present.empty() ? -1 : present.back();
    const GameLevels game =
        present.empty() ? GameLevels::up_to(-1, pits) : GameLevels::of_directory(present, pits);
    for (int n = 0; n < top; ++n)
        if (!stored.has(n) && n != game.skipped) missing.push_back(n);
    if (game.skipped >= 0)
        std::fprintf(stderr, "owaredb stats: note: level %d is %s\n", game.skipped,
                     game.why_not(game.skipped).c_str());
    if (!missing.empty()) {
        std::string names;
        for (int n : missing) names += (names.empty() ? "" : ", ") + std::to_string(n);
        const std::string what = (missing.size() == 1 ? "level " : "levels ") + names +
                                 (missing.size() == 1 ? " is" : " are") + " missing in '" + dir +
                                 "' (levels up to " + std::to_string(top) + " are there)";
        if (all)
            throw std::runtime_error(what + ": --all-configurations needs every level 0.." +
                                     std::to_string(top) + " (" +
                                     generate_command({}, pits, top, {}) + " builds them)");
        std::fprintf(stderr, "owaredb stats: note: %s\n", what.c_str());
    }
    return game;
}

// The counts of each value of the levels o.from..o.up_to that `stored` holds (every
// configuration with o.all), the levels of `game`.
std::vector<LevelCounts> value_counts(const LevelStore& stored, LevelModePlan& plan,
                                      const ValueCountOptions& o, const GameLevels& game) {
    std::vector<LevelCounts> levels;
    // Exact values of levels 0..k-1, kept when --all-configurations needs them or a
    // capture-bounded file has to be completed (both need every smaller level).
    std::vector<ValueArray> loaded;
    auto load_up_to = [&](int n) {
        while (static_cast<int>(loaded.size()) <= n) {
            const int k = static_cast<int>(loaded.size());
            if (k == game.skipped) { // no capture reaches it: keeps loaded[k] = level k
                loaded.emplace_back();
                continue;
            }
            ValueArray values;
            if (db::Status st = stored.load(k, values, loaded); !st.ok())
                throw std::runtime_error(k == n ? st.message()
                                                : "level " + std::to_string(n) +
                                                      " is capture-bounded and needs level " +
                                                      std::to_string(k) + ": " + st.message());
            loaded.push_back(std::move(values));
        }
    };
    for (int n = o.from; n <= o.up_to; ++n) {
        if (!stored.has(n)) continue;
        const bool capture_bounded = stored.capture_bounded(n);
        LevelCounts counts{n, stored.level_size(n), {}};
        // --all-configurations of a level too large for levels 0..n in memory: streamed
        // from the files (which must then be exact: a capture-bounded file is completed in
        // memory only).
        const bool streamed = o.all && plan.streamed(n);
        if (!streamed && (o.all || capture_bounded)) {
            load_up_to(n);
            std::array<uint64_t, 256> h{};
            for (int8_t v : loaded[n].span()) ++h[static_cast<uint8_t>(v)];
            for (int b = 0; b < 256; ++b)
                if (h[b]) counts.values[static_cast<int8_t>(b)] = h[b];
        } else {
            if (streamed) std::vector<ValueArray>().swap(loaded); // levels above stream too
            const db::Histogram h = stored.histogram(n);
            for (int b = 0; b < 256; ++b)
                if (uint64_t c = h.counts[b]) counts.values[static_cast<int8_t>(b)] = c;
        }
        if (o.all) {
            if (streamed) {
                const std::unique_ptr<SmallerLevelValues> files = stored.streamed(n);
                LevelCheckProgress progress(n, true);
                add_counts(counts.values,
                           with_oware_game(stored.rules(), stored.pits(), [&](const auto& game) {
                               return streamed_outside_value_counts(game, n, *files, o.threads,
                                                                    plan.batch_positions(),
                                                                    std::ref(progress));
                           }));
                progress.clear();
            } else {
                add_counts(counts.values,
                           with_oware_game(stored.rules(), stored.pits(), [&](const auto& game) {
                               return outside_value_counts(game, n, loaded, o.threads);
                           }));
            }
            // Every distribution of n seeds over the 2P pits.
            counts.positions = binomial(n + 2 * stored.pits() - 1, 2 * stored.pits() - 1);
        }
        levels.push_back(std::move(counts));
    }
    return levels;
}

} // namespace

int cmd_stats(const Args& args) {
    DatabaseOptions options;
    int threads = 0, from = 0, up_to = kMaxSeeds;
    bool json = false, all = false, bounds = false;
    std::string mode, memory;
    po::options_description opts("options");
    add_database_options(opts, options);
    add_pits_option(opts, options);
    add_threads_option(opts, threads);
    opts.add_options()("json", po::bool_switch(&json), "print JSON")(
        "all-configurations", po::bool_switch(&all),
        "count every distribution of n seeds, C(n+11,11) (C(n+2P-1,2P-1) on P pits a side), "
        "valuing those outside the databases by one ply of search (as Lincke's databases "
        "index them)")(
        "bounds", po::bool_switch(&bounds),
        "read the bound files (owaredb generate --bounds) instead of the value files: per "
        "level the exact positions (gM + gN = n) and the counts of each gM and gN")(
        "values-from", po::value(&from)->default_value(0),
        "count levels N..(--values-up-to) only (a long --all-configurations count split over "
        "several runs)")("values-up-to", po::value(&up_to)->default_value(kMaxSeeds),
                         "count levels 0..N only");
    add_level_mode_options(opts,
                           "with --all-configurations, value each level's positions outside "
                           "the databases",
                           mode, memory);
    po::variables_map vm;
    if (!parse_args(args,
                    "usage: owaredb stats [--dir DIR] [--rules R] [--pits P] [--json]\n"
                    "       owaredb stats --all-configurations [--dir DIR] [--rules R] [--pits P] "
                    "[--json] [--mode auto|in-memory|streamed] [--memory SIZE] [--values-from N] "
                    "[--values-up-to N]\n"
                    "       owaredb stats --bounds [--dir DIR] [--rules R] [--pits P] [--json]",
                    opts, {}, vm))
        return 0;
    if (up_to < 0 || up_to > kMaxSeeds)
        throw UsageError("--values-up-to must be 0.." + std::to_string(kMaxSeeds) + ", got " +
                         std::to_string(up_to));
    if (from < 0 || from > up_to)
        throw UsageError("--values-from must be 0.." + std::to_string(up_to) +
                         " (--values-up-to), got " + std::to_string(from));
    if (!all && (!vm["mode"].defaulted() || vm.count("memory")))
        throw UsageError("--mode and --memory apply to --all-configurations");
    LevelModePlan plan(mode, resolve_memory_budget(memory, MpiJob::current_ranks_on_node()),
                       kStreamedBellmanBytesPerPosition);
    require_directory(options.dir, "(see owaredb generate)");
    const std::string& dir = options.dir;
    const std::unique_ptr<LevelStore> stored = open_store(options, threads, 0);
    const int pits = stored->pits();
    const Rules& rules = stored->rules();
    const std::string& rules_name = rules.name;
    plan.set_board(pits, streamed_bellman_bytes_per_position(pits));
    if (bounds) {
        if (all) throw UsageError("--all-configurations applies to value files, not --bounds");
        if (from > 0 || up_to < kMaxSeeds)
            throw UsageError("--values-from and --values-up-to apply to value files, not --bounds");
        if (!stored->stores_bounds())
            throw UsageError("'" + dir + "' holds " + stored->values_words() + ", no bound files");
        return bounds_stats(BoundsDir(dir, rules, pits), json, threads);
    }
    const GameLevels game = game_of(*stored, dir, all);
    const std::vector<LevelCounts> levels =
        value_counts(*stored, plan, {from, up_to, all, threads}, game);
    if (levels.empty())
        throw std::runtime_error(
            "no " + rules_name + " level files in '" + dir + "'" +
            (from > 0 || up_to < kMaxSeeds
                 ? " among levels " + std::to_string(from) + ".." + std::to_string(up_to)
                 : std::string()));
    if (json)
        print_json(rules.name, pits, levels);
    else
        print_text(rules.name, pits, levels);
    return 0;
}

} // namespace owaredb::cli
