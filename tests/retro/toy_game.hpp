// A toy game that knows nothing of Oware, for the engine's tests: it proves that another
// game plugs into the engine through retro/game.hpp alone.
//
// "Ring": four cells in a ring, the side to move owns cells 0 and 1, the opponent 2 and 3;
// level n = tokens on the board. From an own cell i holding tokens the mover may
//   - step: move one token from cell i to cell i + 1 (quiet: the level stays n),
//   - back (from cell 1 only): move one token back to cell 0 (quiet), or
//   - take: if cell i + 1 is the opponent's and holds 2 or 3 tokens, capture them
//     (c tokens: the child lies in level n - c).
// Then the board turns by two cells so that the new mover again owns cells 0 and 1. A side
// with no token on its cells cannot move: the opponent takes the rest (value -n). Tokens
// can circle for ever, and a side can shuffle its own tokens for ever, so the game has
// cycles, which the engine values 0.
#pragma once

#include "retro/game.hpp"

#include <array>
#include <cstdint>
#include <map>
#include <vector>

namespace owaredb::test {

class RingGame {
  public:
    using State = std::array<int, 4>;
    static constexpr int kMaxMoves = 4;
    static constexpr int kMinCapture = 2;
    static constexpr int kMaxCapture = 3;

    explicit RingGame(int max_n) {
        for (int n = 0; n <= max_n; ++n) {
            std::vector<State>& level = states_.emplace_back();
            for (int a = 0; a <= n; ++a)
                for (int b = 0; a + b <= n; ++b)
                    for (int c = 0; a + b + c <= n; ++c) level.push_back({a, b, c, n - a - b - c});
            for (uint64_t i = 0; i < level.size(); ++i) ranks_[level[i]] = i;
        }
    }

    uint64_t level_size(int n) const { return states_.at(n).size(); }
    State unrank(int n, uint64_t index) const { return states_.at(n).at(index); }
    uint64_t rank(const State& s) const { return ranks_.at(s); }
    State next(const State& s) const { return unrank(s[0] + s[1] + s[2] + s[3], rank(s) + 1); }

    template <class F> int for_each_move(const State& s, F&& f) const {
        int moves = 0;
        for (int i = 0; i < 2; ++i) {
            if (s[i] == 0) continue;
            State step = s;
            --step[i];
            ++step[i + 1];
            f(0, turned(step));
            ++moves;
            if (i == 1) {
                State back = s;
                --back[1];
                ++back[0];
                f(0, turned(back));
                ++moves;
            }
            if (i == 1 && (s[2] == 2 || s[2] == 3)) {
                State take = s;
                take[2] = 0;
                f(s[2], turned(take));
                ++moves;
            }
        }
        return moves;
    }

    /// Every state of the level with a quiet move into s, once per such move (brute force:
    /// the toy's levels are tiny).
    template <class F> void for_each_parent(const State& s, F&& f) const {
        const int n = s[0] + s[1] + s[2] + s[3];
        for (const State& q : states_.at(n))
            for_each_move(q, [&](int captured, const State& child) {
                if (captured == 0 && child == s) f(q);
            });
    }

    /// Every state of level (s's) + captured with a move capturing `captured` into s, once
    /// per such move (brute force again).
    template <class F> void for_each_capture_parent(const State& s, int captured, F&& f) const {
        const size_t n = size_t(s[0] + s[1] + s[2] + s[3] + captured);
        if (n >= states_.size()) return;
        for (const State& q : states_[n])
            for_each_move(q, [&](int c, const State& child) {
                if (c == captured && child == s) f(q);
            });
    }

    int terminal_value(const State& s) const { return -(s[0] + s[1] + s[2] + s[3]); }

  private:
    static State turned(const State& s) { return {s[2], s[3], s[0], s[1]}; }

    std::vector<std::vector<State>> states_;
    std::map<State, uint64_t> ranks_;
};

static_assert(RetroGame<RingGame>);

} // namespace owaredb::test
