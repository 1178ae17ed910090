// owaredb bench-search: what the search above the levels built (owaredb/search.hpp) is worth.
// - Agreement: random positions of the levels just above --levels N, searched with levels
//   0..N only, against the databases' values of their own levels (which must be there):
//   how many are proven (each proven score must be the database's value), how often the
//   search's move is a best move of the databases, positions searched a second.
// - Games from the opening (a few random plies, then each game played twice, the sides
//   swapped): the search with levels 0..N against a greedy player (the largest capture,
//   the lowest pit among equals) and against the same search without any level.
#include "cli/options.hpp"
#include "commands.hpp"
#include "database_options.hpp"
#include "oware/moves.hpp"
#include "oware/ranking.hpp"
#include "owaredb/probe.hpp"
#include "owaredb/search.hpp"

#include <chrono>
#include <cstdio>
#include <ctime>
#include <random>
#include <stdexcept>

namespace owaredb::cli {

namespace {

struct Bench {
    const Tablebase& tb;
    Rules rules;
    int levels = 28;
    uint64_t nodes = 10000;
    uint64_t searched_nodes = 0;
    double seconds = 0;
};

SearchResult searched(Bench& b, const Position& p, int max_level) {
    SearchOptions o;
    o.max_nodes = b.nodes;
    o.max_level = max_level;
    o.tt_bytes = std::size_t(4) << 20;
    const ProbeResult<SearchResult> r = search(b.tb, p.pits, o);
    if (!r) throw std::runtime_error(r.message());
    b.searched_nodes += r->nodes;
    b.seconds += r->seconds;
    return *r;
}

void agreement(Bench& b, int level, int count) {
    std::mt19937_64 random(level);
    int proven = 0, wrong = 0, best = 0, over = 0;
    for (int i = 0; i < count; ++i) {
        const Position p = unrank<6>(level, random() % level_size<6>(level));
        const ProbeResult<PositionInfo> truth = b.tb.analyse(p.pits);
        if (!truth) throw std::runtime_error(truth.message());
        if (truth->terminal) continue;
        ++over;
        const SearchResult s = searched(b, p, b.levels);
        proven += s.proven;
        wrong += s.proven && s.value != truth->value;
        for (int pit : truth->best) best += pit == s.best_move;
    }
    std::printf("level %d with levels 0..%d: %d positions, %d proven (%d of them wrong), best move "
                "of the databases %d (%.1f %%)\n",
                level, b.levels, over, proven, wrong, best, 100.0 * best / std::max(over, 1));
}

// A player: the search with levels 0..max_level, or greedy.
struct Player {
    const char* name;
    bool greedy = false;
    int max_level = -1;
};

int chosen_pit(Bench& b, const Position& p, const Player& who) {
    if (!who.greedy) return searched(b, p, who.max_level).best_move;
    int pit = 0, most = -1;
    for (const Move& m : legal_moves(b.rules, p))
        if (m.captured > most) {
            most = m.captured;
            pit = m.pit + 1;
        }
    return pit;
}

// Seeds `first` ends the game with minus `second`'s, from `start` with `first` to move. Play
// that goes on for 400 plies splits the seeds left evenly (the databases' endless play).
int play(Bench& b, Position p, const Player& first, const Player& second) {
    int score = 0; // for `first`
    for (int ply = 0; ply < 400; ++ply) {
        const MoveList moves = legal_moves(b.rules, p);
        const int sign = ply % 2 ? -1 : 1;
        if (moves.empty()) return score + sign * terminal_value(p);
        const int pit = chosen_pit(b, p, ply % 2 ? second : first);
        for (const Move& m : moves)
            if (m.pit + 1 == pit) {
                score += sign * m.captured;
                p = m.child;
            }
    }
    return score;
}

// A start `plies` random moves from the opening, none of them capturing.
Position opening(const Rules& rules, std::mt19937_64& random, int plies) {
    while (true) {
        Position p = Position::start(4);
        bool quiet = true;
        for (int i = 0; i < plies && quiet; ++i) {
            const MoveList moves = legal_moves(rules, p);
            const Move& m = moves[int(random() % moves.size())];
            quiet = m.captured == 0;
            p = m.child;
        }
        if (quiet) return p;
    }
}

void match(Bench& b, const Player& a, const Player& other, int openings, int plies) {
    std::mt19937_64 random(7);
    int wins = 0, draws = 0, losses = 0;
    long total = 0;
    for (int g = 0; g < openings; ++g) {
        const Position start = opening(b.rules, random, plies);
        // The side to move after an even number of plies is the first player's.
        const int diffs[2] = {play(b, start, a, other), -play(b, start, other, a)};
        for (int d : diffs) {
            wins += d > 0;
            draws += d == 0;
            losses += d < 0;
            total += d;
        }
    }
    std::printf("%s against %s: %d games: %d won, %d drawn, %d lost; seeds %+.2f a game\n", a.name,
                other.name, 2 * openings, wins, draws, losses,
                double(total) / std::max(2 * openings, 1));
}

} // namespace

int cmd_bench_search(const Args& args) {
    DatabaseOptions db;
    int levels = 28, positions = 200, openings = 100, plies = 4;
    uint64_t nodes = 10000;
    po::options_description opts("options");
    add_database_options(opts, db);
    opts.add_options()("levels", po::value(&levels)->default_value(levels),
                       "the search reads levels 0..N (the agreement needs N+1 and N+2 too)")(
        "nodes", po::value(&nodes)->default_value(nodes), "positions a search visits")(
        "positions", po::value(&positions)->default_value(positions),
        "random positions of each of levels N+1, N+2 (0: no agreement)")(
        "openings", po::value(&openings)->default_value(openings),
        "openings, each played twice a match (0: no games)")(
        "random-plies", po::value(&plies)->default_value(plies),
        "random moves from the start that make an opening");
    po::variables_map vm;
    if (!parse_args(args,
                    "usage: owaredb bench-search [--dir DIR] [--rules R] [--levels N] [--nodes N] "
                    "[--positions N] [--openings N] [--random-plies K]",
                    opts, {}, vm))
        return 0;
    require_directory(db.dir, "(see owaredb generate)");
    const Rules rules = resolve_rules(db);
    if (plies % 2) throw UsageError("--random-plies must be even (the first player moves first)");
    Tablebase tb(db.dir, rules.name);
    Bench b{tb, rules, levels, nodes};
    const std::clock_t cpu = std::clock();
    for (int level = b.levels + 1; positions && level <= b.levels + 2; ++level)
        agreement(b, level, positions);
    if (openings) {
        match(b, {"search with levels", false, b.levels}, {"greedy", true}, openings, plies);
        match(b, {"search with levels", false, b.levels}, {"search without levels", false, -1},
              openings, plies);
    }
    // A loaded machine stretches the wall-clock time; the CPU time is the search's own.
    const double cpu_seconds = double(std::clock() - cpu) / CLOCKS_PER_SEC;
    std::printf("%llu positions searched (%llu a search) in %.2f s, %.2f s of CPU (all of the "
                "run): %.0f positions/s of CPU\n",
                static_cast<unsigned long long>(b.searched_nodes),
                static_cast<unsigned long long>(b.nodes), b.seconds, cpu_seconds,
                b.searched_nodes / std::max(cpu_seconds, 1e-9));
    return 0;
}

} // namespace owaredb::cli
