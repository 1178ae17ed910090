// The answers of one board's Tablebase that a position's moves decide: its value (stored,
// or one ply over its children), every move's value, the bounds of a position and of its
// moves, and values of many positions at once; with the check of a caller's position that
// every query starts with.
//
// Contract: a query reads the caller's position once (check), then answers from the reads
// (reads.hpp) under the Tablebase's rule set; errors are values, as owaredb/probe.hpp says.
#pragma once

#include "reads.hpp"

#include "owaredb/probe.hpp"

#include "oware/moves.hpp"
#include "retro/bounds.hpp"

#include <array>
#include <cstring>
#include <optional>

namespace owaredb::probe_engine {

template <int P> struct Analysis {
    using Pos = BasicPosition<P>;
    using Arr = std::array<uint8_t, 2 * P>;
    using Move = BasicMove<P>;
    using MoveList = BasicMoveList<P>;
    using MoveInfo = BasicMoveInfo<Arr>;
    using PositionInfo = BasicPositionInfo<Arr>;
    using BoundsInfo = BasicBoundsInfo<Arr>;
    using Reads = StoredReads<P>;

    Reads& reads;
    std::optional<BasicOwareGame<P>> game; // empty for an unknown rules name

    explicit Analysis(Reads& r) : reads(r) {
        if (reads.slots.files) game.emplace(reads.rules());
    }

    // Copies the caller's position (2P pit counts) into `out` and checks the copy: a query
    // reads the caller's memory once, so that a buffer another thread changes meanwhile
    // cannot pass the check as one position and be looked up as another (more than 48
    // seeds).
    std::optional<ProbeError> check(const uint8_t* caller, Pos& out) const {
        std::memcpy(out.pits.data(), caller, 2 * P); // a constant size: no call
        if (!reads.slots.files)
            return ProbeError{ProbeStatus::InvalidRules,
                              "unknown rules '" + reads.slots.rules_name + "' (expected " +
                                  Rules::preset_choices() + ")"};
        int seeds = 0;
        for (uint8_t v : out.pits) seeds += v;
        if (seeds > kMaxSeeds)
            return ProbeError{ProbeStatus::InvalidPosition, "the position holds " +
                                                                std::to_string(seeds) +
                                                                " seeds, more than 48"};
        return std::nullopt;
    }

    ProbeResult<int> value(const Pos& p) {
        if (p.in_database()) return reads.stored(p);
        // Not stored: one ply of search; every child is (its origin pit is empty).
        const MoveList moves = legal_moves(reads.rules(), p);
        if (moves.empty()) return terminal_value(p);
        typename Reads::Children c = Reads::children_of(moves, false);
        if (auto e = reads.look_up(c, p.seeds())) return *e;
        return c.best().value();
    }

    ProbeResult<PositionInfo> analyse(const Pos& p) {
        PositionInfo info;
        info.seeds = p.seeds();
        const MoveList moves = legal_moves(reads.rules(), p);
        if (moves.empty()) {
            info.terminal = true;
            info.value = terminal_value(p);
            return info;
        }
        typename Reads::Children c = Reads::children_of(moves, false);
        if (auto e = reads.look_up(c, info.seeds)) return *e;
        info.value = c.best().value();
        info.moves.reserve(moves.size());
        for (int i = 0; i < moves.size(); ++i) {
            const Move& m = moves[i];
            info.moves.push_back({m.pit + 1, m.captured, m.captured - c.values[i], m.child.pits});
        }
        info.best.reserve(info.moves.size());
        for (const MoveInfo& m : info.moves)
            if (m.value == info.value) info.best.push_back(m.pit);
        return info;
    }

    ProbeResult<BoundsInfo> analyse_bounds(const Pos& p, bool with_moves) {
        BoundsInfo info;
        const int n = p.seeds();
        info.bounds.seeds = n;
        auto finish = [&](BoundPair b) {
            info.bounds.gM = b.gm;
            info.bounds.gN = b.gn;
            info.bounds.exact = b.gm + b.gn == n;
            return info;
        };
        const bool stored = p.in_database();
        if (stored && !with_moves) {
            BoundPair b;
            if (auto e = reads.stored_bounds(&p, &n, 1, &b)) return *e;
            return finish(b);
        }
        // The children's bounds are read first, all together (their memory accesses overlap,
        // and a failed read is an error value, which the equation's callback cannot return);
        // the equation then takes them in move order.
        const MoveList moves = legal_moves(reads.rules(), p);
        std::array<Pos, P> children;
        std::array<int, P> seeds;
        std::array<BoundPair, P> child_bounds;
        for (int i = 0; i < moves.size(); ++i) {
            children[i] = moves[i].child;
            seeds[i] = n - moves[i].captured;
        }
        if (auto e = reads.stored_bounds(children.data(), seeds.data(), moves.size(),
                                         child_bounds.data()))
            return *e;
        // The one copy of the equation (retro/bounds.hpp), as the solver, `owaredb verify` and
        // generate's start positions use it. BasicOwareGame::for_each_move visits
        // legal_moves() in order, so its i-th child is children[i].
        int next = 0;
        const BoundPair b =
            bounds_equation(*game, n, p, [&](int, const Pos&) { return child_bounds[next++]; });
        info.terminal = moves.empty(); // then b is the rule set's split
        if (with_moves) {
            info.moves.reserve(moves.size());
            for (int i = 0; i < moves.size(); ++i) {
                const Move& m = moves[i];
                info.moves.push_back({m.pit + 1, m.captured, m.captured + child_bounds[i].gn,
                                      child_bounds[i].gm, m.child.pits});
            }
        }
        // A stored position's own pair is its equation over its children (the files are
        // a fixed point; `owaredb verify` checks it), so one ply gives the same answer.
        return finish(b);
    }

// GCC 12 with sanitizers reports -Wmaybe-uninitialized inside std::variant's move
// assignment when an int is assigned to a ProbeResult below (the error alternative's string
// is "maybe uninitialized" on a path where the variant holds the int): a false positive.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
    // Values of `count` positions, the i-th at positions(i) (2P pit counts): results[i].
    template <class At> void values(std::size_t count, At&& positions, ProbeResult<int>* results) {
        // Positions of the databases are read P at a time, so that their memory accesses
        // overlap (LevelReader::read_values); the others go through value().
        std::array<Pos, P> group;
        std::array<int, P> seeds, found;
        std::array<std::size_t, P> slot;
        int grouped = 0;
        auto flush = [&] {
            if (reads.stored_values(group.data(), seeds.data(), grouped, found.data())) {
                // Some lookup failed: answer each on its own, so each gets its own error.
                for (int k = 0; k < grouped; ++k) results[slot[k]] = value(group[k]);
            } else {
                for (int k = 0; k < grouped; ++k) results[slot[k]] = found[k];
            }
            grouped = 0;
        };
        for (std::size_t i = 0; i < count; ++i) {
            Pos p;
            if (auto e = check(positions(i), p)) {
                results[i] = *e;
                continue;
            }
            if (!p.in_database()) {
                results[i] = value(p);
                continue;
            }
            group[grouped] = p;
            seeds[grouped] = p.seeds();
            slot[grouped++] = i;
            if (grouped == P) flush();
        }
        if (grouped) flush();
    }
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
};

} // namespace owaredb::probe_engine
