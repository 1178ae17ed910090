// owaredb stats: per level, the number of positions and how many have each value.
#include "solver/ranking.hpp"
#include "tools/command.hpp"
#include "tools/database_dir.hpp"
#include "tools/options.hpp"

#include <iostream>
#include <map>
#include <sstream>

namespace owaredb::cli {

namespace {

struct LevelCounts {
    int seeds = 0;
    uint64_t positions = 0;
    std::map<int, uint64_t> values;
};

void print_json(const std::string& rules, const std::vector<LevelCounts>& levels) {
    std::ostringstream out;
    out << "{\"rules\":\"" << rules << "\",\"levels\":[";
    for (size_t i = 0; i < levels.size(); ++i) {
        const LevelCounts& l = levels[i];
        out << (i ? "," : "") << "{\"seeds\":" << l.seeds << ",\"positions\":" << l.positions
            << ",\"values\":{";
        bool first = true;
        for (auto [v, c] : l.values) {
            out << (first ? "" : ",") << "\"" << v << "\":" << c;
            first = false;
        }
        out << "}}";
    }
    out << "]}\n";
    std::cout << out.str();
}

void print_text(const std::string& rules, const std::vector<LevelCounts>& levels) {
    std::cout << "rules " << rules << "\n";
    for (const LevelCounts& l : levels) {
        std::cout << "level " << l.seeds << ": " << l.positions << " positions\n ";
        for (auto [v, c] : l.values) std::cout << " " << v << ":" << c;
        std::cout << "\n";
    }
}

} // namespace

int cmd_stats(const Args& args) {
    std::string rules_name, dir;
    int threads = 0;
    bool json = false;
    po::options_description opts("options");
    opts.add_options()("dir", po::value(&dir)->default_value("owaredb-data"), "database directory")(
        "rules", po::value(&rules_name)->default_value("abapa"),
        "rule set: abapa|awari")("json", po::bool_switch(&json), "print JSON")(
        "threads", po::value(&threads)->default_value(0), "threads (0 = all cores)");
    po::variables_map vm;
    if (!parse_args(args, "usage: owaredb stats [--dir DIR] [--rules R] [--json]", opts, {}, vm))
        return 0;
    DatabaseDir db(dir, rules_from_name(rules_name));
    if (!std::filesystem::is_directory(dir))
        throw UsageError("no database directory '" + dir + "'");
    std::vector<LevelCounts> levels;
    for (int n = 0; n <= kMaxSeeds; ++n) {
        if (!std::filesystem::exists(db.path(n))) continue;
        db::ReaderOptions options;
        options.expect = db::Expectation::exactly(db.meta(n));
        db::LevelReader reader(db.path(n), options);
        db::Result<db::Histogram> h = reader.histogram(threads);
        if (!h.ok()) throw std::runtime_error(h.status().message());
        LevelCounts counts{n, level_size(n), {}};
        for (int b = 0; b < 256; ++b)
            if (uint64_t c = h.value().counts[b]) counts.values[static_cast<int8_t>(b)] = c;
        levels.push_back(std::move(counts));
    }
    if (levels.empty())
        throw std::runtime_error("no " + rules_name + " level files in '" + dir + "'");
    if (json)
        print_json(db.rules().name, levels);
    else
        print_text(db.rules().name, levels);
    return 0;
}

} // namespace owaredb::cli
