// Binomial coefficients: the sizes of the levels of sowing games (seeds spread over pits)
// are differences of them.
#pragma once

#include <cstdint>

namespace owaredb {

/// C(n, k), exact whenever C(n, k) * k fits in 64 bits (every level size of the games here);
/// 0 when k < 0 or k > n.
constexpr uint64_t binomial(int n, int k) {
    if (k < 0 || n < k) return 0;
    uint64_t r = 1;
    for (int i = 1; i <= k; ++i)
        r = r * static_cast<uint64_t>(n - k + i) / static_cast<uint64_t>(i);
    return r;
}

} // namespace owaredb
