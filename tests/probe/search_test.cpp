// The search (owaredb/search.hpp) against the databases where the truth is known: levels
// 0..12 of both rule sets solved in the test; positions of levels 11 and 12 searched with
// levels 0..10 only (SearchOptions::max_level), every proven score equal to the database's
// value; small levels searched with no database at all; the end-of-game rules by hand.
#include "dbformat/writer.hpp"
#include "oware/oware_game.hpp"
#include "owaredb/probe.hpp"
#include "owaredb/search.hpp"
#include "quick.hpp"
#include "retro/solve_in_memory.hpp"
#include "temp_dir.hpp"

#include <doctest/doctest.h>

#include <map>
#include <random>

using namespace owaredb;

namespace {

constexpr int kBuilt = 10; // the levels a search may read
constexpr int kTop = 12;   // the levels the truth comes from

struct Levels {
    test::TempDir dir;
    Tablebase tb;

    Levels(const Rules& rules, int top) : tb(dir.path(), rules.name) {
        const std::vector<ValueArray> levels = solve_in_memory(OwareGame(rules), top, 2);
        for (int n = 0; n <= top; ++n)
            db::write_level(db::level_path(dir.path(), rules.name, n),
                            {rules.name, rules.knob_bytes(6), uint32_t(n), level_size<6>(n)},
                            levels[n].span(), db::WriterOptions{.threads = 2});
    }
};

// Levels 0..top of a rule set, solved once.
const Levels& levels(const std::string& rules, int top = kTop) {
    static std::map<std::pair<std::string, int>, std::unique_ptr<Levels>> made;
    auto& l = made[{rules, top}];
    if (!l) l = std::make_unique<Levels>(*Rules::by_name(rules), top);
    return *l;
}

SearchOptions budget(uint64_t nodes, int max_level) {
    SearchOptions o;
    o.max_nodes = nodes;
    o.max_level = max_level;
    o.tt_bytes = 1 << 20;
    return o;
}

// Whether `pit` is a best move of `p` by the databases.
bool best_by_database(const Tablebase& tb, const Pits& p, int pit) {
    const ProbeResult<PositionInfo> info = tb.analyse(p);
    REQUIRE(info.ok());
    for (int b : info->best)
        if (b == pit) return true;
    return false;
}

struct Tally {
    int searched = 0, proven = 0, best = 0;
};

// Searches `count` positions of level n with levels 0..kBuilt; every proven score must be
// the database's value.
Tally above_built(const Tablebase& tb, int n, int count, uint64_t nodes) {
    std::mt19937_64 random(n);
    Tally t;
    for (int i = 0; i < count; ++i) {
        const Position p = unrank<6>(n, random() % level_size<6>(n));
        const ProbeResult<SearchResult> s = search(tb, p.pits, budget(nodes, kBuilt));
        REQUIRE(s.ok());
        const int truth = *tb.value(p.pits);
        ++t.searched;
        if (s->best_move == 0) {
            CHECK(s->value == truth); // the game is over: the rule set's value
            continue;
        }
        if (s->proven) {
            ++t.proven;
            CHECK_MESSAGE(s->value == truth, to_string(p));
            CHECK(best_by_database(tb, p.pits, s->best_move));
        }
        t.best += best_by_database(tb, p.pits, s->best_move);
    }
    return t;
}

} // namespace

TEST_CASE("above the levels built: proven scores are the databases' values") {
    const int count = test::quick() ? 20 : 60;
    for (const char* rules : {"awari", "abapa"}) {
        const Tablebase& tb = levels(rules).tb;
        for (int n = kBuilt + 1; n <= kTop; ++n) {
            const Tally t = above_built(tb, n, count, 4000);
            MESSAGE(std::string(rules) << " level " << n << ": " << t.proven << " of " << t.searched
                                       << " proven, best move of the databases " << t.best);
            // Some are proven (every reply reaches a capture within the horizon), and the
            // search's move is mostly one of the databases' best.
            CHECK(t.proven > 0);
            CHECK(t.best * 10 >= t.searched * 6);
        }
    }
}

