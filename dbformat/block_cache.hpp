// A bounded, thread-safe LRU cache of decompressed blocks, shareable by many readers.
//
// Contract:
// - Entries are keyed by (owner, block); each LevelReader takes a fresh owner id, so one
//   cache can serve every level of a directory under one memory budget.
// - The bytes held stay within capacity_bytes, except that a single block larger than a
//   shard's share is still kept (alone) so that capacity 1 still caches something; with
//   capacity 0 nothing is kept. Blocks are handed out as shared_ptr, so eviction never
//   invalidates a block a thread is using.
// - All member functions are thread-safe. The cache is split into shards (one mutex each)
//   when the capacity is large enough, so threads rarely contend.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace owaredb::db {

class BlockCache {
  public:
    using Block = std::vector<uint8_t>;

    explicit BlockCache(std::size_t capacity_bytes);
    ~BlockCache();
    BlockCache(const BlockCache&) = delete;
    BlockCache& operator=(const BlockCache&) = delete;

    // The cached block, refreshed as most recently used, or null.
    std::shared_ptr<const Block> find(uint64_t owner, uint64_t block);
    // Inserts (or replaces) a block, evicting least recently used ones of its shard.
    void insert(uint64_t owner, uint64_t block, std::shared_ptr<const Block> data);
    // Drops every block of one owner (a reader being destroyed).
    void erase_owner(uint64_t owner);

    // The number of blocks that have left the cache so far (evicted, replaced or erased).
    // While it stays the same, blocks found or inserted since are still cached; readers use
    // it to tell when their per-thread tables of recently used blocks are out of date (a
    // hint: a block handed out stays valid however the count moves).
    uint64_t generation() const { return generation_.load(std::memory_order_relaxed); }

    std::size_t capacity_bytes() const { return capacity_; }
    std::size_t size_bytes() const;
    // Lookups that reached the cache (a reader answers most repeated ones from its
    // per-thread table without asking the cache).
    uint64_t hits() const { return hits_.load(std::memory_order_relaxed); }
    uint64_t misses() const { return misses_.load(std::memory_order_relaxed); }

    // A process-wide unique owner id.
    static uint64_t new_owner();

  private:
    struct Shard;
    Shard& shard_for(uint64_t owner, uint64_t block);
    std::size_t capacity_;
    std::vector<std::unique_ptr<Shard>> shards_;
    std::atomic<uint64_t> hits_{0}, misses_{0}, generation_{0};
};

} // namespace owaredb::db
