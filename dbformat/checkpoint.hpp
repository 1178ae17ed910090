// Checkpoint files: the working state of a level being solved, saved at safe points so
// that a killed `owaredb generate` resumes inside the level instead of starting it again
// (solver/retro/checkpoint.hpp says when and what). The format only stores bytes: which
// level they belong to, which engine wrote them, where the engine stood, and checksums.
//
// Contract:
// - write_checkpoint() is atomic (temp file, fsync, rename, like level files): a kill at
//   any moment leaves the previous checkpoint or the new one, never a torn file.
// - read_checkpoint() accepts a file only if it is intact (both checksums) and belongs to
//   exactly the expected level and engine with the expected payload size; otherwise it
//   returns why (NotFound, Corrupt, Mismatch, Unsupported, Io) and the caller starts the
//   level afresh. It never returns a payload it has not verified.
#pragma once

#include "dbformat/format.hpp"
#include "dbformat/status.hpp"

#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>

namespace owaredb::db {

/// Where the engine stood: five numbers whose meaning is the engine's.
using CheckpointProgress = std::array<uint64_t, 5>;

/// The time a level had taken when its checkpoint was saved, over every run that worked
/// on it, in milliseconds: what a resumed run adds to its own to report the level's cost.
struct CheckpointTime {
    uint64_t wall_ms = 0;
    uint64_t cpu_ms = 0; ///< user + system, every thread
    bool operator==(const CheckpointTime&) const = default;
};

struct CheckpointHeader {
    LevelMeta level;               ///< the level file the checkpoint will become
    uint32_t engine = 0;           ///< the engine and its word encoding (opaque here)
    uint64_t payload_bytes = 0;    ///< size of the saved working state
    CheckpointProgress progress{}; ///< where the engine stood (opaque here)
    /// Written from version 3 on; none: not known (the level was resumed from a version-2
    /// file), stored as all ones.
    std::optional<CheckpointTime> spent = CheckpointTime{};
};

/// What read_checkpoint() found besides the payload.
struct CheckpointFound {
    CheckpointProgress progress{};
    /// None in a version-2 file, which did not record it, or in one saved by a run that
    /// resumed from such a file.
    std::optional<CheckpointTime> spent;
};

/// The checkpoint beside a level file: "abapa-24.owdb" -> "abapa-24.checkpoint",
/// "abapa-24.bounds.owdb" -> "abapa-24.bounds.checkpoint".
std::filesystem::path checkpoint_path(const std::filesystem::path& level_file);

/// The exit file beside a level file, which belongs to its checkpoint (README, Exit files):
/// "abapa-24.owdb" -> "abapa-24.exits".
std::filesystem::path exit_file_path(const std::filesystem::path& level_file);
/// Generation `generation` of the nibble engine's scan store beside a level file
/// (tablebase/scan_files.hpp): "abapa-38.owdb", 3 -> "abapa-38.scan3".
std::filesystem::path scan_file_path(const std::filesystem::path& level_file, uint64_t generation);
/// Whether `file_name` (a name without its directory) is a scan file of `level_file`, of
/// any generation.
bool is_scan_file(const std::filesystem::path& level_file, const std::string& file_name);
/// Rank `rank`'s exit file of a distributed run: "abapa-24.owdb", 3 -> "abapa-24.rank3.exits".
std::filesystem::path rank_exit_file_path(const std::filesystem::path& level_file, int rank);
/// Whether `file_name` (a name without its directory) is one of the ranks' exit files of
/// `level_file`, of any rank.
bool is_rank_exit_file(const std::filesystem::path& level_file, const std::string& file_name);

/// Writes `payload` (header.payload_bytes bytes) with `header` to `path` atomically.
/// Throws std::runtime_error naming the file and the reason (e.g. a full disk); the old
/// checkpoint, if any, is then left as it was.
void write_checkpoint(const std::filesystem::path& path, const CheckpointHeader& header,
                      std::span<const uint8_t> payload);

/// Reads the checkpoint at `path` into `payload` if it belongs to `expected` (level, engine
/// and payload size equal; its progress and time do not matter), setting `found`. Files of
/// version 2 (before the time was recorded) and 3 are read. On any other outcome returns
/// the reason and leaves `found` alone (`payload` may have been written to).
Status read_checkpoint(const std::filesystem::path& path, const CheckpointHeader& expected,
                       CheckpointFound& found, std::span<uint8_t> payload);

} // namespace owaredb::db
