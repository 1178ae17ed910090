// Every distribution of n seeds over the 12 pits, C(n+11, 11) of them, as Lincke's
// databases index them: the positions of D_n with their stored values, and the positions
// outside D_n (each of pits 6..11 holds a seed: the side that just moved cannot have
// left such a board) valued by one ply of search over the stored levels (docs/values.md).
// On a board of P pits a side the same with 2P pits: C(n+2P-1, 2P-1) distributions, the
// outside ones with a seed in each of pits P..2P-1.
// `owaredb stats --all-configurations` counts their values to compare with his tables.
#pragma once

#include "oware/oware_game.hpp"
#include "retro/streamed_sources.hpp"
#include "retro/value_array.hpp"

#include <array>
#include <cstdint>
#include <functional>
#include <vector>

namespace owaredb {

/// counts[v + kMaxSeeds] = how many positions have value v (-48..48).
using ValueCounts = std::array<uint64_t, 2 * kMaxSeeds + 1>;

/// The values of the n-seed positions outside D_n (ranking.hpp, unrank_outside), each the
/// Bellman value over its moves, from the exact values of levels 0..n in memory
/// (levels[k] for level k; a level no capture from n reaches may be empty). Parallel over
/// `threads`; the counts do not depend on them. For a board of P pits a side, 1..8 (as
/// the function below).
template <int P>
ValueCounts outside_value_counts(const BasicOwareGame<P>& game, int n,
                                 const std::vector<ValueArray>& levels, int threads);

/// The same counts with no level in memory: `files` gives the values of level n and of
/// the levels its captures reach (FileSmallerLevels with level n). The positions are
/// valued `batch_positions` at a time (StreamedBellman: about
/// streamed_bellman_bytes_per_position(P) bytes each). `progress(done, total)`, if given,
/// is called on the calling thread after each batch.
template <int P>
ValueCounts streamed_outside_value_counts(
    const BasicOwareGame<P>& game, int n, const SmallerLevelValues& files, int threads,
    uint64_t batch_positions,
    const std::function<void(uint64_t done, uint64_t total)>& progress = {});

} // namespace owaredb
