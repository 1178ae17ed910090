#include "tablebase/bounds_dir.hpp"

#include "oware/ranking.hpp"

#include <algorithm>
#include <string>

namespace owaredb {

BoundsDir::BoundsDir(std::filesystem::path dir, Rules rules, int pits_per_side)
    : LevelDir(std::move(dir), std::move(rules), db::LevelKind::Bounds, 2, pits_per_side) {}

db::Status BoundsDir::load(int n, ValueArray& out, int threads) const {
    ValueArray values;
    db::LevelInfo info;
    db::Status s = read_level(n, values, info, threads);
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
    return write_level(n, meta(n), bounds.span(), threads);
}

template <int P>
uint64_t first_bounds_mismatch(const BasicOwareGame<P>& game, int n,
                               const std::vector<ValueArray>& levels, int threads,
                               IndexRange range) {
    const uint64_t size = game.level_size(n);
    return first_mismatch(
        std::min(range.begin, size), std::min(range.end, size), size, threads, [&](uint64_t i) {
            const BoundPair e = bounds_equation(
                game, n, game.unrank(n, i), [&](int level, const BasicPosition<P>& c) {
                    return bound_pair(levels[level].data(), game.rank(c));
                });
            const BoundPair stored = bound_pair(levels[n].data(), i);
            return e.gm != stored.gm || e.gn != stored.gn;
        });
}

#define OWAREDB_INSTANTIATE(P)                                                                     \
    template uint64_t first_bounds_mismatch(const BasicOwareGame<P>&, int,                         \
                                            const std::vector<ValueArray>&, int, IndexRange);
OWAREDB_FOR_EACH_PITS_PER_SIDE(OWAREDB_INSTANTIATE)
#undef OWAREDB_INSTANTIATE

} // namespace owaredb
