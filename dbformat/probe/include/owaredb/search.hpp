// owaredb search: a best move and a score for positions above the levels built.
//
// Contract
// - search() runs an iterative-deepening alpha-beta (negamax) search from a position under
//   the Tablebase's rule set and board, single-threaded. Its leaves are, in this order:
//   - the end of the game (no legal move): the rule set's terminal value, exact;
//   - a position whose seed count is a level the Tablebase has (level_available, and at
//     most SearchOptions::max_level): its database value, exact (so a capture into built
//     levels is exact);
//   - a position met before on the line since its last capture (play going round): 0, the
//     databases' value of endless play, but not proven (the side that wants more may
//     deviate);
//   - the search's horizon: 0, the heuristic "the seeds still on the board split evenly"
//     (the score is then the captures along the line), not proven.
// - Scores are on the databases' scale (owaredb/probe.hpp): the side to move's seeds still
//   to capture minus its opponent's, -n..n for n seeds on the board.
// - The answer is **proven** when every line that decided it ends in the databases or at the
//   game's end (no heuristic leaf, no repetition): the score is then the position's value
//   under perfect play, as a database built to its level would give it, and the move is a
//   best move. Otherwise it is a **search estimate**: the value of the depth-limited tree.
//   Front ends must name it as such and never show it as a database value.
// - Budget: max_nodes (positions visited) and/or max_seconds, at least one of them. The
//   search answers from the last iteration it completed (the first, one ply, always
//   completes, whatever the budget); a proven answer, or an iteration that met no horizon,
//   ends it early. With a node budget and no time budget the answer is deterministic: the
//   same on every run and machine.
// - Memory: a transposition table of at most tt_bytes (default 16 MiB), allocated per call.
//   Its entries hold the whole position, so no two positions share an entry's answer.
// - Errors are values, as in owaredb/probe.hpp: a position that is not one of the board
//   (or of more seeds than its game's start) and a budget of zero are InvalidPosition, an
//   unknown rule set InvalidRules, a damaged level file Corrupt. Thread-safe: any number of
//   searches may run at once on one Tablebase.
#pragma once

#include "owaredb/probe.hpp"

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace owaredb {

struct SearchOptions {
    static constexpr std::size_t kDefaultTableBytes = std::size_t(16) << 20;
    static constexpr int kMaxDepth = 100;
    uint64_t max_nodes = 1000000; ///< positions visited at most (0: no limit)
    double max_seconds = 0;       ///< wall-clock seconds at most (0: no limit)
    int max_depth = kMaxDepth;    ///< plies at most, 1..kMaxDepth
    /// Levels above this one are treated as not built (for measurements: what a search with
    /// fewer levels finds); -1: none is used.
    int max_level = 48;
    std::size_t tt_bytes = kDefaultTableBytes; ///< the transposition table's size (0: default)
};

/// What the last completed iteration says of one legal move of the position searched.
struct SearchMove {
    int pit = 0;         ///< 1..P
    int captured = 0;    ///< seeds the move captures
    int value = 0;       ///< captured - the child's score
    bool exact = false;  ///< value is the tree's value of the move; else only an upper bound
    bool proven = false; ///< that (value, or bound) holds under perfect play
};

/// The answer of a search.
struct SearchResult {
    int best_move = 0;             ///< 1..P; 0 when the game is over (no legal move)
    int value = 0;                 ///< for the side to move, on the databases' scale
    bool proven = false;           ///< see the contract: proven, else a search estimate
    int depth = 0;                 ///< plies of the last completed iteration (0: game over)
    uint64_t nodes = 0;            ///< positions visited, the unfinished iteration included
    double seconds = 0;            ///< wall-clock time taken
    std::vector<SearchMove> moves; ///< every legal move, in pit order
    std::vector<int> pv;           ///< the expected line: pits 1..P, the best move first
};

/// Searches `position` (2P pit counts of the Tablebase's board, the side to move's first)
/// within `options`' budget; see the contract above.
OWAREDB_API ProbeResult<SearchResult> search(const Tablebase& tb, std::span<const uint8_t> position,
                                             const SearchOptions& options = {});

} // namespace owaredb
