// omweso show "<position>": prints the position as the 4 x 8 board and in circuit form.
#include "commands.hpp"

#include "omweso/position.hpp"

#include <iostream>

namespace owaredb::omweso::cli {

int cmd_show(const Args& args) {
    std::string position_text;
    po::options_description opts("options");
    opts.add_options()("position", po::value(&position_text), "position");
    po::positional_options_description positional;
    positional.add("position", 1);
    po::variables_map vm;
    if (!parse_args(
            args,
            "usage: omweso show \"<position>\"\n\n"
            "Prints a position (circuit form: two lines of 16 counts, mover then opponent; or the\n"
            "4 x 8 board form; lines separated by newlines or ';') as the board seen from South.\n",
            opts, positional, vm))
        return 0;
    if (!vm.count("position")) throw UsageError("show needs a position argument");
    const Position p = position_argument(position_text);
    std::cout << to_board_text(p) << "\ncircuit form (mover first):\n" << to_circuit_text(p);
    return 0;
}

} // namespace owaredb::omweso::cli
