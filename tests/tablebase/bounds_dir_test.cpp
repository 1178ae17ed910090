// Bound files (tablebase/bounds_dir.hpp): hand-checked Oware boards where the even split and
// the written rule for endless play disagree, files byte-identical for 1 and 2 threads,
// round trips, kinds kept apart, and the consistency check of `owaredb verify`.
#include "dbformat/reader.hpp"
#include "dbformat/writer.hpp"
#include "oware/moves.hpp"
#include "oware/oware_game.hpp"
#include "oware/ranking.hpp"
#include "quick.hpp"
#include "retro/bounds.hpp"
#include "retro/solve_in_memory.hpp"
#include "tablebase/bounds_dir.hpp"
#include "tablebase/database_dir.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <unistd.h>
#include <vector>

using namespace owaredb;
namespace fs = std::filesystem;

namespace {

struct TempDir {
    fs::path path;
    explicit TempDir(const std::string& tag) {
        path = fs::temp_directory_path() /
               ("owaredb-bounds-" + tag + "-" + std::to_string(::getpid()));
        fs::remove_all(path);
        fs::create_directories(path);
    }
    ~TempDir() { fs::remove_all(path); }
};

std::vector<char> bytes_of(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

const Move* move_from_pit(const MoveList& moves, int pit) {
    for (const Move& m : moves)
        if (m.pit + 1 == pit) return &m;
    return nullptr;
}

} // namespace

TEST_CASE("bounds: hand-checked boards where the two rules for endless play disagree") {
    const Rules rules = Rules::abapa();
    const OwareGame game(rules);
    const auto values = solve_in_memory(game, 4, 1);
    const auto bounds = solve_bounds_in_memory(game, 4, 1);
    auto value = [&](const Position& p) { return int(values[p.seeds()][rank(p)]); };
    auto pair = [&](const Position& p) { return bound_pair(bounds[p.seeds()].data(), rank(p)); };

    // One seed each, in the last pit of each side. Every turn has exactly one legal move
    // (one seed; or, holding both, the duty to feed the empty side), the two seeds go round
    // six pits apart and always land in an empty pit: no capture ever, and the line repeats
    // after 12 plies. Neither side can force a seed: gM = gN = 0 < n = 2. The even split
    // calls it 0 (1 seed each); under the written rule each keeps what is on its side when
    // the repetition is called: 1-1 after an even number of plies, but 2-0 for the side that
    // has just been fed (after an odd number), so the result depends on history.
    const Position a = parse_position_or_throw<6>("0 0 0 0 0 1 0 0 0 0 0 1");
    CHECK(value(a) == 0);
    CHECK(pair(a).gm == 0);
    CHECK(pair(a).gn == 0);
    Position p = a;
    for (int ply = 0; ply < 12; ++ply) {
        const MoveList moves = legal_moves(rules, p);
        REQUIRE(moves.size() == 1);
        CHECK(moves[0].captured == 0);
        p = moves[0].child;
    }
    CHECK(p.pits == a.pits);

    // Four seeds: the mover's pit 6 is forced; the opponent sows its pit 5 (two seeds), the
    // mover's reply (pit 1) is forced, and the opponent's pit 6 then lands its second seed on
    // a pit holding 1: it captures 2. What is left is the one-seed-each cycle above (in
    // another phase), so the opponent forces 2 and nothing more is forced: gM = 0, gN = 2,
    // gM + gN = 2 < 4. Even split: V = -(2 + 1) + 1 = -2. Written rule: the last two
    // seeds go 1-1, 2-0 or 0-2 by history, so the mover ends with 0..2 of the 4 seeds. Both
    // lie in [2 gM - n, n - 2 gN] = [-4, 0].
    const Position b = parse_position_or_throw<6>("0 0 0 0 0 1 0 0 0 0 2 1");
    CHECK(value(b) == -2);
    CHECK(pair(b).gm == 0);
    CHECK(pair(b).gn == 2);
    p = b;
    int captured = 0;
    for (int pit : {6, 5, 1, 6}) {
        const MoveList moves = legal_moves(rules, p);
        const Move* m = move_from_pit(moves, pit);
        REQUIRE(m != nullptr);
        captured = m->captured;
        p = m->child;
    }
    CHECK(captured == 2);
    CHECK(p.seeds() == 2);
    CHECK(pair(p).gm == 0);
    CHECK(pair(p).gn == 0);
    CHECK(value(p) == 0);

    // A terminal board is exact: the mover has no seed, the opponent takes its 3.
    const Position c = parse_position_or_throw<6>("0 0 0 0 0 0 1 0 2 0 0 0");
    CHECK(pair(c).gm == 0);
    CHECK(pair(c).gn == 3);
}

TEST_CASE("bound files: byte-identical for 1 and 2 threads, and read back exactly") {
    const int max_n = test::quick() ? 8 : 11;
    for (const Rules& rules : {Rules::abapa(), Rules::awari()}) {
        CAPTURE(rules.name);
        TempDir one("t1"), two("t2");
        const auto levels1 = solve_bounds_in_memory(OwareGame(rules), max_n, 1);
        const auto levels2 = solve_bounds_in_memory(OwareGame(rules), max_n, 2);
        BoundsDir d1(one.path, rules, 6), d2(two.path, rules, 6);
        for (int n = 0; n <= max_n; ++n) {
            d1.save(n, levels1[n], 1);
            d2.save(n, levels2[n], 2);
            CHECK(bytes_of(d1.path(n)) == bytes_of(d2.path(n)));
            ValueArray back;
            REQUIRE(d1.load(n, back, 2).ok());
            REQUIRE(back.size() == 2 * level_size<6>(n));
            CHECK(std::equal(back.span().begin(), back.span().end(), levels1[n].span().begin()));
        }
        // The stored pairs satisfy their equations (what `owaredb verify` checks).
        std::vector<ValueArray> loaded;
        for (int n = 0; n <= max_n; ++n) {
            ValueArray l;
            REQUIRE(d1.load(n, l, 2).ok());
            loaded.push_back(std::move(l));
            CHECK(first_bounds_mismatch(OwareGame(rules), n, loaded, 2) == level_size<6>(n));
        }
        // A changed pair is found (necessary condition: it no longer fits its moves).
        loaded[max_n][2 * 1234] = static_cast<int8_t>(loaded[max_n][2 * 1234] ^ 1);
        CHECK(first_bounds_mismatch(OwareGame(rules), max_n, loaded, 2) <= 1234);
    }
}

TEST_CASE("bound files and value files are distinct kinds and live side by side") {
    const Rules rules = Rules::abapa();
    TempDir dir("kinds");
    const int n = 5;
    const auto values = solve_in_memory(OwareGame(rules), n, 1);
    const auto bounds = solve_bounds_in_memory(OwareGame(rules), n, 1);
    DatabaseDir vdir(dir.path, rules, false, 6);
    BoundsDir bdir(dir.path, rules, 6);
    vdir.save(n, values[n], 1, values);
    bdir.save(n, bounds[n], 1);
    CHECK(vdir.path(n).filename() == "abapa-05.owdb");
    CHECK(bdir.path(n).filename() == "abapa-05.bounds.owdb");
    auto name = db::parse_level_file_name("abapa-05.bounds.owdb");
    REQUIRE(name);
    CHECK(name->kind == db::LevelKind::Bounds);
    CHECK(name->n == 5);
    CHECK(db::parse_level_file_name("abapa-05.owdb")->kind == db::LevelKind::Values);

    db::LevelReader reader(bdir.path(n));
    auto info = reader.info();
    REQUIRE(info.ok());
    CHECK(info->meta.kind == db::LevelKind::Bounds);
    CHECK(info->meta.entries == 2 * level_size<6>(n));

    // A bound file under a value file's name (or the reverse) is refused as a mismatch.
    fs::copy_file(bdir.path(n), vdir.path(n), fs::copy_options::overwrite_existing);
    ValueArray out;
    CHECK(vdir.load(n, out, 1, values).code() == db::ErrorCode::Mismatch);
    vdir.save(n, values[n], 1, values);
    fs::copy_file(vdir.path(n), bdir.path(n), fs::copy_options::overwrite_existing);
    CHECK(bdir.load(n, out, 1).code() == db::ErrorCode::Mismatch);
    CHECK(bdir.load(n - 1, out, 1).code() == db::ErrorCode::NotFound);

    // The writer refuses negative entries in a bounds level.
    db::LevelMeta meta = bdir.meta(1);
    std::vector<int8_t> bad(meta.entries, 0);
    bad[3] = -1;
    CHECK_THROWS_AS(
        db::write_level(dir.path / "bad.owdb", meta, bad, db::WriterOptions{.threads = 2}),
        std::invalid_argument);
}

TEST_CASE("verify's bounds check on a 3-pit board: solved pairs pass, a changed pair is found") {
    const int max_n = test::quick() ? 7 : 9;
    for (const Rules& rules : {Rules::abapa(), Rules::awari()}) {
        CAPTURE(rules.name);
        const BasicOwareGame<3> game(rules);
        auto levels = solve_bounds_in_memory(game, max_n, 2);
        for (int n = 0; n <= max_n; ++n) {
            CAPTURE(n);
            REQUIRE(levels[n].size() == 2 * level_size<3>(n));
            CHECK(first_bounds_mismatch(game, n, levels, 2) == level_size<3>(n));
        }
        const uint64_t at = level_size<3>(max_n) / 2;
        levels[max_n][2 * at + 1] = static_cast<int8_t>(levels[max_n][2 * at + 1] ^ 1);
        CHECK(first_bounds_mismatch(game, max_n, levels, 2) <= at);
    }
}
