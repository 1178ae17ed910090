// Helpers shared by the subcommands' option parsing.
#pragma once

#include "cli/command.hpp"

#include <boost/program_options.hpp>

#include <string>

namespace owaredb::cli {

namespace po = boost::program_options;

/// Adds --help (-h) to `opts` and parses args against them (and the positional names):
/// returns false after printing `usage`, a blank line and the options to standard output
/// when --help was given. Throws UsageError with boost's message on bad options.
bool parse_args(const Args& args, const std::string& usage, po::options_description& opts,
                const po::positional_options_description& positional, po::variables_map& vm);

} // namespace owaredb::cli
