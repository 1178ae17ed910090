// Which levels a run holds in memory and which it streams from their files: the one mode
// plan of the commands that go over levels 0..N, generate (building them) and verify and
// stats (reading them back). It turns --mode and the run's memory budget
// (cli/run_settings.hpp) into a mode per level; what each mode then needs is the
// command's (generate: generate/preflight.hpp; verify, stats: level_modes.hpp).
#pragma once

#include "cli/run_settings.hpp"
#include "oware/position.hpp"

#include <cstdint>
#include <string>

namespace owaredb::cli {

/// How a level is held: with every smaller level in memory (generate: 2 bytes of working
/// state a position, retro/retrograde.hpp), or streamed with the smaller levels read from
/// their files (generate: 1 byte a position, retro/streamed_retrograde.hpp; verify and
/// stats: tablebase/streamed_bellman.hpp), or streamed with 4 bits a position and a
/// byte a position on disk (generate only, retro/nibble_retrograde.hpp), or with 2 bits
/// a position and that byte on disk (generate only, retro/wld_retrograde.hpp), or
/// streamed and split between the ranks of an MPI job (docs/distributed.md).
enum class LevelMode { InMemory, Streamed, Nibble, Distributed, Wld };
/// "in-memory", "streamed", "streamed-4bit", "distributed", "streamed-2bit".
const char* mode_name(LevelMode mode);

/// Bytes of memory level n takes with every smaller level in memory: `working` bytes per
/// position of D_n plus `stored` bytes per position of every smaller level, plus a fixed
/// margin for the process, the compressor and the files being read. On a board of
/// `pits_per_side`.
uint64_t in_memory_bytes(int n, int working, int stored, int pits_per_side);

/// What holding levels in memory costs a command, and the boards its streamed modes take.
struct LevelFootprint {
    int working;           ///< bytes a position of the level built or read
    int stored;            ///< bytes a position of each smaller level held beside it
    int max_streamed_pits; ///< the largest board whose levels the command can stream
    int max_nibble_pits;   ///< the largest board it can stream with 4 or 2 bits (0: none)
};
/// generate: the in-memory engine's 2-byte working word beside the smaller levels' byte;
/// the streamed engine's byte a position counts up to 7 moves, so 8 pits a side is never
/// streamed, and the 4-bit word up to 6 (the 2-bit engine shares its first pass: 6 too).
inline constexpr LevelFootprint kBuildFootprint{2, 1, 7, 6};
/// verify and stats: a byte a position for every level; any board streams.
inline constexpr LevelFootprint kReadFootprint{1, 1, kMaxPitsPerSide, 0};

/// Threads the fixed margins of in_memory_bytes() and streamed_word_bytes() hold the
/// buffers of (they were measured with 2).
inline constexpr int kMarginThreads = 2;

/// Bytes a thread of `owaredb generate` holds for level n built with `bits` bits of working
/// state a position (16: in memory; 8, 4, 2: streamed; 0: the gathering of the 4- and
/// 2-bit words), and that grow with the threads: its propagation stack at its limit
/// (sweep::kStackLimit entries of an index and a position); streamed, also a block of each
/// smaller level its reader decodes, and with 4 or 2 bits the spilled parents it keeps in
/// memory (retro/spill.hpp).
uint64_t build_thread_bytes(int n, int bits, int pits_per_side);

/// Bytes level n takes streamed by one process with `bits` bits of working state a
/// position (8, 4 or 2; 0 for what the 4- and 2-bit engines' gathering leaves aside): the
/// words, the index of the scan store's generation being written (4, 2 and 0 bits:
/// tablebase/scan_files.hpp), the block indexes of the smaller levels' files read, and a
/// margin for the process, the compressor's chunk of blocks and the blocks being read
/// (docs/results.md, Streamed mode: 155 MiB peak at level 20 under --memory 160M).
uint64_t streamed_word_bytes(int n, int bits, int pits_per_side);

/// The mode of each level: the forced one if --mode gives it, else in memory while levels
/// 0..n fit the budget, streamed from the first level where they do not (levels grow
/// with n, so every larger level is streamed too), streamed with 4 bits from the first
/// level whose byte a position does not fit either, and with 2 bits from the first whose
/// 4 bits do not fit (where the command and board have them).
/// Without a budget (0 bytes) or on a board the command cannot stream, every level is in
/// memory.
class ModePlan {
  public:
    /// `mode`: "auto", "in-memory", "streamed", "streamed-4bit" or "streamed-2bit" (else
    /// UsageError; also for "streamed" on a board of more than footprint.max_streamed_pits
    /// pits a side, and for "streamed-4bit" and "streamed-2bit" beyond
    /// footprint.max_nibble_pits).
    ModePlan(const std::string& mode, MemoryBudget budget, int pits_per_side,
             LevelFootprint footprint);
    /// The board, once the command knows it (verify and stats learn it from the files);
    /// the same checks as the constructor.
    void set_board(int pits_per_side);

    LevelMode mode(int n) const;
    /// Whether level n is streamed (with a byte, 4 bits or 2 bits a position).
    bool streamed(int n) const {
        const LevelMode m = mode(n);
        return m == LevelMode::Streamed || m == LevelMode::Nibble || m == LevelMode::Wld;
    }
    /// Whether --mode chose the mode of every level.
    bool forced() const { return forced_; }
    /// Whether this board's levels can be streamed.
    bool streams() const { return pits_ <= footprint_.max_streamed_pits; }
    /// generate: its threads, so that what each thread past kMarginThreads holds counts
    /// (build_thread_bytes()); nothing by default (verify and stats).
    void set_build_threads(int threads) { build_threads_ = threads; }
    /// Bytes level n takes in memory with the levels below it (in_memory_bytes()), and
    /// what the build threads add.
    uint64_t in_memory_bytes(int n) const;
    /// Bytes level n takes streamed with `bits` bits a position (streamed_word_bytes()),
    /// and what the build threads add.
    uint64_t streamed_bytes(int n, int bits) const;
    const MemoryBudget& budget() const { return budget_; }
    int pits() const { return pits_; }

  private:
    void check_board() const;
    /// The build threads whose buffers the fixed margins do not hold.
    uint64_t threads_beyond_margin() const;

    MemoryBudget budget_;
    LevelFootprint footprint_;
    int pits_;
    bool forced_ = false;
    LevelMode forced_mode_ = LevelMode::InMemory;
    int build_threads_ = kMarginThreads;
};

} // namespace owaredb::cli
