// Position ranking by seed count: a bijection between [0, |D_n|) and the n-seed
// positions in which the side that just moved (pits 6..11) has an empty pit.
//
// |D_n| = C(n+11,11) - C(n+5,11): all ways to put n seeds in 12 pits, minus those where
// each of pits 6..11 holds at least one seed (take one from each: C(n-6+11, 11)).
//
// The rank is a mixed-radix count: reading pits 0..11 in order, the rank adds, for each
// pit, how many valid positions share the pits before it and hold fewer seeds in it. One
// table lookup per pit (prefix sums over the pit's value) makes rank and unrank O(12).
// The table depends only on the seeds still to place, so one table serves every n.
#pragma once

#include "oware/position.hpp"
#include "retro/binomial.hpp"

#include <cstdint>

namespace owaredb {

/// Number of positions in D_n (0 <= n <= 48). n = 48 gives 203,648,015,935.
uint64_t level_size(int n);

/// Rank of p within D_{p.seeds()}. Precondition: p.in_database() and p.seeds() <= 48.
uint64_t rank(const Position& p);

/// The position of D_n with the given rank. Precondition: index < level_size(n).
Position unrank(int n, uint64_t index);

/// The position ranked one after p in its level: unrank(n, rank(p) + 1), in a few steps
/// instead of twelve table searches, for passes that visit a level in rank order.
/// Precondition: p.in_database() and p is not the level's last position.
Position next_in_level(Position p);

/// The byte offset of p in Romein & Bal's published level files (`scores.N`, 2002; VU
/// Amsterdam 2024): the same set D_n ordered lexicographically over pits 11, 10, ..., 0
/// (ours reads pits 0..11), so converting between the two is a permutation. Offset 0 of
/// level 3 is "3 0 0 0 0 0 0 0 0 0 0 0", the last of level 48 holds all seeds in pit 11.
/// Precondition: p.in_database() and p.seeds() <= 48.
uint64_t published_rank(const Position& p);

/// The position of D_n at that offset of Romein & Bal's file. Precondition: index <
/// level_size(n).
Position published_unrank(int n, uint64_t index);

/// Number of n-seed positions outside D_n, those in which each of pits 6..11 holds a seed:
/// C(n+5, 11) (0 for n < 6). Every distribution of n seeds is in D_n or outside it.
uint64_t outside_size(int n);

/// The outside position of n seeds with the given index, the positions taken in
/// lexicographic order of pits 0..11 (as D_n's ranks are). Precondition: index <
/// outside_size(n).
Position unrank_outside(int n, uint64_t index);

} // namespace owaredb
