// The public header's contract where it needs no database: ProbeResult's default state and
// its accessors on the alternative it does not hold, and the version query (C and C++).
//
// ProbeResult::value() checks its precondition with assert(), which the caller's NDEBUG
// switches, so this file is built twice (tests/probe/CMakeLists.txt): probe_api_tests with
// NDEBUG, where a violation must return a value-initialized T, and probe_api_assert_tests
// with OWAREDB_TEST_ASSERTS, where it must abort. Set here, before any include, so that the
// build type does not decide which one is tested.
#ifdef OWAREDB_TEST_ASSERTS
#undef NDEBUG
#elif !defined(NDEBUG)
#define NDEBUG
#endif

#include "owaredb/probe.h"
#include "owaredb/probe.hpp"

#include <doctest/doctest.h>

#include <csignal>
#include <cstring>
#include <filesystem>
#include <string>
#include <sys/wait.h>
#include <type_traits>
#include <unistd.h>
#include <utility>
#include <vector>

using namespace owaredb;

namespace {

// Every accessor is noexcept, whichever alternative is held (the header's promise that
// only std::bad_alloc escapes the library).
static_assert(noexcept(std::declval<const ProbeResult<int>&>().value()));
static_assert(noexcept(*std::declval<const ProbeResult<int>&>()));
static_assert(noexcept(std::declval<const ProbeResult<BoundsInfo>&>().operator->()));
static_assert(noexcept(std::declval<const ProbeResult<int>&>().error()));
static_assert(noexcept(std::declval<const ProbeResult<int>&>().status()));
static_assert(noexcept(std::declval<const ProbeResult<int>&>().message()));
static_assert(noexcept(owaredb::version()));
static_assert(std::is_default_constructible_v<ProbeResult<int>>);
static_assert(std::is_default_constructible_v<ProbeResult<PositionInfo>>);
static_assert(std::is_default_constructible_v<ProbeResult<PrincipalVariation>>);
static_assert(std::is_default_constructible_v<ProbeResult<Bounds>>);
static_assert(std::is_default_constructible_v<ProbeResult<BoundsInfo>>);

const ProbeError kMissing{ProbeStatus::NotAvailable, "abapa-07.owdb: no such file"};

// An ok() result answers no error: status Ok, an empty message, error() {Ok, ""}.
template <class T> void check_no_error(const ProbeResult<T>& r) {
    CHECK(r.ok());
    CHECK(static_cast<bool>(r));
    CHECK(r.status() == ProbeStatus::Ok);
    CHECK(r.message().empty());
    CHECK(r.error().status == ProbeStatus::Ok);
    CHECK(r.error().message.empty());
}

// An error result: its status and message, through both status()/message() and error().
template <class T> void check_error(const ProbeResult<T>& r) {
    CHECK_FALSE(r.ok());
    CHECK_FALSE(static_cast<bool>(r));
    CHECK(r.status() == kMissing.status);
    CHECK(r.message() == kMissing.message);
    CHECK(r.error().status == kMissing.status);
    CHECK(r.error().message == kMissing.message);
}

#ifdef OWAREDB_TEST_ASSERTS
// Whether f() dies of SIGABRT (a failed assert) in a child process.
template <class F> bool aborts(F&& f) {
    const pid_t pid = ::fork();
    if (pid == 0) {
        // The assert's message is expected, and doctest's crash report would go to the
        // shared output: keep both out.
        std::signal(SIGABRT, SIG_DFL);
        ::close(2);
        f();
        ::_exit(0);
    }
    int status = 0;
    if (pid < 0 || ::waitpid(pid, &status, 0) != pid) return false;
    return WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT;
}
#endif

} // namespace

TEST_CASE("a default-constructed result is ok() and holds a value-initialized T") {
    const ProbeResult<int> v;
    check_no_error(v);
    CHECK(*v == 0);

    const ProbeResult<PositionInfo> info;
    check_no_error(info);
    CHECK(info->seeds == 0);
    CHECK(info->value == 0);
    CHECK_FALSE(info->terminal);
    CHECK(info->moves.empty());
    CHECK(info->best.empty());

    const ProbeResult<PrincipalVariation> pv;
    check_no_error(pv);
    CHECK(pv->steps.empty());
    CHECK(pv->final_position == Pits{});
    CHECK(pv->end == PvEnd::PlyLimit);
    CHECK(pv->final_value == 0);

    const ProbeResult<Bounds> b;
    check_no_error(b);
    CHECK(b->seeds == 0);
    CHECK(b->gM == 0);
    CHECK(b->gN == 0);
    CHECK_FALSE(b->exact);

    const ProbeResult<BoundsInfo> bi;
    check_no_error(bi);
    CHECK(bi->bounds.gM == 0);
    CHECK_FALSE(bi->terminal);
    CHECK(bi->moves.empty());
}

TEST_CASE("default-constructed results are placeholders that values() overwrites") {
    // No level files at all: every answer is an error, so each default was replaced.
    const std::filesystem::path none =
        std::filesystem::temp_directory_path() / ("owaredb-api-test-" + std::to_string(::getpid()));
    const Tablebase tb(none, "abapa");
    const std::vector<Pits> positions(5, Pits{1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 0});
    std::vector<ProbeResult<int>> results(positions.size());
    tb.values(positions, results);
    for (const ProbeResult<int>& r : results) CHECK(r.status() == ProbeStatus::NotAvailable);
    // Sizes differ: every result is InvalidPosition.
    std::vector<ProbeResult<int>> fewer(3);
    tb.values(positions, fewer);
    for (const ProbeResult<int>& r : fewer) CHECK(r.status() == ProbeStatus::InvalidPosition);
}

