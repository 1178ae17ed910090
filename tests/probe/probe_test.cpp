// The probe library against the analyser's in-memory values: every stored position,
// positions outside the databases by one ply, missing and damaged files, threads, C API.
#include "dbformat/writer.hpp"
#include "oware/oware_game.hpp"
#include "owaredb/game.hpp"
#include "owaredb/probe.h"
#include "owaredb/probe.hpp"
#include "owaredb/search.hpp"
#include "retro/bellman.hpp"
#include "retro/solve_in_memory.hpp"
#include "tablebase/capture_bound.hpp"
#include "temp_dir.hpp"

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <thread>

using namespace owaredb;
namespace fs = std::filesystem;

namespace {

constexpr int kTop = 10;

struct Fixture {
    fs::path dir;
    std::vector<ValueArray> levels;
    Rules rules = Rules::awari();

    Fixture() {
        dir = fs::temp_directory_path() / ("owaredb-probe-test-" + std::to_string(::getpid()));
        fs::remove_all(dir);
        fs::create_directories(dir);
        levels = solve_in_memory(OwareGame(rules), kTop, 2);
        for (int n = 0; n <= kTop; ++n)
            db::write_level(db::level_path(dir, rules.name, n),
                            {rules.name, rules.knob_bytes(6), uint32_t(n), level_size<6>(n)},
                            levels[n].span(), db::WriterOptions{.threads = 2});
    }
    ~Fixture() { fs::remove_all(dir); }
};

const Fixture& fixture() {
    static Fixture f;
    return f;
}

// Probes every position of levels 0..kTop and compares with the analyser's values.
void check_every_value(const Tablebase& tb, const Fixture& f) {
    for (int n = 0; n <= kTop; ++n) {
        uint64_t wrong = 0;
        for (uint64_t i = 0; i < level_size<6>(n); ++i) {
            ProbeResult<int> v = tb.value(unrank<6>(n, i).pits);
            wrong += !v.ok() || *v != f.levels[n][i];
        }
        CHECK_MESSAGE(wrong == 0, "level " << n);
    }
}

} // namespace

TEST_CASE("every stored value is probed back exactly, n <= 10") {
    const Fixture& f = fixture();
    Tablebase tb(f.dir, "awari");
    check_every_value(tb, f);
}

TEST_CASE("positions outside the databases are valued by one ply of search") {
    const Fixture& f = fixture();
    Tablebase tb(f.dir, "awari");
    Position start = Position::start(0);
    start.pits = {1, 0, 0, 1, 0, 1, 1, 1, 1, 1, 1, 1}; // opponent has no empty pit
    REQUIRE(!start.in_database());
    const int expected =
        bellman_value(OwareGame(f.rules), start.seeds(), start,
                      [&](int level, const Position& c) { return int(f.levels[level][rank(c)]); });
    CHECK(*tb.value(start.pits) == expected);
    // Its analysis agrees with its value, and the best moves are those worth it.
    ProbeResult<PositionInfo> s1 = tb.analyse(start.pits);
    REQUIRE(s1.ok());
    CHECK(s1->value == expected);
    CHECK(s1->moves.size() == 3);
    for (const MoveInfo& m : s1->moves) CHECK(m.value <= s1->value);
    CHECK(!s1->best.empty());
}

TEST_CASE("missing levels are 'not available', bad input is an error value") {
    const Fixture& f = fixture();
    Tablebase tb(f.dir, "awari");
    Pits big{};
    big[0] = 11; // 12 seeds: level 12 is not built
    big[7] = 1;
    CHECK(tb.value(big).status() == ProbeStatus::NotAvailable);
    Pits too_many{};
    too_many[0] = 49;
    CHECK(tb.value(too_many).status() == ProbeStatus::InvalidPosition);
    Tablebase wrong_rules(f.dir, "chess");
    CHECK(wrong_rules.value(Pits{}).status() == ProbeStatus::InvalidRules);
    Tablebase other_rules(f.dir, "abapa"); // no abapa files there
    CHECK(other_rules.value(unrank<6>(4, 3).pits).status() == ProbeStatus::NotAvailable);
}

TEST_CASE("missing_levels: the levels a position may need that are not there, the command") {
    const Fixture& f = fixture();
    Tablebase tb(f.dir, "awari");
    const MissingLevels m = tb.missing_levels(12);
    CHECK(m.seeds == 12);
    CHECK(m.levels == std::vector<int>{11, 12});
    CHECK(m.generate == "owaredb generate --rules awari --max-seeds 12 --dir " + f.dir.string());
    // As a front end names the directory (a server without its absolute path).
    CHECK(tb.missing_levels(12, "shown dir").generate ==
          "owaredb generate --rules awari --max-seeds 12 --dir 'shown dir'");
    CHECK(tb.missing_levels(kTop).levels.empty());
    // Seeds outside 0..48 are the nearest of the two.
    CHECK(tb.missing_levels(60).seeds == 48);
    CHECK(tb.missing_levels(60).levels.size() == std::size_t(48 - kTop));
    CHECK(tb.missing_levels(-3).levels.empty());
    Tablebase other(f.dir, "abapa"); // no abapa files there: every level is missing
    CHECK(other.missing_levels(2).levels == std::vector<int>{0, 1, 2});
}

