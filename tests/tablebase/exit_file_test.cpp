// The streamed engine's exit file on disk (tablebase/streamed_files.hpp): compressed chunks
// read back as appended, in any range and from several threads; resume at every sync point
// goes on to the same file; its checksum is XXH3-64 of the exit bytes (what checkpoints
// record); a damaged or cut chunk is refused naming the file, never used; an uncompressed
// exit file of an earlier build is not resumed from.
#include "dbformat/checksum.hpp"
#include "flip_byte.hpp"
#include "tablebase/streamed_files.hpp"
#include "temp_dir.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

using namespace owaredb;

namespace {

// Exits as a level has them: mostly none, the others small values.
std::vector<int8_t> exits_like(uint64_t size) {
    std::mt19937_64 rng(7);
    std::vector<int8_t> exits(size);
    for (int8_t& e : exits)
        e = rng() % 4 == 0 ? static_cast<int8_t>(int(rng() % 25) - 12) : ExitStore::kNoExit;
    return exits;
}

// The pieces append() gets and after which of them sync() is called: full chunks, pieces
// that straddle chunks, and syncs that leave short chunks.
struct Piece {
    uint64_t size;
    bool sync;
};
const std::vector<Piece> kPieces = {{5000, true}, {40000, false}, {16384, true},    {70000, true},
                                    {1, true},    {30000, false}, {2 * 16384, true}};

struct SyncPoint {
    uint64_t size, checksum;
};

// Appends kPieces from piece `from` on, starting at position `at`; returns the sync points.
std::vector<SyncPoint> append_pieces(ExitFile& file, const std::vector<int8_t>& exits, size_t from,
                                     uint64_t at) {
    std::vector<SyncPoint> points;
    for (size_t p = from; p < kPieces.size(); ++p) {
        file.append({exits.data() + at, kPieces[p].size});
        at += kPieces[p].size;
        if (kPieces[p].sync) points.push_back({at, file.sync()});
    }
    return points;
}

uint64_t total_size() {
    uint64_t size = 0;
    for (const Piece& p : kPieces) size += p.size;
    return size;
}

std::vector<char> file_bytes(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::vector<int8_t> read_all(const ExitFile& file, uint64_t size) {
    std::vector<int8_t> out(size);
    file.read(0, out);
    return out;
}

} // namespace

TEST_CASE("exit file: random ranges from several threads read back what was appended") {
    test::TempDir dir;
    const std::vector<int8_t> exits = exits_like(total_size());
    ExitFile file(dir / "awari-20.exits");
    const std::vector<SyncPoint> points = append_pieces(file, exits, 0, 0);
    // The checksum of all exits is the level files' XXH3-64 of their bytes.
    CHECK(points.back().checksum ==
          db::detail::checksum({reinterpret_cast<const uint8_t*>(exits.data()), exits.size()}));
    CHECK(file.file_bytes() == std::filesystem::file_size(dir / "awari-20.exits"));
    CHECK(file.file_bytes() < exits.size() / 2); // compressed
    CHECK(read_all(file, exits.size()) == exits);
    int wrong = 0;
#pragma omp parallel num_threads(4) reduction(+ : wrong)
    {
        std::mt19937_64 rng(std::random_device{}());
        std::vector<int8_t> out;
        for (int k = 0; k < 300; ++k) {
            const uint64_t begin = rng() % exits.size();
            out.resize(std::min<uint64_t>(rng() % 40000, exits.size() - begin));
            file.read(begin, out);
            wrong += !std::equal(out.begin(), out.end(), exits.begin() + std::ptrdiff_t(begin));
        }
    }
    CHECK(wrong == 0);
    // Appended but not yet synced: read from what is pending.
    const std::vector<int8_t> more(100, 5);
    file.append(more);
    std::vector<int8_t> tail(150);
    file.read(exits.size() - 50, tail);
    CHECK(std::equal(tail.begin(), tail.begin() + 50, exits.end() - 50));
    CHECK(std::equal(tail.begin() + 50, tail.end(), more.begin()));
    CHECK_THROWS_AS(file.read(exits.size() + 50, tail), std::logic_error);
}

TEST_CASE("exit file: resume at every sync point goes on to the same file") {
    test::TempDir dir;
    const std::vector<int8_t> exits = exits_like(total_size());
    const std::filesystem::path path = dir / "awari-20.exits";
    std::vector<SyncPoint> points;
    {
        ExitFile file(path);
        file.reset();
        points = append_pieces(file, exits, 0, 0);
    }
    const std::vector<char> whole = file_bytes(path);
    size_t piece = 0;
    uint64_t at = 0;
    for (const SyncPoint& point : points) {
        while (at < point.size) at += kPieces[piece++].size;
        CAPTURE(point.size);
        ExitFile file(path);
        CHECK_FALSE(file.resume(point.size, point.checksum ^ 1));
        ExitFile resumed(path);
        REQUIRE(resumed.resume(point.size, point.checksum));
        CHECK(read_all(resumed, point.size) ==
              std::vector<int8_t>(exits.begin(), exits.begin() + std::ptrdiff_t(point.size)));
        CHECK(std::filesystem::file_size(path) == resumed.file_bytes()); // cut at the point
        const std::vector<SyncPoint> rest = append_pieces(resumed, exits, piece, at);
        CHECK((rest.empty() ? point.checksum : rest.back().checksum) == points.back().checksum);
        CHECK(file_bytes(path) == whole);
    }
    // More than the file holds.
    CHECK_FALSE(ExitFile(path).resume(exits.size() + 1, points.back().checksum));
}

// Where the record of the chunk holding `position` starts, by the format the header
// documents.
uint64_t record_of(const std::filesystem::path& path, uint64_t position) {
    const std::vector<char> bytes = file_bytes(path);
    auto u32 = [&](uint64_t at) {
        uint32_t v = 0;
        for (int k = 3; k >= 0; --k) v = v << 8 | uint8_t(bytes[at + uint64_t(k)]);
        return v;
    };
    uint64_t at = 8;
    for (uint64_t first = 0; first + u32(at) <= position; at += 16 + u32(at + 4)) first += u32(at);
    return at;
}

template <class F> std::string error_of(F&& f) {
    try {
        f();
    } catch (const std::runtime_error& e) {
        return e.what();
    }
    return "no error";
}

TEST_CASE("exit file: a damaged or cut chunk is refused naming the file") {
    test::TempDir dir;
    const std::vector<int8_t> exits = exits_like(total_size());
    const std::filesystem::path path = dir / "awari-20.exits";
    ExitFile file(path);
    const SyncPoint all = append_pieces(file, exits, 0, 0).back();
    // Position 60000 is in the short chunk the second sync left (54152..61383).
    const uint64_t record = record_of(path, 60000);
    std::vector<int8_t> out(10);
    // The compressed bytes, the checksum, the position count; the file that wrote the chunk
    // knows the last two, a resumed one reads them.
    const uint64_t last_byte = record_of(path, 61384) - 1; // of its compressed bytes
    for (const uint64_t at : {last_byte, record + 12, record}) {
        CAPTURE(at);
        test::flip_byte(path, at);
        if (at == last_byte)
            CHECK(error_of([&] { file.read(60000, out); }) ==
                  path.string() + ": the chunk of positions 54152..61383 of the exit file is "
                                  "damaged");
        CHECK_FALSE(ExitFile(path).resume(all.size, all.checksum));
        test::flip_byte(path, at);
        CHECK_NOTHROW(file.read(60000, out));
    }
    // Cut short inside the last chunk.
    std::filesystem::resize_file(path, std::filesystem::file_size(path) - 10);
    CHECK(error_of([&] {
              file.read(exits.size() - 10, out);
          }).starts_with(path.string() + ": the chunk of positions "));
    ExitFile cut(path);
    CHECK_FALSE(cut.resume(all.size, all.checksum));
    // The earlier sync points are still there.
    CHECK(cut.resume(5000,
                     db::detail::checksum({reinterpret_cast<const uint8_t*>(exits.data()), 5000})));
}

TEST_CASE("exit file: an uncompressed exit file of an earlier build is not resumed from") {
    test::TempDir dir;
    const std::vector<int8_t> exits = exits_like(50000);
    const std::filesystem::path path = dir / "awari-20.exits";
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(exits.data()), std::streamsize(exits.size()));
    // The checkpoint of that build recorded this checksum, which the exits still have.
    const uint64_t sum =
        db::detail::checksum({reinterpret_cast<const uint8_t*>(exits.data()), exits.size()});
    ExitFile file(path);
    CHECK_FALSE(file.resume(exits.size(), sum));
    file.reset(); // the level starts afresh
    file.append(exits);
    CHECK(file.sync() == sum);
    CHECK(read_all(file, exits.size()) == exits);
}
