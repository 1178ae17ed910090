// The consistency check of `owaredb verify`: every stored value re-derived from its moves.
#pragma once

#include "oware/oware_game.hpp"
#include "retro/value_array.hpp"
#include "tablebase/level_dir.hpp"

#include <cstdint>
#include <vector>

namespace owaredb {

/// The index of the first position of level n in `range` whose value in levels[n] differs
/// from its Bellman value (retro/bellman.hpp) over the exact values levels[0..n], or
/// level_size(n) when every value there agrees. Parallel over `threads`; the answer does
/// not depend on them.
uint64_t first_bellman_mismatch(const OwareGame& game, int n, const std::vector<ValueArray>& levels,
                                int threads, IndexRange range = {});

} // namespace owaredb