TEST_CASE("a level left out as a game's (generate --game) says so when it is asked for") {
    const Fixture& f = fixture();
    // Levels 0..10 and 12, as generate --game 1 leaves them (level 12's values do not
    // matter here: only level 11 is asked for).
    const fs::path dir = f.dir.string() + "-game";
    fs::create_directories(dir);
    for (int n = 0; n <= kTop; ++n)
        fs::copy_file(db::level_path(f.dir, f.rules.name, n), db::level_path(dir, f.rules.name, n));
    const std::vector<int8_t> zeros(level_size<6>(12), 0);
    db::write_level(db::level_path(dir, f.rules.name, 12),
                    {f.rules.name, f.rules.knob_bytes(6), 12u, level_size<6>(12)}, zeros,
                    db::WriterOptions{.threads = 2});
    Tablebase tb(dir, "awari");
    Pits eleven{};
    eleven[0] = 10;
    eleven[7] = 1;
    const ProbeResult<int> v = tb.value(eleven);
    CHECK(v.status() == ProbeStatus::NotAvailable);
    CHECK(v.message().find("level 11 is not part of a game of 1 seed per pit") !=
          std::string::npos);
    // Level 12 is there and answers; in the fixture's own directory (levels 0..10), level
    // 11 is an ordinary missing level.
    Pits twelve{};
    twelve[0] = 11;
    twelve[7] = 1;
    CHECK(tb.value(twelve).ok());
    Tablebase plain(f.dir, "awari");
    const ProbeResult<int> w = plain.value(eleven);
    CHECK(w.status() == ProbeStatus::NotAvailable);
    CHECK(w.message().find("not part of") == std::string::npos);
    fs::remove_all(dir);
}

TEST_CASE("a damaged level file gives an error, never a value") {
    const Fixture& f = fixture();
    fs::path dir = f.dir.string() + "-damaged";
    fs::remove_all(dir);
    fs::copy(f.dir, dir);
    fs::path file = db::level_path(dir, "awari", 9);
    {
        std::fstream io(file, std::ios::in | std::ios::out | std::ios::binary);
        io.seekp(static_cast<std::streamoff>(fs::file_size(file) / 2));
        char c = 0x5a;
        io.write(&c, 1);
    }
    Tablebase tb(dir, "awari");
    uint64_t values = 0, errors = 0;
    for (uint64_t i = 0; i < level_size<6>(9); i += 97) {
        ProbeResult<int> v = tb.value(unrank<6>(9, i).pits);
        if (v.ok()) {
            ++values;
            CHECK(*v == f.levels[9][i]); // intact blocks still answer, correctly
        } else {
            ++errors;
            CHECK(v.status() == ProbeStatus::Corrupt);
            CHECK(v.message().find("awari-09") != std::string::npos);
        }
    }
    CHECK(errors > 0);
    // A file of another level under this level's name is a mismatch, not a value.
    fs::copy_file(db::level_path(dir, "awari", 8), db::level_path(dir, "awari", 7),
                  fs::copy_options::overwrite_existing);
    Tablebase tb2(dir, "awari");
    CHECK(tb2.value(unrank<6>(7, 0).pits).status() == ProbeStatus::Corrupt);
    fs::remove_all(dir);
}

