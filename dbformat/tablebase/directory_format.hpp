// Which kind of level files a database directory holds, with the levels and rule sets
// found: owaredb's level files ("<rules>-NN.owdb", database_dir.hpp) or Romein & Bal's
// published awari files ("scores.N", published_dir.hpp). What the probe library's messages
// for a missing level say of the directory; every reader of levels finds the format, and
// refuses a directory of both, through level_store.hpp.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace owaredb {

enum class DirectoryFormat {
    Ours,      ///< owaredb level files, or no level files at all (yet)
    Published, ///< Romein & Bal's "scores.N" files and no owaredb level files
    Mixed,     ///< both kinds: an error for every reader
};

/// What a directory holds, from one listing of it.
struct DirectoryContents {
    DirectoryFormat format = DirectoryFormat::Ours;
    std::vector<int> published_levels;  ///< N of each "scores.N", ascending
    std::vector<std::string> rule_sets; ///< rule sets of the owaredb level files, by name
};

/// Lists `dir` (a missing or unreadable directory holds nothing: Ours, empty lists).
DirectoryContents directory_contents(const std::filesystem::path& dir);

} // namespace owaredb
