// owaredb verify: every checksum of every level file, then the Bellman consistency of
// every stored value against the stored levels:
//   V(p) == max over legal moves (captured - V(child)), or the terminal value,
// recomputed in parallel from the files alone. The first mismatch is reported.
#include "tablebase/bellman_check.hpp"
#include "commands.hpp"
#include "tablebase/database_dir.hpp"
#include "cli/options.hpp"

#include <omp.h>

#include <atomic>
#include <cstdio>
#include <mutex>

namespace owaredb::cli {

int cmd_verify(const Args& args) {
    std::string rules_name, dir;
    int threads = 0;
    po::options_description opts("options");
    opts.add_options()("dir", po::value(&dir)->default_value("owaredb-data"), "database directory")(
        "rules", po::value(&rules_name)->default_value("abapa"), "rule set: abapa|awari")(
        "threads", po::value(&threads)->default_value(0), "threads (0 = all cores)");
    po::variables_map vm;
    if (!parse_args(args, "usage: owaredb verify [--dir DIR] [--rules R] [--threads T]", opts, {},
                    vm))
        return 0;
    if (threads <= 0) threads = omp_get_num_procs();
    DatabaseDir db(dir, rules_from_name(rules_name));
    if (!std::filesystem::is_directory(dir))
        throw UsageError("no database directory '" + dir + "'");

    // 1. Checksums of every file present.
    std::vector<int> present;
    int damaged = 0;
    for (int n = 0; n <= kMaxSeeds; ++n) {
        if (!std::filesystem::exists(db.path(n))) continue;
        db::ReaderOptions options;
        options.expect = db.expectation(n);
        db::VerifyReport r = db::LevelReader(db.path(n), options).verify(threads);
        if (r.ok()) {
            present.push_back(n);
            continue;
        }
        ++damaged;
        std::printf("DAMAGED %s: %s\n", db.path(n).c_str(), r.status.message().c_str());
        for (uint64_t b : r.damaged_blocks) std::printf("  block %llu\n", (unsigned long long)b);
    }
    if (present.empty() && damaged == 0)
        throw std::runtime_error("no " + rules_name + " level files in '" + dir + "'");
    std::printf("checksums: %zu level files intact, %d damaged\n", present.size(), damaged);
    std::fflush(stdout);

    // 2. Bellman consistency, level by level while every smaller level is available.
    std::vector<ValueArray> levels;
    int checked = 0;
    bool mismatch = false;
    for (int n = 0; n <= kMaxSeeds && !mismatch; ++n) {
        if (std::find(present.begin(), present.end(), n) == present.end()) break;
        ValueArray values;
        db::Status s = db.load(n, values, threads, levels);
        if (!s.ok()) throw std::runtime_error(s.message());
        levels.push_back(std::move(values));
        uint64_t bad = first_bellman_mismatch(db.game(), n, levels, threads);
        if (bad < level_size(n)) {
            Position p = unrank(n, bad);
            std::printf("MISMATCH level %d index %llu (%s): stored %d, but its moves give a "
                        "different value\n",
                        n, (unsigned long long)bad, to_string(p).c_str(), levels[n][bad]);
            mismatch = true;
        } else {
            ++checked;
            std::printf("level %2d: %llu values consistent\n", n,
                        (unsigned long long)level_size(n));
            std::fflush(stdout);
        }
    }
    if (!mismatch && checked < static_cast<int>(present.size()))
        std::printf("levels above %d not checked for consistency: level %d is missing\n",
                    checked - 1, checked);
    bool ok = damaged == 0 && !mismatch;
    std::printf("%s\n", ok ? "verify: OK" : "verify: FAILED");
    return ok ? 0 : 1;
}

} // namespace owaredb::cli
