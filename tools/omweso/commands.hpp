// Shared plumbing of the omweso subcommands.
#pragma once

#include <stdexcept>
#include <string>

namespace owaredb::omweso::cli {

// Bad input: main prints "omweso: error: <what>" on one line and exits with status 2.
struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Each subcommand takes the arguments after its name (argv[0] is the subcommand name) and
// returns the exit status.
int cmd_census(int argc, char** argv);
int cmd_check(int argc, char** argv);
int cmd_bench(int argc, char** argv);
int cmd_show(int argc, char** argv);

} // namespace owaredb::omweso::cli
