// The Bellman step, the one place it is written: a state's value is the best over its
// legal moves of (units the move captures) - (value of the child for its own mover), or
// the terminal value when there is no legal move (docs/values.md, The value).
//
// The engine's first pass, the capture-bound encoder and completion, one-ply values of
// states outside the databases, `owaredb verify` and the probe library all use it.
#pragma once

#include "retro/game.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
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

/// Bellman values (MoveSet::All) of states of level n whose children's values are in
/// memory, a batch at a time so that the children's loads overlap: `on_value(state, value)`
/// for each state given to add(), in the order given, once its batch is full or at
/// flush(). `level_values(k)` is level k's values by rank (a const int8_t*). A child's
/// value is a random byte of levels of gigabytes: read as its move is generated, each load
/// waits for memory; here the ranks of a batch's children are found and their values
/// prefetched first, and the values computed after, by bellman_value (the moves generated
/// again, in the same order) from those ranks. One per thread.
template <RetroGame Game, class LevelValues, class OnValue> class BatchedBellman {
  public:
    static constexpr int kBatch = 16;
    using State = typename Game::State;

    BatchedBellman(const Game& game, int n, LevelValues level_values, OnValue on_value)
        : game_(game), n_(n), level_values_(level_values), on_value_(on_value) {}

    /// Adds a state; computes the batch's values when it is full. Returns false once
    /// on_value has returned false (the caller stops adding).
    bool add(const State& s) {
        if (stopped_) return false;
        batch_[size_t(held_++)] = s;
        game_.for_each_move(s, [&](int captured, const State& child) {
            const uint64_t k = game_.rank(child);
            __builtin_prefetch(level_values_(n_ - captured) + k, 0, 1);
            ranks_[ranks_held_++] = k;
        });
        if (held_ == kBatch) flush();
        return !stopped_;
    }

    /// Computes the values of the states added since the last batch.
    void flush() {
        size_t next = 0;
        for (int j = 0; j < held_ && !stopped_; ++j) {
            const int v = bellman_value(game_, n_, batch_[size_t(j)], [&](int level, const State&) {
                return int(level_values_(level)[ranks_[next++]]);
            });
            stopped_ = !on_value_(batch_[size_t(j)], v);
        }
        held_ = 0;
        ranks_held_ = 0;
    }

  private:
    const Game& game_;
    int n_;
    LevelValues level_values_;
    OnValue on_value_;
    std::array<State, kBatch> batch_{};
    std::array<uint64_t, size_t(kBatch) * Game::kMaxMoves> ranks_{};
    int held_ = 0;
    size_t ranks_held_ = 0;
    bool stopped_ = false;
};

} // namespace owaredb
