// The probe library on boards of P != 6 pits a side (Tablebase(dir, rules, P), the
// functions taking pit counts, owaredb_open_board): databases of a 3-pit and a 4-pit board
// solved here in memory, every stored value probed back, every move and best move against a
// one-ply recomputation from the solver's arrays, lines of perfect play adding up to the
// value, bounds, batches, the C API, and positions or directories of the wrong board.
#include "oware/moves.hpp"
#include "oware/oware_game.hpp"
#include "oware/ranking.hpp"
#include "owaredb/probe.h"
#include "owaredb/probe.hpp"
#include "retro/bellman.hpp"
#include "retro/bounds.hpp"
#include "retro/solve_in_memory.hpp"
#include "tablebase/bounds_dir.hpp"
#include "tablebase/database_dir.hpp"

#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <span>

using namespace owaredb;
namespace fs = std::filesystem;

namespace {

constexpr int kTop = 10;

// Levels 0..kTop of a board of P pits a side, solved in memory and saved in a directory of
// their own (with the bound files when `bounds`).
template <int P> struct BoardFixture {
    fs::path dir;
    Rules rules;
    std::vector<ValueArray> levels;
    std::vector<ValueArray> bound_levels;

    BoardFixture(Rules r, bool bounds) : rules(std::move(r)) {
        dir = fs::temp_directory_path() /
              ("owaredb-board-probe-" + std::to_string(P) + "-" + std::to_string(::getpid()));
        fs::remove_all(dir);
        levels = solve_in_memory(BasicOwareGame<P>(rules), kTop, 2);
        DatabaseDir files(dir, rules, false, P);
        for (int n = 0; n <= kTop; ++n) files.save(n, levels[n], 2, {});
        if (bounds) {
            bound_levels = solve_bounds_in_memory(BasicOwareGame<P>(rules), kTop, 2);
            BoundsDir bound_files(dir, rules, P);
            for (int n = 0; n <= kTop; ++n) bound_files.save(n, bound_levels[n], 2);
        }
    }
    ~BoardFixture() { fs::remove_all(dir); }

    // The solver's value of a position of the databases.
    int stored(const BasicPosition<P>& p) const { return levels[p.seeds()][rank(p)]; }
    // The value of any position by one ply over the solver's values (terminal ones by the
    // rules), the probe library's code left out.
    int one_ply(const BasicPosition<P>& p) const {
        return bellman_value(BasicOwareGame<P>(rules), p.seeds(), p,
                             [&](int, const BasicPosition<P>& c) { return stored(c); });
    }
};

const BoardFixture<4>& four() {
    static BoardFixture<4> f(Rules::awari(), false);
    return f;
}
const BoardFixture<3>& three() {
    static BoardFixture<3> f(Rules::abapa(), true);
    return f;
}

template <int P> std::span<const uint8_t> pits_of(const BasicPosition<P>& p) {
    return p.pits;
}

// Every stored position of levels 0..kTop, one at a time and as one batch, equals the
// solver's value; a sample's moves and best moves equal a one-ply recomputation.
template <int P> void check_board(const BoardFixture<P>& f) {
    Tablebase tb(f.dir, f.rules.name, P);
    REQUIRE(tb.pits_per_side() == P);
    for (int n = 0; n <= kTop; ++n) {
        const uint64_t size = level_size<P>(n);
        uint64_t wrong = 0, wrong_moves = 0;
        std::vector<uint8_t> batch;
        for (uint64_t i = 0; i < size; ++i) {
            const BasicPosition<P> p = unrank<P>(n, i);
            batch.insert(batch.end(), p.pits.begin(), p.pits.end());
            ProbeResult<int> v = tb.value(pits_of(p));
            wrong += !v.ok() || *v != f.levels[n][i];
            if (i % 5 != 0) continue;
            ProbeResult<BoardPositionInfo> info = tb.analyse(pits_of(p));
            const BasicMoveList<P> moves = legal_moves(f.rules, p);
            bool same = info.ok() && info->value == f.levels[n][i] && info->seeds == n &&
                        int(info->moves.size()) == moves.size() && info->terminal == moves.empty();
            int best = -1000;
            for (int k = 0; same && k < moves.size(); ++k) {
                const BoardMoveInfo& m = info->moves[k];
                const int want = moves[k].captured - f.stored(moves[k].child);
                best = std::max(best, want);
                same = m.pit == moves[k].pit + 1 && m.captured == moves[k].captured &&
                       m.value == want &&
                       m.child == BoardPits(moves[k].child.pits.begin(), moves[k].child.pits.end());
            }
            std::vector<int> best_pits;
            for (int k = 0; same && k < moves.size(); ++k)
                if (moves[k].captured - f.stored(moves[k].child) == best)
                    best_pits.push_back(moves[k].pit + 1);
            same = same && (moves.empty() || (best == info->value && best_pits == info->best));
            wrong_moves += !same;
        }
        CHECK_MESSAGE(wrong == 0, "P = " << P << ", level " << n);
        CHECK_MESSAGE(wrong_moves == 0, "P = " << P << ", level " << n);
        std::vector<ProbeResult<int>> results(size);
        tb.values(batch, results);
        uint64_t wrong_batch = 0;
        for (uint64_t i = 0; i < size; ++i)
            wrong_batch += !results[i].ok() || *results[i] != f.levels[n][i];
        CHECK_MESSAGE(wrong_batch == 0, "P = " << P << ", batch of level " << n);
    }
}

// Positions outside the databases (the side that just moved has no empty pit), such as the
// start positions, by one ply; a line of perfect play adds up to the value.
template <int P> void check_outside_and_lines(const BoardFixture<P>& f) {
    Tablebase tb(f.dir, f.rules.name, P);
    for (int k = 1; 2 * P * k <= kTop; ++k) {
        const BasicPosition<P> start = BasicPosition<P>::start(k);
        REQUIRE(!start.in_database());
        ProbeResult<int> v = tb.value(pits_of(start));
        REQUIRE(v.ok());
        CHECK(*v == f.one_ply(start));
    }
    for (int n = 1; n <= kTop; ++n)
        for (uint64_t i = 0; i < level_size<P>(n); i += 97) {
            const BasicPosition<P> p = unrank<P>(n, i);
            ProbeResult<BoardPrincipalVariation> pv = tb.principal_variation(pits_of(p));
            REQUIRE(pv.ok());
            REQUIRE((pv->end == PvEnd::GameOver || pv->end == PvEnd::EndlessPlay));
            // Captures along the line, each signed for the side to move at the start, plus
            // the seeds taken at the end (endless play counts 0).
            int total = 0, sign = 1;
            BasicPosition<P> at = p;
            for (const BoardPvStep& s : pv->steps) {
                CHECK(s.position == BoardPits(at.pits.begin(), at.pits.end()));
                const BasicMoveList<P> moves = legal_moves(f.rules, at);
                const auto m = std::find_if(moves.begin(), moves.end(),
                                            [&](const auto& m) { return m.pit + 1 == s.pit; });
                REQUIRE(m != moves.end());
                CHECK(s.captured == m->captured);
                total += sign * m->captured;
                sign = -sign;
                at = m->child;
            }
            CHECK(pv->final_position == BoardPits(at.pits.begin(), at.pits.end()));
            if (pv->end == PvEnd::GameOver) {
                CHECK(legal_moves(f.rules, at).empty());
                total += sign * terminal_value(at);
            }
            CHECK(total == f.stored(p));
        }
}

} // namespace

