// owaredb import / export: between owaredb's level files and Romein & Bal's published
// awari files (scores.N, tablebase/published_dir.hpp), level by level, the values
// permuted between the two orders. A level is converted in memory (it and its permuted
// copy: twice its size); a level that does not fit --memory is refused with what it
// needs, before anything is written. Each file is written atomically, so a killed run
// leaves whole files only, and a rerun skips the levels already converted.
#include "cli/options.hpp"
#include "commands.hpp"
#include "database_options.hpp"
#include "dbformat/dir_lock.hpp"
#include "generate/preflight.hpp"
#include "oware/ranking.hpp"
#include "tablebase/database_dir.hpp"
#include "tablebase/published_dir.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>

namespace owaredb::cli {

namespace {

struct ConvertOptions {
    std::string from, to, memory;
    int max_seeds = kMaxSeeds, threads = 0;
};

void add_convert_options(po::options_description& opts, ConvertOptions& o, const char* from_help,
                         const char* to_help) {
    opts.add_options()("from", po::value(&o.from)->required(),
                       from_help)("to", po::value(&o.to)->required(), to_help)(
        "max-seeds", po::value(&o.max_seeds)->default_value(kMaxSeeds),
        "convert the levels 0..N that are there")(
        "memory", po::value(&o.memory),
        "memory budget, e.g. 600M or 20G (default: 90 % of the available memory); a level "
        "takes twice its size (1 byte a position in each order)");
    add_threads_option(opts, o.threads);
}

// Refuses level n when converting it in memory does not fit the budget.
void check_fits(int n, uint64_t budget) {
    const uint64_t needs = 2 * level_size(n) + (uint64_t(64) << 20);
    if (budget != 0 && needs > budget)
        throw std::runtime_error(
            "level " + std::to_string(n) + " (" + std::to_string(level_size(n)) +
            " positions) needs " + std::to_string(needs >> 20) + " MiB to convert, over the " +
            std::to_string(budget >> 20) +
            " MiB budget (--memory); this build converts a level in memory only");
}

void print_level(const char* verb, int n, const std::filesystem::path& file, double seconds) {
    std::printf("level %2d: %llu positions %s %s (%.1f s, %.1f M positions/s)\n", n,
                (unsigned long long)level_size(n), verb, file.c_str(), seconds,
                seconds > 0 ? double(level_size(n)) / seconds / 1e6 : 0.0);
    std::fflush(stdout);
}

double since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void require_max_seeds(int max_seeds) {
    if (max_seeds < 0 || max_seeds > kMaxSeeds)
        throw UsageError("--max-seeds must be 0..48, got " + std::to_string(max_seeds));
}

} // namespace

int cmd_import(const Args& args) {
    ConvertOptions o;
    po::options_description opts("options");
    add_convert_options(opts, o, "directory of Romein & Bal's published files (scores.N)",
                        "owaredb database directory to write awari-NN.owdb files into");
    po::variables_map vm;
    if (!parse_args(args,
                    "usage: owaredb import --from PUBLISHED_DIR --to DIR [--max-seeds N] "
                    "[--memory SIZE] [--threads T]",
                    opts, {}, vm))
        return 0;
    require_max_seeds(o.max_seeds);
    require_directory(o.from);
    if (directory_format({o.from, "awari"}) != DirectoryFormat::Published)
        throw UsageError("no published files (scores.N) in '" + o.from + "'");
    require_directory(o.to, "(create it first)");
    if (!PublishedDir::levels_in(o.to).empty())
        throw UsageError("'" + o.to +
                         "' holds published files: import writes owaredb files, "
                         "into a directory of their own");
    const uint64_t budget = memory_budget(o.memory.empty() ? 0 : parse_bytes("--memory", o.memory));
    const PublishedDir published(o.from);
    const DatabaseDir ours(o.to, Rules::awari());
    const db::DirectoryLock lock(o.to);
    lock.remove_stale_temp_files();
    int converted = 0, kept = 0;
    for (int n : PublishedDir::levels_in(o.from)) {
        if (n > o.max_seeds) break;
        if (ours.check(n, o.threads).ok()) { // already imported, every block intact
            ++kept;
            continue;
        }
        check_fits(n, budget);
        const auto t0 = std::chrono::steady_clock::now();
        ValueArray values;
        if (db::Status s = published.load(n, values, o.threads); !s.ok())
            throw std::runtime_error(s.message());
        ours.save(n, values, o.threads, {});
        print_level("imported into", n, ours.path(n), since(t0));
        ++converted;
    }
    std::printf("import: %d levels converted, %d already there\n", converted, kept);
    return 0;
}

int cmd_export(const Args& args) {
    ConvertOptions o;
    po::options_description opts("options");
    add_convert_options(opts, o, "owaredb database directory of awari levels",
                        "directory to write Romein & Bal's files (scores.N) into");
    po::variables_map vm;
    if (!parse_args(args,
                    "usage: owaredb export --from DIR --to PUBLISHED_DIR [--max-seeds N] "
                    "[--memory SIZE] [--threads T]",
                    opts, {}, vm))
        return 0;
    require_max_seeds(o.max_seeds);
    require_directory(o.from);
    if (directory_format({o.from, "awari"}) != DirectoryFormat::Ours)
        throw UsageError("'" + o.from + "' holds published files already");
    require_directory(o.to, "(create it first)");
    if (!rule_sets_in(o.to).empty())
        throw UsageError("'" + o.to +
                         "' holds owaredb level files: export writes published "
                         "files, into a directory of their own");
    const uint64_t budget = memory_budget(o.memory.empty() ? 0 : parse_bytes("--memory", o.memory));
    const DatabaseDir ours(o.from, Rules::awari());
    const PublishedDir published(o.to);
    const db::DirectoryLock lock(o.to);
    lock.remove_stale_temp_files(); // a killed export's scores.N.tmp.* (a level's size each)
    const std::vector<std::string> rule_sets = rule_sets_in(o.from);
    if (std::find(rule_sets.begin(), rule_sets.end(), "awari") == rule_sets.end())
        throw UsageError("no awari level files (awari-NN.owdb) in '" + o.from +
                         "': the published format is awari's");
    int converted = 0, kept = 0;
    for (int n = 0; n <= o.max_seeds; ++n) {
        if (!std::filesystem::exists(ours.path(n))) continue;
        if (published.open(n).ok()) { // already exported (written atomically: whole)
            ++kept;
            continue;
        }
        if (ours.capture_bounded(n))
            throw std::runtime_error(ours.path(n).string() +
                                     ": capture-bounded (generate --compact); export needs "
                                     "exact files (generate without --compact)");
        check_fits(n, budget);
        const auto t0 = std::chrono::steady_clock::now();
        ValueArray values;
        if (db::Status s = ours.load(n, values, o.threads, {}); !s.ok())
            throw std::runtime_error(s.message());
        published.save(n, values, o.threads);
        print_level("exported to", n, published.path(n), since(t0));
        ++converted;
    }
    std::printf("export: %d levels converted, %d already there\n", converted, kept);
    return 0;
}

} // namespace owaredb::cli
