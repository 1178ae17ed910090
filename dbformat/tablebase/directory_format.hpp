// Which kind of level files a database directory holds, decided in one place for every
// command and the probe library: owaredb's level files ("<rules>-NN.owdb",
// database_dir.hpp) or Romein & Bal's published awari files ("scores.N",
// published_dir.hpp). A directory holding both is refused everywhere: its answers would
// come from two sources, and which one a level was read from would depend on the query.
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

    /// For a Mixed directory, the sentence that says so, naming a file of each kind, e.g.
    /// "directory 'd' holds both Romein & Bal's published files (scores.0, ...) and owaredb
    /// level files (awari-NN.owdb): give each kind a directory of its own".
    std::string mixed_message(const std::filesystem::path& dir) const;
};

/// Lists `dir` (a missing or unreadable directory holds nothing: Ours, empty lists).
DirectoryContents directory_contents(const std::filesystem::path& dir);

} // namespace owaredb