namespace {

std::vector<char> file_bytes(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void put_bytes(const fs::path& p, const std::vector<char>& bytes, std::size_t count) {
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(count));
}

// Whether `ok` holds within a few seconds (asked every 10 ms): the library re-checks a
// level that failed to open at intervals of its own, which the test need not know.
template <class F> bool eventually(F&& ok) {
    const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (!ok()) {
        if (std::chrono::steady_clock::now() > end) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return true;
}

} // namespace

TEST_CASE("a level that failed to open is opened again once its file changes") {
    const Fixture& f = fixture();
    const fs::path dir = f.dir.string() + "-late";
    fs::remove_all(dir);
    fs::create_directories(dir);
    for (int n = 0; n < kTop; ++n)
        fs::copy_file(db::level_path(f.dir, "awari", n), db::level_path(dir, "awari", n));
    const fs::path file = db::level_path(dir, "awari", kTop);
    const std::vector<char> bytes = file_bytes(db::level_path(f.dir, "awari", kTop));
    const uint64_t index = 777;
    const Pits p = unrank<6>(kTop, index).pits;
    Tablebase tb(dir, "awari");
    // Missing when first asked (a server started before generate finished).
    CHECK(tb.value(p).status() == ProbeStatus::NotAvailable);
    CHECK(!tb.level_available(kTop));
    // Half copied: damaged, for as long as it is.
    put_bytes(file, bytes, bytes.size() / 2);
    CHECK(eventually([&] { return tb.value(p).status() == ProbeStatus::Corrupt; }));
    // The copy completes while threads are probing: each answer is the error of the moment
    // or the right value, and once the file is whole every thread gets the value.
    std::atomic<bool> stop{false};
    std::atomic<uint64_t> wrong{0}, answered{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 3; ++t)
        threads.emplace_back([&] {
            while (!stop.load()) {
                const ProbeResult<int> v = tb.value(p);
                if (v.ok()) {
                    wrong += *v != f.levels[kTop][index];
                    ++answered;
                } else {
                    wrong += v.status() != ProbeStatus::Corrupt &&
                             v.status() != ProbeStatus::NotAvailable;
                }
                (void)tb.level_available(kTop);
            }
        });
    put_bytes(file, bytes, bytes.size());
    const bool opened = eventually([&] { return answered.load() >= 3; });
    stop = true;
    for (auto& th : threads) th.join();
    CHECK(opened);
    CHECK(wrong == 0);
    const ProbeResult<int> v = tb.value(p);
    REQUIRE(v.ok());
    CHECK(*v == f.levels[kTop][index]);
    CHECK(tb.level_available(kTop));
    // A level that opened stays open (and keeps its file): removing the file changes nothing.
    fs::remove(file);
    CHECK(tb.value(p).ok());
    CHECK(tb.level_available(kTop));
    fs::remove_all(dir);
}

TEST_CASE("a level truncated after it opened is opened again once a good copy replaces it") {
    // A server kept "file shorter than when opened" after the file was repaired, until it
    // was restarted (issue #52).
    const Fixture& f = fixture();
    const fs::path dir = f.dir.string() + "-repaired";
    fs::remove_all(dir);
    fs::copy(f.dir, dir);
    const fs::path file = db::level_path(dir, "awari", kTop);
    const std::vector<char> bytes = file_bytes(file);
    const uint64_t last = level_size<6>(kTop) - 1; // in the last block
    const Pits first = unrank<6>(kTop, 0).pits, p = unrank<6>(kTop, last).pits;
    Tablebase tb(dir, "awari");
    REQUIRE(tb.value(first).ok()); // the level is open
    fs::resize_file(file, bytes.size() / 2);
    const ProbeResult<int> cut = tb.value(p);
    CHECK(cut.status() == ProbeStatus::Corrupt);
    CHECK(cut.message().find("awari-10") != std::string::npos);
    put_bytes(dir / "copy", bytes, bytes.size());
    fs::rename(dir / "copy", file);
    CHECK(eventually([&] {
        const ProbeResult<int> v = tb.value(p);
        return v.ok() && *v == f.levels[kTop][last];
    }));
    CHECK(tb.value(first).ok());
    fs::remove_all(dir);
}

TEST_CASE("the principal variation plays best moves to the end") {
    const Fixture& f = fixture();
    Tablebase tb(f.dir, "awari");
    for (uint64_t i = 0; i < level_size<6>(8); i += 211) {
        Position p = unrank<6>(8, i);
        auto pv = tb.principal_variation(p.pits);
        REQUIRE(pv.ok());
        REQUIRE((pv->end == PvEnd::GameOver || pv->end == PvEnd::EndlessPlay));
        // Along the line each step keeps the value: v(step) = captured - v(next).
        for (size_t k = 0; k + 1 < pv->steps.size(); ++k)
            CHECK(pv->steps[k].value == pv->steps[k].captured - pv->steps[k + 1].value);
        // And the line realises the value: the captures, signed for the side that made
        // them, plus the seeds taken at the end (endless play splits evenly: 0).
        int sign = 1, total = 0;
        for (const PvStep& s : pv->steps) {
            total += sign * s.captured;
            sign = -sign;
        }
        if (pv->end == PvEnd::GameOver) total += sign * pv->final_value;
        CHECK_MESSAGE(total == *tb.value(p.pits), to_string(p));
    }
}

// Regression (issue #29): the line to the next capture was appended whole, so
// max_plies = 3 gave 10 moves; and max_plies = -1 was accepted.
TEST_CASE("the principal variation stops at max_plies, a prefix of the full line") {
    const Fixture& f = fixture();
    Tablebase tb(f.dir, "awari");
    int cut = 0;
    for (uint64_t i = 0; i < level_size<6>(8); i += 977) {
        const Position p = unrank<6>(8, i);
        const ProbeResult<PrincipalVariation> full = tb.principal_variation(p.pits);
        REQUIRE(full.ok());
        for (int limit : {0, 1, 2, 3, 5}) {
            const ProbeResult<PrincipalVariation> pv = tb.principal_variation(p.pits, limit);
            REQUIRE(pv.ok());
            CHECK(pv->steps.size() <= size_t(limit));
            const size_t k = pv->steps.size();
            REQUIRE(k <= full->steps.size());
            for (size_t j = 0; j < k; ++j) CHECK(pv->steps[j].pit == full->steps[j].pit);
            if (full->steps.size() > size_t(limit)) {
                ++cut;
                CHECK(k == size_t(limit));
                CHECK(pv->end == PvEnd::PlyLimit);
                CHECK(pv->final_position == full->steps[k].position);
            }
        }
    }
    CHECK(cut > 50); // the limits did cut lines, forcing ones among them
    ProbeResult<PrincipalVariation> bad = tb.principal_variation(unrank<6>(8, 5).pits, -1);
    CHECK(bad.status() == ProbeStatus::InvalidPosition);
    CHECK(bad.message().find("max_plies -1") != std::string::npos);
}

TEST_CASE("probing from several threads at once gives the same answers") {
    const Fixture& f = fixture();
    TablebaseOptions small;
    small.cache_bytes = 64 << 10; // force evictions while threads race
    Tablebase tb(f.dir, "awari", small);
    std::vector<std::thread> threads;
    std::atomic<uint64_t> wrong{0};
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&, t] {
            std::mt19937_64 rng(t);
            for (int k = 0; k < 20000; ++k) {
                int n = static_cast<int>(rng() % (kTop + 1));
                uint64_t i = rng() % level_size<6>(n);
                ProbeResult<int> v = tb.value(unrank<6>(n, i).pits);
                if (!v.ok() || *v != f.levels[n][i]) ++wrong;
            }
        });
    for (auto& th : threads) th.join();
    CHECK(wrong == 0);
}

