// A partition of a level between the ranks of a distributed solve (docs/distributed.md)
// that keeps most propagation on its own rank, and the game whose indices follow it.
//
// A quiet move sows mostly into the opponent's row and hands the turn over, so the
// imbalance between the rows, d = 2a - n (a: the mover's seeds), mostly changes sign and
// little else: |d| is nearly kept along a capture-free line. And the row with fewer seeds
// (the mover's when 2a <= n, the opponent's otherwise) is the row that the move leaves
// nearly as it was or becomes it. So the positions of a level are split into classes by a;
// the classes a and n - a form a pair of the same |d|, the pairs are taken in order of |d|,
// and inside a class the positions are ordered by their smaller row first (major) and the
// other row second. Rank r owns, of every class, one run in that order, so that it holds
// exactly the positions its slice_bounds() gives it (rank_link.hpp). The ranks form groups
// of two (from 4 ranks on; below, each rank is its own group): the groups split the level
// in the pairs' order (the pairs before a group boundary below it whole, the pair it falls
// in cut at the same fraction of its two classes), and the two ranks of a group cut every
// class of its range at a common fraction of the class's places, i.e. of its smaller row.
// Moves change |d| more often than they carry the smaller row across a cut: boundaries
// between pairs (crossed by the first) are then only those between groups. On awari
// levels 18..22 at 4 ranks, one message for each position that joins a set and other rank
// holding some of its parents makes 0.47-0.50 messages a position (0.49-0.55 with every
// rank its own group, 0.96-1.02 for index ranges); docs/distributed.md has the counts.
//
// The index that the engine sees for a position is its rank's first index plus its place
// among that rank's positions (the rank's runs in pair order, each in class order), so a
// rank's slice is a contiguous range as before and only the game's rank/unrank change;
// the files stay in the level's own order (rank.hpp), which file_rank() gives.
#pragma once

#include "oware/oware_game.hpp"
#include "oware/ranking.hpp"
#include "retro/binomial.hpp"
#include "retro/game.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <utility>
#include <vector>

