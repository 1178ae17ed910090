#include "cli/command.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <iostream>
#include <sys/statvfs.h>
#include <unistd.h>

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

// Set once, before the one command a process runs starts.
std::string_view running_command_help;

} // namespace

std::string_view current_command_help() {
    return running_command_help;
}

#ifndef OWAREDB_VERSION_STRING
#error "OWAREDB_VERSION_STRING must be defined (the project's version, from CMake)"
#endif

std::string version_line(std::string_view program) {
    return std::string(program) + " " + OWAREDB_VERSION_STRING + "\n";
}

std::string output_problem() {
    errno = 0;
    const bool flushed = std::fflush(stdout) == 0;
    int err = errno;
    if (flushed && !std::ferror(stdout) && std::cout.good()) return {};
    if (err == 0) {
        // The failed write was earlier and its errno is gone: a full file system is the
        // usual reason, and one that can be checked.
        struct statvfs fs;
        if (::fstatvfs(STDOUT_FILENO, &fs) == 0 && fs.f_bavail == 0) err = ENOSPC;
    }
    return err ? std::strerror(err) : "write error";
}

void check_output() {
    if (std::string problem = output_problem(); !problem.empty())
        throw OutputError("cannot write to standard output: " + problem);
}

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
    if (name == "--version") {
        std::cout << version_line(program.name);
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
    running_command_help = command->help;
    int status = 1;
    try {
        status = command->run(args);
    } catch (const UsageError& e) {
        std::cerr << error_prefix(program, name) << e.what() << "\n";
        status = 2;
    } catch (const OutputError& e) {
        std::cerr << error_prefix(program, name) << e.what() << "\n";
        return 1; // reported once: the check below would say it again
    } catch (const std::filesystem::filesystem_error& e) {
        // "cannot read 'DIR': Too many levels of symbolic links", not the library's
        // "filesystem error: ..." with its bracketed paths.
        std::cerr << error_prefix(program, name) << "cannot access '" << e.path1().string()
                  << "': " << e.code().message() << "\n";
        status = 1;
    } catch (const std::exception& e) {
        std::cerr << error_prefix(program, name) << e.what() << "\n";
        status = 1;
    }
    // Output that could not be written (a full disk, a closed pipe, /dev/full) is a failure
    // of the command, whatever it returned.
    if (std::string problem = output_problem(); !problem.empty()) {
        std::cerr << error_prefix(program, name) << "cannot write to standard output: " << problem
                  << "\n";
        if (status == 0) status = 1;
    }
    return status;
}

} // namespace owaredb::cli
