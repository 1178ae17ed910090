// owaredb import / export: between owaredb's level files and Romein & Bal's published
// awari files (scores.N, tablebase/published_dir.hpp), level by level, the values
// permuted between the two orders out of core (tablebase/order_conversion.hpp): within
// --memory whatever the level's size, with the permuted level in work files beside the
// output. Each output file is written atomically, a rerun skips the levels already
// converted, and a killed level resumes from its work files.
#include "cli/active_clock.hpp"
#include "cli/disk_space.hpp"
#include "cli/options.hpp"
#include "cli/run_settings.hpp"
#include "commands.hpp"
#include "database_options.hpp"
#include "dbformat/file_io.hpp"
#include "generate/preflight.hpp"
#include "oware/ranking.hpp"
#include "progress_line.hpp"
#include "tablebase/database_dir.hpp"
#include "tablebase/order_conversion.hpp"
#include "tablebase/published_dir.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>

namespace owaredb::cli {

namespace {

struct ConvertOptions {
    std::string from, to, memory, work_dir;
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
        "larger than it is transposed in bands")(
        "work-dir", po::value(&o.work_dir),
        "where the permuted level waits, about its size in all (default: a directory "
        ".owaredb-convert-N in --to); a killed level resumes from it");
    add_threads_option(opts, o.threads);
}

// The conversion's budget: --memory, else 90 % of the available memory (1 GiB when that is
// unknown); refused at once if it cannot convert the largest level asked for.
uint64_t conversion_budget(const ConvertOptions& o, int largest) {
    uint64_t budget = resolve_memory_budget(o.memory, 1).bytes; // one process
    if (budget == 0) budget = uint64_t(1) << 30;
    if (largest >= 0 && budget < ConvertedLevel::budget_needed(largest))
        throw UsageError("converting level " + std::to_string(largest) + " needs at least " +
                         std::to_string((ConvertedLevel::budget_needed(largest) >> 20) + 1) +
                         " MiB, over the " + std::to_string(budget >> 20) + " MiB budget" +
                         (o.memory.empty() ? " (90 % of the available memory)" : " (--memory)"));
    return budget;
}

// Level n's work directory.
std::filesystem::path work_dir_of(const ConvertOptions& o, int n) {
    const std::filesystem::path base =
        o.work_dir.empty() ? std::filesystem::path(o.to) : std::filesystem::path(o.work_dir);
    return base / (".owaredb-convert-" + std::to_string(n));
}

// The progress of one level's conversion on stderr: the three passes weighted alike, the
// ETA from the time this level took so far (pauses left out: cli/active_clock.hpp).
class ConversionLine {
  public:
    ConversionLine(const char* verb, int n) : verb_(verb), n_(n) {}
    void operator()(const ConversionProgress& p) {
        if (p.total == 0) return;
        const double elapsed = clock_.elapsed();
        if (!line_.terminal() && elapsed < 10) return;
        const double f = (double(p.pass - 1) + double(p.done) / double(p.total)) / 3;
        const std::string eta = f > 0 && elapsed > 1 ? format_duration(elapsed * (1 - f) / f) : "?";
        static const char* const kPass[] = {"", "reading", "transposing", "writing"};
        char line[120];
        std::snprintf(line, sizeof line, "level %2d: %s, pass %d/3 (%s) %3.0f%% | ETA level %s", n_,
                      verb_, p.pass, kPass[std::clamp(p.pass, 1, 3)],
                      100.0 * double(p.done) / double(p.total), eta.c_str());
        line_.show(line);
    }
    void clear() const { line_.clear(); }

  private:
    const char* verb_;
    int n_;
    ActiveClock clock_;
    ProgressLine line_;
};

// Our level file read in order, block by block (the export's source).
class LevelFileValues final : public db::ValueSource {
  public:
    LevelFileValues(const db::LevelReader& reader, uint64_t size, int threads)
        : reader_(reader), size_(size), threads_(threads) {}
    uint64_t size() const override { return size_; }
    void read(uint64_t begin, std::span<int8_t> out) const override {
        if (db::Status s = reader_.read_range(begin, out, threads_); !s.ok())
            throw std::runtime_error(s.message());
    }

  private:
    const db::LevelReader& reader_;
    uint64_t size_;
    int threads_;
};

// A converted level as the level writer reads it (three passes in order), reported as the
// third pass of the conversion.
class ReportedValues final : public db::ValueSource {
  public:
    ReportedValues(const db::ValueSource& inner, ConversionLine& line)
        : inner_(inner), line_(line) {}
    uint64_t size() const override { return inner_.size(); }
    void read(uint64_t begin, std::span<int8_t> out) const override {
        inner_.read(begin, out);
        line_({3, begin + out.size(), size()});
    }

