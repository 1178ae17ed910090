// The scan store on disk (tablebase/scan_files.hpp): generations written from several
// threads in any order read back as written, every one kept, older ones too; a damaged
// chunk, index or footer is refused, never used; a planted symlink is replaced, not
// followed; dropped generations go, a pinned one once another is pinned; resume opens
// several generations by their checksums; and the engines over it give the in-memory
// engine's bytes, their full stacks spilling to its spill files or not.
#include "dbformat/checkpoint.hpp"
#include "flip_byte.hpp"
#include "oware/oware_game.hpp"
#include "retro/nibble_retrograde.hpp"
#include "retro/retrograde.hpp"
#include "retro/wld_retrograde.hpp"
#include "tablebase/scan_files.hpp"
#include "temp_dir.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <numeric>
#include <string>
#include <vector>

using namespace owaredb;

namespace {

constexpr uint64_t kChunk = 1000;

std::vector<int8_t> pattern(uint64_t size, int seed) {
    std::vector<int8_t> bytes(size);
    for (uint64_t i = 0; i < size; ++i) bytes[i] = static_cast<int8_t>((i * 7 + seed) % 13 - 6);
    return bytes;
}

// Writes generation g of `bytes` (chunks in reverse order, two threads) and returns its sum.
uint64_t write_generation(ScanFiles& store, uint64_t g, const std::vector<int8_t>& bytes) {
    store.begin(g, bytes.size(), kChunk);
    const int64_t chunks = int64_t((bytes.size() + kChunk - 1) / kChunk);
#pragma omp parallel for num_threads(2)
    for (int64_t k = chunks - 1; k >= 0; --k) {
        const uint64_t begin = uint64_t(k) * kChunk;
        const uint64_t size = std::min<uint64_t>(kChunk, bytes.size() - begin);
        store.write(uint64_t(k), {bytes.data() + begin, size});
    }
    return store.end();
}

std::vector<int8_t> read_generation(const ScanFiles& store, uint64_t g, uint64_t size) {
    std::vector<int8_t> out(size);
    for (uint64_t k = 0; k * kChunk < size; ++k)
        store.read(g, k, {out.data() + k * kChunk, std::min<uint64_t>(kChunk, size - k * kChunk)});
    return out;
}

} // namespace

TEST_CASE("scan files: every generation kept reads back; drop, pin; resume refuses damage") {
    test::TempDir dir;
    const auto level = dir / "awari-20.owdb";
    const uint64_t size = 10 * kChunk + 123;
    const std::vector<int8_t> first = pattern(size, 1), second = pattern(size, 2),
                              third = pattern(size, 3);
    auto exists = [&](uint64_t g) { return std::filesystem::exists(db::scan_file_path(level, g)); };
    ScanFiles store(level);
    const uint64_t sum1 = write_generation(store, 1, first);
    store.pin();
    const uint64_t sum2 = write_generation(store, 2, second);
    const uint64_t sum3 = write_generation(store, 3, third);
    CHECK(sum1 != sum2);
    // Every generation ended stays readable, the older ones too (the nibble engine's exits).
    CHECK(read_generation(store, 1, size) == first);
    CHECK(read_generation(store, 2, size) == second);
    CHECK(read_generation(store, 3, size) == third);
    // Dropping: 2 goes at once; 1, pinned, stays until another is pinned.
    store.drop(2);
    CHECK(!exists(2));
    CHECK_THROWS_AS(read_generation(store, 2, size), std::logic_error);
    store.drop(1);
    CHECK(exists(1));
    store.pin(); // pins 3
    CHECK(!exists(1));
    CHECK(exists(3));
    // Written again (the chunks land in another order, so the index, and with it the
    // generation's checksum, may differ from the first time's: it names this file).
    const uint64_t sum2b = write_generation(store, 2, second);
    CHECK(read_generation(store, 2, size) == second);
    const uint64_t sum1b = write_generation(store, 1, first);

    // Another process resumes several generations, each by its checksum.
    ScanFiles resumed(level);
    CHECK(!resumed.resume(2, size + 1, kChunk));
    CHECK(!resumed.resume(2, size, kChunk + 1));
    CHECK(!resumed.resume(4, size, kChunk)); // missing
    CHECK(resumed.resume(1, size, kChunk) == sum1b);
    CHECK(resumed.resume(2, size, kChunk) == sum2b);
    CHECK(resumed.resume(3, size, kChunk) == sum3);
    CHECK(read_generation(resumed, 1, size) == first);
    CHECK(read_generation(resumed, 3, size) == third);
    CHECK(read_generation(resumed, 2, size) == second);

    // A damaged chunk is named when read; a damaged index or footer refuses the resume.
    const uint64_t file_size = std::filesystem::file_size(db::scan_file_path(level, 2));
    const uint64_t payload = file_size - (size / kChunk + 1) * 24 - 48;
    test::flip_byte(db::scan_file_path(level, 2), payload / 2);
    CHECK_THROWS_WITH_AS(read_generation(resumed, 2, size), doctest::Contains("is damaged"),
                         std::runtime_error);
    for (const uint64_t from_end : {uint64_t(3), uint64_t(30), uint64_t(200)}) {
        ScanFiles again(level);
        CHECK(again.resume(3, size, kChunk) == sum3);
        test::flip_byte(db::scan_file_path(level, 2), file_size - from_end);
        CHECK(!again.resume(2, size, kChunk));
        test::flip_byte(db::scan_file_path(level, 2), file_size - from_end);
    }
    resumed.remove_all();
    CHECK(std::filesystem::is_empty(dir.path()));
}

