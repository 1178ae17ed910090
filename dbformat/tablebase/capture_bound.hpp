// Capture-bounded storage: an optional, smaller encoding of a level's values.
//
// Many positions are worth exactly their best capture: V(p) = E(p), where
// E(p) = max over capturing moves m of (captured(m) - V(child(m))) and every such child
// lies in a smaller level. A prober that knows the smaller levels can recompute E(p) with
// one ply of search, so the stored byte of such a position only has to be a lower bound:
// any T <= E(p) gives back V(p) = max(T, E(p)). The encoder picks the bound that repeats
// the previous stored byte when it can, which turns these positions into runs that zstd
// codes almost for free (about a quarter off the file size at n = 18; see README.md).
//
// The contract, for every position p of the level:
//   stored T(p) <= V(p), and V(p) = max(T(p), E(p)) (E = kNoMove without a capture).
// An exact value array satisfies it too, so decoding an exact array is harmless.
#pragma once

#include "oware/oware_game.hpp"
#include "retro/bellman.hpp"

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

namespace owaredb {

/// E(p): the best of p's capturing moves, max (captured - child_value(level, child)), or
/// kNoMove when p has none. `child_value(int level, const Position& child)` returns the
/// exact value (an int) of a child in a smaller level.
template <class ChildValue>
int best_capture_value(const OwareGame& game, const Position& p, ChildValue&& child_value) {
    if (!may_capture(p)) return kNoMove; // most positions: no move generation at all
    return bellman_value<MoveSet::Captures>(game, p.seeds(), p, child_value);
}

/// Entries per run of the encoder: the "previous byte" restarts at every multiple, so the
/// result does not depend on the thread count.
inline constexpr uint64_t kCaptureBoundChunk = 1 << 16;

/// Writes into `stored` the capture-bounded encoding of level n's exact `values`, given
/// the exact values of every smaller level (smaller[k] = level k, k < n). Deterministic.
/// Throws std::logic_error if some value is below its best capture (not a solved level).
void encode_capture_bounded(const OwareGame& game, int n, std::span<const int8_t> values,
                            const std::vector<const int8_t*>& smaller, std::span<int8_t> stored,
                            int threads);

/// Turns a capture-bounded level back into exact values in place: V = max(T, E). `smaller`
/// must hold the exact values of levels 0..n-1.
void decode_capture_bounded(const OwareGame& game, int n, std::span<int8_t> values,
                            const std::vector<const int8_t*>& smaller, int threads);

} // namespace owaredb
