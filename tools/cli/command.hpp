// What every subcommand of both programs shares: its arguments and its usage error.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace owaredb::cli {

/// Bad input from the user (options, positions, ranges): the program prints
/// "<program> <command>: <what>" on one line and exits with status 2.
struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// The arguments after the subcommand's name.
using Args = std::vector<std::string>;

} // namespace owaredb::cli
