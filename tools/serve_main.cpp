// owaredb-serve: the web oracle (cmd_serve.cpp), a program of its own so that only it
// loads the HTTP library; `owaredb serve ARGS` runs `owaredb-serve serve ARGS`.
#include "command_help.hpp"
#include "commands.hpp"

#include <array>
#include <iostream>
#include <string_view>
#include <vector>

int main(int argc, char** argv) {
    using namespace owaredb::cli;
    static constexpr std::array<Subcommand, 1> commands = {{
        {"serve", cmd_serve, "the oracle in a browser: a page and a JSON API (HTTP)", help::kServe},
    }};
    // Its messages say "owaredb serve", as when `owaredb serve` starts it; asked about
    // itself, it is owaredb-serve, whose one command is serve: its help is serve's.
    const Program program{.name = "owaredb", .about = {}, .commands = commands};
    const std::string_view first = argc >= 2 ? argv[1] : "";
    if (first == "--version") {
        std::cout << version_line("owaredb-serve");
        return 0;
    }
    // Its one command may be left out: `owaredb-serve --dir D` serves as `owaredb serve
    // --dir D` does, and with no arguments at all it says how to call it (serve's help).
    if (first.empty() || first == "--help" || first == "-h" || first == "help") {
        char serve[] = "serve", help[] = "--help";
        char* words[] = {argv[0], serve, help, nullptr};
        return run_subcommand(program, 3, words);
    }
    if (first != "serve") {
        std::vector<char*> words(argv, argv + argc);
        static char serve[] = "serve";
        words.insert(words.begin() + 1, serve);
        words.push_back(nullptr);
        return run_subcommand(program, argc + 1, words.data());
    }
    return run_subcommand(program, argc, argv);
}
