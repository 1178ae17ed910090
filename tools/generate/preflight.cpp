#include "generate/preflight.hpp"

#include "cli/command.hpp"
#include "cli/disk_space.hpp"
#include "oware/oware_game.hpp"
#include "oware/ranking.hpp"
#include "retro/distributed_rounds.hpp"
#include "tablebase/level_dir.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <unistd.h>

namespace owaredb::cli {

std::unique_ptr<db::DirectoryLock> prepare_output_directory(const std::string& dir) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::file_status st = fs::status(dir, ec);
    if (fs::exists(st) && !fs::is_directory(st))
        throw UsageError("'" + dir + "' is not a directory");
    if (!fs::exists(st)) {
        fs::create_directories(dir, ec);
        if (ec)
            throw UsageError("cannot create the database directory '" + dir + "': " + ec.message());
    }
    // A file created and removed: a read-only directory or file system fails here, before
    // any work, rather than after a level has been solved.
    const fs::path probe = fs::path(dir) / (".owaredb-write-test." + std::to_string(::getpid()));
    const int fd =
        ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0) throw std::runtime_error("cannot write in '" + dir + "': " + std::strerror(errno));
    ::close(fd);
    ::unlink(probe.c_str());
    auto lock = std::make_unique<db::DirectoryLock>(dir);
    if (int removed = lock->remove_stale_temp_files())
        std::fprintf(stderr, "removed %d temp file%s left by an interrupted run\n", removed,
                     removed == 1 ? "" : "s");
    return lock;
}

uint64_t streamed_bytes(int n, uint64_t request_bytes, int pits_per_side) {
    // One process needs no request buffers (request_bytes 0: it pushes exits from the
    // smaller levels).
    return streamed_word_bytes(n, 8, pits_per_side) + request_bytes;
}

uint64_t distributed_bytes(int n, int rank, int ranks, uint64_t request_bytes) {
    const uint64_t size = level_size<6>(n);
    const uint64_t slice = (size + uint64_t(ranks) - 1) / uint64_t(ranks);
    // The message buffers of the scan rounds and 32 MiB for Open MPI itself (its buffers
    // and shared-memory segments: a rank ran 19 MiB over the estimate without it, level 22
    // at --memory 305M, docs/distributed.md); rank 0 also holds the writer's window of other
    // ranks' values (64 Mi entries).
    return streamed_bytes(n, request_bytes, kPitsPerSide) - size + slice + (uint64_t(32) << 20) +
           distributed::message_bytes(slice, ranks) + (rank == 0 ? uint64_t(64) << 20 : 0);
}

uint64_t distributed_request_bytes(int n, int rank, int ranks, uint64_t budget) {
    const uint64_t fixed = distributed_bytes(n, rank, ranks, 0);
    const uint64_t left = budget > fixed ? budget - fixed : 0;
    return std::clamp<uint64_t>(budget ? left : uint64_t(256) << 20, kMinRequestBytes,
                                uint64_t(1) << 30);
}

uint64_t segment_positions_for(uint64_t request_bytes) {
    // 16 bytes a request, at most one request a position on average, twice that for the
    // growth of the per-thread vectors.
    return std::max<uint64_t>(1, request_bytes / 32);
}

void check_memory(int n, uint64_t needed, const std::string& how, const MemoryBudget& budget) {
    if (budget.bytes && needed > budget.bytes)
        throw std::runtime_error(
            "level " + std::to_string(n) + " needs " + gigabytes(needed) + " of memory in " + how +
            "; " +
            (budget.given ? "--memory is " + gigabytes(budget.bytes) +
                                (budget.bytes < (uint64_t(1) << 20)
                                     ? " (a size without a unit is in bytes: 600M, 20G)"
                                     : "")
                          : "90 % of the available memory is " + gigabytes(budget.bytes)));
}

uint64_t scan_exits_bytes(uint64_t positions) {
    // Measured (docs/results.md, "The 4-bit word without rewriting a byte a threshold",
    // "Level 38's disk"): 2.03 bits a position at awari 20, 2.24 at 22, 2.31 at 24, 2.40 at
    // 27; in tenths of a bit, above the 2.73 that growth of 0.03 a level gives at 38.
    constexpr uint64_t kExitTenths = 28;
    return positions * kExitTenths / 80 + (uint64_t(64) << 10);
}