TEST_CASE("the C API answers like the C++ API") {
    const Fixture& f = fixture();
    owaredb_tablebase* tb = nullptr;
    REQUIRE(owaredb_open(f.dir.c_str(), "awari", 0, &tb) == OWAREDB_OK);
    Position p = unrank<6>(10, 12345);
    int value = 99;
    CHECK(owaredb_value(tb, p.pits.data(), &value, nullptr, 0) == OWAREDB_OK);
    CHECK(value == f.levels[10][12345]);
    owaredb_analysis analysis{};
    CHECK(owaredb_moves(tb, p.pits.data(), &analysis, nullptr, 0) == OWAREDB_OK);
    CHECK(analysis.value == value);
    const auto legal = legal_moves(f.rules, p);
    REQUIRE(analysis.count == legal.size());
    for (int k = 0; k < analysis.count; ++k) {
        CHECK(analysis.moves[k].pit == legal[k].pit + 1);
        CHECK(analysis.moves[k].captured == legal[k].captured);
    }
    // Nothing is written on an error: a position of a level not in the directory.
    owaredb_analysis untouched{};
    untouched.count = -7;
    const uint8_t eleven[12] = {11};
    CHECK(owaredb_moves(tb, eleven, &untouched, nullptr, 0) == OWAREDB_NOT_AVAILABLE);
    CHECK(untouched.count == -7);
    CHECK(owaredb_moves(tb, p.pits.data(), nullptr, nullptr, 0) == OWAREDB_INVALID_POSITION);
    uint8_t too_many[12] = {49};
    char msg[128] = "";
    CHECK(owaredb_value(tb, too_many, &value, msg, sizeof msg) == OWAREDB_INVALID_POSITION);
    CHECK(std::string(msg).find("48") != std::string::npos);
    CHECK(std::string(owaredb_status_string(OWAREDB_NOT_AVAILABLE)) == "not available");
    owaredb_tablebase* bad = nullptr;
    CHECK(owaredb_open(f.dir.c_str(), "chess", 0, &bad) == OWAREDB_INVALID_RULES);
    owaredb_close(tb);
}

