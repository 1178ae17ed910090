// Perft: the number of move sequences of a given length, the standard check of a move
// generator. A position without legal moves has no children.
#pragma once

#include "oware/position.hpp"
#include "oware/rules.hpp"

#include <cstdint>

namespace owaredb {

template <int P> uint64_t perft(const Rules& rules, const BasicPosition<P>& p, int depth);

} // namespace owaredb
