// owaredb-serve: the web oracle (cmd_serve.cpp), a program of its own so that only it
// loads the HTTP library; `owaredb serve ARGS` runs `owaredb-serve serve ARGS`.
#include "commands.hpp"

#include <array>

int main(int argc, char** argv) {
    using namespace owaredb::cli;
    static constexpr std::array<Subcommand, 1> commands = {{
        {"serve", cmd_serve, "the oracle in a browser: a page and a JSON API (HTTP)"},
    }};
    return run_subcommand({.name = "owaredb", .about = {}, .commands = commands}, argc, argv);
}
