// omweso: the Omweso relay-sowing analyser (census, check, bench, show).
#include "commands.hpp"

#include <array>
#include <string_view>

namespace owaredb::omweso::cli {

Position position_argument(const std::string& text) {
    try {
        return parse_position(text);
    } catch (const ParseError& e) {
        throw UsageError(std::string("bad position: ") + e.what());
    }
}

} // namespace owaredb::omweso::cli

namespace {

// What `omweso <command> --help` prints after the options (docs/cli.md is made from it).
constexpr std::string_view kCensusHelp = R"(examples:
  omweso census --seeds 16                        every pure relay of 16 seeds on 16 pits
  omweso census --seeds 2..16 --json

exit status:
  0  counted;  1  an error;  2  a usage error
)";

constexpr std::string_view kCheckHelp = R"(examples:
  omweso check --pit 0 "2 0 1 0 1 0 1 0 1 0 1 0 1 0 2 1; 4 4 4 4 4 4 4 4 0 0 0 0 0 0 0 0"
  omweso check --pit 1 --reverse --json "<position>"   every branch of a reverse capture

exit status:
  0  the move's outcomes (or its cycle proof) printed;  1  an error
  2  a usage error (a bad position or pit)
)";

constexpr std::string_view kBenchHelp = R"(examples:
  omweso bench
  omweso bench --seconds 3 --threads 2

exit status:
  0  measured;  1  an error;  2  a usage error
)";

constexpr std::string_view kShowHelp = R"(examples:
  omweso show "2 0 1 0 1 0 1 0 1 0 1 0 1 0 2 1; 4 4 4 4 4 4 4 4 0 0 0 0 0 0 0 0"

exit status:
  0  shown;  2  a usage error (a bad position)
)";

} // namespace

int main(int argc, char** argv) {
    using namespace owaredb::omweso::cli;
    using owaredb::cli::Subcommand;
    // In the order the usage lists them.
    static constexpr std::array<Subcommand, 4> commands = {{
        {"census", cmd_census, "count never-ending pure relays over every board of S seeds",
         kCensusHelp},
        {"check", cmd_check,
         "the outcome of one move: final board, laps, captures, or a cycle proof", kCheckHelp},
        {"bench", cmd_bench, "laps/s of the relay simulator and the detector, census boards/s",
         kBenchHelp},
        {"show", cmd_show, "print a position as the 4 x 8 board", kShowHelp},
    }};
    return owaredb::cli::run_subcommand(
        {.name = "omweso",
         .about = "Omweso relay-sowing analyser with exact never-ending move detection (the "
                  "Meyer test).",
         .commands = commands,
         .errors = owaredb::cli::ErrorStyle::ProgramError},
        argc, argv);
}
