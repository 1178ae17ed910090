// owaredb show: the board, its legal moves and their children.
#include "cli/options.hpp"
#include "commands.hpp"
#include "database_options.hpp"
#include "oware/moves.hpp"

#include <iostream>

namespace owaredb::cli {

int cmd_show(const Args& args) {
    std::string rules_name;
    int pits = 6;
    std::vector<std::string> position_words;
    po::options_description opts("options");
    opts.add_options()("rules", po::value(&rules_name)->default_value("abapa"),
                       rules_help().c_str());
    add_pits_option(opts, pits);
    po::positional_options_description pos;
    add_position_argument(opts, pos, position_words);
    po::variables_map vm;
    if (!parse_args(args, "usage: owaredb show [--rules R] [--pits P] \"<position>\"", opts, pos,
                    vm))
        return 0;
    require_pits(pits);
    if (position_words.empty())
        throw UsageError("missing the position (" + std::to_string(2 * pits) + " pit counts)");
    Rules rules = rules_from_name(rules_name);
    with_pits_per_side(pits, [&](auto size) {
        constexpr int P = decltype(size)::value;
        BasicParseResult<P> parsed = parse_position<P>(position_text(position_words));
        if (!parsed.ok) throw UsageError("invalid position: " + parsed.error);
        const BasicPosition<P>& p = parsed.position;
        std::cout << to_board(p) << "seeds " << p.seeds() << ", rules " << rules.name << "\n";
        BasicMoveList<P> moves = legal_moves(rules, p);
        if (moves.empty()) {
            std::cout << "no legal move: the game is over, value " << terminal_value(p)
                      << " for the side to move\n";
            return;
        }
        // A child is written as every position is, side to move first: the opponent's pits.
        std::cout << "legal moves (each child with the opponent to move: their pits first):\n";
        for (const BasicMove<P>& m : moves)
            std::cout << "  " << int(m.pit) + 1 << ": captures " << int(m.captured) << " -> "
                      << to_string(m.child) << "\n";
    });
    return 0;
}

} // namespace owaredb::cli
