// The search of owaredb/search.hpp: iterative deepening over a fail-soft negamax alpha-beta
// whose every returned score carries whether it is proven (the bound it states, lower, upper
// or exact, holds for the position's value under perfect play, not only for the
// depth-limited tree). A score is proven when it rests only on database values and the
// game's end:
// - a cutoff (score >= beta) is a lower bound: proven when the move that cut is (its child's
//   score an upper bound that holds);
// - a fail-low (score <= alpha) is an upper bound over every move: proven when all are;
// - an exact score is the best move's, the others at most it: proven when all are.
// The transposition table keeps the proven bit with the bound; a proven entry answers at any
// depth. Repetition on the line scores 0 unproven, so a proven score never depends on the
// path that led to it (the history problem touches estimates only).
//
// The rules are the solver's (oware/moves.hpp); the databases are read through the public
// Tablebase, a level at a time known built or not once per search.
#include "owaredb/search.hpp"

#include "oware/moves.hpp"
#include "oware/position.hpp"
#include "oware/rules.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace owaredb {
namespace {

constexpr int kInfinity = 1000; // beyond every score (|score| <= 64)

enum class Bound : uint8_t { Exact, Lower, Upper };

struct Score {
    int value = 0;
    bool proven = false;
};

template <int P> struct Entry {
    std::array<uint8_t, 2 * P> pits{};
    int8_t value = 0;
    uint8_t depth = 0;
    Bound bound = Bound::Exact;
    uint8_t move = 0; // 1..P; 0: none
    bool proven = false;
    bool used = false;
};

// The transposition table: buckets of two entries, the first kept for the deeper (or proven)
// search, the second always replaced. Entries hold the whole position, so a hit is the
// position's own.
template <int P> class Table {
  public:
    explicit Table(std::size_t bytes) {
        std::size_t buckets = 1;
        while (buckets * 2 * 2 * sizeof(Entry<P>) <= bytes) buckets *= 2;
        entries_.resize(2 * buckets);
        mask_ = buckets - 1;
    }

    const Entry<P>* find(const BasicPosition<P>& p) const {
        const std::size_t at = 2 * (hash(p) & mask_);
        for (std::size_t i = at; i < at + 2; ++i)
            if (entries_[i].used && entries_[i].pits == p.pits) return &entries_[i];
        return nullptr;
    }

    void store(const BasicPosition<P>& p, Score s, Bound bound, int depth, int move) {
        const std::size_t at = 2 * (hash(p) & mask_);
        Entry<P>& first = entries_[at];
        const int weight = s.proven ? 255 : depth;
        const int kept = first.proven ? 255 : first.depth;
        Entry<P>& e =
            !first.used || first.pits == p.pits || weight >= kept ? first : entries_[at + 1];
        e = {p.pits,
             static_cast<int8_t>(s.value),
             static_cast<uint8_t>(depth),
             bound,
             uint8_t(move),
             s.proven,
             true};
    }

  private:
    static uint64_t hash(const BasicPosition<P>& p) {
        uint64_t h = 0xcbf29ce484222325ull;
        for (uint8_t v : p.pits) h = (h ^ v) * 0x100000001b3ull;
        h ^= h >> 33; // splitmix64's finalizer: the low bits depend on every pit
        h *= 0xff51afd7ed558ccdull;
        h ^= h >> 33;
        return h;
    }

    std::vector<Entry<P>> entries_;
    std::size_t mask_ = 0;
};

template <int P> class Searcher {
  public:
    using Pos = BasicPosition<P>;
    using MoveList = BasicMoveList<P>;
    using Clock = std::chrono::steady_clock;

    Searcher(const Tablebase& tb, const Rules& rules, const SearchOptions& o)
        : tb_(tb), rules_(rules), o_(o),
          table_(o.tt_bytes ? o.tt_bytes : SearchOptions::kDefaultTableBytes),
          start_(Clock::now()) {
        for (int n = 0; n <= std::min(o.max_level, kMaxSeeds); ++n)
            built_[n] = tb.level_available(n);
        // Capped: the clock's nanoseconds overflow after 292 years, and a deadline past
        // them would lie in the past.
        constexpr double kLongestSeconds = 1e9;
        if (o.max_seconds > 0)
            deadline_ =
                start_ + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(
                             std::min(o.max_seconds, kLongestSeconds)));
    }

    ProbeResult<SearchResult> run(const Pos& root);

  private:
    Score node(const Pos& p, int depth, int alpha, int beta);
    Score expand(const Pos& p, const MoveList& moves, int depth, int alpha, int beta, int first);
    bool iterate(const Pos& root, const MoveList& moves, int depth, SearchResult& out);
    std::vector<int> line(const Pos& root, int first_pit, int length) const;

