#include "dbformat/block_cache.hpp"

#include <list>
#include <mutex>
#include <unordered_map>

namespace owaredb::db {

namespace {

struct Key {
    uint64_t owner, block;
    bool operator==(const Key&) const = default;
};

uint64_t mix(uint64_t x) { // splitmix64 finaliser: spreads consecutive block numbers
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

struct KeyHash {
    std::size_t operator()(const Key& k) const {
        return mix(k.owner * 0x9e3779b97f4a7c15ULL ^ k.block);
    }
};

// Bytes a cached block costs: its data plus bookkeeping, so tiny blocks are not free.
std::size_t cost(const BlockCache::Block& b) {
    return b.size() + 96;
}

} // namespace

struct BlockCache::Shard {
    struct Entry {
        Key key;
        std::shared_ptr<const Block> data;
    };
    std::mutex mu;
    std::list<Entry> lru; // front = most recently used
    std::unordered_map<Key, std::list<Entry>::iterator, KeyHash> map;
    std::size_t bytes = 0, capacity = 0;

    // Returns the number of blocks evicted.
    uint64_t evict() {
        uint64_t n = 0;
        for (; bytes > capacity && lru.size() > 1; ++n) {
            bytes -= cost(*lru.back().data);
            map.erase(lru.back().key);
            lru.pop_back();
        }
        return n;
    }
};

BlockCache::BlockCache(std::size_t capacity_bytes) : capacity_(capacity_bytes) {
    // One shard per 4 MiB, at most 16: small caches keep one LRU order, large ones spread
    // the lock.
    std::size_t n = std::min<std::size_t>(16, std::max<std::size_t>(1, capacity_ >> 22));
    for (std::size_t i = 0; i < n; ++i) {
        shards_.push_back(std::make_unique<Shard>());
        shards_.back()->capacity = capacity_ / n;
    }
}

BlockCache::~BlockCache() = default;

BlockCache::Shard& BlockCache::shard_for(uint64_t owner, uint64_t block) {
    return *shards_[KeyHash{}(Key{owner, block}) % shards_.size()];
}

std::shared_ptr<const BlockCache::Block> BlockCache::find(uint64_t owner, uint64_t block) {
    Shard& s = shard_for(owner, block);
    std::lock_guard lock(s.mu);
    auto it = s.map.find(Key{owner, block});
    if (it == s.map.end()) {
        misses_.fetch_add(1, std::memory_order_relaxed);
        return nullptr;
    }
    hits_.fetch_add(1, std::memory_order_relaxed);
    s.lru.splice(s.lru.begin(), s.lru, it->second);
    return it->second->data;
}

void BlockCache::insert(uint64_t owner, uint64_t block, std::shared_ptr<const Block> data) {
    if (capacity_ == 0 || !data) return;
    Shard& s = shard_for(owner, block);
    std::lock_guard lock(s.mu);
    Key key{owner, block};
    uint64_t removed = 0;
    auto it = s.map.find(key);
    if (it != s.map.end()) {
        s.bytes -= cost(*it->second->data);
        s.lru.erase(it->second);
        s.map.erase(it);
        ++removed;
    }
    s.lru.push_front({key, std::move(data)});
    s.map.emplace(key, s.lru.begin());
    s.bytes += cost(*s.lru.front().data);
    removed += s.evict();
    if (removed) generation_.fetch_add(removed, std::memory_order_relaxed);
}

void BlockCache::erase_owner(uint64_t owner) {
    for (auto& sp : shards_) {
        Shard& s = *sp;
        std::lock_guard lock(s.mu);
        for (auto it = s.lru.begin(); it != s.lru.end();) {
            if (it->key.owner == owner) {
                s.bytes -= cost(*it->data);
                s.map.erase(it->key);
                it = s.lru.erase(it);
                generation_.fetch_add(1, std::memory_order_relaxed);
            } else {
                ++it;
            }
        }
    }
}

std::size_t BlockCache::size_bytes() const {
    std::size_t total = 0;
    for (auto& sp : shards_) {
        std::lock_guard lock(sp->mu);
        total += sp->bytes;
    }
    return total;
}

uint64_t BlockCache::new_owner() {
    static std::atomic<uint64_t> next{1};
    return next.fetch_add(1, std::memory_order_relaxed);
}

} // namespace owaredb::db
