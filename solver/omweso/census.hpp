// Census of never-ending pure relays: every distribution of S seeds on an N-pit circuit
// with at least 2 seeds in pit 0, relay-sown from pit 0 with no captures. By rotation
// symmetry this covers every relay of S seeds on the circuit (relay.hpp).
#pragma once

#include <cstdint>
#include <functional>
#include <map>

namespace owaredb::omweso {

struct CensusResult {
    int seeds = 0;
    int pits = 0;
    std::uint64_t boards = 0;
    std::uint64_t never_ending = 0;
    std::map<std::uint64_t, std::uint64_t> periods; // period in laps -> boards
    std::uint64_t laps = 0;                         // laps simulated in all
};

// C(seeds - 2 + pits - 1, pits - 1): the number of boards of a census (0 if seeds < 2).
std::uint64_t census_boards(int seeds, int pits);

// Called from one thread now and then with (boards done, boards in all).
using CensusProgress = std::function<void(std::uint64_t, std::uint64_t)>;

// Runs the census with `threads` OpenMP threads, the caller's count (the program resolved
// --threads once). Throws std::invalid_argument unless 2 <= pits <= 16, 2 <= seeds <= 64
// and threads >= 1.
CensusResult census(int seeds, int pits, int threads, const CensusProgress& progress = {});

} // namespace owaredb::omweso
