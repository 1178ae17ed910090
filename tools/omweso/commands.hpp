// The omweso subcommands, on the command-line layer both programs share (cli/): each takes
// the arguments after its name and returns the exit status; bad input throws UsageError,
// which main prints as "omweso: error: <what>" (status 2).
#pragma once

#include "cli/command.hpp"
#include "cli/options.hpp"
#include "omweso/position.hpp"

#include <string>

namespace owaredb::omweso::cli {

using owaredb::cli::Args;
using owaredb::cli::parse_args;
using owaredb::cli::UsageError;
namespace po = boost::program_options;

/// The position given on the command line; a UsageError "bad position: ..." if it is not one.
Position position_argument(const std::string& text);

int cmd_census(const Args& args);
int cmd_check(const Args& args);
int cmd_bench(const Args& args);
int cmd_show(const Args& args);

} // namespace owaredb::omweso::cli