TEST_CASE("the C API's principal variation is the C++ one, cut at max_plies") {
    const Fixture& f = fixture();
    owaredb_tablebase* tb = nullptr;
    REQUIRE(owaredb_open(f.dir.c_str(), "awari", 0, &tb) == OWAREDB_OK);
    Tablebase cpp(f.dir, "awari");
    const Position p = unrank<6>(10, 12345);
    const ProbeResult<PrincipalVariation> want = cpp.principal_variation(p.pits);
    REQUIRE(want.ok());
    REQUIRE(want->steps.size() > 1);
    std::vector<owaredb_pv_step> steps(300);
    owaredb_pv pv{steps.data(), 300, -1, OWAREDB_PV_PLY_LIMIT, {}, 99};
    REQUIRE(owaredb_principal_variation(tb, p.pits.data(), &pv, nullptr, 0) == OWAREDB_OK);
    REQUIRE(pv.count == int(want->steps.size()));
    for (int i = 0; i < pv.count; ++i) {
        const PvStep& s = want->steps[i];
        CHECK(std::equal(s.position.begin(), s.position.end(), steps[i].position));
        CHECK(steps[i].pit == s.pit);
        CHECK(steps[i].captured == s.captured);
        CHECK(steps[i].value == s.value);
    }
    CHECK(int(pv.end) == int(want->end));
    CHECK(std::equal(want->final_position.begin(), want->final_position.end(), pv.final_position));
    CHECK(pv.final_value == want->final_value);
    // Cut after one ply: the position its next move would be played from.
    pv.max_plies = 1;
    REQUIRE(owaredb_principal_variation(tb, p.pits.data(), &pv, nullptr, 0) == OWAREDB_OK);
    CHECK(pv.count == 1);
    CHECK(pv.end == OWAREDB_PV_PLY_LIMIT);
    CHECK(std::equal(want->steps[1].position.begin(), want->steps[1].position.end(),
                     pv.final_position));
    // Errors: a bad buffer, and a missing level with its message.
    pv.max_plies = -1;
    CHECK(owaredb_principal_variation(tb, p.pits.data(), &pv, nullptr, 0) ==
          OWAREDB_INVALID_POSITION);
    owaredb_pv no_room{nullptr, 5, 0, OWAREDB_PV_PLY_LIMIT, {}, 0};
    CHECK(owaredb_principal_variation(tb, p.pits.data(), &no_room, nullptr, 0) ==
          OWAREDB_INVALID_POSITION);
    CHECK(owaredb_principal_variation(tb, p.pits.data(), nullptr, nullptr, 0) ==
          OWAREDB_INVALID_POSITION);
    const uint8_t start[12] = {4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4};
    char msg[256] = "";
    pv.max_plies = 300;
    CHECK(owaredb_principal_variation(tb, start, &pv, msg, sizeof msg) == OWAREDB_NOT_AVAILABLE);
    CHECK(std::string(msg).find("awari-") != std::string::npos);
    owaredb_close(tb);
}

TEST_CASE("the C API opened with rules \"\" or NULL reads the directory's rule set") {
    const Fixture& f = fixture(); // awari files: not the rule set taken when none is found
    const Position p = unrank<6>(10, 12345);
    for (const char* rules : {"", static_cast<const char*>(nullptr)}) {
        owaredb_tablebase* tb = nullptr;
        REQUIRE(owaredb_open(f.dir.c_str(), rules, 0, &tb) == OWAREDB_OK);
        CHECK(std::string(owaredb_rules(tb)) == "awari");
        int value = 99;
        CHECK(owaredb_value(tb, p.pits.data(), &value, nullptr, 0) == OWAREDB_OK);
        CHECK(value == f.levels[10][12345]);
        owaredb_close(tb);
    }
    CHECK(owaredb_rules(nullptr) == nullptr);
    test::TempDir empty, both;
    owaredb_tablebase* tb = nullptr;
    REQUIRE(owaredb_open(empty.path().c_str(), "", 0, &tb) == OWAREDB_OK);
    CHECK(std::string(owaredb_rules(tb)) == "abapa"); // none there: the commands' default
    owaredb_close(tb);
    // Files of two rule sets: none is chosen, for either board argument.
    fs::copy_file(f.dir / "awari-01.owdb", both / "awari-01.owdb");
    fs::copy_file(f.dir / "awari-01.owdb", both / "abapa-01.owdb");
    tb = nullptr;
    CHECK(owaredb_open(both.path().c_str(), "", 0, &tb) == OWAREDB_INVALID_RULES);
    CHECK(owaredb_open_board(both.path().c_str(), nullptr, 0, 0, &tb) == OWAREDB_INVALID_RULES);
    CHECK(tb == nullptr);
    REQUIRE(owaredb_open(both.path().c_str(), "awari", 0, &tb) == OWAREDB_OK);
    owaredb_close(tb);
}

