// Writers sharing a directory with other writers and with planted links (issue: hardening).
#include <doctest/doctest.h>

#include <chrono>
#include <fcntl.h>
#include <functional>
#include <future>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

#include "dbformat/checkpoint.hpp"
#include "dbformat/dir_lock.hpp"
#include "dbformat/reader.hpp"
#include "dbformat/writer.hpp"
#include "helpers.hpp"

using namespace owaredb::db;
using namespace owaredb::db::test;

TEST_CASE("a symlink planted at a temp file name is never followed") {
    TempDir dir;
    auto values = sample_values(3000, 5);
    auto meta = meta_for("abapa", 5, values.size());
    const auto path = dir / "abapa-05.owdb";
    const auto victim = dir / "victim.txt";
    write_bytes(victim, {'k', 'e', 'e', 'p'});
    // The name older versions wrote to, and the first names this process would pick.
    std::filesystem::create_symlink(victim, path.string() + ".tmp");
    for (int k = 0; k < 4; ++k)
        std::filesystem::create_symlink(
            victim, path.string() + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(k));
    write_level(path, meta, values, WriterOptions{.threads = 1});
    CHECK(read_bytes(victim) == std::vector<uint8_t>{'k', 'e', 'e', 'p'});
    CHECK(LevelReader(path).verify(1).ok());
}

TEST_CASE("concurrent writers of one level use their own temp files") {
    TempDir dir;
    auto values = sample_values(200000, 9);
    auto meta = meta_for("abapa", 9, values.size());
    const auto path = dir / "abapa-09.owdb";
    std::vector<std::thread> writers;
    for (int i = 0; i < 4; ++i)
        writers.emplace_back([&] {
            WriterOptions o;
            o.threads = 1;
            write_level(path, meta, values, o);
        });
    for (auto& t : writers) t.join();
    LevelReader reader(path);
    CHECK(reader.verify(1).ok());
    std::vector<int8_t> back(values.size());
    CHECK(reader.read_all(back, 1).ok());
    CHECK(back == values);
    for (const auto& e : std::filesystem::directory_iterator(dir.path()))
        CHECK(e.path().filename() == "abapa-09.owdb"); // no temp file left behind
}

TEST_CASE("one writer holds a directory; a second is refused with the holder's PID") {
    TempDir dir;
    {
        DirectoryLock first(dir.path());
        try {
            DirectoryLock second(dir.path());
            FAIL("a second lock was granted");
        } catch (const std::runtime_error& e) {
            const std::string what = e.what();
            CHECK(what.find("is being written by process " + std::to_string(::getpid())) !=
                  std::string::npos);
        }
    }
    DirectoryLock again(dir.path()); // released with its holder
}

TEST_CASE("the lock file is never a planted link") {
    TempDir dir;
    const auto victim = dir / "victim.txt";
    write_bytes(victim, {'x'});
    std::filesystem::create_symlink(victim, dir / DirectoryLock::kFileName);
    CHECK_THROWS_AS(DirectoryLock(dir.path()), std::runtime_error);
    CHECK(read_bytes(victim) == std::vector<uint8_t>{'x'});
}

TEST_CASE("the lock holder removes stale temp files, links themselves, nothing else") {
    TempDir dir;
    const auto victim = dir / "victim.txt";
    write_bytes(victim, {'x'});
    write_bytes(dir / "abapa-07.owdb.tmp", {1});
    write_bytes(dir / "abapa-07.owdb.tmp.123.4", {1});
    write_bytes(dir / "notes.tmp", {1});
    write_bytes(dir / "abapa-07.owdb", {1});
    std::filesystem::create_symlink(victim, dir / "awari-03.owdb.tmp.9.9");
    DirectoryLock lock(dir.path());
    CHECK(lock.remove_stale_temp_files() == 3);
    CHECK(std::filesystem::exists(dir / "notes.tmp"));
    CHECK(std::filesystem::exists(dir / "abapa-07.owdb"));
    CHECK(read_bytes(victim) == std::vector<uint8_t>{'x'});
    CHECK_FALSE(std::filesystem::exists(dir / "abapa-07.owdb.tmp"));
}

namespace {

// Runs `read` (which opens the FIFO at `fifo`) and returns its status, failing the test if
// it is still waiting after 5 s; a writer is then opened, so that the read ends and the
// test does not hang.
Status without_waiting(const std::filesystem::path& fifo, std::function<Status()> read) {
    auto result = std::async(std::launch::async, std::move(read));
    if (result.wait_for(std::chrono::seconds(5)) != std::future_status::ready) {
        FAIL_CHECK("opening " << fifo << " waits for a writer");
        const int fd = ::open(fifo.c_str(), O_WRONLY | O_CLOEXEC);
        if (fd >= 0) ::close(fd);
    }
    return result.get();
}

} // namespace

TEST_CASE("a FIFO named like a level file or a checkpoint is refused at once, by name") {
    TempDir dir;
    const auto level = dir / "abapa-11.owdb";
    const auto checkpoint = checkpoint_path(level);
    REQUIRE(::mkfifo(level.c_str(), 0644) == 0);
    REQUIRE(::mkfifo(checkpoint.c_str(), 0644) == 0);
    const Status opened = without_waiting(level, [&] { return LevelReader(level).open(); });
    CHECK(opened.code() == ErrorCode::Io);
    CHECK(opened.message() == level.string() + ": is not a regular file");
    const Status read = without_waiting(checkpoint, [&] {
        CheckpointHeader expected;
        expected.payload_bytes = 16;
        CheckpointFound found;
        std::vector<uint8_t> payload(16);
        return read_checkpoint(checkpoint, expected, found, payload);
    });
    CHECK(read.code() == ErrorCode::Io);
    CHECK(read.message().find(checkpoint.string() + ": is not a regular file") !=
          std::string::npos);
}
