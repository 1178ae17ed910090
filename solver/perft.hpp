// Perft: the number of move sequences of a given length, the standard check of a move
// generator. A position without legal moves has no children.
#pragma once

#include "solver/position.hpp"
#include "solver/rules.hpp"

#include <cstdint>

namespace owaredb {

uint64_t perft(const Rules& rules, const Position& p, int depth);

} // namespace owaredb
