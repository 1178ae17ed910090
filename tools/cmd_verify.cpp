// owaredb verify: every checksum of every level file, then the Bellman consistency of
// every stored value against the stored levels:
//   V(p) == max over legal moves (captured - V(child)), or the terminal value,
// recomputed in parallel from the files alone. The first mismatch is reported.
//
// Bound files (<rules>-NN.bounds.owdb) in the directory are checked the same way: every
// checksum, then every stored pair against its equations over the stored bound levels,
//   gM(p) == max over moves (captured + gN(child)), gN(p) == min over moves gM(child),
// or the terminal split. This is a necessary condition only: gM, gN are the LEAST fixed
// point of these equations, and a larger fixed point (e.g. one crediting a cycle to a
// side) would pass it too.
#include "cli/options.hpp"
#include "commands.hpp"
#include "database_options.hpp"
#include "tablebase/bellman_check.hpp"
#include "tablebase/bounds_dir.hpp"
#include "tablebase/database_dir.hpp"

#include <omp.h>

#include <atomic>
#include <cstdio>
#include <mutex>

namespace owaredb::cli {

namespace {

// "UNREADABLE" for a file the system would not let us read (permissions, a directory in
// its place), "DAMAGED" for one whose bytes are wrong.
const char* label(const db::Status& s) {
    return s.code() == db::ErrorCode::Io ? "UNREADABLE" : "DAMAGED";
}

// Checksums, then consistency of the bound files present; prints what it finds and
// returns whether all is well. `present` says whether any bound file exists.
bool verify_bounds(const BoundsDir& db, int threads, bool& present_any) {
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
        std::printf("%s %s: %s\n", label(r.status), db.path(n).c_str(), r.status.message().c_str());
        for (uint64_t b : r.damaged_blocks) std::printf("  block %llu\n", (unsigned long long)b);
    }
    present_any = !present.empty() || damaged > 0;
    if (!present_any) return true;
    std::printf("bound checksums: %zu bound files intact, %d damaged\n", present.size(), damaged);
    std::fflush(stdout);
    std::vector<ValueArray> levels;
    int checked = 0;
    bool mismatch = false;
    for (int n = 0; n <= kMaxSeeds && !mismatch; ++n) {
        if (std::find(present.begin(), present.end(), n) == present.end()) break;
        ValueArray bounds;
        db::Status s = db.load(n, bounds, threads);
        if (!s.ok()) {
            std::printf("DAMAGED %s\n", s.message().c_str());
            mismatch = true;
            break;
        }
        levels.push_back(std::move(bounds));
        uint64_t bad = first_bounds_mismatch(db.game(), n, levels, threads);
        if (bad < level_size(n)) {
            const BoundPair b = bound_pair(levels[n].data(), bad);
            std::printf("MISMATCH bounds level %d index %llu (%s): stored gM %d gN %d, but its "
                        "moves give different bounds\n",
                        n, (unsigned long long)bad, to_string(unrank(n, bad)).c_str(), b.gm, b.gn);
            mismatch = true;
        } else {
            ++checked;
            std::printf("bounds level %2d: %llu pairs consistent with their moves\n", n,
                        (unsigned long long)level_size(n));
            std::fflush(stdout);
        }
    }
    // A gap leaves the levels above it unchecked: that is a failure, not a pass.
    const bool gap = !mismatch && checked < static_cast<int>(present.size());
    if (gap)
        std::printf("FAILED: bound level %d is missing, so the bound levels above it could not "
                    "be checked for consistency\n",
                    checked);
    mismatch = mismatch || gap;
    if (checked > 0)
        std::printf("(bounds consistency is a necessary condition: a larger fixed point of the "
                    "same equations would pass it too)\n");
    return damaged == 0 && !mismatch;
}

} // namespace

int cmd_verify(const Args& args) {
    DatabaseOptions options;
    int threads = 0;
    po::options_description opts("options");
    add_database_options(opts, options);
    add_threads_option(opts, threads);
    po::variables_map vm;
    if (!parse_args(args, "usage: owaredb verify [--dir DIR] [--rules R] [--threads T]", opts, {},
                    vm))
        return 0;
    require_directory(options.dir);
    const std::string& dir = options.dir;
    DatabaseDir db(dir, resolve_rules(options));
    const std::string& rules_name = db.rules().name;
    bool value_files = false;
    for (int n = 0; n <= kMaxSeeds && !value_files; ++n)
        value_files = std::filesystem::exists(db.path(n));
    bool bound_files = false;
    bool bounds_ok = true;
    if (!value_files) {
        // Only bound files (or nothing): check those alone.
        bounds_ok = verify_bounds(BoundsDir(dir, db.rules()), threads, bound_files);
        if (bound_files) {
            std::printf("%s\n", bounds_ok ? "verify: OK" : "verify: FAILED");
            return bounds_ok ? 0 : 1;
        }
    }

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
        std::printf("%s %s: %s\n", label(r.status), db.path(n).c_str(), r.status.message().c_str());
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
    // A gap leaves the levels above it unchecked: that is a failure, not a pass.
    const bool gap = !mismatch && checked < static_cast<int>(present.size());
    if (gap)
        std::printf("FAILED: level %d is missing, so the levels above it could not be checked "
                    "for consistency\n",
                    checked);
    mismatch = mismatch || gap;
    if (value_files) bounds_ok = verify_bounds(BoundsDir(dir, db.rules()), threads, bound_files);
    bool ok = damaged == 0 && !mismatch && bounds_ok;
    std::printf("%s\n", ok ? "verify: OK" : "verify: FAILED");
    return ok ? 0 : 1;
}

} // namespace owaredb::cli
