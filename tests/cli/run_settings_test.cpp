// The run's settings, resolved once (cli/run_settings.hpp): the threads, always at least 1,
// and the memory budget per process; and the one mode plan (mode_plan.hpp) that generate
// (kBuildFootprint) and verify and stats (kReadFootprint) take each level's mode from.
#include "cli/command.hpp"
#include "cli/run_settings.hpp"
#include "generate/preflight.hpp"
#include "mode_plan.hpp"

#include <doctest/doctest.h>

#include <stdexcept>
#include <string>

namespace {

using namespace owaredb;
using namespace owaredb::cli;

constexpr uint64_t kMebi = uint64_t(1) << 20;

} // namespace

TEST_CASE("resolve_threads: the count asked for, else one per core, never below 1") {
    CHECK(resolve_threads(1) == 1);
    CHECK(resolve_threads(3) == 3);
    CHECK(resolve_threads(0) >= 1);
    CHECK(resolve_threads(-2) >= 1);
}

TEST_CASE("resolve_memory_budget: --memory as given, per process; else a node's share") {
    const MemoryBudget given = resolve_memory_budget("600M", 4);
    CHECK(given.bytes == 600 * kMebi); // --memory is already per rank
    CHECK(given.given);
    const MemoryBudget alone = resolve_memory_budget("", 1);
    CHECK_FALSE(alone.given);
    const MemoryBudget shared = resolve_memory_budget("", 4);
    CHECK_FALSE(shared.given);
    // MemAvailable moves between the two reads, but not by half.
    if (alone.bytes != 0) CHECK(shared.bytes < alone.bytes / 2);
    CHECK_THROWS_WITH_AS(resolve_memory_budget("lots", 1), doctest::Contains("--memory"),
                         UsageError);
}

TEST_CASE("mode plan: forced, or in memory while levels 0..n fit, then streamed") {
    const MemoryBudget none{};
    ModePlan unlimited("auto", none, 6, kBuildFootprint);
    CHECK(unlimited.mode(40) == LevelMode::InMemory); // no budget: nothing is checked
    ModePlan forced("streamed", none, 6, kBuildFootprint);
    CHECK(forced.forced());
    CHECK(forced.mode(3) == LevelMode::Streamed);
    CHECK_THROWS_AS(ModePlan("fast", none, 6, kReadFootprint), UsageError);

    // A budget between what level 20 takes in memory for verify (a byte a position) and
    // for generate (2 bytes of working state): generate streams level 20, verify does not.
    ModePlan build("auto", {}, 6, kBuildFootprint);
    ModePlan read("auto", {}, 6, kReadFootprint);
    const uint64_t between = (build.in_memory_bytes(20) + read.in_memory_bytes(20)) / 2;
    REQUIRE(read.in_memory_bytes(20) < between);
    const MemoryBudget budget{between, true};
    ModePlan generate("auto", budget, 6, kBuildFootprint);
    ModePlan verify("auto", budget, 6, kReadFootprint);
    CHECK(generate.mode(19) == LevelMode::InMemory);
    CHECK(generate.mode(20) == LevelMode::Streamed);
    CHECK(generate.mode(21) == LevelMode::Streamed);
    CHECK_FALSE(verify.streamed(20));
    CHECK(verify.streamed(21));
    CHECK(generate.mode(30) == LevelMode::Wld); // nor do 8 or 4 bits a position of level 30
    CHECK_THROWS_WITH_AS(check_plan(generate, 30), doctest::Contains("streamed-2bit mode"),
                         std::runtime_error);
}

