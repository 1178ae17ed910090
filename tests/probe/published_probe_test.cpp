// The probe library on a directory of Romein & Bal's published files ("scores.N",
// tablebase/published_dir.hpp), read in place: the same answers as from our level files
// for every position of levels 0..10, every level 0..48 at its offsets through sparse files
// of the real sizes, and the errors: missing, wrong size, a byte out of range, a mixed
// directory, the other rule set, bounds, a level copied in later.
#include "dbformat/writer.hpp"
#include "oware/oware_game.hpp"
#include "oware/ranking.hpp"
#include "owaredb/probe.h"
#include "owaredb/probe.hpp"
#include "retro/solve_in_memory.hpp"
#include "tablebase/published_dir.hpp"
#include "temp_dir.hpp"

#include <doctest/doctest.h>

#include <chrono>
#include <fstream>
#include <random>
#include <thread>

using namespace owaredb;
using owaredb::test::TempDir;
namespace fs = std::filesystem;

namespace {

constexpr int kTop = 10;

// Levels 0..kTop of awari solved once, written in both formats, each in its own directory.
struct BothFormats {
    TempDir ours, published;
    std::vector<ValueArray> levels;
    BothFormats() {
        const Rules rules = Rules::awari();
        levels = solve_in_memory(OwareGame(rules), kTop, 2);
        for (int n = 0; n <= kTop; ++n) {
            db::write_level(db::level_path(ours.path(), rules.name, n),
                            {rules.name, rules.knob_bytes(6), uint32_t(n), level_size<6>(n)},
                            levels[n].span(), db::WriterOptions{.threads = 2});
            PublishedDir(published.path()).save(n, levels[n], 2);
        }
    }
};

const BothFormats& both() {
    static BothFormats f;
    return f;
}

void put_byte(const fs::path& file, uint64_t offset, int8_t value) {
    std::fstream out(file, std::ios::binary | std::ios::in | std::ios::out);
    out.seekp(std::streamoff(offset));
    out.put(char(value));
}

void make_sparse(const fs::path& file, uint64_t size) {
    { std::ofstream create(file, std::ios::binary); }
    fs::resize_file(file, size);
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

} // namespace

TEST_CASE("published directory: every stored value of levels 0..10 is probed back exactly") {
    const BothFormats& f = both();
    Tablebase tb(f.published.path(), "awari");
    for (int n = 0; n <= kTop; ++n) {
        uint64_t wrong = 0;
        for (uint64_t i = 0; i < level_size<6>(n); ++i) {
            ProbeResult<int> v = tb.value(unrank<6>(n, i).pits);
            wrong += !v.ok() || *v != f.levels[n][i];
        }
        CHECK_MESSAGE(wrong == 0, "level " << n);
    }
}

TEST_CASE("published directory: analyse, principal variation and batches as from our files") {
    const BothFormats& f = both();
    Tablebase theirs(f.published.path(), "awari"), ours(f.ours.path(), "awari");
    std::mt19937_64 rng(27);
    std::vector<Pits> batch;
    for (int k = 0; k < 300; ++k) {
        const int n = int(rng() % (kTop + 1));
        Position p = unrank<6>(n, rng() % level_size<6>(n));
        if (k % 3 == 0)
            std::rotate(p.pits.begin(), p.pits.begin() + 6, p.pits.end()); // mostly not stored
        batch.push_back(p.pits);
        ProbeResult<PositionInfo> a = theirs.analyse(p.pits), b = ours.analyse(p.pits);
        REQUIRE(a.ok());
        REQUIRE(b.ok());
        CHECK(a->value == b->value);
        CHECK(a->best == b->best);
        CHECK(a->moves.size() == b->moves.size());
        if (k % 30 == 0) {
            ProbeResult<PrincipalVariation> pa = theirs.principal_variation(p.pits);
            ProbeResult<PrincipalVariation> pb = ours.principal_variation(p.pits);
            REQUIRE(pa.ok());
            REQUIRE(pb.ok());
            CHECK(pa->steps.size() == pb->steps.size());
            CHECK(pa->final_position == pb->final_position);
        }
    }
    std::vector<ProbeResult<int>> ra(batch.size()), rb(batch.size());
    theirs.values(batch, ra);
    ours.values(batch, rb);
    for (size_t i = 0; i < batch.size(); ++i) {
        REQUIRE(ra[i].ok());
        CHECK(*ra[i] == *rb[i]);
    }
    // The C API opens the same directory the same way.
    owaredb_tablebase* c = nullptr;
    REQUIRE(owaredb_open(f.published.path().c_str(), "awari", 0, &c) == OWAREDB_OK);
    const Position p = unrank<6>(kTop, 4242);
    int value = 99;
    CHECK(owaredb_value(c, p.pits.data(), &value, nullptr, 0) == OWAREDB_OK);
    CHECK(value == f.levels[kTop][4242]);
    owaredb_close(c);
}

TEST_CASE("published directory: every level 0..48 at the offsets of their order (sparse files)") {
    TempDir dir;
    const PublishedDir published(dir.path());
    std::mt19937_64 rng(4848);
    std::vector<std::pair<Position, int>> planted;
    for (int n = 0; n <= kMaxSeeds; ++n) {
        if (n == 47) continue; // not in the release
        make_sparse(published.path(n), level_size<6>(n));
        const Position p = unrank<6>(n, rng() % level_size<6>(n));
        const int v = n == 0 ? 0 : int(rng() % (2 * n + 1)) - n;
        put_byte(published.path(n), published_rank(p), int8_t(v));
        planted.push_back({p, v});
    }
    Tablebase tb(dir.path(), "awari");
    for (const auto& [position, v] : planted) {
        const Position p = position; // CAPTURE's lambda cannot capture a structured binding (clang)
        CAPTURE(p.seeds());
        ProbeResult<int> got = tb.value(p.pits);
        REQUIRE(got.ok());
        CHECK(*got == v);
        CHECK(tb.level_available(p.seeds()));
    }
    // Level 47 is not in the release: not available, and said to be outside the game.
    Position p47 = unrank<6>(47, 12345);
    ProbeResult<int> missing = tb.value(p47.pits);
    CHECK(missing.status() == ProbeStatus::NotAvailable);
    CHECK(contains(missing.message(), "scores.47"));
    CHECK(contains(missing.message(), "not part of a game of 4 seeds per pit"));
    CHECK_FALSE(contains(missing.message(), "generate")); // nothing of ours builds scores.N
    CHECK_FALSE(tb.level_available(47));
}

TEST_CASE("published directory: damaged files, other rules, bounds and a mixed directory") {
    const BothFormats& f = both();
    TempDir dir;
    for (int n = 0; n <= 6; ++n)
        fs::copy_file(f.published / ("scores." + std::to_string(n)),
                      dir / ("scores." + std::to_string(n)));
    const Position p5 = unrank<6>(5, 7), p6 = unrank<6>(6, 11);

    SUBCASE("a file of the wrong size is corrupt, naming the file and both sizes") {
        fs::resize_file(dir / "scores.5", level_size<6>(5) - 1);
        Tablebase tb(dir.path(), "awari");
        ProbeResult<int> v = tb.value(p5.pits);
        CHECK(v.status() == ProbeStatus::Corrupt);
        CHECK(contains(v.message(), "scores.5"));
        CHECK(contains(v.message(), std::to_string(level_size<6>(5))));
        CHECK(tb.value(p6.pits).ok()); // the other levels still answer
    }
    SUBCASE("a byte outside -n..n is corrupt, naming the file and the offset, never a value") {
        const uint64_t offset = published_rank(p6);
        put_byte(dir / "scores.6", offset, 7);
        Tablebase tb(dir.path(), "awari");
        ProbeResult<int> v = tb.value(p6.pits);
        CHECK(v.status() == ProbeStatus::Corrupt);
        CHECK(contains(v.message(), "scores.6"));
        CHECK(contains(v.message(), std::to_string(offset)));
    }
    SUBCASE("abapa and bounds are not in a published directory") {
        Tablebase abapa(dir.path(), "abapa");
        CHECK(abapa.value(p5.pits).status() == ProbeStatus::NotAvailable);
        Tablebase awari(dir.path(), "awari");
        ProbeResult<Bounds> b = awari.bounds(p5.pits);
        CHECK(b.status() == ProbeStatus::NotAvailable);
        CHECK(contains(b.message(), "published"));
    }
    SUBCASE("a directory holding both kinds answers nothing, saying why") {
        fs::copy_file(f.ours / "awari-07.owdb", dir / "awari-07.owdb");
        Tablebase tb(dir.path(), "awari");
        for (const Position& p : {p5, unrank<6>(7, 3)}) {
            ProbeResult<int> v = tb.value(p.pits);
            CHECK(v.status() == ProbeStatus::Corrupt);
            CHECK(contains(v.message(), "both"));
        }
    }
    SUBCASE("a level copied in after it was asked for is found") {
        Tablebase tb(dir.path(), "awari");
        const Position p8 = unrank<6>(8, 99);
        CHECK(tb.value(p8.pits).status() == ProbeStatus::NotAvailable);
        fs::copy_file(f.published / "scores.8", dir / "scores.8");
        std::this_thread::sleep_for(std::chrono::milliseconds(150)); // past the recheck
        ProbeResult<int> v = tb.value(p8.pits);
        REQUIRE(v.ok());
        CHECK(*v == f.levels[8][99]);
    }
}

TEST_CASE("published directory: a level truncated while mapped is an error, not SIGBUS, and a "
          "good copy moved in is read") {
    // A published file truncated under a server or Python killed it with SIGBUS (#52).
    const BothFormats& f = both();
    TempDir dir;
    for (int n = 0; n <= kTop; ++n) {
        const std::string name = "scores." + std::to_string(n);
        fs::copy_file(f.published.path() / name, dir.path() / name);
    }
    const fs::path file = dir.path() / ("scores." + std::to_string(kTop));
    const uint64_t last = level_size<6>(kTop) - 1;
    const Position first = unrank<6>(kTop, 0), p = unrank<6>(kTop, last);
    Tablebase tb(dir.path(), "awari");
    REQUIRE(tb.value(first.pits).ok()); // mapped
    fs::resize_file(file, 0);
    for (const Position& q : {p, first}) {
        const ProbeResult<int> v = tb.value(q.pits);
        CHECK(v.status() == ProbeStatus::Corrupt);
        CHECK(contains(v.message(), "scores.10"));
    }
    fs::copy_file(f.published.path() / "scores.10", dir.path() / "copy");
    fs::rename(dir.path() / "copy", file);
    std::this_thread::sleep_for(std::chrono::milliseconds(150)); // past the recheck
    const ProbeResult<int> v = tb.value(p.pits);
    REQUIRE(v.ok());
    CHECK(*v == f.levels[kTop][last]);
}
