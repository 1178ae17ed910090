// omweso: the Omweso relay-sowing analyser (census, check, bench, show).
#include "commands.hpp"

#include <array>

namespace owaredb::omweso::cli {

Position position_argument(const std::string& text) {
    try {
        return parse_position(text);
    } catch (const ParseError& e) {
        throw UsageError(std::string("bad position: ") + e.what());
    }
}

} // namespace owaredb::omweso::cli

int main(int argc, char** argv) {
    using namespace owaredb::omweso::cli;
    using owaredb::cli::Subcommand;
    // In the order the usage lists them.
    static constexpr std::array<Subcommand, 4> commands = {{
        {"census", cmd_census, "count never-ending pure relays over every board of S seeds"},
        {"check", cmd_check,
         "the outcome of one move: final board, laps, captures, or a cycle proof"},
        {"bench", cmd_bench, "laps/s of the relay simulator and the detector, census boards/s"},
        {"show", cmd_show, "print a position as the 4 x 8 board"},
    }};
    return owaredb::cli::run_subcommand(
        {.name = "omweso",
         .about = "Omweso relay-sowing analyser with exact never-ending move detection (the "
                  "Meyer test).",
         .commands = commands,
         .errors = owaredb::cli::ErrorStyle::ProgramError},
        argc, argv);
}
