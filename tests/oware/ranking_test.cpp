#include "oware/ranking.hpp"
#include "quick.hpp"

#include <doctest/doctest.h>

#include <random>
#include <vector>

using namespace owaredb;

namespace {
// Every distribution of n seeds over 12 pits, in lexicographic order of pits 0..11.
template <class F> void for_each_distribution(int n, F&& f) {
    Position p;
    auto rec = [&](auto&& self, int pit, int left) -> void {
        if (pit == kPits - 1) {
            p.pits[pit] = static_cast<uint8_t>(left);
            f(p);
            return;
        }
        for (int v = 0; v <= left; ++v) {
            p.pits[pit] = static_cast<uint8_t>(v);
            self(self, pit + 1, left - v);
        }
    };
    rec(rec, 0, n);
}
} // namespace

TEST_CASE("level sizes match C(n+11,11) - C(n+5,11) for every n <= 48") {
    for (int n = 0; n <= kMaxSeeds; ++n)
        CHECK(level_size<6>(n) == binomial(n + 11, 11) - binomial(n + 5, 11));
    CHECK(level_size<6>(48) == 203'648'015'935ULL); // docs/values.md, The databases: n = 48
    CHECK(level_size<6>(0) == 1);
    CHECK(level_size<6>(1) == 12);
}

TEST_CASE("outside positions: every n-seed position not in D_n, in enumeration order") {
    // The positions in which each of pits 6..11 holds a seed, C(n+5, 11) of them (Lincke's
    // "all configurations" count them beside D_n); index i in lexicographic order of pits
    // 0..11, as for_each_distribution visits them.
    const int max_n = test::quick() ? 10 : 14;
    for (int n = 0; n <= max_n; ++n) {
        uint64_t expected = 0;
        bool ok = true;
        for_each_distribution(n, [&](const Position& p) {
            if (p.in_database()) return;
            if (unrank_outside<6>(n, expected) != p) ok = false;
            ++expected;
        });
        CHECK_MESSAGE(ok, "n = " << n);
        CHECK(expected == outside_size<6>(n));
    }
    for (int n = 0; n <= kMaxSeeds; ++n)
        CHECK(outside_size<6>(n) + level_size<6>(n) == binomial(n + 11, 11));
    // The ends at 48 seeds: first pits 0..10 as small as they can be (pit 11 takes the
    // rest), last pit 0 as large as it can be.
    CHECK(to_string(unrank_outside<6>(48, 0)) == "0 0 0 0 0 0 1 1 1 1 1 43");
    CHECK(to_string(unrank_outside<6>(48, outside_size<6>(48) - 1)) == "42 0 0 0 0 0 1 1 1 1 1 1");
}

TEST_CASE("summed sizes reproduce Romein & Bal's 889,063,398,406 positions") {
    // Romein & Bal (2002): databases for 0..46 and 48 seeds plus the start position.
    uint64_t total = 0;
    for (int n = 0; n <= kMaxSeeds; ++n)
        if (n != 47) total += level_size<6>(n);
    CHECK(total + 1 == 889'063'398'406ULL);
}

TEST_CASE("rank is a bijection onto [0, |D_n|) in enumeration order, n <= 12") {
    const int max_n = test::quick() ? 8 : 12;
    for (int n = 0; n <= max_n; ++n) {
        uint64_t expected = 0;
        bool ok = true;
        for_each_distribution(n, [&](const Position& p) {
            if (!p.in_database()) return;
            // Lexicographic enumeration must give consecutive ranks, and unrank inverts.
            if (rank(p) != expected || unrank<6>(n, expected) != p) ok = false;
            ++expected;
        });
        CHECK_MESSAGE(ok, "n = " << n);
        CHECK(expected == level_size<6>(n));
    }
}

TEST_CASE("rank/unrank round trip on random indices for n up to 48") {
    std::mt19937_64 rng(12345);
    for (int n = 0; n <= kMaxSeeds; ++n) {
        const uint64_t size = level_size<6>(n);
        for (int k = 0; k < 2000; ++k) {
            uint64_t i = k == 0 ? 0 : k == 1 ? size - 1 : rng() % size;
            Position p = unrank<6>(n, i);
            REQUIRE(p.seeds() == n);
            REQUIRE(p.in_database());
            REQUIRE(rank(p) == i);
        }
    }
}

TEST_CASE("next_in_level steps through every level in rank order, n <= 12") {
    const int max_n = test::quick() ? 8 : 12;
    for (int n = 1; n <= max_n; ++n) {
        Position p = unrank<6>(n, 0);
        uint64_t wrong = 0;
        for (uint64_t i = 1; i < level_size<6>(n); ++i) {
            p = next_in_level(p);
            wrong += p != unrank<6>(n, i);
        }
        CHECK_MESSAGE(wrong == 0, "n = " << n);
        CHECK(p == unrank<6>(n, level_size<6>(n) - 1)); // the last: every seed in pit 0
        CHECK(p.pits[0] == n);
    }
}

TEST_CASE("next_in_level on hand-checked positions and on random runs up to n = 48") {
    // A step inside the last two pits, a carry into an earlier pit, and the skip over the
    // positions where pits 6..11 all hold seeds (not in the databases).
    CHECK(next_in_level(parse_position_or_throw<6>("0 0 0 0 0 0 0 0 0 0 2 3")) ==
          parse_position_or_throw<6>("0 0 0 0 0 0 0 0 0 0 3 2"));
    CHECK(next_in_level(parse_position_or_throw<6>("0 0 0 0 0 0 0 0 1 0 4 0")) ==
          parse_position_or_throw<6>("0 0 0 0 0 0 0 0 1 1 0 3"));
    CHECK(next_in_level(parse_position_or_throw<6>("0 0 0 0 0 1 1 1 1 1 0 2")) ==
          parse_position_or_throw<6>("0 0 0 0 0 1 1 1 1 1 2 0")); // skips 1 1 1 1 1 1 1
    std::mt19937_64 rng(2026);
    for (int n = 1; n <= kMaxSeeds; ++n) {
        const uint64_t size = level_size<6>(n);
        for (int run = 0; run < 20; ++run) {
            uint64_t i = rng() % (size - 1);
            Position p = unrank<6>(n, i);
            for (int k = 0; k < 200 && i + 1 < size; ++k, ++i) {
                p = next_in_level(p);
                REQUIRE(rank(p) == i + 1);
            }
        }
    }
}

TEST_CASE("Romein & Bal's order: the offsets their release describes") {
    // The release's description (DOI 10.48338/vu01-11wjke): offset 0 of scores.3 is
    // "3 0 0 0 0 0 0 0 0 0 0 0", then "2 1 0 ...", "1 2 0 ...", "0 3 0 ...", "2 0 1 0 ...";
    // the last offset of scores.48 is all 48 seeds in pit 11.
    const char* first[] = {"3 0 0 0 0 0 0 0 0 0 0 0", "2 1 0 0 0 0 0 0 0 0 0 0",
                           "1 2 0 0 0 0 0 0 0 0 0 0", "0 3 0 0 0 0 0 0 0 0 0 0",
                           "2 0 1 0 0 0 0 0 0 0 0 0"};
    for (uint64_t i = 0; i < 5; ++i) {
        CAPTURE(i);
        CHECK(to_string(published_unrank(3, i)) == first[i]);
        CHECK(published_rank(parse_position_or_throw<6>(first[i])) == i);
    }
    CHECK(to_string(published_unrank(48, level_size<6>(48) - 1)) == "0 0 0 0 0 0 0 0 0 0 0 48");
    CHECK(published_rank(parse_position_or_throw<6>("0 0 0 0 0 0 0 0 0 0 0 48")) ==
          level_size<6>(48) - 1);
}

TEST_CASE("Romein & Bal's order: successive positions in it get offsets 0, 1, 2, ...") {
    // An independent enumeration: pit 11 in the outer loop, pit 0 in the inner one, each
    // from 0 up, so that the key (pit 11, ..., pit 0) grows lexicographically.
    const int max_n = test::quick() ? 8 : 11;
    for (int n = 0; n <= max_n; ++n) {
        uint64_t expected = 0;
        bool ok = true;
        Position p;
        auto rec = [&](auto&& self, int pit, int left) -> void {
            if (pit == 0) {
                p.pits[0] = static_cast<uint8_t>(left);
                if (!p.in_database()) return;
                if (published_rank(p) != expected || published_unrank(n, expected) != p) ok = false;
                ++expected;
                return;
            }
            for (int v = 0; v <= left; ++v) {
                p.pits[size_t(pit)] = static_cast<uint8_t>(v);
                self(self, pit - 1, left - v);
            }
        };
        rec(rec, kPits - 1, n);
        CHECK_MESSAGE(ok, "n = " << n);
        CHECK(expected == level_size<6>(n));
    }
}

TEST_CASE("Romein & Bal's order: a bijection at every level up to 48 (random offsets)") {
    std::mt19937_64 rng(2002);
    for (int n = 0; n <= kMaxSeeds; ++n) {
        CAPTURE(n);
        const uint64_t size = level_size<6>(n);
        std::uniform_int_distribution<uint64_t> any(0, size - 1);
        bool ok = true;
        for (int k = 0; k < 200; ++k) {
            const uint64_t i = k == 0 ? 0 : k == 1 ? size - 1 : any(rng);
            const Position p = published_unrank(n, i);
            if (p.seeds() != n || !p.in_database() || published_rank(p) != i) ok = false;
            // The same position in our order and back: conversion is a permutation.
            if (published_rank(unrank<6>(n, rank(p))) != i) ok = false;
        }
        CHECK(ok);
    }
}
