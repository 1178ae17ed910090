// What every subcommand of both programs (owaredb, omweso) shares: its arguments, its usage
// error, and the main() that finds it by name and turns its exceptions into one line.
#pragma once

#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace owaredb::cli {

/// Bad input from the user (options, positions, ranges): the program prints one line (see
/// ErrorStyle) and exits with status 2.
struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// Standard output could not be written; what() says why. Thrown by the commands that
/// write as they go, so that they stop at the first failed write.
struct OutputError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// The arguments after the subcommand's name.
using Args = std::vector<std::string>;

/// One subcommand: `<program> <name> [args]`. `run` returns the exit status; bad input
/// throws UsageError, any other failure another std::exception.
struct Subcommand {
    std::string_view name;
    int (*run)(const Args& args);
    std::string_view summary; ///< one line, for the program's usage
    /// Examples and exit status: what `--help` prints after the options (docs/cli.md is
    /// made from it, scripts/cli-docs.sh). Empty: nothing after the options.
    std::string_view help = {};
};

/// How a program starts its error lines.
enum class ErrorStyle {
    ProgramCommand, ///< "owaredb probe: <what>" ("owaredb: " before a command is known)
    ProgramError,   ///< "omweso: error: <what>"
};

/// A program made of subcommands.
struct Program {
    std::string_view name;
    std::string_view about;               ///< a paragraph under the usage line, or empty
    std::span<const Subcommand> commands; ///< in the order the usage lists them
    ErrorStyle errors = ErrorStyle::ProgramCommand;
};

/// The whole main() of `program`: `<name> <command> [args]` runs the command and returns
/// its exit status. No command: the usage on standard error, status 2; `--help`, `-h` or
/// `help`: the usage on standard output, status 0; `--version`: version_line(name) on
/// standard output, status 0. An unknown command or a UsageError
/// prints one line and returns 2, any other std::exception one line and returns 1.
/// After the command, standard output is flushed; if anything could not be written (a full
/// disk, /dev/full, a closed pipe) the error is reported and the status is 1 at least.
int run_subcommand(const Program& program, int argc, char** argv);

/// The help of the subcommand run_subcommand is running (Subcommand::help; empty outside
/// one), which parse_args prints after the options when asked for --help.
std::string_view current_command_help();

/// "<program> <version>\n", e.g. "owaredb 0.2.0": what `<program> --version` prints. The
/// version is the project's, project(owaredb VERSION ...) in CMake, as libowaredb's
/// owaredb::version().
std::string version_line(std::string_view program);

/// Flushes standard output (C and C++ streams) and returns why writing failed, or an empty
/// string when everything written so far reached the operating system.
std::string output_problem();

/// Throws OutputError ("cannot write to standard output: <why>") if output_problem() finds
/// one. Commands that write as they go call it after each piece of output.
void check_output();

} // namespace owaredb::cli