TEST_CASE("no database at all: small levels searched to the end agree where proven") {
    for (const char* rules : {"awari", "abapa"}) {
        const Tablebase& tb = levels(rules, 4).tb;
        int proven = 0, total = 0;
        for (int n = 1; n <= 4; ++n)
            for (uint64_t r = 0; r < level_size<6>(n); r += 3) {
                const Position p = unrank<6>(n, r);
                const ProbeResult<SearchResult> s = search(tb, p.pits, budget(3000, -1));
                REQUIRE(s.ok());
                ++total;
                if (!s->proven) continue;
                ++proven;
                CHECK_MESSAGE(s->value == *tb.value(p.pits), rules << " " << to_string(p));
            }
        MESSAGE(std::string(rules)
                << ": " << proven << " of " << total << " proven without databases");
        CHECK(proven * 3 > total);
    }
}

TEST_CASE("the end of the game, by hand, without databases") {
    struct Case {
        const char* rules;
        Pits p;
        int move, value;
    };
    const Case cases[] = {
        // The side to move has no seeds: the opponent takes them (both rule sets).
        {"abapa", {0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0}, 0, -1},
        {"awari", {0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0}, 0, -1},
        // No move feeds the empty opponent: abapa ends the game, awari plays the move; the
        // mover takes the seed either way.
        {"abapa", {1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, 0, 1},
        {"awari", {1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, 1, 1},
        // A grand slam (pit 6 takes 2 + 2): abapa captures nothing, and the opponent,
        // unable to feed, takes the four; awari's only move captures them all.
        {"abapa", {0, 0, 0, 0, 0, 2, 1, 1, 0, 0, 0, 0}, 6, -4},
        {"awari", {0, 0, 0, 0, 0, 2, 1, 1, 0, 0, 0, 0}, 6, 4},
    };
    for (const Case& c : cases) {
        const Tablebase& tb = levels(c.rules, 4).tb;
        const ProbeResult<SearchResult> s = search(tb, c.p, budget(1000, -1));
        REQUIRE(s.ok());
        CAPTURE(c.rules);
        CAPTURE(position_text(c.p));
        CHECK(s->proven);
        CHECK(s->best_move == c.move);
        CHECK(s->value == c.value);
        CHECK(s->value == *tb.value(c.p));
    }
}

TEST_CASE("a node budget gives the same answer every time; errors are values") {
    const Tablebase& tb = levels("awari").tb;
    const Pits start{4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4};
    const ProbeResult<SearchResult> a = search(tb, start, budget(20000, kBuilt));
    const ProbeResult<SearchResult> b = search(tb, start, budget(20000, kBuilt));
    REQUIRE(a.ok());
    REQUIRE(b.ok());
    CHECK(!a->proven);
    CHECK(a->depth >= 2);
    CHECK(a->best_move == b->best_move);
    CHECK(a->value == b->value);
    CHECK(a->nodes == b->nodes);
    CHECK(a->pv == b->pv);
    REQUIRE(a->moves.size() == 6);
    for (std::size_t i = 0; i < 6; ++i) {
        CHECK(a->moves[i].value == b->moves[i].value);
        CHECK(a->moves[i].value <= a->value);
    }
    CHECK(a->pv.front() == a->best_move);
    // In a built level every move is read: proven at one ply, the databases' answer.
    const Pits small{1, 0, 2, 0, 1, 0, 0, 2, 0, 1, 0, 1};
    const ProbeResult<SearchResult> s = search(tb, small, budget(1000, kBuilt));
    REQUIRE(s.ok());
    CHECK(s->proven);
    CHECK(s->depth == 1);
    CHECK(s->value == *tb.value(small));
    SearchOptions none = budget(0, kBuilt);
    CHECK(search(tb, start, none).status() == ProbeStatus::InvalidPosition);
    const std::vector<uint8_t> short_position(11, 1);
    CHECK(search(tb, short_position, budget(100, kBuilt)).status() == ProbeStatus::InvalidPosition);
    Tablebase unknown(tb.directory(), "chess");
    CHECK(search(unknown, start, budget(100, kBuilt)).status() == ProbeStatus::InvalidRules);
}