TEST_CASE("error() on an ok result is {Ok, \"\"}, in every build") {
    check_no_error(ProbeResult<int>(7));
    check_no_error(ProbeResult<Bounds>(Bounds{12, 4, 4, false}));
    const ProbeResult<int> seven(7);
    CHECK(*seven == 7);
    CHECK(seven.value() == 7);
}

TEST_CASE("an error result's status and message") {
    check_error(ProbeResult<int>(kMissing));
    check_error(ProbeResult<PositionInfo>(kMissing));
    check_error(ProbeResult<PrincipalVariation>(kMissing));
    check_error(ProbeResult<Bounds>(kMissing));
    check_error(ProbeResult<BoundsInfo>(kMissing));
}

#ifndef OWAREDB_TEST_ASSERTS
TEST_CASE("with NDEBUG, value() on an error returns a value-initialized T, no throw") {
    const ProbeResult<int> v(kMissing);
    CHECK_NOTHROW((void)v.value());
    CHECK(v.value() == 0);
    CHECK(*v == 0);
    const ProbeResult<PositionInfo> info(kMissing);
    CHECK(info->moves.empty());
    CHECK(info->value == 0);
    CHECK(&*info == &info.value());
    const ProbeResult<PrincipalVariation> pv(kMissing);
    CHECK(pv->steps.empty());
    CHECK(pv->end == PvEnd::PlyLimit);
    const ProbeResult<BoundsInfo> bi(kMissing);
    CHECK(bi->moves.empty());
    CHECK(bi->bounds.gM == 0);
    // The result still says it is an error.
    check_error(v);
    check_error(info);
}
#else
TEST_CASE("without NDEBUG, value() on an error fails its assert") {
    const ProbeResult<int> v(kMissing);
    CHECK(aborts([&] { (void)v.value(); }));
    CHECK(aborts([&] { (void)*v; }));
    const ProbeResult<PositionInfo> info(kMissing);
    CHECK(aborts([&] { (void)info->moves.size(); }));
    // On an ok result nothing aborts: the check itself works.
    const ProbeResult<int> seven(7);
    CHECK_FALSE(aborts([&] { (void)seven.value(); }));
    CHECK_FALSE(aborts([&] { (void)v.error(); }));
}
#endif

TEST_CASE("the version: C and C++ agree, and it is the CMake project's") {
    const char* cpp = owaredb::version();
    const char* c = owaredb_version();
    REQUIRE(cpp != nullptr);
    REQUIRE(c != nullptr);
    CHECK(std::strlen(cpp) > 0);
    CHECK(std::string(cpp) == c);
    CHECK(std::string(cpp) == OWAREDB_EXPECTED_VERSION);
    // MAJOR.MINOR.PATCH, digits only.
    int dots = 0;
    for (const char* p = cpp; *p; ++p) {
        dots += *p == '.';
        CHECK_MESSAGE((*p == '.' || (*p >= '0' && *p <= '9')), cpp);
    }
    CHECK(dots == 2);
}

TEST_CASE("position_text: the pit counts, one space between two, on any board") {
    const Pits start{4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4};
    CHECK(position_text(start) == "4 4 4 4 4 4 4 4 4 4 4 4");
    const BoardPits three{0, 12, 3, 48, 1, 0};
    CHECK(position_text(three) == "0 12 3 48 1 0");
    CHECK(position_text(BoardPits{}).empty());
}

TEST_CASE("generate_command: the flags it is given, in one order, the directory one shell word") {
    CHECK(generate_command("abapa", 6, 12, "/data/db") ==
          "owaredb generate --rules abapa --max-seeds 12 --dir /data/db");
    CHECK(generate_command("awari", 4, 9, "db") ==
          "owaredb generate --rules awari --pits 4 --max-seeds 9 --dir db");
    // Without rules or a directory: the hint inside a message that names neither.
    CHECK(generate_command({}, 3, 5, {}) == "owaredb generate --pits 3 --max-seeds 5");
    CHECK(generate_command({}, 6, 48, {}) == "owaredb generate --max-seeds 48");
    // A directory a shell would split or expand is quoted, its own quotes as '\''.
    CHECK(generate_command("abapa", 6, 1, "my dbs/it's") ==
          "owaredb generate --rules abapa --max-seeds 1 --dir 'my dbs/it'\\''s'");
    CHECK(generate_command("abapa", 6, 1, "a$b") ==
          "owaredb generate --rules abapa --max-seeds 1 --dir 'a$b'");
    CHECK(generate_command("abapa", 6, 1, "x_y.z-1+2,3:4=5@6") ==
          "owaredb generate --rules abapa --max-seeds 1 --dir x_y.z-1+2,3:4=5@6");
    // The bound files: "--bounds", before the directory.
    CHECK(generate_command("awari", 4, 9, "db", LevelFiles::Bounds) ==
          "owaredb generate --rules awari --pits 4 --max-seeds 9 --bounds --dir db");
    CHECK(generate_command({}, 6, 3, {}, LevelFiles::Bounds) ==
          "owaredb generate --max-seeds 3 --bounds");
    CHECK(generate_command("awari", 6, 3, {}, LevelFiles::Values) ==
          "owaredb generate --rules awari --max-seeds 3");
}
