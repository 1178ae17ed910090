#include "tablebase/directory_format.hpp"

#include "tablebase/database_dir.hpp"
#include "tablebase/published_dir.hpp"

namespace owaredb {

std::string DirectoryContents::mixed_message(const std::filesystem::path& dir) const {
    const std::string first_published =
        published_levels.empty() ? "" : "scores." + std::to_string(published_levels.front());
    const std::string first_rules = rule_sets.empty() ? "" : rule_sets.front();
    return "directory '" + dir.string() + "' holds both Romein & Bal's published files (" +
           first_published + ", ...) and owaredb level files (" + first_rules +
           "-NN.owdb): give each kind a directory of its own";
}

DirectoryContents directory_contents(const std::filesystem::path& dir) {
    DirectoryContents c;
    c.published_levels = PublishedDir::levels_in(dir);
    c.rule_sets = rule_sets_in(dir);
    if (!c.published_levels.empty())
        c.format = c.rule_sets.empty() ? DirectoryFormat::Published : DirectoryFormat::Mixed;
    return c;
}

} // namespace owaredb
