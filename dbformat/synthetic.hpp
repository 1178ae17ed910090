// Synthetic value arrays shaped like endgame databases, for tests and the format benchmark
// until real levels exist. Fully deterministic for a given seed on every platform (own
// PRNG, no std:: distributions).
#pragma once

#include <cstdint>
#include <vector>

namespace owaredb::db {

enum class SyntheticShape {
    Uniform,  // independent uniform values in -n..n: incompressible worst case
    Markov,   // runs: keep the previous value with probability `stay`, else draw a fresh one
              // with P(v) proportional to decay^|v| (most mass on 0, +-1, +-2)
    Periodic, // a random pattern of `period` values repeated with a fraction (1-stay) of
              // entries redrawn, mimicking ranks whose value depends on a few pits
};

struct SyntheticSpec {
    SyntheticShape shape = SyntheticShape::Markov;
    uint64_t entries = 0;
    uint32_t n = 8;
    double stay = 0.85;
    double decay = 0.35;
    uint32_t period = 4096;
    double dont_care = 0.0; // fraction of entries replaced by kDontCare
    uint64_t seed = 1;
};

std::vector<int8_t> synthetic_values(const SyntheticSpec& spec);

} // namespace owaredb::db