TEST_CASE("a 4-pit board: every stored value, moves and best moves, batches") {
    check_board(four());
}

TEST_CASE("a 3-pit board (abapa): every stored value, moves and best moves, batches") {
    check_board(three());
}

TEST_CASE("other boards: positions outside the databases by one ply, lines of perfect play") {
    check_outside_and_lines(four());
    check_outside_and_lines(three());
}

TEST_CASE("a 3-pit board's bounds: every stored position and each move's") {
    const BoardFixture<3>& f = three();
    Tablebase tb(f.dir, "abapa", 3);
    for (int n = 0; n <= kTop; ++n) {
        uint64_t wrong = 0;
        for (uint64_t i = 0; i < level_size<3>(n); ++i) {
            const BasicPosition<3> p = unrank<3>(n, i);
            const BoundPair want = bound_pair(f.bound_levels[n].data(), i);
            ProbeResult<Bounds> b = tb.bounds(pits_of(p));
            wrong += !b.ok() || b->gM != want.gm || b->gN != want.gn || b->seeds != n;
            ProbeResult<BoardBoundsInfo> info = tb.analyse_bounds(pits_of(p));
            const BasicMoveList<3> moves = legal_moves(f.rules, p);
            if (!info.ok() || int(info->moves.size()) != moves.size()) {
                ++wrong;
                continue;
            }
            for (int k = 0; k < moves.size(); ++k) {
                const BasicPosition<3>& c = moves[k].child;
                const BoundPair child = bound_pair(f.bound_levels[c.seeds()].data(), rank(c));
                wrong += info->moves[k].gM != moves[k].captured + child.gn ||
                         info->moves[k].gN != child.gm;
            }
        }
        CHECK_MESSAGE(wrong == 0, "level " << n);
        CHECK(tb.bounds_available(n));
        CHECK(tb.level_available(n));
    }
    CHECK(!tb.level_available(kTop + 1));
}

