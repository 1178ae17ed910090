// owaredb-serve: the web oracle (cmd_serve.cpp), a program of its own so that only it
// loads the HTTP library; `owaredb serve ARGS` runs `owaredb-serve serve ARGS`.
#include "commands.hpp"

#include <array>
#include <iostream>
#include <string_view>

int main(int argc, char** argv) {
    using namespace owaredb::cli;
    static constexpr std::array<Subcommand, 1> commands = {{
        {"serve", cmd_serve, "the oracle in a browser: a page and a JSON API (HTTP)"},
    }};
    // Its messages say "owaredb serve", as when `owaredb serve` starts it; asked about
    // itself, it is owaredb-serve.
    const Program program{.name = "owaredb", .about = {}, .commands = commands};
    const std::string_view first = argc >= 2 ? argv[1] : "";
    if (first == "--version") {
        std::cout << version_line("owaredb-serve");
        return 0;
    }
    return run_subcommand(program, argc, argv);
}