TEST_CASE("mode plan: streamed-4bit from the first level whose byte a position does not fit") {
    // Awari 38: 23.4 G positions; 20 GiB holds 4 bits a position, not a byte.
    const MemoryBudget budget{uint64_t(20) << 30, true};
    ModePlan generate("auto", budget, 6, kBuildFootprint);
    CHECK(streamed_word_bytes(38, 8, 6) > budget.bytes);
    CHECK(streamed_word_bytes(38, 4, 6) < budget.bytes);
    CHECK(generate.mode(36) == LevelMode::Streamed); // 14.3 G positions: a byte fits
    CHECK(generate.mode(38) == LevelMode::Nibble);
    CHECK(generate.streamed(38));
    CHECK(std::string(mode_name(LevelMode::Nibble)) == "streamed-4bit");
    CHECK_NOTHROW(check_plan(generate, 38));
    CHECK(generate.mode(42) == LevelMode::Wld); // 4 bits a position of level 42 do not fit
    CHECK_NOTHROW(check_plan(generate, 42));
    CHECK_THROWS_WITH_AS(check_plan(generate, 46), doctest::Contains("streamed-2bit mode"),
                         std::runtime_error);
    // verify and stats have no 4-bit mode: they stream with a byte.
    ModePlan verify("auto", budget, 6, kReadFootprint);
    CHECK(verify.mode(38) == LevelMode::Streamed);
    CHECK_THROWS_WITH_AS(ModePlan("streamed-4bit", budget, 6, kReadFootprint),
                         doctest::Contains("--mode must be auto, in-memory or streamed,"),
                         UsageError);
    CHECK_THROWS_AS(ModePlan("streamed-2bit", budget, 6, kReadFootprint), UsageError);
    // Forced; and not on a board of 7 pits a side, whose positions have 7 moves.
    CHECK(ModePlan("streamed-4bit", {}, 6, kBuildFootprint).mode(3) == LevelMode::Nibble);
    CHECK_THROWS_WITH_AS(ModePlan("streamed-4bit", {}, 7, kBuildFootprint),
                         doctest::Contains("has no streamed-4bit mode"), UsageError);
    ModePlan seven("auto", budget, 7, kBuildFootprint);
    CHECK(seven.mode(38) == LevelMode::Streamed);
}

// What a streamed level holds beside its words grows with the level: the index of the scan
// store's generation being written (24 bytes a chunk of 16,384 positions) and the block
// indexes of the smaller levels' files it reads (16 bytes a block). Uncounted, they let
// `--plan --memory 64G` put awari 46 in 4 bits a position (63.8 GiB), which needs 0.3 GiB
// more.
TEST_CASE("streamed_word_bytes: the words, the scan store's index, the smaller files' indexes") {
    const uint64_t size = 136883249790;       // awari 46
    const uint64_t scan_index = 8354691 * 24; // ceil(size / 16384) chunks
    const uint64_t byte_word = streamed_word_bytes(46, 8, 6),
                   nibble = streamed_word_bytes(46, 4, 6);
    CHECK(nibble - size / 2 == byte_word - size + scan_index);
    CHECK(streamed_word_bytes(46, 2, 6) - (size + 3) / 4 == byte_word - size + scan_index);
    // The readers of levels 28..44 (46 - 18 .. 46 - 2, the levels a capture reaches): 16
    // bytes a block, of 65,536 positions from 2 Gi positions on (levels 30..44), of 16,384
    // below (28, 29), summed over their sizes: 108,386,928 bytes.
    const uint64_t readers = byte_word - size - 56 * kMebi; // the fixed margin
    CHECK(readers == 108386928);
    const MemoryBudget workstation{uint64_t(64) << 30, true};
    CHECK(nibble > workstation.bytes);
    CHECK(ModePlan("auto", workstation, 6, kBuildFootprint).mode(46) == LevelMode::Wld);
    CHECK(ModePlan("auto", workstation, 6, kBuildFootprint).mode(45) == LevelMode::Nibble);
}

