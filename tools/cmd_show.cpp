// owaredb show: the board, its legal moves and their children.
#include "cli/options.hpp"
#include "commands.hpp"
#include "database_options.hpp"
#include "oware/moves.hpp"

#include <iostream>

namespace owaredb::cli {

int cmd_show(const Args& args) {
    std::string rules_name, position_text;
    po::options_description opts("options");
    opts.add_options()("rules", po::value(&rules_name)->default_value("abapa"),
                       "rule set: abapa|awari")("position", po::value(&position_text)->required(),
                                                "12 pit counts, side to move first");
    po::positional_options_description pos;
    pos.add("position", 1);
    po::variables_map vm;
    if (!parse_args(args, "usage: owaredb show [--rules R] \"<position>\"", opts, pos, vm))
        return 0;
    Rules rules = rules_from_name(rules_name);
    ParseResult parsed = parse_position(position_text);
    if (!parsed.ok) throw UsageError("invalid position: " + parsed.error);
    const Position& p = parsed.position;
    std::cout << to_board(p) << "seeds " << p.seeds() << ", rules " << rules.name << "\n";
    MoveList moves = legal_moves(rules, p);
    if (moves.empty()) {
        std::cout << "no legal move: the game is over, value " << terminal_value(p)
                  << " for the side to move\n";
        return 0;
    }
    std::cout << "legal moves:\n";
    for (const Move& m : moves)
        std::cout << "  " << int(m.pit) + 1 << ": captures " << int(m.captured) << " -> "
                  << to_string(m.child) << "\n";
    return 0;
}

} // namespace owaredb::cli
