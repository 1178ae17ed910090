// Un-move generation: the parents of a position within its database.
//
// This is the hot path of retrograde analysis. A parent of p is a position q of the same
// database D_n (same seed count, an empty pit among 6..11) with a legal, non-capturing
// move that leads to p. Under abapa a grand slam captures nothing, so it counts here; a
// capturing move leads into a smaller database and never does.
#pragma once

#include "oware/position.hpp"
#include "oware/rules.hpp"

#include <array>

namespace owaredb {

/// Upper bound on the parents of one position: each of the 6 possible origins can have
/// been sown with at most 48 seeds.
inline constexpr int kMaxParents = kPitsPerSide * kMaxSeeds;

struct ParentList {
    // The entries are left uninitialised: only the first `count` are ever read, and zeroing
    // all 3.5 KB on every call showed up in profiles of a level's solve (docs/results.md,
    // Generation: Locality).
    ParentList() {}
    union {
        std::array<Position, kMaxParents> parents;
    };
    int count = 0;
    const Position* begin() const { return parents.data(); }
    const Position* end() const { return parents.data() + count; }
    int size() const { return count; }
};

/// Every q in D_{p.seeds()} with a legal non-capturing move to p, each exactly once, in
/// no particular order. `p` may be any position (it need not be in D_n).
void parents(const Rules& rules, const Position& p, ParentList& out);

} // namespace owaredb