TEST_CASE("the board is the directory's with pits_per_side 0, and 6 by default") {
    const BoardFixture<4>& f = four();
    CHECK(Tablebase(f.dir, "awari", 0).pits_per_side() == 4);
    CHECK(Tablebase(f.dir, "awari").pits_per_side() == 6);
    const fs::path empty = f.dir / "empty";
    fs::create_directories(empty);
    CHECK(Tablebase(empty, "awari", 0).pits_per_side() == 6);
    fs::remove_all(empty);
}

TEST_CASE("positions and directories of the wrong board are refused, naming both") {
    const BoardFixture<4>& f = four();
    Tablebase tb(f.dir, "awari", 4);
    // 12 pit counts asked of a 4-pit tablebase: as Pits and as a span.
    const Pits twelve{1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 0};
    for (const ProbeResult<int>& r :
         {tb.value(twelve), tb.value(std::span<const uint8_t>(twelve))}) {
        CHECK(r.status() == ProbeStatus::InvalidPosition);
        CHECK(r.message().find("12 pit counts") != std::string::npos);
        CHECK(r.message().find("4 pits a side (8 pit counts)") != std::string::npos);
    }
    CHECK(tb.analyse(twelve).status() == ProbeStatus::InvalidPosition);
    CHECK(tb.principal_variation(twelve).status() == ProbeStatus::InvalidPosition);
    CHECK(tb.bounds(twelve).status() == ProbeStatus::InvalidPosition);
    const std::vector<uint8_t> seven{1, 0, 0, 1, 0, 1, 0};
    CHECK(tb.value(seven).status() == ProbeStatus::InvalidPosition);
    CHECK(tb.analyse(seven).message().find("7 pit counts") != std::string::npos);
    std::vector<ProbeResult<int>> results(2);
    tb.values(seven, results); // 7 pit counts are not two positions of 8
    CHECK(results[0].status() == ProbeStatus::InvalidPosition);
    CHECK(results[1].status() == ProbeStatus::InvalidPosition);

    // The standard board asked of a directory of 4-pit files: no level of its will be
    // there, and the position is of the wrong size for the ones that are.
    Tablebase six(f.dir, "awari");
    ProbeResult<int> r = six.value(twelve);
    CHECK(r.status() == ProbeStatus::InvalidPosition);
    CHECK(r.message().find("are for 4 pits a side (8 pit counts), not 6 pits a side (12 pit "
                           "counts)") != std::string::npos);
    CHECK(!six.level_available(3));
    // A board that is none, and a directory of two boards with the board left to it.
    for (int p : {-1, 9, 12}) {
        Tablebase none(f.dir, "awari", p);
        CHECK(none.pits_per_side() == 0);
        ProbeResult<int> v = none.value(std::vector<uint8_t>(2 * std::max(p, 1), 0));
        CHECK(v.status() == ProbeStatus::InvalidPosition);
        CHECK(v.message().find("1..8 pits a side, not " + std::to_string(p)) != std::string::npos);
        CHECK(none.value(twelve).status() == ProbeStatus::InvalidPosition);
        CHECK(!none.level_available(0));
    }
    const fs::path two = f.dir / "two";
    fs::create_directories(two);
    fs::copy_file(DatabaseDir(f.dir, f.rules, false, 4).path(0), two / "awari-p4-00.owdb");
    fs::copy_file(DatabaseDir(f.dir, f.rules, false, 4).path(0), two / "awari-p5-00.owdb");
    Tablebase both(two, "awari", 0);
    CHECK(both.pits_per_side() == 0);
    CHECK(both.value(std::vector<uint8_t>(8, 0)).message().find("several boards (4 and 5") !=
          std::string::npos);
    // Named, either board is read (a 5-pit level 0 file that is a 4-pit one is refused).
    CHECK(Tablebase(two, "awari", 4).value(std::vector<uint8_t>(8, 0)).ok());
    CHECK(Tablebase(two, "awari", 5).value(std::vector<uint8_t>(10, 0)).status() ==
          ProbeStatus::Corrupt);
    fs::remove_all(two);
}