namespace owaredb {

template <int P> class LevelPartition {
  public:
    using State = BasicPosition<P>;

    /// The partition of level n between bounds.size() - 1 ranks, rank r holding
    /// bounds[r + 1] - bounds[r] positions (bounds from slice_bounds: non-decreasing, from 0
    /// to level_size<P>(n)).
    LevelPartition(int n, std::vector<uint64_t> bounds);

    int level() const { return n_; }
    int ranks() const { return int(bounds_.size()) - 1; }
    const std::vector<uint64_t>& bounds() const { return bounds_; }

    /// The index of s (a position of this level) in the partition's order.
    uint64_t index(const State& s) const {
        const auto [a, w] = class_place(s);
        const auto& cut = cuts_[size_t(a)];
        const size_t r = size_t(std::upper_bound(cut.begin(), cut.end(), w) - cut.begin()) - 1;
        return bounds_[r] + starts_[r][size_t(slot_[size_t(a)])] + (w - cut[r]);
    }

    /// The position of this level at `index` in the partition's order.
    State position(uint64_t index) const;
    /// The position after s (not the level's last) in the partition's order: position(index(s)
    /// + 1), in a few steps inside a run.
    State next(const State& s) const;

    /// A run of a window of the level's own order: positions [first, first + count) of it
    /// are positions local, local + stride, ... of rank `rank`'s slice.
    struct Run {
        uint64_t first, count;
        int rank;
        uint64_t local, stride;
    };
    /// f(run) for the runs that make up positions [begin, end) of the level's own order,
    /// in that order.
    template <class F> void for_each_run(uint64_t begin, uint64_t end, F&& f) const;

  private:
    // Rows of `parts` pits holding s seeds; with z false, only those with an empty pit (as
    // the row of the side that just moved must have).
    static uint64_t rows(int s, int parts, bool z = true) {
        if (s < 0) return 0;
        if (parts == 0) return s == 0 && z ? 1 : 0;
        const uint64_t all = binomial(s + parts - 1, parts - 1);
        return z ? all : all - (s >= parts ? binomial(s - 1, parts - 1) : 0);
    }
    bool mover_major(int a) const { return 2 * a <= n_; }
    // The rows (any: every row; else those with an empty pit, z saying one was placed)
    // whose pits before i are a given row's and whose pit i holds fewer than v of the s
    // seeds left: a row's rank among the rows of its seeds, in lexicographic order, is the
    // sum of its pits' terms.
    uint64_t before(bool any, int i, int s, bool z, int v) const {
        const size_t kind = any ? 2 : z ? 1 : 0;
        return before_[((kind * P + size_t(i)) * size_t(n_ + 1) + size_t(s)) * size_t(n_ + 2) +
                       size_t(v)];
    }
    uint64_t row_rank(const uint8_t* pits, int s, bool any) const;
    void row_unrank(int s, uint64_t r, uint8_t* pits, bool any) const;
    // The row after `pits` among the rows of its seeds (any: every row; else those with an
    // empty pit), in lexicographic order; false, and the row unchanged, if it is the last.
    static bool row_next(uint8_t* pits, bool any);
    // Groups of ranks (group_count(ranks)): each holds a range of the level in the pairs'
    // order (the classes' cuts at `position` of it: pair_cuts), and its ranks cut every
    // class piece of it [lo, hi) at a common fraction of the smaller row, rank by rank
    // (fraction_cuts: the cuts that hold `in` places of the group, exactly).
    static size_t group_count(size_t ranks) { return ranks < 4 ? ranks : ranks / 2; }
    std::vector<uint64_t> pair_cuts(uint64_t position) const;
    std::vector<uint64_t> fraction_cuts(const std::vector<uint64_t>& lo,
                                        const std::vector<uint64_t>& hi, uint64_t in) const;
    // A position's class a and its place w in the class's order.
    std::pair<int, uint64_t> class_place(const State& s) const;
    State from_class_place(int a, uint64_t w) const;

    int n_;
    std::vector<uint64_t> bounds_;
    std::vector<uint64_t> size_;                ///< [a]: positions of class a
    std::vector<int> order_;                    ///< the classes in pair order
    std::vector<int> slot_;                     ///< [a]: where class a is in order_
    std::vector<std::vector<uint64_t>> cuts_;   ///< [a][r]: rank r's run of class a begins
    std::vector<std::vector<uint64_t>> starts_; ///< [r][j]: class order_[j]'s run in rank r
    std::vector<uint64_t> movers_, opens_;      ///< [a]: mover's rows, opponent's rows
    std::vector<uint64_t> before_;              ///< before()'s terms
};

/// Oware with a level's indices in the order of a LevelPartition, for a distributed solve
/// of that level: the same game, the states of level `partition.level()` ranked and
/// unranked in the partition's order; states of smaller levels (capture children) keep
/// their files' order, file_rank().
template <int P> class PartitionedOwareGame {
  public:
    using Base = BasicOwareGame<P>;
    using State = typename Base::State;
    static constexpr int kMaxMoves = Base::kMaxMoves;
    static constexpr int kMinCapture = Base::kMinCapture;
    static constexpr int kMaxCapture = Base::kMaxCapture;

    PartitionedOwareGame(const Base& game, const LevelPartition<P>& partition)
        : game_(game), partition_(partition) {}

    uint64_t level_size(int n) const { return game_.level_size(n); }
    State unrank(int, uint64_t index) const { return partition_.position(index); }
    uint64_t rank(const State& s) const { return partition_.index(s); }
    State next(const State& s) const { return partition_.next(s); }
    /// The index of s in its level's file (any level).
    uint64_t file_rank(const State& s) const { return game_.rank(s); }

    template <class F> int for_each_move(const State& s, F&& f) const {
        return game_.for_each_move(s, f);
    }
    template <class F> void for_each_parent(const State& s, F&& f) const {
        game_.for_each_parent(s, f);
    }
    template <class F> void for_each_capture_parent(const State& s, int captured, F&& f) const {
        game_.for_each_capture_parent(s, captured, f);
    }
    int terminal_value(const State& s) const { return game_.terminal_value(s); }

  private:
    const Base& game_;
    const LevelPartition<P>& partition_;
};

static_assert(RetroGame<PartitionedOwareGame<6>>);

// ---------------------------------------------------------------------------------------

template <int P>
LevelPartition<P>::LevelPartition(int n, std::vector<uint64_t> bounds)
    : n_(n), bounds_(std::move(bounds)), size_(size_t(n) + 1), slot_(size_t(n) + 1),
      cuts_(size_t(n) + 1) {
    const size_t k = bounds_.size() - 1;
    before_.assign(3 * P * size_t(n + 1) * size_t(n + 2), 0);
    for (size_t kind = 0; kind < 3; ++kind)
        for (int i = 0; i < P; ++i)
            for (int s = 0; s <= n; ++s) {
                uint64_t* terms =
                    &before_[((kind * P + size_t(i)) * size_t(n + 1) + size_t(s)) * size_t(n + 2)];
                for (int v = 0; v <= s; ++v)
                    terms[v + 1] = terms[v] + rows(s - v, P - 1 - i, kind != 0 || v == 0);
            }
    for (int a = 0; a <= n; ++a) {
        movers_.push_back(rows(a, P));
        opens_.push_back(rows(n - a, P, false));
        size_[size_t(a)] = movers_.back() * opens_.back();
        order_.push_back(a);
    }
    std::stable_sort(order_.begin(), order_.end(),
                     [n](int x, int y) { return std::abs(2 * x - n) < std::abs(2 * y - n); });
    for (size_t j = 0; j < order_.size(); ++j) slot_[size_t(order_[j])] = int(j);
    for (int a = 0; a <= n; ++a) cuts_[size_t(a)].assign(k + 1, 0);
    // Groups of ranks take ranges of the pairs' order; inside a group, every class piece is
    // cut at the same fraction of its smaller row.
    const size_t groups = group_count(k);
    for (size_t g = 0; g < groups; ++g) {
        const size_t first = k * g / groups, last = k * (g + 1) / groups;
        const std::vector<uint64_t> lo = pair_cuts(bounds_[first]), hi = pair_cuts(bounds_[last]);
        for (size_t r = first; r <= last; ++r) {
            const std::vector<uint64_t> cut =
                r == first  ? lo
                : r == last ? hi
                            : fraction_cuts(lo, hi, bounds_[r] - bounds_[first]);
            for (int a = 0; a <= n; ++a) cuts_[size_t(a)][r] = cut[size_t(a)];
        }
    }
    starts_.assign(k, std::vector<uint64_t>(order_.size() + 1, 0));
    for (size_t r = 0; r < k; ++r)
        for (size_t j = 0; j < order_.size(); ++j) {
            const auto& cut = cuts_[size_t(order_[j])];
            starts_[r][j + 1] = starts_[r][j] + (cut[r + 1] - cut[r]);
        }
    for (size_t r = 0; r < k; ++r)
        if (starts_[r].back() != bounds_[r + 1] - bounds_[r])
            throw std::logic_error("level partition: a rank's runs do not add up to its slice");
}

template <int P> std::vector<uint64_t> LevelPartition<P>::pair_cuts(uint64_t position) const {
    // The pairs before `position` lie below it whole, and the pair it falls in has its two
    // classes cut at the same fraction, their runs adding up to it.
    std::vector<uint64_t> cut(size_t(n_) + 1, 0);
    uint64_t start = 0; // of the pair
    for (size_t j = 0; j < order_.size();) {
        const int lo = order_[j];
        const bool two = j + 1 < order_.size() && order_[j + 1] == n_ - lo;
        const int hi = two ? order_[j + 1] : lo;
        const uint64_t size_lo = size_[size_t(lo)], pair = size_lo + (two ? size_[size_t(hi)] : 0);
        const uint64_t in = std::min(pair, position - std::min(position, start));
        const auto cut_lo = uint64_t((unsigned __int128)in * size_lo / std::max<uint64_t>(1, pair));
        cut[size_t(lo)] = two ? cut_lo : in;
        if (two) cut[size_t(hi)] = in - cut_lo;
        start += pair;
        j += two ? 2 : 1;
    }
    return cut;
}

template <int P>
std::vector<uint64_t> LevelPartition<P>::fraction_cuts(const std::vector<uint64_t>& lo,
                                                       const std::vector<uint64_t>& hi,
                                                       uint64_t in) const {
    // Class a's cut at fraction x / 2^62 of its places (its smaller row's order), kept in its
    // piece [lo, hi); the least x whose cuts hold `in` places, then the places one step
    // short of it, and the rest one place each in the classes that the last step moves.
    auto at = [&](unsigned __int128 x, size_t a) {
        const auto place = uint64_t(x * size_[a] >> 62);
        return std::clamp(place, lo[a], hi[a]);
    };
    auto count = [&](unsigned __int128 x) {
        uint64_t c = 0;
        for (size_t a = 0; a < lo.size(); ++a) c += at(x, a) - lo[a];
        return c;
    };
    unsigned __int128 low = 0, high = (unsigned __int128)1 << 62; // count(high) >= in
    while (low < high) {
        const unsigned __int128 mid = (low + high) / 2;
        if (count(mid) >= in)
            high = mid;
        else
            low = mid + 1;
    }
    std::vector<uint64_t> cut(lo.size());
    uint64_t rest = in;
    for (size_t a = 0; a < lo.size(); ++a) {
        cut[a] = low == 0 ? lo[a] : at(low - 1, a);
        rest -= cut[a] - lo[a];
    }
    for (size_t a = 0; a < lo.size() && rest > 0; ++a)
        if (at(low, a) > cut[a]) {
            ++cut[a];
            --rest;
        }
    return cut;
}

template <int P> uint64_t LevelPartition<P>::row_rank(const uint8_t* pits, int s, bool any) const {
    uint64_t r = 0;
    bool z = false;
    for (int i = 0; i < P; ++i) {
        r += before(any, i, s, z, pits[i]);
        s -= pits[i];
        z = z || pits[i] == 0;
    }
    return r;
}

template <int P>
void LevelPartition<P>::row_unrank(int s, uint64_t r, uint8_t* pits, bool any) const {
    bool z = false;
    for (int i = 0; i < P; ++i) {
        int v = 0; // the most seeds in pit i whose rows before it are at most r
        while (v < s && before(any, i, s, z, v + 1) <= r) ++v;
        r -= before(any, i, s, z, v);
        pits[i] = uint8_t(v);
        s -= v;
        z = z || v == 0;
    }
}

template <int P> std::pair<int, uint64_t> LevelPartition<P>::class_place(const State& s) const {
    int a = 0;
    for (int i = 0; i < P; ++i) a += s.pits[i];
    const uint64_t mover = row_rank(s.pits.data(), a, true);
    const uint64_t opponent = row_rank(s.pits.data() + P, n_ - a, false);
    const uint64_t w = mover_major(a) ? mover * opens_[size_t(a)] + opponent
                                      : opponent * movers_[size_t(a)] + mover;
    return {a, w};
}

template <int P> BasicPosition<P> LevelPartition<P>::from_class_place(int a, uint64_t w) const {
    const uint64_t opens = opens_[size_t(a)], movers = movers_[size_t(a)];
    const uint64_t mover = mover_major(a) ? w / opens : w % movers;
    const uint64_t opponent = mover_major(a) ? w % opens : w / movers;
    State p{};
    row_unrank(a, mover, p.pits.data(), true);
    row_unrank(n_ - a, opponent, p.pits.data() + P, false);
    return p;
}

template <int P> bool LevelPartition<P>::row_next(uint8_t* pits, bool any) {
    // The smallest row after a prefix puts every seed left in the last pit: raise the
    // rightmost pit k with seeds after it, and move those seeds, less one, into the last pit.
    int k = P - 2;
    if (pits[P - 1] == 0) {
        int j = P - 1;
        while (j > 0 && pits[j] == 0) --j;
        if (j == 0) return false; // every seed in pit 0: the last row
        k = j - 1;
    }
    int rest = -1;
    for (int i = k + 1; i < P; ++i) rest += std::exchange(pits[i], uint8_t(0));
    ++pits[k];
    pits[P - 1] = uint8_t(rest);
    // No empty pit: pits k..P-1 are then non-empty, and the next row with an empty pit
    // and the same pits before P-2 moves the last pit's seeds into pit P-2.
    if (!any && std::find(pits, pits + P, uint8_t(0)) == pits + P) {
        pits[P - 2] = uint8_t(pits[P - 2] + pits[P - 1]);
        pits[P - 1] = 0;
    }
    return true;
}

template <int P> BasicPosition<P> LevelPartition<P>::next(const State& s) const {
    const auto [a, w] = class_place(s);
    const auto& cut = cuts_[size_t(a)];
    const size_t r = size_t(std::upper_bound(cut.begin(), cut.end(), w) - cut.begin()) - 1;
    if (w + 1 == cut[r + 1]) return position(index(s) + 1); // the run's end
    // Inside a run: the minor row's next, or the major row's next and the minor row's first.
    State p = s;
    uint8_t* mover = p.pits.data();
    uint8_t* opponent = p.pits.data() + P;
    const bool by_mover = mover_major(a);
    uint8_t* minor = by_mover ? opponent : mover;
    if (row_next(minor, !by_mover)) return p;
    std::fill(minor, minor + P, uint8_t(0));
    minor[P - 1] = uint8_t(by_mover ? n_ - a : a);
    row_next(by_mover ? mover : opponent, by_mover);
    return p;
}

template <int P> BasicPosition<P> LevelPartition<P>::position(uint64_t index) const {
    const size_t r =
        size_t(std::upper_bound(bounds_.begin(), bounds_.end(), index) - bounds_.begin()) - 1;
    const uint64_t local = index - bounds_[r];
    const auto& start = starts_[r];
    const size_t j =
        size_t(std::upper_bound(start.begin(), start.end(), local) - start.begin()) - 1;
    const int a = order_[j];
    return from_class_place(a, cuts_[size_t(a)][r] + (local - start[j]));
}

template <int P>
template <class F>
void LevelPartition<P>::for_each_run(uint64_t begin, uint64_t end, F&& f) const {
    // A block of the level's own order (one mover's row, every opponent's row) is a run of
    // consecutive places of its class (mover-major) or places `rows(a)` apart; each rank's
    // share of it is one run either way.
    for (uint64_t i = begin; i < end;) {
        const auto [a, w] = class_place(owaredb::unrank<P>(n_, i));
        const uint64_t opens = opens_[size_t(a)];
        const uint64_t stride = mover_major(a) ? 1 : movers_[size_t(a)];
        const uint64_t left = std::min(end - i, opens - (mover_major(a) ? w % opens : w / stride));
        const auto& cut = cuts_[size_t(a)];
        for (uint64_t done = 0; done < left;) {
            const uint64_t place = w + done * stride;
            const size_t r =
                size_t(std::upper_bound(cut.begin(), cut.end(), place) - cut.begin()) - 1;
            const uint64_t in_run = (cut[r + 1] - place + stride - 1) / stride;
            const uint64_t count = std::min(left - done, in_run);
            f(Run{i + done, count, int(r), starts_[r][size_t(slot_[size_t(a)])] + (place - cut[r]),
                  stride});
            done += count;
        }
        i += left;
    }
}

} // namespace owaredb
