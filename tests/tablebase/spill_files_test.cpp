// The spill space on disk (tablebase/spill_files.hpp): blocks read back as written, at any
// depth; a damaged block is named, never used; a full disk is named; and its files leave
// nothing in the level's directory, open or closed.
#include "flip_byte.hpp"
#include "tablebase/spill_files.hpp"
#include "temp_dir.hpp"

#include <doctest/doctest.h>

#include <fcntl.h>

#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

using namespace owaredb;

namespace {

std::vector<uint64_t> block_of(uint64_t first, size_t size) {
    std::vector<uint64_t> block(size);
    std::iota(block.begin(), block.end(), first);
    return block;
}

} // namespace

TEST_CASE("spill files: blocks read back as written, rewritten ones too; no name is left") {
    test::TempDir dir;
    SpillFiles space(dir / "awari-38.owdb");
    {
        auto a = space.open();
        auto b = space.open(); // two threads' areas, apart
        CHECK(std::filesystem::is_empty(dir.path()));
        for (uint64_t k = 0; k < 3; ++k) {
            a->write(k, block_of(100 * k, 1000));
            b->write(k, block_of(100 * k + 7, 1000));
        }
        std::vector<uint64_t> out(1000);
        a->read(2, out);
        CHECK(out == block_of(200, 1000));
        a->write(2, block_of(5000, 1000)); // block 2 taken back, then another written there
        a->read(2, out);
        CHECK(out == block_of(5000, 1000));
        for (uint64_t k = 0; k < 3; ++k) {
            b->read(k, out);
            CHECK(out == block_of(100 * k + 7, 1000));
        }
        CHECK_THROWS_AS(a->read(3, out), std::logic_error); // never written
        CHECK(std::filesystem::is_empty(dir.path()));
    }
    CHECK(std::filesystem::is_empty(dir.path()));
}

TEST_CASE("spill files: a damaged block is named, not used") {
    test::TempDir dir;
    const auto path = dir / "spill";
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    REQUIRE(fd >= 0);
    SpillFile area(fd, path);
    area.write(0, block_of(0, 64));
    area.write(1, block_of(64, 64));
    test::flip_byte(path, 64 * 8 + 3); // in block 1
    std::vector<uint64_t> out(64);
    area.read(0, out);
    CHECK(out == block_of(0, 64));
    const std::string damaged = path.string() + ": block 1 of the spill file is damaged";
    CHECK_THROWS_WITH_AS(area.read(1, out), doctest::Contains(damaged.c_str()), std::runtime_error);
    std::filesystem::resize_file(path, 64 * 8 + 10); // and a block cut short
    const std::string short_block = path.string() + ": cannot read block 1 of the spill file";
    CHECK_THROWS_WITH_AS(area.read(1, out), doctest::Contains(short_block.c_str()),
                         std::runtime_error);
}

TEST_CASE("spill files: a full disk is named") {
    const int fd = ::open("/dev/full", O_RDWR | O_CLOEXEC);
    REQUIRE(fd >= 0);
    SpillFile area(fd, "/dev/full");
    CHECK_THROWS_WITH_AS(area.write(0, block_of(0, 16)),
                         "/dev/full: cannot write the spill file: No space left on device",
                         std::runtime_error);
}

TEST_CASE("spill files: a directory that is gone is named") {
    test::TempDir dir;
    SpillFiles space(dir / "gone" / "awari-38.owdb");
    const std::string gone = (dir / "gone").string() + ": cannot create a spill file";
    CHECK_THROWS_WITH_AS((void)space.open(), doctest::Contains(gone.c_str()), std::runtime_error);
}