// What each thread of generate holds grows with the threads, and counts past the 2 that
// the fixed margins hold: a propagation stack at its limit (2^18 entries of 24 bytes: an
// index and a position of up to 16 pits, padded), streamed a decoded block of each smaller
// level a capture reaches, and with 4 or 2 bits 65,536 spilled parents of 8 bytes.
TEST_CASE("build_thread_bytes: a stack, a block of each smaller level, the spill's memory") {
    const uint64_t stack = (uint64_t(1) << 18) * 24;
    CHECK(build_thread_bytes(46, 16, 6) == stack);
    // Levels 28..44: blocks of 65,536 positions from level 30 on, of 16,384 below.
    const uint64_t blocks = 15 * 65536 + 2 * 16384;
    CHECK(build_thread_bytes(46, 8, 6) == stack + blocks);
    CHECK(build_thread_bytes(46, 4, 6) == stack + blocks + 65536 * 8);
    CHECK(build_thread_bytes(46, 2, 6) == stack + blocks + 65536 * 8);
    // 32 threads: 30 threads' worth more than the margin holds, at level 46 7.8 MB each.
    const MemoryBudget workstation{uint64_t(64) << 30, true};
    ModePlan plan("auto", workstation, 6, kBuildFootprint);
    CHECK(plan.streamed_bytes(46, 2) == streamed_word_bytes(46, 2, 6));
    CHECK(plan.in_memory_bytes(20) == in_memory_bytes(20, 2, 1, 6));
    plan.set_build_threads(32);
    CHECK(plan.streamed_bytes(46, 2) == streamed_word_bytes(46, 2, 6) + 30 * 7831552);
    CHECK(plan.in_memory_bytes(20) == in_memory_bytes(20, 2, 1, 6) + 30 * stack);
    CHECK(plan.mode(46) == LevelMode::Wld);
    plan.set_build_threads(1); // fewer than the margin holds: nothing taken off
    CHECK(plan.streamed_bytes(46, 2) == streamed_word_bytes(46, 2, 6));
}

TEST_CASE("mode plan: a board generate cannot stream stays in memory; verify streams it") {
    const MemoryBudget small{200 * kMebi, true};
    ModePlan generate("auto", small, 8, kBuildFootprint);
    CHECK_FALSE(generate.streams());
    // Level 14 on 8 pits a side: 77.5 M positions, over 300 MB in memory.
    CHECK(generate.mode(14) == LevelMode::InMemory);
    CHECK_THROWS_WITH_AS(check_plan(generate, 14), doctest::Contains("no streamed mode"),
                         std::runtime_error);
    CHECK_THROWS_WITH_AS(ModePlan("streamed", small, 8, kBuildFootprint),
                         doctest::Contains("has no streamed mode"), UsageError);
    ModePlan verify("streamed", small, 6, kReadFootprint);
    verify.set_board(8);
    CHECK(verify.streamed(12));
    ModePlan later("streamed", small, 6, kBuildFootprint);
    CHECK_THROWS_AS(later.set_board(8), UsageError);
}

TEST_CASE("mode plan: streamed-2bit from the first level whose 4 bits a position do not fit") {
    // Awari 38: 23.4 G positions; 8 GiB holds 2 bits a position, not 4.
    const MemoryBudget budget{uint64_t(8) << 30, true};
    ModePlan generate("auto", budget, 6, kBuildFootprint);
    CHECK(streamed_word_bytes(38, 4, 6) > budget.bytes);
    CHECK(streamed_word_bytes(38, 2, 6) < budget.bytes);
    CHECK(generate.mode(33) == LevelMode::Streamed);
    CHECK(generate.mode(36) == LevelMode::Nibble); // 14.3 G positions: 4 bits fit
    CHECK(generate.mode(38) == LevelMode::Wld);
    CHECK(generate.streamed(38));
    CHECK(std::string(mode_name(LevelMode::Wld)) == "streamed-2bit");
    CHECK_NOTHROW(check_plan(generate, 38));
    CHECK(plan_memory_bytes(generate, 38) == streamed_word_bytes(38, 2, 6));
    // Forced; and not on a board of 7 pits a side.
    CHECK(ModePlan("streamed-2bit", {}, 6, kBuildFootprint).mode(3) == LevelMode::Wld);
    CHECK_THROWS_WITH_AS(ModePlan("streamed-2bit", {}, 7, kBuildFootprint),
                         doctest::Contains("has no streamed-2bit mode"), UsageError);
    ModePlan seven("auto", budget, 7, kBuildFootprint);
    CHECK(seven.mode(38) == LevelMode::Streamed);
}
