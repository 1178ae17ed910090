// The spilled entries of a full propagation stack (retro/spill.hpp): every entry pushed
// comes back exactly once, whatever the memory limit, with never more than the limit in
// memory and the rest in the area's blocks, which are written only once memory fills.
#include "retro/spill.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

using namespace owaredb;

TEST_CASE("spill stack: below its memory limit, no area; past it, blocks of half the limit") {
    InMemorySpillSpace space;
    SpillStack stack;
    for (uint64_t e = 0; e < 7; ++e) stack.push(e, space, 8);
    CHECK(space.opened() == 0);
    CHECK(stack.size() == 7);
    CHECK(stack.on_disk() == 0);
    stack.push(7, space, 8); // memory full: the older half (0..3) goes to a block
    CHECK(space.opened() == 1);
    CHECK(space.blocks_written() == 1);
    CHECK(stack.size() == 8);
    CHECK(stack.on_disk() == 4);
    uint64_t e = 0;
    for (uint64_t want = 8; want-- > 0;) { // last in, first out, through the block
        REQUIRE(stack.pop(e));
        CHECK(e == want);
    }
    CHECK_FALSE(stack.pop(e));
    CHECK(stack.empty());
}

TEST_CASE("spill stack: every entry back once, pushes and pops mixed, for any memory limit") {
    for (const size_t limit : {1u, 2u, 3u, 16u}) {
        CAPTURE(limit);
        InMemorySpillSpace space;
        SpillStack stack;
        std::vector<uint64_t> taken;
        uint64_t next = 0, e = 0;
        // Waves: push more than pop, then drain, so that blocks are written and read back
        // at every depth.
        for (int wave = 0; wave < 5; ++wave) {
            for (int k = 0; k < 40; ++k) {
                stack.push(next++, space, limit);
                CHECK(stack.size() - stack.on_disk() <= std::max<size_t>(limit, 1));
                if (k % 3 == 2 && stack.pop(e)) taken.push_back(e);
            }
        }
        while (stack.pop(e)) taken.push_back(e);
        CHECK(stack.empty());
        CHECK(stack.size() == 0);
        std::sort(taken.begin(), taken.end());
        REQUIRE(taken.size() == next);
        for (uint64_t k = 0; k < next; ++k) CHECK(taken[k] == k);
        CHECK(space.opened() == 1); // one area, reused from the first block on
        CHECK(space.blocks_written() > 0);
    }
}
