// owaredb perft: one line "depth nodes" per depth 1..D, on a board of 6 pits a side or,
// with --pits, of 1..8.
#include "cli/options.hpp"
#include "commands.hpp"
#include "database_options.hpp"
#include "oware/perft.hpp"

#include <iostream>

namespace owaredb::cli {

int cmd_perft(const Args& args) {
    std::string rules_name, position_text;
    int depth = 0, pits = 6;
    po::options_description opts("options");
    opts.add_options()("rules", po::value(&rules_name)->default_value("abapa"),
                       rules_help().c_str())("depth", po::value(&depth)->default_value(8),
                                             "deepest depth to count (1..30)")(
        "position", po::value(&position_text),
        "2 x pits counts, side to move first (default: 4 seeds in every pit)");
    add_pits_option(opts, pits);
    po::variables_map vm;
    if (!parse_args(args,
                    "usage: owaredb perft [--rules R] [--depth D] [--pits P] [--position \"...\"]",
                    opts, {}, vm))
        return 0;
    Rules rules = rules_from_name(rules_name);
    if (depth < 1 || depth > 30) throw UsageError("--depth must be between 1 and 30");
    require_pits(pits);
    with_pits_per_side(pits, [&](auto size) {
        constexpr int P = decltype(size)::value;
        BasicPosition<P> start = BasicPosition<P>::start(4);
        if (vm.count("position")) {
            BasicParseResult<P> parsed = parse_position<P>(position_text);
            if (!parsed.ok) throw UsageError("invalid position: " + parsed.error);
            start = parsed.position;
        }
        for (int d = 1; d <= depth; ++d)
            std::cout << d << " " << perft(rules, start, d) << std::endl;
    });
    return 0;
}

} // namespace owaredb::cli
