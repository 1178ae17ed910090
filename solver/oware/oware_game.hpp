// Oware as the retrograde engine sees it (docs/values.md, Generation): levels by seed count,
// their sizes, rank/unrank, legal moves with the seeds they capture, un-moves within a level,
// un-captures into it and terminal values. The engine (retrograde.hpp) knows nothing else about the
// game, so another sowing game plugs in by providing a class with these members.
#pragma once

#include "oware/capture_unmoves.hpp"
#include "oware/moves.hpp"
#include "oware/ranking.hpp"
#include "oware/rules.hpp"
#include "oware/unmoves.hpp"
#include "retro/game.hpp"

#include <cstdint>

namespace owaredb {

template <int P> class BasicOwareGame {
  public:
    using State = BasicPosition<P>;
    /// At most this many moves per position: one per pit of the mover's row.
    static constexpr int kMaxMoves = P;
    /// A capture takes a chain of one to P opponent pits of 2 or 3 seeds.
    static constexpr int kMinCapture = owaredb::kMinCapture;
    static constexpr int kMaxCapture = kMaxCaptureOf<P>;

    explicit BasicOwareGame(Rules rules) : rules_(std::move(rules)) {}
    const Rules& rules() const { return rules_; }

    uint64_t level_size(int n) const { return owaredb::level_size<P>(n); }
    State unrank(int n, uint64_t index) const { return owaredb::unrank<P>(n, index); }
    uint64_t rank(const State& s) const { return owaredb::rank(s); }
    State next(const State& s) const { return next_in_level(s); }

    /// Calls f(captured, child) for every legal move; returns the number of moves. Zero
    /// means the game is over and terminal_value applies. A move capturing c seeds leads
    /// into level n - c; a move capturing nothing stays in level n.
    template <class F> int for_each_move(const State& s, F&& f) const {
        BasicMoveList<P> moves = legal_moves(rules_, s);
        for (const BasicMove<P>& m : moves) f(static_cast<int>(m.captured), m.child);
        return moves.size();
    }

    /// The child of the first legal quiet move (capturing nothing) of s from pit `move` on,
    /// in pit order (the retro game's QuietChildrenOneAtATime: moves are numbered by their
    /// pit), sowing only the pits it gets to; sets `move` to its pit. With the opponent's
    /// pits empty the feeding rule weighs every move against the others, so all are
    /// generated first.
    bool next_quiet_child(const State& s, int& move, State& child) const {
        if (s.opponent_seeds() == 0) {
            for (const BasicMove<P>& m : legal_moves(rules_, s))
                if (m.pit >= move && m.captured == 0) {
                    move = m.pit;
                    child = m.child;
                    return true;
                }
            return false;
        }
        // The opponent has seeds, and a quiet sowing only adds to them: every quiet move
        // feeds, and feeding moves are legal (moves.cpp's legal_moves).
        for (int pit = move; pit < P; ++pit) {
            if (s.pits[pit] == 0) continue;
            State b = s;
            if (captured_under(rules_, b, sow(b, pit)) == 0) {
                move = pit;
                child = b.rotated();
                return true;
            }
        }
        return false;
    }

    /// Calls f(parent) for every parent within the level (legal quiet moves into s).
    template <class F> void for_each_parent(const State& s, F&& f) const {
        BasicParentList<P> list;
        parents(rules_, s, list);
        for (const State& q : list) f(q);
    }

    /// Calls f(parent) for every position of level s.seeds() + captured with a legal move
    /// capturing `captured` seeds into s (capture_unmoves.hpp).
    template <class F> void for_each_capture_parent(const State& s, int captured, F&& f) const {
        owaredb::for_each_capture_parent(rules_, s, captured, f);
    }

    int terminal_value(const State& s) const { return owaredb::terminal_value(s); }

  private:
    Rules rules_;
};

/// Oware on the standard board (P = 6).
using OwareGame = BasicOwareGame<6>;

/// Calls f(game) with game = BasicOwareGame<P>(rules) for the board of `pits_per_side` pits
/// a side (1..8, with_pits_per_side; std::invalid_argument otherwise) and returns what f
/// returns: the one place where a board known at run time (a directory's, a command's)
/// reaches the game's templates.
template <class F> auto with_oware_game(const Rules& rules, int pits_per_side, F&& f) {
    return with_pits_per_side(pits_per_side,
                              [&](auto p) { return f(BasicOwareGame<decltype(p)::value>(rules)); });
}

static_assert(RetroGame<OwareGame>);

} // namespace owaredb
