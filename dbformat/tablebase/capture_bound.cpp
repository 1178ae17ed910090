#include "tablebase/capture_bound.hpp"

#include "oware/ranking.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace owaredb {

namespace {

struct SmallerLevels {
    const std::vector<const int8_t*>& levels;
    int operator()(int level, const Position& child) const { return levels[level][rank(child)]; }
};

void check_arguments(int n, uint64_t size, const std::vector<const int8_t*>& smaller) {
    if (size != level_size<6>(n))
        throw std::invalid_argument("capture bound: level " + std::to_string(n) + " has " +
                                    std::to_string(level_size<6>(n)) + " positions, got " +
                                    std::to_string(size));
    if (smaller.size() < static_cast<std::size_t>(n))
        throw std::invalid_argument("capture bound: level " + std::to_string(n) +
                                    " needs every smaller level");
}

} // namespace

void encode_capture_bounded(const OwareGame& game, int n, std::span<const int8_t> values,
                            const std::vector<const int8_t*>& smaller, std::span<int8_t> stored,
                            int threads) {
    check_arguments(n, values.size(), smaller);
    if (stored.size() != values.size())
        throw std::invalid_argument("capture bound: output size differs from input size");
    const uint64_t size = values.size();
    const int64_t chunks =
        static_cast<int64_t>((size + kCaptureBoundChunk - 1) / kCaptureBoundChunk);
    const SmallerLevels lower{smaller};
    bool broken = false;
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads) reduction(|| : broken)
    for (int64_t c = 0; c < chunks; ++c) {
        const uint64_t begin = uint64_t(c) * kCaptureBoundChunk;
        const uint64_t end = std::min(size, begin + kCaptureBoundChunk);
        Position p = unrank<6>(n, begin);
        int previous = 0;
        for (uint64_t i = begin; i < end; ++i) {
            if (i != begin) p = unrank<6>(n, i);
            const int v = values[i];
            const int e = best_capture_value(game, p, lower);
            if (e != kNoMove && v < e) broken = true;
            // v == e: any byte <= e decodes to v; repeating the previous byte costs least.
            const int t = (e != kNoMove && v == e) ? std::min(previous, e) : v;
            stored[i] = static_cast<int8_t>(t);
            previous = t;
        }
    }
    if (broken)
        throw std::logic_error("capture bound: level " + std::to_string(n) +
                               " holds a value below its best capture; it is not solved");
}

void decode_capture_bounded(const OwareGame& game, int n, std::span<int8_t> values,
                            const std::vector<const int8_t*>& smaller, int threads) {
    check_arguments(n, values.size(), smaller);
    const int64_t size = static_cast<int64_t>(values.size());
    const SmallerLevels lower{smaller};
#pragma omp parallel for schedule(dynamic, 1 << 14) num_threads(threads)
    for (int64_t i = 0; i < size; ++i) {
        const int e = best_capture_value(game, unrank<6>(n, uint64_t(i)), lower);
        if (e > values[i]) values[i] = static_cast<int8_t>(e);
    }
}

} // namespace owaredb
