// The probe library's bounds (Tablebase::bounds, analyse_bounds, owaredb_bounds) against the
// bounds solver's in-memory arrays: every stored position, positions outside the databases
// by one ply, each move's bounds, missing files, the C API.
#include "dbformat/writer.hpp"
#include "oware/moves.hpp"
#include "oware/oware_game.hpp"
#include "oware/ranking.hpp"
#include "owaredb/probe.h"
#include "owaredb/probe.hpp"
#include "retro/bounds.hpp"
#include "tablebase/bounds_dir.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <unistd.h>

using namespace owaredb;
namespace fs = std::filesystem;

namespace {

constexpr int kTop = 9;

struct Fixture {
    fs::path dir;
    std::vector<ValueArray> levels;
    Rules rules = Rules::abapa();

    Fixture() {
        dir = fs::temp_directory_path() / ("owaredb-bounds-probe-" + std::to_string(::getpid()));
        fs::remove_all(dir);
        levels = solve_bounds_in_memory(OwareGame(rules), kTop, 2);
        BoundsDir files(dir, rules, 6);
        for (int n = 0; n <= kTop; ++n) files.save(n, levels[n], 2);
    }
    ~Fixture() { fs::remove_all(dir); }
};

const Fixture& fixture() {
    static Fixture f;
    return f;
}

} // namespace

TEST_CASE("probe bounds: every stored position, n <= 9, and each move's bounds") {
    const Fixture& f = fixture();
    Tablebase tb(f.dir, "abapa");
    for (int n = 0; n <= kTop; ++n) {
        uint64_t wrong = 0, wrong_moves = 0;
        for (uint64_t i = 0; i < level_size<6>(n); ++i) {
            const Position p = unrank<6>(n, i);
            const BoundPair want = bound_pair(f.levels[n].data(), i);
            ProbeResult<Bounds> b = tb.bounds(p.pits);
            wrong += !b.ok() || b->gM != want.gm || b->gN != want.gn ||
                     b->exact != (want.gm + want.gn == n) || b->seeds != n;
            if (i % 7 != 0) continue;
            ProbeResult<BoundsInfo> info = tb.analyse_bounds(p.pits);
            if (!info.ok() || info->bounds.gM != want.gm || info->bounds.gN != want.gn) {
                ++wrong_moves;
                continue;
            }
            for (const MoveBounds& m : info->moves) {
                const Position c{m.child};
                const BoundPair cb = bound_pair(f.levels[n - m.captured].data(), rank(c));
                wrong_moves += m.gM != m.captured + cb.gn || m.gN != cb.gm;
            }
        }
        CHECK_MESSAGE(wrong == 0, "level " << n);
        CHECK_MESSAGE(wrong_moves == 0, "level " << n);
    }
}

TEST_CASE("probe bounds: positions outside the databases by one ply; missing files") {
    const Fixture& f = fixture();
    Tablebase tb(f.dir, "abapa");
    const Position p = parse_position_or_throw<6>("1 0 0 1 0 1 1 1 1 1 1 0");   // 9 seeds
    const Position out = parse_position_or_throw<6>("1 0 0 0 0 1 1 1 1 1 1 1"); // 8 seeds, full
    REQUIRE(!out.in_database());
    const BoundPair want =
        bounds_equation(OwareGame(f.rules), out.seeds(), out, [&](int level, const Position& c) {
            return bound_pair(f.levels[level].data(), rank(c));
        });
    ProbeResult<Bounds> b = tb.bounds(out.pits);
    REQUIRE(b.ok());
    CHECK(b->gM == want.gm);
    CHECK(b->gN == want.gn);
    CHECK(tb.bounds(p.pits).ok());
    CHECK(tb.bounds_available(kTop));
    CHECK_FALSE(tb.bounds_available(kTop + 1));
    // The value files are not there: values are not available, bounds are.
    CHECK(tb.value(p.pits).status() == ProbeStatus::NotAvailable);
    Pits big{};
    big[0] = 10;
    CHECK(tb.bounds(big).status() == ProbeStatus::NotAvailable);
    Pits too_many{};
    too_many[0] = 49;
    CHECK(tb.bounds(too_many).status() == ProbeStatus::InvalidPosition);
    CHECK(Tablebase(f.dir, "nonsense").bounds(p.pits).status() == ProbeStatus::InvalidRules);
}

TEST_CASE("missing_levels of the bound files: their levels, and the command builds them") {
    const Fixture& f = fixture();
    Tablebase tb(f.dir, "abapa");
    const MissingLevels bounds = tb.missing_levels(kTop + 2, "db", LevelFiles::Bounds);
    CHECK(bounds.files == LevelFiles::Bounds);
    CHECK(bounds.levels == std::vector<int>{kTop + 1, kTop + 2});
    CHECK(bounds.generate == "owaredb generate --rules abapa --max-seeds 11 --bounds --dir db");
    CHECK(tb.missing_levels(kTop, "db", LevelFiles::Bounds).levels.empty());
    // The value files of the same levels are none of them there.
    const MissingLevels values = tb.missing_levels(2, "db");
    CHECK(values.files == LevelFiles::Values);
    CHECK(values.levels == std::vector<int>{0, 1, 2});
    CHECK(values.generate == "owaredb generate --rules abapa --max-seeds 2 --dir db");
}

TEST_CASE("probe bounds: the C API") {
    const Fixture& f = fixture();
    owaredb_tablebase* tb = nullptr;
    REQUIRE(owaredb_open(f.dir.c_str(), "abapa", 0, &tb) == OWAREDB_OK);
    const Position p = parse_position_or_throw<6>("0 0 0 0 0 1 0 0 0 0 2 1");
    owaredb_bounds_result b{-1, -1, -1};
    CHECK(owaredb_bounds(tb, p.pits.data(), &b, nullptr, 0) == OWAREDB_OK);
    CHECK(b.gm == 0);
    CHECK(b.gn == 2);
    CHECK(b.exact == 0);
    const uint8_t ten[12] = {10};
    char message[256] = "";
    owaredb_bounds_result untouched{-1, -1, -1};
    CHECK(owaredb_bounds(tb, ten, &untouched, message, sizeof message) == OWAREDB_NOT_AVAILABLE);
    CHECK(std::string(message).find("bounds") != std::string::npos);
    CHECK(untouched.gm == -1);
    CHECK(owaredb_bounds(tb, nullptr, &b, nullptr, 0) == OWAREDB_INVALID_POSITION);
    CHECK(owaredb_bounds(tb, p.pits.data(), nullptr, nullptr, 0) == OWAREDB_INVALID_POSITION);
    owaredb_close(tb);
}
