// Test helper: every distribution of `seeds` seeds on `pits` pits with >= 2 in pit 0,
// by plain recursion (independent of the census enumeration).
#pragma once

#include <array>
#include <functional>

namespace owaredb::omweso::test {

inline void for_each_board(int pits, int seeds,
                           const std::function<void(const std::array<int, 16>&)>& f) {
    std::array<int, 16> b{};
    std::function<void(int, int)> rec = [&](int k, int left) {
        if (k == pits - 1) {
            b[std::size_t(k)] = left + (k == 0 ? 2 : 0);
            f(b);
            return;
        }
        for (int v = 0; v <= left; ++v) {
            b[std::size_t(k)] = v + (k == 0 ? 2 : 0);
            rec(k + 1, left - v);
        }
    };
    if (seeds >= 2) rec(0, seeds - 2);
}

} // namespace owaredb::omweso::test