// The nibble engine keeps the exits and a bitmap a threshold until the level is written:
// n + 1 generations, whose indexes (24 bytes a chunk of 16,384 positions) would take 9 GB
// at awari 46 if each stayed in memory. Only the generation being written holds its index
// in memory; an ended one's entries are read from its file, checked before they are used.
TEST_CASE("scan files: only the generation written holds its index in memory") {
    test::TempDir dir;
    const auto level = dir / "awari-20.owdb";
    const uint64_t size = 10 * kChunk + 123, chunks = 11;
    const std::vector<int8_t> first = pattern(size, 1), second = pattern(size, 2);
    ScanFiles store(level);
    CHECK(store.index_memory() == 0);
    store.begin(1, size, kChunk);
    CHECK(store.index_memory() == chunks * 24);
    for (uint64_t k = 0; k < chunks; ++k)
        store.write(k, {first.data() + k * kChunk, std::min<uint64_t>(kChunk, size - k * kChunk)});
    store.end();
    CHECK(store.index_memory() == 0);
    write_generation(store, 2, second);
    CHECK(store.index_memory() == 0);
    CHECK(read_generation(store, 1, size) == first);
    CHECK(read_generation(store, 2, size) == second);

    // A damaged entry of an ended generation is named when its chunk is read, whichever
    // field it hits: an offset or a size past the chunks' bytes, or a checksum that does
    // not match.
    const auto path = db::scan_file_path(level, 2);
    const uint64_t index_at = std::filesystem::file_size(path) - chunks * 24 - 48;
    for (const uint64_t field : {uint64_t(5), uint64_t(8 + 3), uint64_t(16)}) {
        const uint64_t at = index_at + 4 * 24 + field; // chunk 4's entry
        test::flip_byte(path, at);
        CHECK_THROWS_WITH_AS(read_generation(store, 2, size), doctest::Contains("chunk 4 "),
                             std::runtime_error);
        test::flip_byte(path, at);
    }
    CHECK(read_generation(store, 2, size) == second);
    // Resumed generations read theirs from the file too.
    ScanFiles resumed(level);
    CHECK(resumed.resume(2, size, kChunk));
    CHECK(resumed.index_memory() == 0);
    CHECK(read_generation(resumed, 2, size) == second);
}

TEST_CASE("scan files: a planted symlink is replaced, its target untouched") {
    test::TempDir dir;
    const auto level = dir / "abapa-13.owdb";
    { std::ofstream(dir / "victim") << "precious"; }
    std::filesystem::create_symlink(dir / "victim", db::scan_file_path(level, 0));
    ScanFiles store(level);
    write_generation(store, 0, pattern(3 * kChunk, 3));
    std::ifstream victim(dir / "victim");
    std::string text;
    victim >> text;
    CHECK(text == "precious");
    CHECK(!std::filesystem::is_symlink(db::scan_file_path(level, 0)));
}

TEST_CASE("scan files: the nibble and WLD engines over them give the in-memory engine's bytes") {
    test::TempDir dir;
    const OwareGame game(Rules::awari());
    const int max_n = 11;
    const auto ref = sweep::solve_levels_in_memory<RetrogradeSolver>(game, max_n, 2);
    auto check = [&]<class Solver>(int n) {
        InMemorySmallerLevels smaller(level_pointers(ref, n));
        ScanFiles store(dir / ("awari-" + std::to_string(n) + ".owdb"));
        Solver solver(game, smaller, store, 2, 2 * sweep::kChunk);
        if (n == 10) { // full stacks spill past 2 entries to the level's spill files
            solver.set_stack_limit(2);
            solver.set_spill_memory(2);
        }
        solver.solve(n);
        const ValueArray values = solver.values();
        CHECK(std::equal(values.data(), values.data() + values.size(), ref[n].data()));
        if (n == 10) CHECK(solver.spilled_peak() > 2); // so blocks went to a spill file
        store.remove_all();
    };
    for (int n = 9; n <= max_n; ++n) {
        CAPTURE(n);
        check.operator()<NibbleRetrogradeSolver<OwareGame>>(n);
        if (n == 9) check.operator()<WldRetrogradeSolver<OwareGame>>(n); // the 2-bit is slower
    }
    CHECK(std::filesystem::is_empty(dir.path()));
}
