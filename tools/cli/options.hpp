// Helpers shared by the subcommands' option parsing.
#pragma once

#include "cli/command.hpp"

#include <boost/program_options.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace owaredb::cli {

namespace po = boost::program_options;

/// Adds --help (-h) to `opts` and parses args against them (and the positional names):
/// returns false after printing `usage`, a blank line, the options and the command's
/// examples and exit status (current_command_help()) to standard output when --help was
/// given. Throws UsageError with boost's message on bad options.
/// An argument that starts with '-' and a digit or a space ("-1 2 3 ...") is taken as a
/// positional argument (a position with a negative pit, which the command then rejects
/// with its own message), not as an unknown option.
bool parse_args(const Args& args, const std::string& usage, po::options_description& opts,
                const po::positional_options_description& positional, po::variables_map& vm);

/// Declares the positional argument "position" (12 pit counts, side to move first) on
/// `opts` and `positional`, taken as one argument ("4 4 4 4 4 4 4 4 4 4 4 4") or unquoted,
/// one argument per pit (4 4 4 ...), as users type it; after parse_args,
/// position_text(words) is the text to parse (empty when none was given).
void add_position_argument(po::options_description& opts,
                           po::positional_options_description& positional,
                           std::vector<std::string>& words);
/// The words of a position argument joined by single spaces.
std::string position_text(const std::vector<std::string>& words);

/// The most threads a command accepts: more than the cores of any machine we know, few
/// enough that per-thread stacks and buffers cannot exhaust memory.
inline constexpr int kMaxThreads = 1024;

/// Declares `--threads T` (default 0: one per core). After parse_args, `threads` holds the
/// number to use, 1..kMaxThreads (resolve_threads, cli/run_settings.hpp): what the command
/// hands down to every library call; a negative or larger T is a UsageError.
void add_threads_option(po::options_description& opts, int& threads,
                        const char* help = "threads (0 = one per core)");

/// The most MiB --cache-mb takes (1 TiB): any more would not be memory, and its bytes
/// could overflow.
inline constexpr std::size_t kMaxCacheMiB = std::size_t(1) << 20;

/// Reads --cache-mb (`owaredb probe`, `owaredb serve`) given as a string, so that "-1" is
/// an error rather than a huge unsigned number: a whole number 0..kMaxCacheMiB of MiB, 0
/// meaning the library's default (TablebaseOptions::cache_bytes), returned in bytes; else
/// a UsageError naming the option and the value.
std::size_t parse_cache_mb(const std::string& text);

/// Reads a size such as "600M", "20G", "1.5G" or "4096" (bytes): a positive number with an
/// optional suffix K, M, G or T (powers of 1024). Anything else is a UsageError naming the
/// option.
uint64_t parse_bytes(const std::string& option, const std::string& text);

} // namespace owaredb::cli
