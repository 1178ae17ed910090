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
#include <span>

namespace owaredb::db {

/// Where the engine stood: five numbers whose meaning is the engine's.
using CheckpointProgress = std::array<uint64_t, 5>;

struct CheckpointHeader {
    LevelMeta level;               ///< the level file the checkpoint will become
    uint32_t engine = 0;           ///< the engine and its word encoding (opaque here)
    uint64_t payload_bytes = 0;    ///< size of the saved working state
    CheckpointProgress progress{}; ///< where the engine stood (opaque here)
};

/// The checkpoint beside a level file: "abapa-24.owdb" -> "abapa-24.checkpoint",
/// "abapa-24.bounds.owdb" -> "abapa-24.bounds.checkpoint".
std::filesystem::path checkpoint_path(const std::filesystem::path& level_file);

/// Writes `payload` (header.payload_bytes bytes) with `header` to `path` atomically.
/// Throws std::runtime_error naming the file and the reason (e.g. a full disk); the old
/// checkpoint, if any, is then left as it was.
void write_checkpoint(const std::filesystem::path& path, const CheckpointHeader& header,
                      std::span<const uint8_t> payload);

/// Reads the checkpoint at `path` into `payload` if it belongs to `expected` (level, engine
/// and payload size equal), setting `progress`. On any other outcome returns the reason
/// and leaves `progress` alone (`payload` may have been written to).
Status read_checkpoint(const std::filesystem::path& path, const CheckpointHeader& expected,
                       CheckpointProgress& progress, std::span<uint8_t> payload);

} // namespace owaredb::db