TEST_CASE("the C API's search is the C++ one, its line cut at max_pv") {
    const Fixture& f = fixture();
    owaredb_tablebase* tb = nullptr;
    REQUIRE(owaredb_open(f.dir.c_str(), "awari", 0, &tb) == OWAREDB_OK);
    const Tablebase cpp(f.dir, "awari");
    SearchOptions budget;
    budget.max_nodes = 20000;
    std::vector<int> line(OWAREDB_SEARCH_MAX_DEPTH);
    int lines = 0;
    for (uint64_t i : {100003u, 345678u, 654321u}) { // levels 12 and 11: above the levels built
        for (int n : {12, 11}) {
            const Position p = unrank<6>(n, i);
            const ProbeResult<SearchResult> want = search(cpp, p.pits, budget);
            REQUIRE(want.ok());
            owaredb_search_result s{};
            s.max_nodes = budget.max_nodes;
            s.pv = line.data();
            s.max_pv = OWAREDB_SEARCH_MAX_DEPTH;
            REQUIRE(owaredb_search(tb, p.pits.data(), &s, nullptr, 0) == OWAREDB_OK);
            CHECK(s.proven == int(want->proven));
            CHECK(s.best_move == want->best_move);
            CHECK(s.value == want->value);
            CHECK(s.depth == want->depth);
            CHECK(s.nodes == want->nodes);
            CHECK(std::vector<int>(line.begin(), line.begin() + s.pv_count) == want->pv);
            REQUIRE(s.move_count == int(want->moves.size()));
            for (int k = 0; k < s.move_count; ++k) {
                const SearchMove& m = want->moves[std::size_t(k)];
                CHECK(s.moves[k].pit == m.pit);
                CHECK(s.moves[k].captured == m.captured);
                CHECK(s.moves[k].value == m.value);
                CHECK(s.moves[k].exact == int(m.exact));
                CHECK(s.moves[k].proven == int(m.proven));
            }
            s.max_pv = 1; // cut: the best move only
            REQUIRE(owaredb_search(tb, p.pits.data(), &s, nullptr, 0) == OWAREDB_OK);
            CHECK(s.pv_count == std::min<int>(1, int(want->pv.size())));
            if (!want->pv.empty()) CHECK(line[0] == want->pv[0]);
            lines += want->pv.size() > 1;
        }
    }
    CHECK(lines > 0); // a line of several plies among them, not only one move
    owaredb_close(tb);
}

TEST_CASE("the C API's search refuses a missing budget and bad fields by name") {
    owaredb_tablebase* tb = nullptr;
    REQUIRE(owaredb_open(fixture().dir.c_str(), "awari", 0, &tb) == OWAREDB_OK);
    const uint8_t p[12] = {3, 1, 0, 2, 0, 2, 0, 1, 0, 1, 1, 0};
    auto refused = [&](owaredb_search_result s, const char* words) {
        char msg[256] = "";
        s.proven = s.value = 77; // untouched on error
        CHECK(owaredb_search(tb, p, &s, msg, sizeof msg) == OWAREDB_INVALID_POSITION);
        CHECK_MESSAGE(std::string(msg).find(words) != std::string::npos, msg);
        CHECK((s.proven == 77 && s.value == 77));
    };
    owaredb_search_result s{};
    refused(s, "budget");
    s.max_nodes = 1000;
    s.max_seconds = -1;
    refused(s, "max_seconds -1");
    s.max_seconds = std::nan("");
    refused(s, "max_seconds");
    s.max_seconds = 0;
    s.max_depth = OWAREDB_SEARCH_MAX_DEPTH + 1;
    refused(s, "max_depth 101");
    s.max_depth = 0;
    s.max_pv = 3; // no room given
    refused(s, "max_pv 3");
    s.max_pv = 0;
    CHECK(owaredb_search(tb, p, &s, nullptr, 0) == OWAREDB_OK);
    CHECK(s.best_move >= 1);
    CHECK(s.pv_count == 0);
    // A time budget of centuries is no budget, not one already spent: the node budget
    // decides, as without it.
    const owaredb_search_result by_nodes = s;
    s.max_seconds = 1e12;
    CHECK(owaredb_search(tb, p, &s, nullptr, 0) == OWAREDB_OK);
    CHECK(s.nodes == by_nodes.nodes);
    CHECK(s.depth == by_nodes.depth);
    CHECK(owaredb_search(tb, p, nullptr, nullptr, 0) == OWAREDB_INVALID_POSITION);
    CHECK(owaredb_search(nullptr, p, &s, nullptr, 0) == OWAREDB_INVALID_POSITION);
    owaredb_close(tb);
}

