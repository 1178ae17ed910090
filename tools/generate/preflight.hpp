// What `owaredb generate` plans and checks before it solves anything: that the directory
// can be written, that no other writer holds it, which mode builds each level, and that
// each level fits the memory and the disk in that mode, so that a doomed run stops at once
// with a message instead of after hours of work.
#pragma once

#include "dbformat/dir_lock.hpp"
#include "mode_plan.hpp"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace owaredb::cli {

/// Creates `dir` if needed, checks that a file can be created in it, and takes the
/// writer's lock (db::DirectoryLock), removing the temp files of killed writers. Throws
/// UsageError for a path that cannot be a directory, std::runtime_error when another
/// process holds the lock or the directory cannot be written. Writes nothing else.
std::unique_ptr<db::DirectoryLock> prepare_output_directory(const std::string& dir);

/// Bytes of memory a streamed build of level n needs with `request_bytes` of first-pass
/// request buffers (0 in one process; a distributed rank's, distributed_request_bytes()):
/// 1 byte per position of D_n, the buffers, and a margin (the process, the compressor's
/// chunk, one block per thread and level being read).
uint64_t streamed_bytes(int n, uint64_t request_bytes, int pits_per_side);
/// Bytes of memory rank `rank` of `ranks` needs for a distributed build of level n: its
/// slice (1 byte a position), the request and message buffers and the margin, and on rank
/// 0, which writes the level while fetching the other slices, the writer's window.
uint64_t distributed_bytes(int n, int rank, int ranks, uint64_t request_bytes);
/// The first-pass request buffer of rank `rank` for a distributed level n under `budget`
/// (per rank; 0: none): what the budget leaves beside distributed_bytes(), between
/// kMinRequestBytes and 1 GiB.
uint64_t distributed_request_bytes(int n, int rank, int ranks, uint64_t budget);
/// The smallest first-pass request buffer a streamed level runs with.
inline constexpr uint64_t kMinRequestBytes = uint64_t(8) << 20;

/// Positions per first-pass segment for `request_bytes` of buffers (about 0.6 capture
/// moves a position at n = 20, counted as 1, and room for the vectors' growth).
uint64_t segment_positions_for(uint64_t request_bytes);

/// Throws std::runtime_error, before level n is solved, when `needed` bytes of memory
/// exceed the budget, naming both figures: "level 36 needs 14.3 GB of memory in streamed
/// mode; --memory is 8.0 GB". `how` says which mode (and what it keeps).
void check_memory(int n, uint64_t needed, const std::string& how, const MemoryBudget& budget);

/// The disk that building level n takes at its peak, by part, and what of it a killed run
/// of the level left there already (its checkpoint and exit file, which the run reuses or
/// replaces).
struct DiskNeed {
    uint64_t file = 0;  ///< the level file (estimated_file_bytes)
    uint64_t exits = 0; ///< streamed: the exit file (compressed) or the scan files
    /// Of `exits`, what the 4- and 2-bit engines drop before the level's file is written
    /// once a checkpoint holds that last safe point: the exits' generation.
    uint64_t dropped = 0;
    /// One checkpoint (the working words, compressed: estimated_checkpoint_bytes); 0 with
    /// checkpoints off.
    uint64_t checkpoint = 0;
    uint64_t on_disk = 0; ///< the level's checkpoint and exit file already there

    /// The most at once: a save writes the new checkpoint beside the old one and the scratch
    /// files; the file is written beside the scratch files and the checkpoint, less what
    /// was dropped when a checkpoint was saved (all of them when none was).
    uint64_t peak() const {
        return std::max(
            {exits + 2 * checkpoint, exits + file, exits - dropped + checkpoint + file});
    }
    /// The free space the level needs: its peak less what is there already.
    uint64_t still_needed() const {
        const uint64_t there = std::min(on_disk, exits + checkpoint);
        return peak() - there;
    }
};

/// The exits' generation of the 4- and 2-bit engines' scan files for a level of
/// `positions`, estimated: 2.8 bits a position and 64 KiB (measured 2.03 at awari 20, 2.24
/// at 22, 2.31 at 24, 2.40 at 27).
uint64_t scan_exits_bytes(uint64_t positions);

/// The most the 4-bit engine's scan files (retro/nibble_retrograde.hpp) of a level of
/// `positions` hold at once: the exits' generation (scan_exits_bytes), beside either the
/// gathering's (as large, until the first pass has written the exits) or every threshold's
/// bitmap (kept until the level is written), each estimated from the bits a position
/// measured at awari 20..27. Checkpoints add nothing: every generation a checkpoint needs
/// is kept anyway.
uint64_t nibble_scan_bytes(uint64_t positions);

/// The most the 2-bit engine's scan files (retro/wld_retrograde.hpp) for a level of
/// `positions` hold at once: the 4-bit engine's exits and bitmaps (nibble_scan_bytes), and
/// beside the bitmaps the maps of the positions decided by a threshold: the one a commit
/// pass reads, the one it writes and, with `checkpoints`, the one a checkpoint pinned, each
/// counted at a bit a position (uncompressed: measured at most 0.8 at awari 18 and 22).
uint64_t wld_scan_bytes(uint64_t positions, bool checkpoints);

/// A checkpoint of `word_bytes` of working words, as written (db/checkpoint.hpp compresses
/// them): at most kCheckpointShare of the words, measured, and a header.
uint64_t estimated_checkpoint_bytes(uint64_t word_bytes);
/// What a checkpoint is counted of its words: the largest share measured over a level's
/// saves, every word, with a margin (docs/results.md, "Level 38's disk").
inline constexpr double kCheckpointShare = 0.65;

/// What building level n in `mode` puts on disk (on_disk left 0: the builder knows its
/// directory): its file (`entries_per_position` entries a position, estimated from
/// `file_bits` when the directory measured them: LevelDir::measured_file_bits), its
/// checkpoint unless checkpoints are off (the working words: 2 bytes a position in memory,
/// 1 streamed, 4 and 2 bits, compressed), and streamed its exit file or scan files. On a
/// board of `pits_per_side`.
DiskNeed disk_need(int n, int entries_per_position, bool checkpoints, LevelMode mode,
                   int pits_per_side, std::optional<double> file_bits = {});

/// Throws std::runtime_error, before level n is solved, when the free space of `dir` is
/// below need.still_needed(), naming the parts, what is already there, and what the level
/// would need without checkpoints.
void check_disk(int n, const DiskNeed& need, const std::string& dir);

/// Bytes of memory generate needs for level n in the mode `plan` (kBuildFootprint) builds
/// it in: what check_plan() checks against the budget.
uint64_t plan_memory_bytes(const ModePlan& plan, int n);

/// Throws std::runtime_error, before level n is solved, when it does not fit the budget
/// in the mode `plan` (generate's, kBuildFootprint) builds it in, naming the mode, what it
/// keeps and, in memory, whether streamed mode would need less.
void check_plan(const ModePlan& plan, int n);

} // namespace owaredb::cli
