// owaredb perft: one line "depth nodes" per depth 1..D.
#include "cli/options.hpp"
#include "commands.hpp"
#include "database_options.hpp"
#include "oware/perft.hpp"

#include <iostream>

namespace owaredb::cli {

int cmd_perft(const Args& args) {
    std::string rules_name, position_text;
    int depth = 0;
    po::options_description opts("options");
    opts.add_options()("rules", po::value(&rules_name)->default_value("abapa"),
                       "rule set: abapa|awari")("depth", po::value(&depth)->default_value(8),
                                                "deepest depth to count (1..30)")(
        "position", po::value(&position_text)->default_value("4 4 4 4 4 4 4 4 4 4 4 4"),
        "12 pit counts, side to move first");
    po::variables_map vm;
    if (!parse_args(args, "usage: owaredb perft [--rules R] [--depth D] [--position \"...\"]", opts,
                    {}, vm))
        return 0;
    Rules rules = rules_from_name(rules_name);
    if (depth < 1 || depth > 30) throw UsageError("--depth must be between 1 and 30");
    ParseResult parsed = parse_position(position_text);
    if (!parsed.ok) throw UsageError("invalid position: " + parsed.error);
    for (int d = 1; d <= depth; ++d)
        std::cout << d << " " << perft(rules, parsed.position, d) << std::endl;
    return 0;
}

} // namespace owaredb::cli