namespace {

// game_state against the rules it is made of, on random positions of a board of P pits.
template <int P> void check_game_state(const Rules& rules, std::mt19937_64& rng) {
    for (int k = 0; k < 500; ++k) {
        const int n = static_cast<int>(rng() % 13);
        const BasicPosition<P> p = unrank<P>(n, rng() % level_size<P>(n));
        const ProbeResult<GameState> s = game_state(rules.name, p.pits);
        REQUIRE(s.ok());
        const BasicMoveList<P> moves = legal_moves(rules, p);
        REQUIRE(s->moves.size() == std::size_t(moves.size()));
        CHECK(s->seeds == n);
        for (int i = 0; i < moves.size(); ++i) {
            CHECK(s->moves[i].pit == moves[i].pit + 1);
            CHECK(s->moves[i].captured == moves[i].captured);
            CHECK(std::equal(moves[i].child.pits.begin(), moves[i].child.pits.end(),
                             s->moves[i].child.begin(), s->moves[i].child.end()));
        }
        CHECK((s->end == GameEnd::None) == !moves.empty());
        CHECK(s->final_value == (moves.empty() ? terminal_value(p) : 0));
        if (moves.empty()) CHECK((s->end == GameEnd::MoverHasNoSeeds) == (p.mover_seeds() == 0));
    }
}

} // namespace

TEST_CASE("game_state: the rules' moves, captures and endings, with no database") {
    std::mt19937_64 rng(50);
    for (const Rules& rules : Rules::presets()) {
        check_game_state<6>(rules, rng);
        check_game_state<3>(rules, rng);
        check_game_state<8>(rules, rng);
    }
    const std::vector<uint8_t> start8(16, 4); // 64 seeds: the start of its own game
    CHECK(game_state("abapa", start8)->moves.size() == 8);
    CHECK(game_state("chess", start8).status() == ProbeStatus::InvalidRules);
    CHECK(game_state("abapa", std::vector<uint8_t>(13, 0)).status() ==
          ProbeStatus::InvalidPosition);
    CHECK(game_state("abapa", std::vector<uint8_t>(12, 5)).status() ==
          ProbeStatus::InvalidPosition);
    CHECK(std::string(to_string(GameEnd::NoMoveFeeds)) == "no move feeds the opponent");
}

TEST_CASE("a Tablebase without a rule set reads the directory's, as the commands choose it") {
    const Fixture& f = fixture(); // awari's levels
    Tablebase tb(f.dir, "");
    CHECK(tb.rules() == "awari");
    CHECK(tb.value(unrank<6>(10, 12345).pits).value() == f.levels[10][12345]);
    const fs::path empty = fs::temp_directory_path() / "owaredb-probe-no-levels";
    fs::create_directories(empty);
    CHECK(Tablebase(empty, "").rules() == "abapa");
    fs::copy_file(f.dir / "awari-01.owdb", empty / "abapa-01.owdb",
                  fs::copy_options::overwrite_existing);
    fs::copy_file(f.dir / "awari-01.owdb", empty / "awari-01.owdb",
                  fs::copy_options::overwrite_existing);
    const ProbeResult<int> several = Tablebase(empty, "").value(Pits{1});
    CHECK(several.status() == ProbeStatus::InvalidRules);
    CHECK(several.message().find("abapa and awari") != std::string::npos);
    fs::remove_all(empty);
    CHECK(directory_problem(empty, "(hint)") ==
          "no database directory '" + empty.string() + "' (hint)");
    CHECK(directory_problem(f.dir).empty());
}

namespace {

// The fixture's levels written capture-bounded (dbformat/README.md, flag bit 0).
struct CompactFixture {
    fs::path dir;
    CompactFixture() {
        const Fixture& f = fixture();
        dir = fs::temp_directory_path() / ("owaredb-probe-compact-" + std::to_string(::getpid()));
        fs::remove_all(dir);
        fs::create_directories(dir);
        std::vector<const int8_t*> smaller;
        for (int n = 0; n <= kTop; ++n) {
            std::vector<int8_t> stored(level_size<6>(n));
            encode_capture_bounded(OwareGame(f.rules), n, f.levels[n].span(), smaller, stored, 2);
            db::LevelMeta meta{f.rules.name, f.rules.knob_bytes(6), uint32_t(n), level_size<6>(n)};
            meta.capture_bounded = true;
            db::write_level(db::level_path(dir, f.rules.name, n), meta, stored,
                            db::WriterOptions{.threads = 2});
            smaller.push_back(f.levels[n].data());
        }
    }
    ~CompactFixture() { fs::remove_all(dir); }
};

const CompactFixture& compact_fixture() {
    static CompactFixture f;
    return f;
}

} // namespace

