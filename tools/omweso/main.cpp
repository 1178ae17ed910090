// omweso: the Omweso relay-sowing analyser (census, check, bench, show).
#include "commands.hpp"

#include "omweso/position.hpp"

#include <boost/program_options/errors.hpp>
#include <cstring>
#include <exception>
#include <iostream>
#include <string_view>

namespace {

constexpr const char* kUsage =
    "usage: omweso <command> [options]\n"
    "\n"
    "Omweso relay-sowing analyser with exact never-ending move detection (the Meyer test).\n"
    "\n"
    "commands:\n"
    "  census   count never-ending pure relays over every board of S seeds\n"
    "  check    the outcome of one move: final board, laps, captures, or a cycle proof\n"
    "  bench    laps/s of the relay simulator and the detector, census boards/s\n"
    "  show     print a position as the 4 x 8 board\n"
    "\n"
    "Run 'omweso <command> --help' for the options of a command.\n";

} // namespace

int main(int argc, char** argv) {
    using namespace owaredb::omweso;
    if (argc < 2) {
        std::cerr << kUsage;
        return 2;
    }
    const std::string_view cmd = argv[1];
    if (cmd == "--help" || cmd == "-h" || cmd == "help") {
        std::cout << kUsage;
        return 0;
    }
    try {
        if (cmd == "census") return cli::cmd_census(argc - 1, argv + 1);
        if (cmd == "check") return cli::cmd_check(argc - 1, argv + 1);
        if (cmd == "bench") return cli::cmd_bench(argc - 1, argv + 1);
        if (cmd == "show") return cli::cmd_show(argc - 1, argv + 1);
        std::cerr << "omweso: error: unknown command '" << cmd
                  << "' (try census, check, bench, show or --help)\n";
        return 2;
    } catch (const cli::UsageError& e) {
        std::cerr << "omweso: error: " << e.what() << '\n';
        return 2;
    } catch (const ParseError& e) {
        std::cerr << "omweso: error: bad position: " << e.what() << '\n';
        return 2;
    } catch (const boost::program_options::error& e) {
        std::cerr << "omweso: error: " << e.what() << '\n';
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "omweso: error: " << e.what() << '\n';
        return 1;
    }
}
