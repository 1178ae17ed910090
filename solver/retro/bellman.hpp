// The Bellman step, the one place it is written: a state's value is the best over its
// legal moves of (units the move captures) - (value of the child for its own mover), or
// the terminal value when there is no legal move (docs/values.md, The value).
//
// The engine's first pass, the capture-bound encoder and completion, one-ply values of
// states outside the databases, `owaredb verify` and the probe library all use it.
#pragma once

#include "retro/game.hpp"

#include <algorithm>
#include <optional>
#include <type_traits>
#include <utility>

namespace owaredb {

/// The best over no move at all: below every value (-48..48 in Oware, |value| <= 63 in the
/// engine). A state with no capturing move has best capture kNoMove.
inline constexpr int kNoMove = -1000;

/// Accumulates max over moves of (captured - child value).
class BestMove {
  public:
    void add(int captured, int child_value) { best_ = std::max(best_, captured - child_value); }
    /// kNoMove when nothing was added.
    int value() const { return best_; }
    bool empty() const { return best_ == kNoMove; }

  private:
    int best_ = kNoMove;
};

/// Which moves a Bellman step looks at.
enum class MoveSet {
    All,     ///< every legal move; a state without one gets its terminal value
    Captures ///< capturing moves only (their children lie in smaller levels); kNoMove if none
};

namespace detail {
template <class T> struct is_optional : std::false_type {};
template <class T> struct is_optional<std::optional<T>> : std::true_type {};
} // namespace detail

/// The Bellman value of state `s` of level n: max over the moves in `set` of
/// (captured - child_value(level, child)), where `level` is the child's level (n - captured).
/// `child_value` returns an int, or a std::optional<int> that is empty when the child's
/// value is unknown; then the result is std::optional<int> too, empty if any child's is.
template <MoveSet set = MoveSet::All, RetroGame Game, class ChildValue>
auto bellman_value(const Game& game, int n, const typename Game::State& s,
                   ChildValue&& child_value) {
    using Child = std::invoke_result_t<ChildValue&, int, const typename Game::State&>;
    constexpr bool fallible = detail::is_optional<Child>::value;
    using Result = std::conditional_t<fallible, std::optional<int>, int>;
    BestMove best;
    bool unknown = false;
    const int moves = game.for_each_move(s, [&](int captured, const typename Game::State& child) {
        if (unknown || (set == MoveSet::Captures && captured == 0)) return;
        if constexpr (fallible) {
            const std::optional<int> v = child_value(n - captured, child);
            if (!v) {
                unknown = true;
                return;
            }
            best.add(captured, *v);
        } else {
            best.add(captured, child_value(n - captured, child));
        }
    });
    if (unknown) return Result{};
    if (set == MoveSet::All && moves == 0) return Result{game.terminal_value(s)};
    return Result{best.value()};
}

} // namespace owaredb
