#include "oware/unmoves.hpp"

#include "oware/moves.hpp"

namespace owaredb {
namespace {

// Could the forward move from `origin` of q, which sowed `seeds` seeds and left `board`
// (q after sowing, unrotated), be a legal non-capturing move? Called only once q is known.
template <int P>
bool is_legal_quiet_move(const Rules& rules, const BasicPosition<P>& q,
                         const BasicPosition<P>& board, int origin, int last) {
    // A last seed making 2 or 3 on the opponent's side captures, unless it is a grand slam
    // under abapa, which captures nothing.
    int chain = capture_chain(board, last);
    if (chain > 0 &&
        !(chain == board.opponent_seeds() && rules.grand_slam == GrandSlam::CapturesNothing))
        return false;
    // A move that leaves the opponent seeds is always legal. One that leaves it none
    // ("starving") is legal only when every move starves and the rules then allow them;
    // that is rare, so it is settled by the forward generator.
    if (board.opponent_seeds() > 0) return true;
    for (const BasicMove<P>& m : legal_moves(rules, q))
        if (m.pit == origin) return m.captured == 0;
    return false;
}

} // namespace

template <int P>
void parents(const Rules& rules, const BasicPosition<P>& p, BasicParentList<P>& out) {
    constexpr int kPits = BasicPosition<P>::kPits;
    out.count = 0;
    // `after` is the parent's board right after sowing, in the parent's orientation: its
    // mover (pits 0..P-1) is p's opponent.
    const BasicPosition<P> after = p.rotated();
    for (int origin = 0; origin < P; ++origin) {
        if (after.pits[origin] != 0) continue; // the origin is always left empty
        BasicPosition<P> q = after;
        // Take back seeds one at a time in sowing order; the s-th seed went to the pit
        // s (mod 2P - 1) steps after the origin, skipping the origin itself.
        int pit = origin;
        for (int seeds = 1; seeds <= kMaxSeeds; ++seeds) {
            pit = pit == kPits - 1 ? 0 : pit + 1;
            if (pit == origin) pit = pit == kPits - 1 ? 0 : pit + 1;
            if (q.pits[pit] == 0) break; // every larger count needs this seed too
            --q.pits[pit];
            q.pits[origin] = static_cast<uint8_t>(seeds);
            if (q.in_database() && is_legal_quiet_move(rules, q, after, origin, pit))
                out.parents[out.count++] = q;
            q.pits[origin] = 0;
        }
    }
}

#define OWAREDB_INSTANTIATE(P)                                                                     \
    template void parents(const Rules&, const BasicPosition<P>&, BasicParentList<P>&);
OWAREDB_FOR_EACH_PITS_PER_SIDE(OWAREDB_INSTANTIATE)
#undef OWAREDB_INSTANTIATE

} // namespace owaredb