TEST_CASE("the C API on a 4-pit board") {
    const BoardFixture<4>& f = four();
    owaredb_tablebase* tb = nullptr;
    REQUIRE(owaredb_open_board(f.dir.c_str(), "awari", 0, 0, &tb) == OWAREDB_OK);
    CHECK(owaredb_pits_per_side(tb) == 4);
    CHECK(owaredb_pits_per_side(nullptr) == 0);
    const int n = 7;
    std::vector<uint8_t> batch;
    std::vector<int> want;
    for (uint64_t i = 0; i < level_size<4>(n); i += 3) {
        const BasicPosition<4> p = unrank<4>(n, i);
        batch.insert(batch.end(), p.pits.begin(), p.pits.end());
        want.push_back(f.levels[n][i]);
        int v = 99;
        REQUIRE(owaredb_value(tb, p.pits.data(), &v, nullptr, 0) == OWAREDB_OK);
        CHECK(v == f.levels[n][i]);
        owaredb_analysis analysis{};
        REQUIRE(owaredb_moves(tb, p.pits.data(), &analysis, nullptr, 0) == OWAREDB_OK);
        const BasicMoveList<4> legal = legal_moves(f.rules, p);
        REQUIRE(analysis.count == legal.size());
        for (int k = 0; k < analysis.count; ++k)
            CHECK(analysis.moves[k].value == legal[k].captured - f.stored(legal[k].child));
        CHECK(analysis.value == f.levels[n][i]);
    }
    std::vector<int> values(want.size());
    std::vector<owaredb_status> statuses(want.size());
    CHECK(owaredb_values(tb, batch.data(), want.size(), values.data(), statuses.data()) ==
          OWAREDB_OK);
    CHECK(values == want);
    owaredb_close(tb);
    tb = nullptr;
    CHECK(owaredb_open_board(f.dir.c_str(), "awari", 9, 0, &tb) == OWAREDB_INVALID_POSITION);
    CHECK(tb == nullptr);
    CHECK(owaredb_open_board(f.dir.c_str(), "chess", 4, 0, &tb) == OWAREDB_INVALID_RULES);
}

TEST_CASE("on the standard board the pit-count functions answer as the Pits ones") {
    const fs::path dir =
        fs::temp_directory_path() / ("owaredb-board-probe-6-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    const Rules rules = Rules::abapa();
    const auto levels = solve_in_memory(OwareGame(rules), 8, 2);
    DatabaseDir files(dir, rules, false, 6);
    for (int n = 0; n <= 8; ++n) files.save(n, levels[n], 2, {});
    Tablebase tb(dir, "abapa", 0);
    CHECK(tb.pits_per_side() == 6);
    for (uint64_t i = 0; i < level_size<6>(8); i += 11) {
        const Position p = unrank<6>(8, i);
        ProbeResult<PositionInfo> a = tb.analyse(p.pits);
        ProbeResult<BoardPositionInfo> b = tb.analyse(std::span<const uint8_t>(p.pits));
        REQUIRE(a.ok());
        REQUIRE(b.ok());
        CHECK(a->value == levels[8][i]);
        CHECK(b->value == a->value);
        CHECK(b->best == a->best);
        REQUIRE(b->moves.size() == a->moves.size());
        for (std::size_t k = 0; k < a->moves.size(); ++k) {
            CHECK(b->moves[k].value == a->moves[k].value);
            CHECK(b->moves[k].child ==
                  BoardPits(a->moves[k].child.begin(), a->moves[k].child.end()));
        }
    }
    fs::remove_all(dir);
}

TEST_CASE("a missing level that a game of another board leaves out says so") {
    // Levels 0..4 and 6 of a 3-pit board: a game of 1 seed a pit (6 seeds), which never
    // has 5 seeds on the board.
    const BoardFixture<3>& f = three();
    const fs::path game =
        fs::temp_directory_path() / ("owaredb-board-game-" + std::to_string(::getpid()));
    fs::remove_all(game);
    DatabaseDir files(game, f.rules, false, 3);
    for (int n : {0, 1, 2, 3, 4, 6}) files.save(n, f.levels[n], 1, {});
    Tablebase tb(game, "abapa", 3);
    const BasicPosition<3> five = unrank<3>(5, 0);
    ProbeResult<int> r = tb.value(pits_of(five));
    CHECK(r.status() == ProbeStatus::NotAvailable);
    CHECK(r.message().find("not part of a game of 1 seed per pit") != std::string::npos);
    CHECK(r.message().find("owaredb generate --pits 3 --max-seeds 5 builds it") !=
          std::string::npos);
    CHECK(tb.value(pits_of(unrank<3>(6, 0))).ok());
    fs::remove_all(game);
}
