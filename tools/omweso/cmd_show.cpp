// omweso show "<position>": prints the position as the 4 x 8 board and in circuit form.
#include "commands.hpp"

#include "omweso/position.hpp"

#include <boost/program_options.hpp>
#include <iostream>

namespace owaredb::omweso::cli {

namespace po = boost::program_options;

int cmd_show(int argc, char** argv) {
    po::options_description opts(
        "usage: omweso show \"<position>\"\n\n"
        "Prints a position (circuit form: two lines of 16 counts, mover then opponent; or the\n"
        "4 x 8 board form; lines separated by newlines or ';') as the board seen from South.\n\n"
        "options");
    opts.add_options()("help,h", "this help")("position", po::value<std::string>(), "position");
    po::positional_options_description pos;
    pos.add("position", 1);
    po::variables_map vm;
    po::store(po::command_line_parser(argc, argv).options(opts).positional(pos).run(), vm);
    if (vm.count("help")) {
        std::cout << opts;
        return 0;
    }
    if (!vm.count("position")) throw UsageError("show needs a position argument");
    const Position p = parse_position(vm["position"].as<std::string>());
    std::cout << to_board_text(p) << "\ncircuit form (mover first):\n" << to_circuit_text(p);
    return 0;
}

} // namespace owaredb::omweso::cli
