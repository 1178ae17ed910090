// The principal variation of a position: a line of best moves that makes progress although
// the databases hold values, not distances (owaredb/probe.hpp, Tablebase::principal_variation).
//
// Contract: at most max_plies steps, each move a best move of the analysis (analysis.hpp);
// a line from a position worth t != 0 is a shortest forcing sequence to the next capture.
#pragma once

#include "analysis.hpp"

#include "owaredb/probe.hpp"

#include <algorithm>
#include <array>
#include <deque>
#include <map>
#include <set>
#include <vector>

namespace owaredb::probe_engine {

// A line speaks of positions and moves as the analysis does.
template <int P> struct PvSearch {
    using Pos = typename Analysis<P>::Pos;
    using Arr = typename Analysis<P>::Arr;
    using Move = typename Analysis<P>::Move;
    using MoveList = typename Analysis<P>::MoveList;
    using MoveInfo = typename Analysis<P>::MoveInfo;
    using PositionInfo = typename Analysis<P>::PositionInfo;
    using PvStep = BasicPvStep<Arr>;
    using PrincipalVariation = BasicPrincipalVariation<Arr>;

    Analysis<P>& analysis;

    explicit PvSearch(Analysis<P>& a) : analysis(a) {}

    // The move a principal variation plays for the side to move: a best move, capturing if
    // one is, else the lowest pit. The losing side always plays this one.
    static const MoveInfo& default_choice(const PositionInfo& info) {
        const MoveInfo* chosen = nullptr;
        for (const MoveInfo& m : info.moves)
            if (m.value == info.value && (!chosen || (m.captured > 0 && chosen->captured == 0)))
                chosen = &m;
        return *chosen;
    }

    // From a position worth t != 0, a shortest sequence of best moves that reaches a
    // capture (or the end of the game): the side worth +t may pick any of its best moves,
    // the other side plays default_choice. The databases hold values, not distances, so a
    // line of best moves chosen blindly can circle; but the side worth +t wins t by forcing
    // a capture in finite time whatever the other side does, in particular against
    // default_choice, and all its forcing moves are best moves, so a breadth-first search
    // over the positions of this level finds such a sequence. Returns the moves, or an
    // empty list if the search gave up after `budget` positions.
    ProbeResult<std::vector<PvStep>> forcing_line(const Pos& start, std::size_t budget) {
        struct Node {
            Arr parent;
            PvStep step; // the move from parent to this node
        };
        std::map<Arr, Node> seen;
        std::deque<Pos> queue{start};
        seen[start.pits] = {};
        auto line_to = [&](Arr at, std::vector<PvStep> tail) {
            std::vector<PvStep> line;
            while (at != start.pits) {
                const Node& n = seen.at(at);
                line.push_back(n.step);
                at = n.parent;
            }
            std::reverse(line.begin(), line.end());
            line.insert(line.end(), tail.begin(), tail.end());
            return line;
        };
        while (!queue.empty() && seen.size() < budget) {
            Pos q = queue.front();
            queue.pop_front();
            ProbeResult<PositionInfo> info = analysis.analyse(q);
            if (!info) return info.error();
            if (info->terminal) return line_to(q.pits, {});
            std::vector<const MoveInfo*> choices;
            if (info->value > 0)
                for (const MoveInfo& m : info->moves) {
                    if (m.value == info->value) choices.push_back(&m);
                }
            else
                choices.push_back(&default_choice(*info));
            for (const MoveInfo* m : choices) {
                PvStep step{q.pits, m->pit, m->captured, info->value};
                if (m->captured > 0) return line_to(q.pits, {step});
                if (seen.count(m->child)) continue;
                seen[m->child] = {q.pits, step};
                queue.push_back(Pos{m->child});
            }
        }
        return std::vector<PvStep>{};
    }

    ProbeResult<PrincipalVariation> principal_variation(Pos p, int max_plies) {
        PrincipalVariation pv;
        std::set<Arr> seen;
        while (static_cast<int>(pv.steps.size()) < max_plies) {
            ProbeResult<PositionInfo> info = analysis.analyse(p);
            if (!info) return info.error();
            if (info->terminal) {
                pv.final_position = p.pits;
                pv.end = PvEnd::GameOver;
                pv.final_value = info->value;
                return pv;
            }
            if (info->value != 0) {
                // Play a forcing line up to the next capture so the line makes progress.
                ProbeResult<std::vector<PvStep>> line = forcing_line(p, 1 << 18);
                if (!line) return line.error();
                if (!line->empty()) {
                    // No more than max_plies in all: a line cut short ends at the position
                    // before its first move not played.
                    const std::size_t room = std::size_t(max_plies) - pv.steps.size();
                    if (line->size() > room) {
                        pv.steps.insert(pv.steps.end(), line->begin(), line->begin() + room);
                        pv.final_position = (*line)[room].position;
                        pv.end = PvEnd::PlyLimit;
                        return pv;
                    }
                    for (const PvStep& s : *line) pv.steps.push_back(s);
                    const PvStep& last = line->back();
                    const MoveList moves = legal_moves(analysis.reads.rules(), Pos{last.position});
                    for (const Move& m : moves)
                        if (m.pit + 1 == last.pit) p = m.child;
                    seen.clear();
                    continue;
                }
            }
            if (!seen.insert(p.pits).second) {
                // Back at a position of this line with no capture in between: with value 0
                // both sides can go round forever, which the value counts 0. ("repetition"
                // only if the forcing-line search above ran out of budget.)
                pv.final_position = p.pits;
                pv.end = info->value == 0 ? PvEnd::EndlessPlay : PvEnd::Repetition;
                return pv;
            }
            const MoveInfo& chosen = default_choice(*info);
            pv.steps.push_back({p.pits, chosen.pit, chosen.captured, info->value});
            if (chosen.captured > 0) seen.clear(); // captures are irreversible
            p.pits = chosen.child;
        }
        pv.final_position = p.pits;
        pv.end = PvEnd::PlyLimit;
        return pv;
    }
};

} // namespace owaredb::probe_engine