    bool out_of_budget() {
        if (stopped_) return true;
        if (!may_stop_) return false;
        if (o_.max_nodes && nodes_ >= o_.max_nodes) return stopped_ = true;
        if (o_.max_seconds > 0 && (nodes_ & 63) == 0 && Clock::now() >= deadline_)
            return stopped_ = true;
        return false;
    }

    Score stored(const Pos& p) {
        const ProbeResult<int> v = tb_.value(std::span<const uint8_t>(p.pits));
        if (v) return {v.value(), true};
        error_ = v.error();
        stopped_ = true;
        return {};
    }

    // Whether p was met on the line since its last capture: positions of the line with its
    // seed count are the last ones (captures only lower the count).
    bool repeated(const Pos& p, int seeds) const {
        for (auto it = path_.rbegin(); it != path_.rend() && it->second == seeds; ++it)
            if (it->first == p) return true;
        return false;
    }

    // The order moves are tried in: `first` (a pit, 1..P) if any, then the larger captures.
    static std::array<int, P> ordered(const MoveList& moves, int first) {
        std::array<int, P> order{};
        for (int i = 0; i < moves.size(); ++i) order[i] = i;
        std::stable_sort(order.begin(), order.begin() + moves.size(), [&](int a, int b) {
            const bool fa = moves[a].pit + 1 == first, fb = moves[b].pit + 1 == first;
            if (fa != fb) return fa;
            return moves[a].captured > moves[b].captured;
        });
        return order;
    }

    const Tablebase& tb_;
    const Rules& rules_;
    SearchOptions o_;
    Table<P> table_;
    std::array<bool, kMaxSeeds + 1> built_{};
    std::vector<std::pair<Pos, int>> path_; // the line being searched, with seed counts
    Clock::time_point start_, deadline_;
    uint64_t nodes_ = 0;
    bool may_stop_ = false; // the first iteration always completes
    bool stopped_ = false;
    bool horizon_ = false; // the iteration met its horizon (or an estimate from the table)
    std::optional<ProbeError> error_;
};

template <int P> Score Searcher<P>::node(const Pos& p, int depth, int alpha, int beta) {
    ++nodes_;
    if (out_of_budget()) return {};
    const int n = p.seeds();
    if (n <= kMaxSeeds && built_[n]) return stored(p);
    const MoveList moves = legal_moves(rules_, p);
    if (moves.empty()) return {terminal_value(p), true};
    if (repeated(p, n)) return {0, false};
    if (depth == 0) {
        horizon_ = true;
        return {0, false};
    }
    int first = 0;
    if (const Entry<P>* e = table_.find(p)) {
        const bool deep = e->proven || e->depth >= depth;
        if (deep && (e->bound == Bound::Exact || (e->bound == Bound::Lower && e->value >= beta) ||
                     (e->bound == Bound::Upper && e->value <= alpha))) {
            horizon_ = horizon_ || !e->proven;
            return {e->value, e->proven};
        }
        first = e->move;
    }
    return expand(p, moves, depth, alpha, beta, first);
}

template <int P>
Score Searcher<P>::expand(const Pos& p, const MoveList& moves, int depth, int alpha, int beta,
                          int first) {
    const int alpha0 = alpha;
    const std::array<int, P> order = ordered(moves, first);
    int best = -kInfinity, best_move = 0;
    bool best_proven = false, all_proven = true;
    path_.emplace_back(p, p.seeds());
    for (int k = 0; k < moves.size(); ++k) {
        const BasicMove<P>& m = moves[order[k]];
        const Score r = node(m.child, depth - 1, m.captured - beta, m.captured - alpha);
        if (stopped_) break;
        const int v = m.captured - r.value;
        all_proven = all_proven && r.proven;
        if (v > best) {
            best = v;
            best_move = m.pit + 1;
            best_proven = r.proven;
        }
        alpha = std::max(alpha, v);
        if (alpha >= beta) break;
    }
    path_.pop_back();
    if (stopped_) return {};
    const Bound bound = best >= beta ? Bound::Lower : best <= alpha0 ? Bound::Upper : Bound::Exact;
    const Score s{best, bound == Bound::Lower ? best_proven : all_proven};
    table_.store(p, s, bound, depth, best_move);
    return s;
}

