#include "database_options.hpp"

#include "oware/position.hpp"
#include "owaredb/probe.hpp"
#include "tablebase/database_dir.hpp"

#include <filesystem>
#include <system_error>

namespace owaredb::cli {

Rules rules_from_name(const std::string& name) {
    if (auto r = Rules::by_name(name)) return *r;
    throw UsageError("unknown rules '" + name + "' (expected " + Rules::preset_choices() + ")");
}

std::string board_suffix(int pits) {
    return pits == 6 ? ""
                     : ", " + std::to_string(pits) + (pits == 1 ? " pit" : " pits") + " a side";
}

std::string rules_help() {
    return "rule set: " + Rules::preset_choices();
}

void add_pits_option(po::options_description& opts, int& pits) {
    opts.add_options()("pits", po::value(&pits)->default_value(pits),
                       ("pits a side, " + board_sizes_text()).c_str());
}

void require_pits(int pits) {
    if (pits < kMinPitsPerSide || pits > kMaxPitsPerSide)
        throw UsageError("--pits must be between " + std::to_string(kMinPitsPerSide) + " and " +
                         std::to_string(kMaxPitsPerSide) + ", got " + std::to_string(pits));
}

void add_database_options(po::options_description& opts, DatabaseOptions& db) {
    opts.add_options()("dir", po::value(&db.dir)->default_value(db.dir), "database directory")(
        "rules", po::value(&db.rules),
        (rules_help() + " (default: the one whose files the directory holds, else abapa)").c_str());
}

void add_pits_option(po::options_description& opts, DatabaseOptions& db) {
    // The notifier runs only when --pits is given (no default): an explicit 0 is refused,
    // not taken for "the directory's board".
    opts.add_options()("pits", po::value(&db.pits)->notifier(&require_pits),
                       ("pits a side, " + board_sizes_text() +
                        " (default: the board of the directory's files, else 6)")
                           .c_str());
}

namespace {

std::string board_files(int pits) {
    return pits == 6 ? "<rules>-NN.owdb" : "<rules>-" + board_tag(pits) + "-NN.owdb";
}

} // namespace

int resolve_pits(const DatabaseOptions& db) {
    const std::vector<int> found = board_sizes_in(db.dir);
    if (found.size() > 1) {
        std::string boards;
        for (int p : found)
            boards += (boards.empty() ? "" : " and ") + std::to_string(p) + " pits a side (" +
                      board_files(p) + ")";
        throw UsageError("directory '" + db.dir + "' holds level files of boards of " + boards +
                         ": give each board a directory of its own");
    }
    if (db.pits != 0) {
        require_pits(db.pits);
        if (found.size() == 1 && found[0] != db.pits)
            throw UsageError("--pits " + std::to_string(db.pits) + ", but directory '" + db.dir +
                             "' holds level files of a board of " + std::to_string(found[0]) +
                             " pits a side (" + board_files(found[0]) +
                             "): give each board a directory of its own");
        return db.pits;
    }
    return found.empty() ? 6 : found[0];
}

void require_standard_board(const DatabaseOptions& db, const std::string& command) {
    const int pits = resolve_pits(db);
    if (pits != 6)
        throw UsageError(command + " reads boards of 6 pits a side only; directory '" + db.dir +
                         "' is for " + std::to_string(pits) + " pits a side");
}

Rules resolve_rules(const DatabaseOptions& db) {
    if (!db.rules.empty()) return rules_from_name(db.rules);
    const DirectoryRules found = directory_rules(db.dir);
    if (found.found.size() > 1) {
        std::string names;
        for (const std::string& r : found.found) names += (names.empty() ? "" : " and ") + r;
        throw UsageError("directory '" + db.dir + "' holds level files of " + names +
                         ": choose one with --rules");
    }
    if (std::optional<Rules> r = Rules::by_name(found.rules)) return *r;
    throw UsageError("directory '" + db.dir + "' holds level files of an unknown rule set '" +
                     found.rules + "' (expected " + Rules::preset_choices() + ")");
}

namespace {

std::unique_ptr<LevelStore> store_in(const std::string& dir, const Rules& rules, int pits,
                                     int threads) {
    db::Result<std::unique_ptr<LevelStore>> store = open_level_store(dir, rules, pits, threads);
    if (!store.ok()) throw UsageError(store.status().message()); // two formats
    return std::move(store).value();
}

} // namespace

std::unique_ptr<LevelStore> open_store(const DatabaseOptions& db, int threads, int pits) {
    const std::unique_ptr<LevelStore> found = store_in(db.dir, Rules::abapa(), 6, threads);
    const std::optional<std::string> only_rules = found->only_rules();
    if (only_rules && !db.rules.empty() && db.rules != *only_rules)
        throw UsageError("directory '" + db.dir + "' holds " + found->files_words() +
                         ", which are " + *only_rules + "'s, not " + db.rules + "'s");
    if (pits == 0) pits = resolve_pits(db);
    if (const std::optional<int> only_pits = found->only_pits(); only_pits && pits != *only_pits)
        throw UsageError("directory '" + db.dir + "' holds " + found->files_words() +
                         ", which are of the board of " + std::to_string(*only_pits) +
                         " pits a side, not " + std::to_string(pits));
    return store_in(db.dir, resolve_rules(db), pits, threads);
}

void require_directory(const std::string& dir, const std::string& hint) {
    // The probe library's words, which Python's Tablebase says too.
    if (std::string problem = directory_problem(dir, hint); !problem.empty())
        throw UsageError(problem);
}

} // namespace owaredb::cli
