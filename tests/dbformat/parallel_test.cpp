// Many threads sharing readers and one cache (runs under TSan: label "parallel"). Files are
// written with one OpenMP thread so TSan only sees our own threads.
#include <doctest/doctest.h>

#include <optional>
#include <thread>

#include "dbformat/reader.hpp"
#include "dbformat/writer.hpp"
#include "helpers.hpp"

using namespace owaredb::db;
using namespace owaredb::db::test;

namespace {

// Levels n = 2, 3, 4 of `entries` sample values (seeded n + seed) in 256-entry blocks;
// returns their values, levels[n - 2].
std::vector<std::vector<int8_t>> write_small_levels(const TempDir& dir, uint64_t entries,
                                                    uint64_t seed) {
    WriterOptions o;
    o.block_entries = 256;
    o.level = 1;
    o.threads = 1;
    std::vector<std::vector<int8_t>> levels;
    for (uint32_t n = 2; n < 5; ++n) {
        levels.push_back(sample_values(entries, n, n + seed));
        write_level(level_path(dir.path(), "abapa", n), meta_for("abapa", n, entries),
                    levels.back(), o);
    }
    return levels;
}

} // namespace

TEST_CASE("concurrent lazy open and probes through a small shared cache") {
    TempDir dir;
    const uint64_t entries = quick() ? 20000 : 200000;
    auto levels = write_small_levels(dir, entries, 0);
    auto cache = std::make_shared<BlockCache>(64 << 10); // far smaller than the levels
    std::vector<LevelReader> readers;
    for (uint32_t n = 2; n < 5; ++n) {
        ReaderOptions ro;
        ro.cache = cache;
        ro.expect = Expectation::exactly(meta_for("abapa", n, entries));
        readers.emplace_back(level_path(dir.path(), "abapa", n), ro);
    }
    LevelReader missing(level_path(dir.path(), "abapa", 9), ReaderOptions{cache, 0, {}});

    std::atomic<int> wrong{0}, errors{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
        threads.emplace_back([&, t] {
            uint64_t x = 0x9e3779b97f4a7c15ULL * uint64_t(t + 1);
            for (int i = 0; i < (quick() ? 20000 : 100000); ++i) {
                x ^= x << 13, x ^= x >> 7, x ^= x << 17;
                std::size_t l = x % readers.size();
                uint64_t idx = (x >> 8) % entries;
                auto v = readers[l].value(idx);
                if (!v.ok())
                    ++errors;
                else if (*v != levels[l][idx])
                    ++wrong;
                if (i % 1000 == 0 && missing.value(0).status().code() != ErrorCode::NotFound)
                    ++errors;
            }
        });
    }
    for (auto& th : threads) th.join();
    CHECK(wrong == 0);
    CHECK(errors == 0);
    CHECK(cache->size_bytes() <= cache->capacity_bytes());
    CHECK(cache->hits() + cache->misses() > 0);
    for (auto& r : readers) CHECK(r.verify(1).ok());
}

TEST_CASE("read_values from many threads: evictions, no cache, short-lived readers") {
    // Lookups go through each thread's table of recent blocks (reader.cpp) in front of the
    // shared cache; whatever the cache does meanwhile, every value must be right.
    TempDir dir;
    const uint64_t entries = quick() ? 20000 : 100000;
    auto levels = write_small_levels(dir, entries, 10);
    // Far smaller than the levels (constant evictions), none at all, and larger than all.
    for (std::size_t capacity : {std::size_t(64) << 10, std::size_t(0), std::size_t(64) << 20}) {
        CAPTURE(capacity);
        auto cache = std::make_shared<BlockCache>(capacity);
        auto open = [&](uint32_t n) {
            ReaderOptions ro;
            ro.cache = cache;
            ro.expect = Expectation::exactly(meta_for("abapa", n, entries));
            return LevelReader(level_path(dir.path(), "abapa", n), ro);
        };
        std::vector<LevelReader> readers;
        for (uint32_t n = 2; n < 5; ++n) readers.push_back(open(n));

        std::atomic<int> wrong{0}, errors{0};
        std::vector<std::thread> threads;
        for (int t = 0; t < 4; ++t) {
            threads.emplace_back([&, t] {
                uint64_t x = 0x9e3779b97f4a7c15ULL * uint64_t(t + 11);
                auto next = [&] { return x ^= x << 13, x ^= x >> 7, x ^= x << 17; };
                for (int i = 0; i < (quick() ? 2000 : 10000); ++i) {
                    // Now and then a reader of this thread only, over the same cache,
                    // destroyed at the end of the iteration: its blocks must never be
                    // served for another reader (its owner id is never reused).
                    std::optional<LevelReader> own;
                    if (i % 100 == 0) own.emplace(open(2 + uint32_t(next() % 3)));
                    std::vector<ValueQuery> q(1 + next() % 12);
                    std::vector<std::size_t> level(q.size());
                    for (std::size_t k = 0; k < q.size(); ++k) {
                        level[k] = next() % readers.size();
                        // Neighbouring entries now and then: the same block twice.
                        q[k].index = k && next() % 4 == 0 ? (q[k - 1].index + 1) % entries
                                                          : next() % entries;
                        q[k].reader = &readers[level[k]];
                        if (own && k % 2) {
                            q[k].reader = &*own;
                            level[k] = own->path() == readers[0].path()   ? 0
                                       : own->path() == readers[1].path() ? 1
                                                                          : 2;
                        }
                    }
                    std::vector<int8_t> v(q.size());
                    Status error;
                    if (LevelReader::read_values(q, v, error) != q.size()) ++errors;
                    for (std::size_t k = 0; k < q.size(); ++k)
                        if (v[k] != levels[level[k]][q[k].index]) ++wrong;
                }
            });
        }
        for (auto& th : threads) th.join();
        CHECK(wrong == 0);
        CHECK(errors == 0);
        CHECK(cache->size_bytes() <= cache->capacity_bytes());
    }
}

namespace {

// Probes a reader from its destructor, which runs at its thread's exit.
struct ProbeAtExit {
    const LevelReader* reader = nullptr;
    std::atomic<int>* result = nullptr;
    ~ProbeAtExit() {
        if (!reader) return;
        auto v = reader->value(7);
        result->store(v.ok() ? *v : -1000);
    }
};

} // namespace

TEST_CASE("a reader still works from a thread_local destructor at thread exit") {
    TempDir dir;
    WriterOptions o;
    o.block_entries = 256;
    o.threads = 1;
    const auto values = sample_values(1000, 6, 3);
    const auto path = level_path(dir.path(), "abapa", 6);
    write_level(path, meta_for("abapa", 6, 1000), values, o);
    const LevelReader reader(path);
    std::atomic<int> before{-2000}, result{-2000};
    std::thread([&] {
        // Made before the thread's first lookup, so destroyed after its table of recent
        // blocks: the lookup then goes to the shared cache.
        thread_local ProbeAtExit at_exit;
        at_exit.reader = &reader;
        at_exit.result = &result;
        auto v = reader.value(7);
        before.store(v.ok() ? *v : -1000);
    }).join();
    CHECK(before.load() == values[7]);
    CHECK(result.load() == values[7]);
}
