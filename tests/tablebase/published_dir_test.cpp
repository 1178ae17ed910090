// Romein & Bal's published files (tablebase/published_dir.hpp): every level 0..48 read at
// computed offsets through sparse files of the real sizes (889 G positions in all, on no
// disk), round trips with levels we solve, and damaged files.
#include "oware/oware_game.hpp"
#include "oware/ranking.hpp"
#include "quick.hpp"
#include "retro/solve_in_memory.hpp"
#include "tablebase/published_dir.hpp"
#include "temp_dir.hpp"

#include <doctest/doctest.h>

#include <unistd.h>

#include <fstream>
#include <random>

using namespace owaredb;
using owaredb::test::TempDir;

namespace {

void put_byte(const std::filesystem::path& file, uint64_t offset, int8_t value) {
    std::fstream out(file, std::ios::binary | std::ios::in | std::ios::out);
    out.seekp(std::streamoff(offset));
    out.put(char(value));
}

} // namespace

TEST_CASE("published files: every level 0..48 at the offsets of their order (sparse files)") {
    TempDir dir;
    const PublishedDir published(dir.path());
    std::mt19937_64 rng(48);
    for (int n = 0; n <= kMaxSeeds; ++n) {
        if (n == 47) continue; // not in the release
        CAPTURE(n);
        const uint64_t size = level_size<6>(n);
        { std::ofstream create(published.path(n), std::ios::binary); }
        std::filesystem::resize_file(published.path(n), size);
        // Positions of the level (its first, its last, random ones), each with a value
        // planted at the offset their order gives it; the value is derived from the
        // position so that a wrong offset reads another position's byte or a zero.
        std::vector<Position> positions = {unrank<6>(n, 0), unrank<6>(n, size - 1)};
        std::uniform_int_distribution<uint64_t> any(0, size - 1);
        for (int k = 0; k < 20; ++k) positions.push_back(unrank<6>(n, any(rng)));
        auto planted = [n](const Position& p) {
            return int8_t(n == 0 ? 0 : 1 + int(p.pits[0] + 3 * p.pits[11]) % n);
        };
        for (const Position& p : positions)
            put_byte(published.path(n), published_rank(p), planted(p));
        db::Result<db::RawLevelFile> file = published.open(n);
        REQUIRE(file.ok());
        bool ok = true;
        for (const Position& p : positions) {
            const uint64_t at = published_rank(p);
            int8_t v = 99;
            if (!file->read_at(std::span(&at, 1), std::span(&v, 1)).ok() || v != planted(p))
                ok = false;
        }
        CHECK(ok);
        std::filesystem::remove(published.path(n)); // keep the directory's apparent size small
    }
}

TEST_CASE("published files: our levels 0..12 written in their order and read back") {
    TempDir dir;
    const PublishedDir published(dir.path());
    const OwareGame game(*Rules::by_name("awari"));
    const int max_n = test::quick() ? 9 : 12;
    const auto levels = solve_in_memory(game, max_n, 2);
    for (int n = 0; n <= max_n; ++n) {
        CAPTURE(n);
        published.save(n, levels[size_t(n)], 2);
        CHECK(std::filesystem::file_size(published.path(n)) == level_size<6>(n));
        // Each byte of the file is the value of the position at that offset of their order.
        std::ifstream in(published.path(n), std::ios::binary);
        std::vector<char> bytes(level_size<6>(n));
        in.read(bytes.data(), std::streamsize(bytes.size()));
        bool ok = true;
        for (uint64_t i = 0; i < bytes.size(); ++i)
            if (int8_t(bytes[i]) != levels[size_t(n)][rank(published_unrank(n, i))]) ok = false;
        CHECK(ok);
        for (int threads : {1, 2}) {
            ValueArray back;
            REQUIRE(published.load(n, back, threads).ok());
            CHECK(std::equal(back.span().begin(), back.span().end(),
                             levels[size_t(n)].span().begin()));
        }
    }
    CHECK(PublishedDir::levels_in(dir.path()).size() == size_t(max_n + 1));
}

TEST_CASE("published files: names, and damaged files are errors naming file and offset") {
    CHECK(PublishedDir::level_of("scores.0") == 0);
    CHECK(PublishedDir::level_of("scores.48") == 48);
    CHECK_FALSE(PublishedDir::level_of("scores.49"));
    CHECK_FALSE(PublishedDir::level_of("scores.07"));
    CHECK_FALSE(PublishedDir::level_of("scores."));
    CHECK_FALSE(PublishedDir::level_of("scores.4x"));
    // Names that are not levels of the game are not level files, below 0 as above 48.
    CHECK_FALSE(PublishedDir::level_of("scores.-1"));
    CHECK_FALSE(PublishedDir::level_of("scores.-0"));
    CHECK_FALSE(PublishedDir::level_of("scores.+1"));
    CHECK_FALSE(PublishedDir::level_of("awari-04.owdb"));

    TempDir dir;
    const PublishedDir published(dir.path());
    const OwareGame game(*Rules::by_name("awari"));
    const auto levels = solve_in_memory(game, 8, 2);
    published.save(8, levels[8], 2);
    ValueArray out;
    // A value outside -8..8 at a known position's offset.
    const Position p = unrank<6>(8, 1234);
    put_byte(published.path(8), published_rank(p), 9);
    const db::Status bad = published.load(8, out, 2);
    CHECK(bad.code() == db::ErrorCode::Corrupt);
    CHECK(bad.message().find("scores.8: offset " + std::to_string(published_rank(p)) +
                             " holds 9, outside -8..8") != std::string::npos);
    CHECK(out.size() == 0); // untouched
    // One byte short.
    std::filesystem::resize_file(published.path(8), level_size<6>(8) - 1);
    CHECK(published.load(8, out, 2).code() == db::ErrorCode::Corrupt);
    CHECK(published.load(7, out, 2).code() == db::ErrorCode::NotFound);
}
