#include "tablebase/directory_format.hpp"

#include "tablebase/database_dir.hpp"
#include "tablebase/published_dir.hpp"

namespace owaredb {

DirectoryContents directory_contents(const std::filesystem::path& dir) {
    DirectoryContents c;
    c.published_levels = PublishedDir::levels_in(dir);
    c.rule_sets = rule_sets_in(dir);
    if (!c.published_levels.empty())
        c.format = c.rule_sets.empty() ? DirectoryFormat::Published : DirectoryFormat::Mixed;
    return c;
}

} // namespace owaredb
