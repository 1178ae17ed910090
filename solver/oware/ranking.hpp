// Position ranking by seed count: a bijection between [0, |D_n|) and the n-seed
// positions in which the side that just moved (pits P..2P-1) has an empty pit.
//
// |D_n| = C(n+2P-1,2P-1) - C(n+P-1,2P-1): all ways to put n seeds in 2P pits, minus those
// where each of pits P..2P-1 holds at least one seed (take one from each); for the
// standard board (P = 6), C(n+11,11) - C(n+5,11).
//
// The rank is a mixed-radix count: reading pits 0..2P-1 in order, the rank adds, for each
// pit, how many valid positions share the pits before it and hold fewer seeds in it. One
// table lookup per pit (prefix sums over the pit's value) makes rank and unrank O(2P).
// The table depends only on the seeds still to place, so one table serves every n.
#pragma once

#include "oware/position.hpp"
#include "retro/binomial.hpp"

#include <cstdint>

namespace owaredb {

/// Number of positions in D_n (0 <= n <= 48) on a board of P pits per side. P = 6, n = 48
/// gives 203,648,015,935.
template <int P> uint64_t level_size(int n);

/// level_size<P>(n) for a board size P (1..8) known at run time (std::invalid_argument
/// outside 1..8).
uint64_t level_size(int pits_per_side, int n);

/// Rank of p within D_{p.seeds()}. Precondition: p.in_database() and p.seeds() <= 48.
template <int P> uint64_t rank(const BasicPosition<P>& p);

/// The position of D_n with the given rank. Precondition: index < level_size<P>(n).
template <int P> BasicPosition<P> unrank(int n, uint64_t index);

/// The position ranked one after p in its level: unrank(n, rank(p) + 1), in a few steps
/// instead of 2P table searches, for passes that visit a level in rank order.
/// Precondition: p.in_database() and p is not the level's last position.
template <int P> BasicPosition<P> next_in_level(BasicPosition<P> p);

/// The byte offset of p in Romein & Bal's published level files (`scores.N`, 2002; VU
/// Amsterdam 2024): the same set D_n ordered lexicographically over pits 11, 10, ..., 0
/// (ours reads pits 0..11), so converting between the two is a permutation. Offset 0 of
/// level 3 is "3 0 0 0 0 0 0 0 0 0 0 0", the last of level 48 holds all seeds in pit 11.
/// Precondition: p.in_database() and p.seeds() <= 48.
uint64_t published_rank(const Position& p);

/// The position of D_n at that offset of Romein & Bal's file. Precondition: index <
/// level_size(n).
Position published_unrank(int n, uint64_t index);

/// Number of n-seed positions outside D_n, those in which each of pits P..2P-1 holds a
/// seed: C(n+P-1, 2P-1) (0 for n < P). Every distribution of n seeds is in D_n or outside.
template <int P> uint64_t outside_size(int n);

/// The outside position of n seeds with the given index, the positions taken in
/// lexicographic order of pits 0..2P-1 (as D_n's ranks are). Precondition: index <
/// outside_size<P>(n).
template <int P> BasicPosition<P> unrank_outside(int n, uint64_t index);

} // namespace owaredb
