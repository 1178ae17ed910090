// --dir and --rules, as every command that reads or writes a database directory takes them.
#pragma once

#include "cli/options.hpp"
#include "oware/rules.hpp"
#include "tablebase/level_store.hpp"

#include <memory>
#include <string>

namespace owaredb::cli {

/// The database directory when --dir is not given.
inline constexpr const char* kDefaultDatabaseDir = "owaredb-data";

struct DatabaseOptions {
    std::string dir = kDefaultDatabaseDir;
    std::string rules; ///< empty: not given, see resolve_rules
    int pits = 0;      ///< pits a side; 0: not given, see resolve_pits
};

/// The rules preset named `name`, or UsageError listing the presets.
Rules rules_from_name(const std::string& name);
/// "rule set: abapa|awari", from the presets: how every --rules help text starts.
std::string rules_help();

/// Declares --pits P (pits a side, default 6) on `opts`.
void add_pits_option(po::options_description& opts, int& pits);
/// UsageError unless 1 <= pits <= 8.
void require_pits(int pits);

/// Declares --dir DIR and --rules R on `opts`.
void add_database_options(po::options_description& opts, DatabaseOptions& db);
/// Declares --pits P on `opts` for a command over a directory (db.pits; default: the board
/// of the directory's files, else 6).
void add_pits_option(po::options_description& opts, DatabaseOptions& db);

/// The board (pits a side) to use: --pits when given (UsageError outside 1..8, or when the
/// directory holds files of another board); otherwise the one board whose level files lie
/// in the directory; otherwise 6. A directory that holds files of several boards is refused
/// by every command (UsageError naming them): its levels would not be one game's.
int resolve_pits(const DatabaseOptions& db);
/// ", P pits a side" (", 1 pit a side") for a board other than the standard one, "" for
/// six: how an output names the board after the rules or the seeds, so that a 6-pit
/// directory's output is what it was before other boards existed.
std::string board_suffix(int pits);
/// resolve_pits(db), and UsageError unless it is 6: for the commands that read the
/// standard board only, `command` naming them ("compare").
void require_standard_board(const DatabaseOptions& db, const std::string& command);

/// The rule set to use: --rules when given (UsageError for an unknown name); otherwise the
/// one rule set whose level files lie in the directory; otherwise awari for a directory of
/// Romein & Bal's published files; otherwise abapa. A directory that
/// holds files of several rule sets needs --rules: UsageError listing them.
Rules resolve_rules(const DatabaseOptions& db);

/// The level store of `db.dir` (tablebase/level_store.hpp): of the format whose files the
/// directory holds, for the rule set resolve_rules(db) gives, on a board of `pits` pits a
/// side (0: resolve_pits(db)), reading with `threads` threads. UsageError, in this order,
/// for a directory that holds files of two formats (mixing them would answer from two
/// sources), for --rules other than the one a format is limited to (Romein & Bal's files:
/// awari), and for a board other than the one it is limited to (theirs: 6 pits a side).
std::unique_ptr<LevelStore> open_store(const DatabaseOptions& db, int threads, int pits);

/// UsageError unless `dir` is a directory that can be listed, with a message that says what
/// it is instead (missing, a file, a symlink loop, not readable). `hint` ends the message
/// for a missing directory, e.g. "(see owaredb generate)".
void require_directory(const std::string& dir, const std::string& hint = "");

} // namespace owaredb::cli