// One iteration at `depth`: every root move searched, the window open above, so that the
// best move's score is exact and every other's exact or an upper bound. False when the
// budget ran out (or a read failed) before its end; `out` is then as it was.
template <int P>
bool Searcher<P>::iterate(const Pos& root, const MoveList& moves, int depth, SearchResult& out) {
    std::array<int, P> order = ordered(moves, out.best_move);
    std::stable_sort(order.begin() + 1, order.begin() + moves.size(),
                     [&](int a, int b) { return out.moves[a].value > out.moves[b].value; });
    std::vector<SearchMove> found = out.moves;
    int alpha = -kInfinity, best_move = 0;
    bool all_proven = true;
    path_.emplace_back(root, root.seeds());
    for (int k = 0; k < moves.size() && !stopped_; ++k) {
        const BasicMove<P>& m = moves[order[k]];
        const Score r = node(m.child, depth - 1, m.captured - kInfinity, m.captured - alpha);
        if (stopped_) break;
        SearchMove& f = found[order[k]];
        f.value = m.captured - r.value;
        f.exact = f.value > alpha;
        f.proven = r.proven;
        all_proven = all_proven && r.proven;
        if (f.value > alpha) {
            alpha = f.value;
            best_move = m.pit + 1;
        }
    }
    path_.pop_back();
    if (stopped_) return false;
    out.moves = std::move(found);
    out.best_move = best_move;
    out.value = alpha;
    out.proven = all_proven;
    out.depth = depth;
    table_.store(root, {alpha, all_proven}, Bound::Exact, depth, best_move);
    return true;
}

// The line the table expects: the best move, then each position's stored move, at most
// `length` plies, until a position is not in the table or repeats.
template <int P>
std::vector<int> Searcher<P>::line(const Pos& root, int first_pit, int length) const {
    std::vector<int> pits;
    std::vector<Pos> seen{root};
    Pos p = root;
    for (int pit = first_pit; pit && int(pits.size()) < length;) {
        const MoveList moves = legal_moves(rules_, p);
        const auto m = std::find_if(moves.begin(), moves.end(),
                                    [&](const BasicMove<P>& x) { return x.pit + 1 == pit; });
        if (m == moves.end()) break;
        pits.push_back(pit);
        p = m->child;
        if (std::find(seen.begin(), seen.end(), p) != seen.end()) break;
        seen.push_back(p);
        const Entry<P>* e = table_.find(p);
        pit = e ? e->move : 0;
    }
    return pits;
}

template <int P> ProbeResult<SearchResult> Searcher<P>::run(const Pos& root) {
    SearchResult r;
    const MoveList moves = legal_moves(rules_, root);
    for (const BasicMove<P>& m : moves) r.moves.push_back({m.pit + 1, m.captured, 0, false, false});
    if (moves.empty()) {
        r.value = terminal_value(root);
        r.proven = true;
    }
    for (int depth = 1; !moves.empty() && depth <= o_.max_depth; ++depth) {
        horizon_ = false;
        may_stop_ = depth > 1;
        if (!iterate(root, moves, depth, r)) break;
        if (r.proven || !horizon_) break; // deeper iterations would say the same
    }
    if (error_) return *error_;
    r.nodes = nodes_;
    r.seconds = std::chrono::duration<double>(Clock::now() - start_).count();
    r.pv = line(root, r.best_move, std::max(r.depth, 1));
    return r;
}

ProbeError invalid(std::string message) {
    return {ProbeStatus::InvalidPosition, std::move(message)};
}

} // namespace

ProbeResult<SearchResult> search(const Tablebase& tb, std::span<const uint8_t> position,
                                 const SearchOptions& options) {
    const std::optional<Rules> rules = Rules::by_name(tb.rules());
    if (!rules)
        return ProbeError{ProbeStatus::InvalidRules, "unknown rules '" + tb.rules() +
                                                         "' (expected " + Rules::preset_choices() +
                                                         ")"};
    const int pits = tb.pits_per_side();
    if (pits == 0 || position.size() != std::size_t(2 * pits)) {
        // The Tablebase's own words for a position not of its board (or a board that is none).
        const ProbeResult<int> refused = tb.value(position);
        if (!refused) return refused.error();
        return invalid("a position of " + std::to_string(position.size()) + " pit counts");
    }
    if (options.max_nodes == 0 && !(options.max_seconds > 0))
        return invalid("a search needs a budget: max_nodes or max_seconds");
    if (options.max_depth < 1 || options.max_depth > SearchOptions::kMaxDepth)
        return invalid("max_depth " + std::to_string(options.max_depth) + ": must be 1.." +
                       std::to_string(SearchOptions::kMaxDepth));
    return with_pits_per_side(pits, [&](auto board) -> ProbeResult<SearchResult> {
        constexpr int P = decltype(board)::value;
        BasicPosition<P> p;
        std::copy(position.begin(), position.end(), p.pits.begin());
        if (p.seeds() > kMaxSeedsOnBoard<P>)
            return invalid("the position holds " + std::to_string(p.seeds()) +
                           " seeds, more than " + std::to_string(kMaxSeedsOnBoard<P>));
        Searcher<P> searcher(tb, *rules, options);
        return searcher.run(p);
    });
}

} // namespace owaredb