TEST_CASE("capture-bounded files probe back every exact value, n <= 10") {
    const Fixture& f = fixture();
    Tablebase tb(compact_fixture().dir, "awari");
    Tablebase exact(f.dir, "awari");
    check_every_value(tb, f);
    // Analyses (every move's value) and the start position agree with the exact files.
    std::mt19937_64 rng(7);
    for (int k = 0; k < 2000; ++k) {
        Pits p = unrank<6>(kTop, rng() % level_size<6>(kTop)).pits;
        ProbeResult<PositionInfo> a = tb.analyse(p), b = exact.analyse(p);
        REQUIRE(a.ok());
        REQUIRE(b.ok());
        CHECK(a->value == b->value);
        REQUIRE(a->moves.size() == b->moves.size());
        for (std::size_t m = 0; m < a->moves.size(); ++m)
            CHECK(a->moves[m].value == b->moves[m].value);
    }
}

TEST_CASE("a stored don't-care is the best capture, or corrupt where there is none") {
    const Fixture& f = fixture();
    fs::path dir = fs::temp_directory_path() / ("owaredb-probe-dc-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    const int n = 6;
    for (int k = 0; k < n; ++k)
        fs::copy_file(db::level_path(f.dir, "awari", k), db::level_path(dir, "awari", k));
    // One position with a capture worth its value, one without any capture.
    uint64_t with = level_size<6>(n), without = level_size<6>(n);
    for (uint64_t i = 0;
         i < level_size<6>(n) && (with == level_size<6>(n) || without == level_size<6>(n)); ++i) {
        Position p = unrank<6>(n, i);
        if (legal_moves(f.rules, p).empty()) continue;
        int e = best_capture_value(OwareGame(f.rules), p, [&](int level, const Position& c) {
            return int(f.levels[level][rank(c)]);
        });
        if (e == f.levels[n][i] && with == level_size<6>(n)) with = i;
        if (e == kNoMove && without == level_size<6>(n)) without = i;
    }
    REQUIRE(with < level_size<6>(n));
    REQUIRE(without < level_size<6>(n));
    std::vector<int8_t> values(f.levels[n].span().begin(), f.levels[n].span().end());
    values[with] = db::kDontCare;
    values[without] = db::kDontCare;
    db::write_level(db::level_path(dir, "awari", n),
                    {"awari", f.rules.knob_bytes(6), uint32_t(n), level_size<6>(n)}, values,
                    db::WriterOptions{.threads = 2});
    Tablebase tb(dir, "awari");
    CHECK(*tb.value(unrank<6>(n, with).pits) == f.levels[n][with]);
    ProbeResult<int> bad = tb.value(unrank<6>(n, without).pits);
    CHECK(bad.status() == ProbeStatus::Corrupt);
    fs::remove_all(dir);
}

TEST_CASE("batch values equal single probes, mixed inputs, exact and compact files, C API") {
    const Fixture& f = fixture();
    // In the databases, outside them (one ply), too many seeds, a missing level (> kTop).
    std::mt19937_64 rng(11);
    std::vector<Pits> positions;
    for (int k = 0; k < 3000; ++k) {
        Pits p{};
        const int seeds = k % 50 == 0 ? 49 : k % 37 == 0 ? kTop + 1 : int(rng() % (kTop + 1));
        for (int s = 0; s < seeds; ++s) ++p[rng() % 12];
        positions.push_back(p);
    }
    for (const fs::path& dir : {f.dir, compact_fixture().dir}) {
        CAPTURE(dir);
        Tablebase tb(dir, "awari");
        std::vector<ProbeResult<int>> batch(positions.size(), ProbeResult<int>(0));
        tb.values(positions, batch);
        uint64_t differ = 0, ok = 0;
        for (std::size_t i = 0; i < positions.size(); ++i) {
            ProbeResult<int> single = tb.value(positions[i]);
            ok += single.ok();
            differ += single.ok() != batch[i].ok() ||
                      (single.ok() ? *single != *batch[i] : single.status() != batch[i].status());
        }
        CHECK(differ == 0);
        CHECK(ok > positions.size() / 2);
        // The C API's batch call gives the same values and statuses.
        owaredb_tablebase* c = nullptr;
        REQUIRE(owaredb_open(dir.c_str(), "awari", 0, &c) == OWAREDB_OK);
        std::vector<uint8_t> flat;
        for (const Pits& p : positions) flat.insert(flat.end(), p.begin(), p.end());
        std::vector<int> values(positions.size());
        std::vector<owaredb_status> statuses(positions.size());
        CHECK(owaredb_values(c, flat.data(), positions.size(), values.data(), statuses.data()) !=
              OWAREDB_OK); // some positions are invalid or not available
        uint64_t c_differ = 0;
        for (std::size_t i = 0; i < positions.size(); ++i)
            c_differ += statuses[i] != static_cast<owaredb_status>(batch[i].status()) ||
                        (batch[i].ok() && values[i] != *batch[i]);
        CHECK(c_differ == 0);
        owaredb_close(c);
    }
}
