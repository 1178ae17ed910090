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

/// Upper bound on the parents of one position: each of the P possible origins can have
/// been sown with at most 48 seeds.
template <int P> inline constexpr int kMaxParentsOf = P* kMaxSeeds;
inline constexpr int kMaxParents = kMaxParentsOf<6>;

template <int P> struct BasicParentList {
    // The entries are left uninitialised: only the first `count` are ever read, and zeroing
    // all 3.5 KB on every call showed up in profiles of a level's solve (docs/results.md,
    // Generation: Locality).
    BasicParentList() {}
    union {
        std::array<BasicPosition<P>, kMaxParentsOf<P>> parents;
    };
    int count = 0;
    const BasicPosition<P>* begin() const { return parents.data(); }
    const BasicPosition<P>* end() const { return parents.data() + count; }
    int size() const { return count; }
};
using ParentList = BasicParentList<6>;

/// Every q in D_{p.seeds()} with a legal non-capturing move to p, each exactly once, in
/// no particular order. `p` may be any position (it need not be in D_n).
template <int P>
void parents(const Rules& rules, const BasicPosition<P>& p, BasicParentList<P>& out);

} // namespace owaredb