uint64_t nibble_scan_bytes(uint64_t positions) {
    // Measured (the same sections): all the thresholds' bitmaps together took 3.88 bits a
    // position at awari 20, 4.28 at 22, 4.42 at 24 and 4.58 at 27; in tenths of a bit,
    // above the 5.17 that growth of 0.053 a level gives at 38.
    constexpr uint64_t kBitmapTenths = 55;
    const uint64_t exits = scan_exits_bytes(positions);
    const uint64_t bitmaps = positions * kBitmapTenths / 80 + (uint64_t(64) << 10);
    return exits + std::max(exits, bitmaps);
}

uint64_t wld_scan_bytes(uint64_t positions, bool checkpoints) {
    const uint64_t map = (positions + 7) / 8 + (uint64_t(64) << 10);
    return nibble_scan_bytes(positions) + (checkpoints ? 3 : 2) * map;
}

uint64_t estimated_checkpoint_bytes(uint64_t word_bytes) {
    return uint64_t(double(word_bytes) * kCheckpointShare) + (uint64_t(64) << 10);
}

DiskNeed disk_need(int n, int entries_per_position, bool checkpoints, LevelMode mode,
                   int pits_per_side, std::optional<double> file_bits) {
    const uint64_t size = level_size(pits_per_side, n);
    const uint64_t word_bytes = mode == LevelMode::InMemory ? 2 * size
                                : mode == LevelMode::Nibble ? (size + 1) / 2
                                : mode == LevelMode::Wld    ? (size + 3) / 4
                                                            : size;
    DiskNeed need;
    need.file = estimated_file_bytes(size * uint64_t(entries_per_position), file_bits);
    // The streamed engine's exit file, compressed; the 4-bit and 2-bit engines' scan files
    // (nibble_scan_bytes, wld_scan_bytes), whose exits' generation they drop before the write.
    need.exits = mode == LevelMode::Streamed ? estimated_exit_file_bytes(size)
                 : mode == LevelMode::Nibble ? nibble_scan_bytes(size)
                 : mode == LevelMode::Wld    ? wld_scan_bytes(size, checkpoints)
                                             : 0;
    if (mode == LevelMode::Nibble || mode == LevelMode::Wld) need.dropped = scan_exits_bytes(size);
    need.checkpoint = checkpoints ? estimated_checkpoint_bytes(word_bytes) : 0;
    return need;
}

void check_disk(int n, const DiskNeed& need, const std::string& dir) {
    const std::optional<uint64_t> free = free_bytes(dir);
    if (!free || need.still_needed() <= *free) return;
    std::string parts = "the file about " + gigabytes(need.file);
    if (need.exits) parts += ", the exit file " + gigabytes(need.exits);
    if (need.checkpoint)
        parts += ", two checkpoints of " + gigabytes(need.checkpoint) +
                 " while a save replaces the last";
    std::string already;
    if (need.on_disk)
        already = ", " + gigabytes(std::min(need.on_disk, need.exits + need.checkpoint)) +
                  " of it already there";
    std::string without;
    if (need.checkpoint) {
        DiskNeed plain = need;
        plain.checkpoint = 0;
        without =
            " (without checkpoints, --checkpoint-minutes -1: " + gigabytes(plain.still_needed()) +
            ")";
    }
    throw std::runtime_error(
        "level " + std::to_string(n) + " needs about " + gigabytes(need.still_needed()) +
        " more disk in '" + dir + "' (at its peak " + gigabytes(need.peak()) + ": " + parts +
        already + "); " + gigabytes(*free) + " are free" + without + ": " + std::strerror(ENOSPC));
}

uint64_t plan_memory_bytes(const ModePlan& plan, int n) {
    const LevelMode mode = plan.mode(n);
    return mode == LevelMode::InMemory ? plan.in_memory_bytes(n)
           : mode == LevelMode::Nibble ? plan.streamed_bytes(n, 4)
           : mode == LevelMode::Wld    ? plan.streamed_bytes(n, 2)
                                       : plan.streamed_bytes(n, 8);
}

void check_plan(const ModePlan& plan, int n) {
    const uint64_t needed = plan_memory_bytes(plan, n);
    if (plan.mode(n) == LevelMode::InMemory)
        check_memory(n, needed,
                     "in-memory mode (levels up to " + std::to_string(n - 1) + " are kept" +
                         (plan.forced() && plan.streams() ? "; --mode streamed needs less"
                          : plan.streams()                ? ""
                                                          : "; this board has no streamed mode") +
                         ")",
                     plan.budget());
    else
        check_memory(n, needed, std::string(mode_name(plan.mode(n))) + " mode", plan.budget());
}

} // namespace owaredb::cli
