#include "cli/command.hpp"

#include <algorithm>
#include <exception>
#include <iostream>

namespace owaredb::cli {

namespace {

void print_usage(const Program& program, std::ostream& out) {
    out << "usage: " << program.name << " <command> [options]   (" << program.name
        << " <command> --help for details)\n\n";
    if (!program.about.empty()) out << program.about << "\n\n";
    out << "commands:\n";
    std::size_t width = 0;
    for (const Subcommand& c : program.commands) width = std::max(width, c.name.size());
    for (const Subcommand& c : program.commands)
        out << "  " << c.name << std::string(width + 2 - c.name.size(), ' ') << c.summary << "\n";
}

// The start of an error line: "owaredb probe: " or "omweso: error: " (`command` empty:
// "owaredb: ").
std::string error_prefix(const Program& program, std::string_view command) {
    std::string s(program.name);
    if (program.errors == ErrorStyle::ProgramError) return s + ": error: ";
    if (!command.empty()) (s += ' ') += command;
    return s + ": ";
}

} // namespace

int run_subcommand(const Program& program, int argc, char** argv) {
    if (argc < 2) {
        print_usage(program, std::cerr);
        return 2;
    }
    const std::string_view name = argv[1];
    if (name == "--help" || name == "-h" || name == "help") {
        print_usage(program, std::cout);
        return 0;
    }
    const auto command = std::find_if(program.commands.begin(), program.commands.end(),
                                      [&](const Subcommand& c) { return c.name == name; });
    if (command == program.commands.end()) {
        std::cerr << error_prefix(program, {}) << "unknown command '" << name << "' (see "
                  << program.name << " --help)\n";
        return 2;
    }
    const Args args(argv + 2, argv + argc);
    try {
        return command->run(args);
    } catch (const UsageError& e) {
        std::cerr << error_prefix(program, name) << e.what() << "\n";
        return 2;
    } catch (const std::exception& e) {
        std::cerr << error_prefix(program, name) << e.what() << "\n";
        return 1;
    }
}

} // namespace owaredb::cli
