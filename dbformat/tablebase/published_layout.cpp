#include "tablebase/published_layout.hpp"

#include "oware/position.hpp"
#include "retro/binomial.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>

namespace owaredb {
namespace {

constexpr int kHalf = kPitsPerSide;
using Half = std::array<uint8_t, kHalf>;

// Calls visit(half) for every way to put at most `max_seeds` seeds into six pits, in
// lexicographic order (pit 0 of the half first, fewer seeds first).
template <class Visit> void for_each_half(int max_seeds, Visit&& visit) {
    Half h{};
    int sum = 0;
    for (;;) {
        visit(h);
        if (sum < max_seeds) { // the next half raises the last pit
            ++h[kHalf - 1];
            ++sum;
            continue;
        }
        // Full: raise the pit before the last non-empty one k and empty pit k.
        int k = kHalf - 1;
        while (k >= 0 && h[std::size_t(k)] == 0) --k;
        if (k <= 0) return; // all seeds in pit 0 (or none): the last half
        sum -= h[std::size_t(k)] - 1;
        h[std::size_t(k)] = 0;
        ++h[std::size_t(k - 1)];
    }
}

// Calls visit(half) for every way to put exactly `seeds` seeds into six pits, in
// lexicographic order.
template <class Visit> void for_each_half_of(int seeds, Visit&& visit) {
    Half h{};
    h[kHalf - 1] = uint8_t(seeds);
    for (;;) {
        visit(h);
        // Raise the pit before the last non-empty one k and put what is left of pit k into
        // the last pit: the smallest way to finish the raised prefix.
        int k = kHalf - 1;
        while (k >= 0 && h[std::size_t(k)] == 0) --k;
        if (k <= 0) return;
        const uint8_t rest = uint8_t(h[std::size_t(k)] - 1);
        h[std::size_t(k)] = 0;
        ++h[std::size_t(k - 1)];
        h[kHalf - 1] = uint8_t(h[kHalf - 1] + rest);
    }
}

// The place of `h` (s seeds in all) among the halves of s seeds in lexicographic order
// over its pits as written: the halves that put fewer seeds into some pit, the ones before
// it being equal.
uint32_t half_rank(const Half& h) {
    int rest = 0;
    for (uint8_t v : h) rest += v;
    uint64_t r = 0;
    for (int i = 0; i + 1 < kHalf; ++i) {
        const int after = kHalf - 1 - i; // pits after i
        for (int u = 0; u < h[std::size_t(i)]; ++u)
            r += binomial(rest - u + after - 1, after - 1); // the rest - u seeds over `after`
        rest -= h[std::size_t(i)];
    }
    return uint32_t(r);
}

Half reversed(Half h) {
    std::reverse(h.begin(), h.end());
    return h;
}

bool valid_north(const Half& h) {
    return std::find(h.begin(), h.end(), uint8_t(0)) != h.end();
}

// C(k + 5, 5): halves of exactly k seeds; C(k - 1, 5) of them have no empty pit.
uint64_t halves(int k) {
    return binomial(k + kHalf - 1, kHalf - 1);
}
uint64_t valid_north_halves(int k) {
    return halves(k) - (k >= kHalf ? halves(k - kHalf) : 0);
}

} // namespace

PublishedLayout::PublishedLayout(int n) : n_(n) {
    if (n < 0 || n > kMaxSeeds)
        throw std::invalid_argument("PublishedLayout: level " + std::to_string(n));
    const std::size_t levels = std::size_t(n) + 1;
    rows_.resize(levels);
    columns_.resize(levels);
    row_to_theirs_.resize(levels);
    column_to_theirs_.resize(levels);
    for (int s = 0; s <= n; ++s) {
        rows_[std::size_t(s)] = halves(s);
        columns_[std::size_t(s)] = valid_north_halves(n - s);
        row_to_theirs_[std::size_t(s)].reserve(rows_[std::size_t(s)]);
        column_to_theirs_[std::size_t(s)].reserve(columns_[std::size_t(s)]);
    }

    // Our rows, and each south half's place among those of its seed count in their order.
    our_rows_.reserve(binomial(n + kHalf, kHalf));
    for_each_half(n, [&](const Half& h) {
        int s = 0;
        for (uint8_t v : h) s += v;
        our_rows_.push_back(uint8_t(s));
        row_to_theirs_[std::size_t(s)].push_back(half_rank(reversed(h)));
    });

    // Their columns: north halves written pit 11 first; a column of s when it holds n - s.
    for_each_half(n, [&](const Half& theirs) {
        if (!valid_north(theirs)) return;
        int t = 0;
        for (uint8_t v : theirs) t += v;
        their_columns_.push_back(uint8_t(n - t));
    });
    // Our north halves of n - s seeds in our order (pits 6..11 as written), with the rank,
    // among all halves of that count, of the same half written pit 11 first.
    for (int s = 0; s <= n; ++s) {
        const int t = n - s;
        std::vector<std::pair<uint32_t, uint32_t>> keys; // (rank over all in theirs, ours)
        keys.reserve(columns_[std::size_t(s)]);
        uint32_t ours = 0;
        for_each_half_of(t, [&](const Half& h) {
            if (!valid_north(h)) return;
            keys.emplace_back(half_rank(reversed(h)), ours++);
        });
        std::sort(keys.begin(), keys.end());
        auto& to_theirs = column_to_theirs_[std::size_t(s)];
        to_theirs.resize(keys.size());
        for (uint32_t k = 0; k < keys.size(); ++k) to_theirs[keys[k].second] = k;
    }
}

uint64_t PublishedLayout::memory_bytes() const {
    uint64_t b = our_rows_.size() + their_columns_.size();
    for (const auto& v : row_to_theirs_) b += v.size() * sizeof(uint32_t);
    for (const auto& v : column_to_theirs_) b += v.size() * sizeof(uint32_t);
    return b;
}

uint64_t PublishedLayout::memory_bytes(int n) {
    uint64_t south = 0, north = 0;
    for (int s = 0; s <= n; ++s) {
        south += halves(s);
        north += valid_north_halves(n - s);
    }
    return 5 * (south + north);
}

} // namespace owaredb