  private:
    const db::ValueSource& inner_;
    ConversionLine& line_;
};

// Level n's conversion from the file `source`: its work files serve only a conversion of
// that very file (a re-downloaded or another directory's level starts again).
ConversionOptions conversion_options(const ConvertOptions& o, int n, uint64_t budget,
                                     const std::filesystem::path& source, ConversionLine& line) {
    ConversionOptions c;
    c.work_dir = work_dir_of(o, n);
    c.source_identity = source_file_identity(source);
    c.memory = budget;
    c.threads = o.threads;
    c.progress = [&line](const ConversionProgress& p) { line(p); };
    return c;
}

// Refuses level n when the disk holding `dir` cannot take the work files and the output.
void check_conversion_disk(int n, const ConvertOptions& o) {
    const std::filesystem::path work = work_dir_of(o, n).parent_path();
    check_disk(n, 2 * level_size<6>(n), work.string());
}

void print_level(const char* verb, int n, const std::filesystem::path& file, double seconds) {
    std::printf("level %2d: %llu positions %s %s (%.1f s, %.1f M positions/s)\n", n,
                (unsigned long long)level_size<6>(n), verb, file.c_str(), seconds,
                seconds > 0 ? double(level_size<6>(n)) / seconds / 1e6 : 0.0);
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
                    "[--memory SIZE] [--work-dir DIR] [--threads T]",
                    opts, {}, vm))
        return 0;
    require_max_seeds(o.max_seeds);
    require_directory(o.from);
    if (open_store({o.from, "awari"}, o.threads, 6)->format() != "published")
        throw UsageError("no published files (scores.N) in '" + o.from + "'");
    if (!PublishedDir::levels_in(o.to).empty())
        throw UsageError("'" + o.to +
                         "' holds published files: import writes owaredb files, "
                         "into a directory of their own");
    if (!o.work_dir.empty()) require_directory(o.work_dir, "(create it first)");
    std::vector<int> levels;
    for (int n : PublishedDir::levels_in(o.from))
        if (n <= o.max_seeds) levels.push_back(n);
    const uint64_t budget = conversion_budget(o, levels.empty() ? -1 : levels.back());
    const PublishedDir published(o.from);
    const DatabaseDir ours(o.to, Rules::awari(), false, kPitsPerSide);
    // Created if need be, as generate's: the writer's lock, a killed run's temp files gone.
    const auto lock = prepare_output_directory(o.to);
    int converted = 0, kept = 0;
    for (int n : levels) {
        if (ours.check(n, o.threads).ok()) { // already imported, every block intact
            ConvertedLevel::discard_work_files(work_dir_of(o, n)); // a run killed after it
            ++kept;
            continue;
        }
        check_conversion_disk(n, o);
        const auto t0 = std::chrono::steady_clock::now();
        db::Result<db::RawLevelFile> file = published.open(n);
        if (!file.ok()) throw std::runtime_error(file.status().message());
        ConversionLine line("importing", n);
        ConvertedLevel level(n, OrderDirection::to_ours, PublishedFileValues(*file),
                             conversion_options(o, n, budget, published.path(n), line));
        ours.save(n, ReportedValues(level, line), o.threads);
        level.remove_work_files();
        line.clear();
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
                    "[--memory SIZE] [--work-dir DIR] [--threads T]",
                    opts, {}, vm))
        return 0;
    require_max_seeds(o.max_seeds);
    require_directory(o.from);
    if (open_store({o.from, "awari"}, o.threads, 6)->format() != "owaredb")
        throw UsageError("'" + o.from + "' holds published files already");
    if (!rule_sets_in(o.to).empty())
        throw UsageError("'" + o.to +
                         "' holds owaredb level files: export writes published "
                         "files, into a directory of their own");
    if (!o.work_dir.empty()) require_directory(o.work_dir, "(create it first)");
    const DatabaseDir ours(o.from, Rules::awari(), false, kPitsPerSide);
    const std::vector<std::string> rule_sets = rule_sets_in(o.from);
    if (std::find(rule_sets.begin(), rule_sets.end(), "awari") == rule_sets.end())
        throw UsageError("no awari level files (awari-NN.owdb) in '" + o.from +
                         "': the published format is awari's");
    std::vector<int> levels;
    for (int n = 0; n <= o.max_seeds; ++n)
        if (std::filesystem::exists(ours.path(n))) levels.push_back(n);
    const uint64_t budget = conversion_budget(o, levels.empty() ? -1 : levels.back());
    const PublishedDir published(o.to);
    // Created if need be, as generate's: the writer's lock, a killed export's scores.N.tmp.*
    // (a level's size each) gone.
    const auto lock = prepare_output_directory(o.to);
    int converted = 0, kept = 0;
    for (int n : levels) {
        if (published.open(n).ok()) { // already exported (written atomically: whole)
            ConvertedLevel::discard_work_files(work_dir_of(o, n)); // a run killed after it
            ++kept;
            continue;
        }
        if (ours.capture_bounded(n))
            throw std::runtime_error(ours.path(n).string() +
                                     ": capture-bounded (generate --compact); export needs "
                                     "exact files (generate without --compact)");
        check_conversion_disk(n, o);
        const auto t0 = std::chrono::steady_clock::now();
        const db::LevelReader reader(
            ours.path(n), {.cache = nullptr, .cache_bytes = 0, .expect = ours.expectation(n)});
        if (db::Status s = reader.open(); !s.ok()) throw std::runtime_error(s.message());
        ConversionLine line("exporting", n);
        ConvertedLevel level(n, OrderDirection::to_published,
                             LevelFileValues(reader, level_size<6>(n), o.threads),
                             conversion_options(o, n, budget, ours.path(n), line));
        db::detail::AtomicFileSink sink(published.path(n));
        std::vector<int8_t> piece(std::size_t(16) << 20);
        for (uint64_t b = 0; b < level.size(); b += piece.size()) {
            const auto part = std::span(piece).first(
                std::size_t(std::min<uint64_t>(piece.size(), level.size() - b)));
            level.read(b, part);
            sink.write(std::span(reinterpret_cast<const uint8_t*>(part.data()), part.size()));
            line({3, b + part.size(), level.size()});
        }
        sink.commit();
        level.remove_work_files();
        line.clear();
        print_level("exported to", n, published.path(n), since(t0));
        ++converted;
    }
    std::printf("export: %d levels converted, %d already there\n", converted, kept);
    return 0;
}

} // namespace owaredb::cli
