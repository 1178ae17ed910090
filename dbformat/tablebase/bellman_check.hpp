// The consistency check of `owaredb verify`: every stored value re-derived from its moves,
// from levels held in memory or, streamed, from the level files read in sorted batches.
#pragma once

#include "oware/oware_game.hpp"
#include "retro/streamed_sources.hpp"
#include "retro/value_array.hpp"
#include "tablebase/level_dir.hpp"
#include "tablebase/streamed_bellman.hpp"

#include <cstdint>
#include <functional>
#include <vector>

namespace owaredb {

/// How a consistency check below runs: over `threads` threads (the answer does not depend
/// on them), on the positions of `range` of the level (all of them by default), telling
/// `progress(done, total)`, if given, on the calling thread, how many positions of the
/// range it has found consistent so far.
struct CheckRun {
    int threads = 1;
    IndexRange range = {};
    std::function<void(uint64_t done, uint64_t total)> progress = {};
};

/// The index of the first position of level n in run.range whose value in levels[n]
/// differs from its Bellman value (retro/bellman.hpp) over the exact values levels[0..n],
/// or level_size(n) when every value there agrees. For a board of P pits a side, 1..8 (as
/// the functions below). With run.progress, the range is taken a slice at a time and the
/// progress told after each: `slice` positions, or with 0 1/64 of the range and at least
/// kBellmanCheckSlice (each slice's end waits for its threads: a slice must be many chunks
/// long); without it the range is taken in one go.
template <int P>
uint64_t first_bellman_mismatch(const BasicOwareGame<P>& game, int n,
                                const std::vector<ValueArray>& levels, const CheckRun& run,
                                uint64_t slice = 0);
/// The least slice of first_bellman_mismatch with progress: 2^22 positions, 256 chunks.
inline constexpr uint64_t kBellmanCheckSlice = uint64_t(1) << 22;

/// Bytes a streamed check (below) takes per position of its batch on a board of P pits a
/// side: its Bellman value's (StreamedBellman) and the stored value.
constexpr uint64_t streamed_check_bytes_per_position(int pits_per_side) {
    return streamed_bellman_bytes_per_position(pits_per_side) + 1;
}
/// The same on the standard board.
inline constexpr uint64_t kStreamedCheckBytesPerPosition = streamed_check_bytes_per_position(6);

/// The same answer as first_bellman_mismatch, with no level in memory: `files` gives the
/// values of level n and of the levels its captures reach (FileSmallerLevels with level n
/// too). The range is taken `batch_positions` at a time: the batch's Bellman values
/// (StreamedBellman), then its stored values read in order and compared.
/// Memory: about kStreamedCheckBytesPerPosition bytes a batch position, whatever the
/// level's size; time: every batch reads (most of) level n once, so larger batches are
/// cheaper. run.progress, if given, is told after each batch.
template <int P>
uint64_t first_streamed_bellman_mismatch(const BasicOwareGame<P>& game, int n,
                                         const SmallerLevelValues& files, const CheckRun& run,
                                         uint64_t batch_positions);

} // namespace owaredb
