#include "tablebase/bounds_dir.hpp"

#include "oware/ranking.hpp"

#include <atomic>
#include <string>

namespace owaredb {

BoundsDir::BoundsDir(std::filesystem::path dir, Rules rules)
    : dir_(std::move(dir)), game_(std::move(rules)) {}

std::filesystem::path BoundsDir::path(int n) const {
    return db::level_path(dir_, rules().name, static_cast<uint32_t>(n), db::LevelKind::Bounds);
}

db::LevelMeta BoundsDir::meta(int n) const {
    db::LevelMeta m{rules().name, rules().knob_bytes(), static_cast<uint32_t>(n),
                    2 * level_size(n)};
    m.kind = db::LevelKind::Bounds;
    return m;
}

db::Status BoundsDir::load(int n, ValueArray& out, int threads) const {
    db::ReaderOptions options;
    options.expect = expectation(n);
    options.cache_bytes = 1 << 20; // read_all decodes straight into `values`
    db::LevelReader reader(path(n), options);
    db::Result<db::LevelInfo> info = reader.info();
    if (!info.ok()) return info.status();
    ValueArray values(2 * level_size(n));
    db::Status s = reader.read_all(values.span(), threads);
    if (!s.ok()) return s;
    const int64_t size = static_cast<int64_t>(level_size(n));
    int64_t bad = size;
#pragma omp parallel for schedule(static) num_threads(threads) reduction(min : bad)
    for (int64_t i = 0; i < size; ++i)
        if (values[2 * i] + values[2 * i + 1] > n) bad = std::min(bad, i);
    if (bad < size)
        return db::Status(db::ErrorCode::Corrupt, path(n).string() + ": position " +
                                                      std::to_string(bad) + " has gM + gN above n");
    out = std::move(values);
    return s;
}

db::WriteReport BoundsDir::save(int n, const ValueArray& bounds, int threads) const {
    std::filesystem::create_directories(dir_);
    db::WriterOptions options;
    options.threads = threads;
    return db::write_level(path(n), meta(n), bounds.span(), options);
}

uint64_t first_bounds_mismatch(const OwareGame& game, int n, const std::vector<ValueArray>& levels,
                               int threads) {
    const uint64_t size = game.level_size(n);
    std::atomic<uint64_t> first{size};
#pragma omp parallel for schedule(dynamic, 4096) num_threads(threads)
    for (uint64_t i = 0; i < size; ++i) {
        if (i >= first.load(std::memory_order_relaxed)) continue;
        const BoundPair e =
            bounds_equation(game, n, game.unrank(n, i), [&](int level, const Position& c) {
                return bound_pair(levels[level].data(), game.rank(c));
            });
        const BoundPair stored = bound_pair(levels[n].data(), i);
        if (e.gm != stored.gm || e.gn != stored.gn) {
            uint64_t cur = first.load();
            while (i < cur && !first.compare_exchange_weak(cur, i)) {
            }
        }
    }
    return first.load();
}

} // namespace owaredb
