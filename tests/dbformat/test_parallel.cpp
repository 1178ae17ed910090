// Many threads sharing readers and one cache (runs under TSan: label "parallel"). Files are
// written with one OpenMP thread so TSan only sees our own threads.
#include <doctest/doctest.h>

#include <thread>

#include "dbformat/reader.hpp"
#include "dbformat/writer.hpp"
#include "helpers.hpp"

using namespace owaredb::db;
using namespace owaredb::db::test;

TEST_CASE("concurrent lazy open and probes through a small shared cache") {
    TempDir dir;
    const uint64_t entries = quick() ? 20000 : 200000;
    WriterOptions o;
    o.block_entries = 256;
    o.level = 1;
    o.threads = 1;
    std::vector<std::vector<int8_t>> levels;
    for (uint32_t n = 2; n < 5; ++n) {
        levels.push_back(sample_values(entries, n, n));
        write_level(level_path(dir.path(), "abapa", n), meta_for("abapa", n, entries),
                    levels.back(), o);
    }
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
