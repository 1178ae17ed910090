#include <doctest/doctest.h>

#include "dbformat/block_cache.hpp"

using namespace owaredb::db;

namespace {

std::shared_ptr<const BlockCache::Block> block_of(std::size_t bytes, uint8_t fill) {
    return std::make_shared<const BlockCache::Block>(bytes, fill);
}

} // namespace

TEST_CASE("block cache: LRU order and byte bound") {
    BlockCache cache(10000); // one shard
    for (uint64_t b = 0; b < 5; ++b) cache.insert(1, b, block_of(1000, uint8_t(b)));
    CHECK(cache.size_bytes() <= 10000);
    REQUIRE(cache.find(1, 0)); // 0 becomes most recent
    for (uint64_t b = 5; b < 12; ++b) cache.insert(1, b, block_of(1000, uint8_t(b)));
    CHECK(cache.size_bytes() <= 10000);
    CHECK(cache.find(1, 0));       // recently used: kept
    CHECK_FALSE(cache.find(1, 1)); // oldest: evicted
    CHECK((*cache.find(1, 11))[0] == 11);
    CHECK_FALSE(cache.find(2, 11)); // owners are separate
    cache.erase_owner(1);
    CHECK(cache.size_bytes() == 0);
    CHECK_FALSE(cache.find(1, 11));
}

TEST_CASE("block cache: tiny and zero capacity") {
    BlockCache none(0);
    none.insert(1, 0, block_of(10, 0));
    CHECK_FALSE(none.find(1, 0));
    BlockCache tiny(1); // keeps exactly one block, however large
    tiny.insert(1, 0, block_of(5000, 0));
    CHECK(tiny.find(1, 0));
    tiny.insert(1, 1, block_of(5000, 1));
    CHECK(tiny.find(1, 1));
    CHECK_FALSE(tiny.find(1, 0));
}

TEST_CASE("block cache: large capacity is sharded and still bounded") {
    BlockCache cache(std::size_t(64) << 20);
    for (uint64_t b = 0; b < 4000; ++b) cache.insert(7, b, block_of(32768, 0));
    CHECK(cache.size_bytes() <= cache.capacity_bytes());
    CHECK(cache.size_bytes() > cache.capacity_bytes() / 2);
    CHECK(BlockCache::new_owner() != BlockCache::new_owner());
}

TEST_CASE("block cache: the generation counts the blocks that left it") {
    BlockCache cache(10000); // one shard
    CHECK(cache.generation() == 0);
    for (uint64_t b = 0; b < 5; ++b) cache.insert(1, b, block_of(1000, uint8_t(b)));
    REQUIRE(cache.find(1, 0));
    CHECK_FALSE(cache.find(1, 9));
    CHECK(cache.generation() == 0);        // inserting, hits and misses remove nothing
    cache.insert(1, 0, block_of(1000, 7)); // replaced
    CHECK(cache.generation() == 1);
    for (uint64_t b = 5; b < 12; ++b) cache.insert(1, b, block_of(1000, uint8_t(b)));
    CHECK(cache.generation() == 4); // 12 blocks of 1096 bytes: 9 fit, 3 more left
    cache.erase_owner(2);
    CHECK(cache.generation() == 4);
    cache.erase_owner(1);
    CHECK(cache.generation() == 13);
    BlockCache none(0);
    none.insert(1, 0, block_of(10, 0)); // never held
    CHECK(none.generation() == 0);
}
