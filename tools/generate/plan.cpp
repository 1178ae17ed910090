#include "generate/plan.hpp"

#include "cli/command.hpp"
#include "cli/disk_space.hpp"
#include "cli/json.hpp"
#include "cli/options.hpp"
#include "oware/ranking.hpp"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <tuple>
#include <utility>

namespace owaredb::cli {

namespace {

// The one-process modes a rate is measured for, each falling back on the one before it
// when it has no record.
constexpr LevelMode kRatedModes[] = {LevelMode::InMemory, LevelMode::Streamed, LevelMode::Nibble,
                                     LevelMode::Wld};
constexpr int kRatedModeCount = int(std::size(kRatedModes));

std::optional<LevelMode> mode_by_name(const std::string& name) {
    for (LevelMode m : kRatedModes)
        if (name == mode_name(m)) return m;
    return std::nullopt;
}

double rate(const RateRecord& r) {
    return r.cpu_seconds / double(r.positions);
}

double gb(uint64_t bytes) {
    return double(bytes) / double(uint64_t(1) << 30);
}

} // namespace

std::vector<RateRecord> parse_rate_records(std::istream& in) {
    // The last record of a level and mode wins: a level rebuilt measures it again.
    std::map<std::pair<int, int>, RateRecord> found;
    for (std::string text; std::getline(in, text);) {
        const Json line = Json::parse(text, nullptr, /*allow_exceptions=*/false);
        if (!line.is_object() || !line.contains("level")) continue;
        try {
            const std::optional<LevelMode> mode = mode_by_name(line.at("mode").get<std::string>());
            RateRecord r{
                line.at("level").get<int>(),           line.at("positions").get<uint64_t>(),
                mode.value_or(LevelMode::Distributed), line.at("cpu_seconds").get<double>(),
                line.at("threads").get<int>(),         line.at("finished").get<std::string>(),
                line.value("file", std::string()),     line.value("file_bytes", uint64_t(0))};
            // A level resumed from a checkpoint that did not record its earlier CPU time
            // holds only the last run's.
            if (!mode || r.level < kMinRateLevel || r.positions == 0 || r.cpu_seconds <= 0 ||
                line.value("earlier_unknown", false))
                continue;
            found[{r.level, int(r.mode)}] = std::move(r);
        } catch (const Json::exception&) {
            continue;
        }
    }
    std::vector<RateRecord> records;
    for (auto& [key, r] : found) records.push_back(std::move(r));
    return records;
}

RateModel::RateModel(const std::vector<RateRecord>& records,
                     const std::vector<RateRecord>& lender) {
    if (records.empty())
        throw std::runtime_error("no build records of level " + std::to_string(kMinRateLevel) +
                                 " or above to take rates from");
    std::vector<RateRecord> by_mode[kRatedModeCount];
    for (const RateRecord& r : records) by_mode[index(r.mode)].push_back(r);
    int most = 0;
    for (int m = 1; m < kRatedModeCount; ++m)
        if (by_mode[m].size() > by_mode[most].size()) most = m;
    base_ = kRatedModes[most];

    // A mode's cost against the base mode's, from the levels both measured: a paired run
    // compares the engines on one level and machine, where a ratio to the line would carry
    // the line's error at that level (docs/results.md, "The 48-seed plan on this machine's
    // rates"). The mean ratio over the paired levels of `from`, and the levels.
    const auto pair_up = [&](const std::vector<RateRecord>& from, int m) {
        std::map<int, double> base_rate;
        for (const RateRecord& r : from)
            if (r.mode == base_) base_rate[r.level] = rate(r);
        double sum = 0;
        std::vector<int> levels;
        for (const RateRecord& r : from)
            if (const auto base = base_rate.find(r.level);
                r.mode == kRatedModes[m] && base != base_rate.end()) {
                sum += rate(r) / base->second;
                levels.push_back(r.level);
            }
        return std::pair(levels.empty() ? 1.0 : sum / double(levels.size()), levels);
    };
    for (int m = 0; m < kRatedModeCount; ++m) {
        measured_[m] = !by_mode[m].empty();
        if (m == most) continue;
        std::tie(ratio_[m], paired_[m]) = pair_up(records, m);
        if (paired_[m].empty()) {
            std::tie(ratio_[m], paired_[m]) = pair_up(lender, m);
            borrowed_[m] = !paired_[m].empty();
        }
    }

    // The line's points: each level's rates on the base mode's scale, averaged. A paired
    // mode's levels above the base mode's (streamed ones, past what memory holds) are
    // where the line's trend is measured best.
    std::map<int, std::pair<double, int>> on_base_scale;
    for (int m = 0; m < kRatedModeCount; ++m) {
        if (m != most && paired_[m].empty()) continue;
        for (const RateRecord& r : by_mode[m]) {
            auto& [sum, count] = on_base_scale[r.level];
            sum += rate(r) / ratio_[m];
            ++count;
        }
    }
    std::vector<std::pair<int, double>> points;
    for (const auto& [level, sum_count] : on_base_scale)
        points.emplace_back(level, sum_count.first / double(sum_count.second));
    fit(points);

    // A mode measured but never paired: its cost against the line where it was measured.
    for (int m = 0; m < kRatedModeCount; ++m) {
        if (m == most || !measured_[m] || !paired_[m].empty()) continue;
        double sum = 0;
        for (const RateRecord& r : by_mode[m]) sum += rate(r) / (intercept_ + slope_ * r.level);
        ratio_[m] = sum / double(by_mode[m].size());
    }
    for (int m = 2; m < kRatedModeCount; ++m)
        if (!measured_[m] && !borrowed_[m]) ratio_[m] = ratio_[m - 1];
}

int RateModel::index(LevelMode mode) {
    for (int m = 0; m < kRatedModeCount; ++m)
        if (kRatedModes[m] == mode) return m;
    throw std::logic_error(std::string("no rate is kept for mode ") + mode_name(mode));
}

void RateModel::fit(const std::vector<std::pair<int, double>>& points) {
    // The CPU time a position grows with the level: more seeds make more moves to generate
    // and undo, and a larger level outgrows the caches. Awari's measured rate grew about
    // linearly (0.55 us at level 22, 1.13 at 31 in memory, on a machine shared with the
    // checker, whose noise a single level's rate shows: level 26 measured 0.67 between 0.82
    // and 0.91). So: a least squares line over the largest 10 measured levels, enough to
    // average that noise and still follow the trend of the large levels, never falling
    // with n (a negative slope is noise), and extrapolated linearly: a per-level factor
    // (1.03x, docs/distributed.md) would compound the noise of a short span over the
    // levels up to 48.
    constexpr std::size_t kFitLevels = 10;
    const std::size_t from = points.size() > kFitLevels ? points.size() - kFitLevels : 0;
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    const double count = double(points.size() - from);
    for (std::size_t i = from; i < points.size(); ++i) {
        const double x = points[i].first, y = points[i].second;
        sx += x, sy += y, sxx += x * x, sxy += x * y;
    }
    const double spread = count * sxx - sx * sx;
    slope_ = spread > 0 ? std::max(0.0, (count * sxy - sx * sy) / spread) : 0;
    intercept_ = (sy - slope_ * sx) / count;
    first_ = points[from].first;
    last_ = points.back().first;
}

double RateModel::cpu_per_position(int n, LevelMode mode) const {
    // Not extrapolated below the fitted levels: a steep line falls under zero there, and
    // those levels take seconds whatever the rate.
    return std::max(0.0, intercept_ + slope_ * std::max(n, first_)) * ratio_[index(mode)];
}

double effective_threads(int threads) {
    // The rates are the CPU seconds of 2-thread runs. On a 16-core machine (docs/results.md,
    // "Scaling past 2 cores") 16 threads kept 85 % (in memory) and 77 % (streamed) of one
    // thread's speed a core, against 93-94 % at 2 threads: 82-91 % of the 2-thread speed.
    // Assumed: 80 % a thread up to 16 threads, and half a thread for each one beyond (not
    // measured; docs/distributed.md's cluster model assumes half a core on a loaded node).
    if (threads <= 2) return threads;
    return 0.8 * std::min(threads, 16) + 0.5 * std::max(threads - 16, 0);
}

bool BuildPlan::fits() const {
    return std::all_of(rows.begin(), rows.end(),
                       [](const PlanRow& r) { return r.fits_memory && r.fits_disk; });
}

BuildPlan make_build_plan(const ModePlan& plan, const GameLevels& levels, bool checkpoints,
                          uint64_t disk_bytes, const RateModel& rates, int threads,
                          const LevelDir* dir, const std::vector<RateRecord>& records) {
    // The sizes the records measured, of files named as dir's: another rule set's or
    // board's files say little of these.
    std::map<int, uint64_t> recorded;
    if (dir)
        for (const RateRecord& r : records)
            if (r.file_bytes && r.file == dir->path(r.level).filename().string())
                recorded[r.level] = r.file_bytes;
    const auto recorded_bytes = [&](int n) -> uint64_t {
        const auto it = recorded.find(n);
        return it == recorded.end() ? 0 : it->second;
    };
    BuildPlan out;
    const uint64_t budget = plan.budget().bytes;
    for (int n = 0; n <= levels.max_level; ++n) {
        if (!levels.contains(n)) continue;
        PlanRow row;
        row.level = n;
        row.positions = level_size(plan.pits(), n);
        row.mode = plan.mode(n);
        row.files_before = out.files;
        const uint64_t built = dir ? dir->file_bytes(n) : 0;
        row.built = built > 0;
        if (row.built) {
            row.disk_peak = out.files + built;
            row.fits_disk = row.disk_peak <= disk_bytes;
            out.files += built;
            out.peak_disk = std::max(out.peak_disk, row.disk_peak);
            out.rows.push_back(row);
            continue;
        }
        row.memory = plan_memory_bytes(plan, n);
        const DiskNeed need =
            disk_need(n, 1, checkpoints, row.mode, plan.pits(),
                      dir ? dir->measured_file_bits(n, recorded_bytes) : std::nullopt);
        row.disk_peak = out.files + need.peak();
        row.hours = rates.cpu_per_position(n, row.mode) * double(row.positions) /
                    effective_threads(threads) / 3600;
        row.fits_memory = budget == 0 || row.memory <= budget;
        row.fits_disk = row.disk_peak <= disk_bytes;
        out.files += need.file;
        out.hours += row.hours;
        out.peak_memory = std::max(out.peak_memory, row.memory);
        out.peak_disk = std::max(out.peak_disk, row.disk_peak);
        out.rows.push_back(row);
    }
    return out;
}

namespace {

// The free space where --dir is or would be created: the directory or its nearest parent.
uint64_t default_disk(const std::string& dir) {
    namespace fs = std::filesystem;
    fs::path p = fs::absolute(dir);
    std::error_code ec;
    while (!fs::is_directory(p, ec) && p.has_parent_path() && p != p.parent_path())
        p = p.parent_path();
    return free_bytes(p.string()).value_or(0);
}

constexpr const char* kBuiltinRatesFile = "docs/data/build-rates.jsonl";
const std::string kBuiltinRates = std::string(kBuiltinRatesFile) + " (built in)";

std::vector<RateRecord> builtin_rate_records() {
    std::istringstream builtin{std::string(builtin_build_rates())};
    return parse_rate_records(builtin);
}

// The records of `file` (--rates) when given, else of dir's owaredb-build.jsonl when it has
// any, else the committed ones; and which file they came from. A --rates file that cannot be
// read, or holds no record, is an error: a plan from other rates than asked would mislead.
std::vector<RateRecord> load_rates(const std::string& file, const std::string& dir,
                                   std::string& source) {
    if (!file.empty()) {
        std::ifstream in(file);
        if (!in) throw std::runtime_error("cannot read --rates " + file);
        std::vector<RateRecord> records = parse_rate_records(in);
        if (records.empty())
            throw std::runtime_error("--rates " + file + " holds no build record of level " +
                                     std::to_string(kMinRateLevel) + " or above");
        source = file;
        return records;
    }
    const std::filesystem::path own = std::filesystem::path(dir) / "owaredb-build.jsonl";
    std::ifstream in(own);
    std::vector<RateRecord> records = parse_rate_records(in);
    if (!records.empty()) {
        source = own.string();
        return records;
    }
    source = kBuiltinRates;
    return builtin_rate_records();
}

// "measured 2026-12-04 on 2 threads, 3 days ago": the newest record's.
std::string measured_when(const std::vector<RateRecord>& records) {
    const RateRecord& newest = *std::max_element(
        records.begin(), records.end(),
        [](const RateRecord& a, const RateRecord& b) { return a.finished < b.finished; });
    std::tm tm{};
    std::istringstream(newest.finished) >> std::get_time(&tm, "%Y-%m-%dT%H:%M:%SZ");
    const long days = long(std::difftime(std::time(nullptr), timegm(&tm)) / 86400);
    return "measured " + newest.finished.substr(0, 10) + " on " + std::to_string(newest.threads) +
           " threads, " + std::to_string(days) + (days == 1 ? " day" : " days") + " ago";
}

void print_rates(const RateModel& m, const std::string& source,
                 const std::vector<RateRecord>& records, int threads) {
    std::printf("rates: %s, %zu records, newest %s\n", source.c_str(), records.size(),
                measured_when(records).c_str());
    std::printf("  CPU a position, %s: %.3f + %.4f n us (a line fitted over levels %d..%d, the "
                "paired modes' on its scale)\n",
                mode_name(m.base()), m.intercept() * 1e6, m.slope() * 1e6, m.first_level(),
                m.last_level());
    for (int i = 0; i < kRatedModeCount; ++i) {
        const LevelMode mode = kRatedModes[i];
        if (mode == m.base()) continue;
        const std::string taken_as = i < 2 ? "the fit" : std::string(mode_name(kRatedModes[i - 1]));
        std::string how = " (not measured: taken as " + taken_as + ")";
        if (!m.paired_levels(mode).empty()) {
            how = " (paired with " + std::string(mode_name(m.base())) + " at level";
            const std::vector<int>& levels = m.paired_levels(mode);
            how += levels.size() > 1 ? "s " : " ";
            for (std::size_t k = 0; k < levels.size(); ++k)
                how += (k ? ", " : "") + std::to_string(levels[k]);
            how +=
                m.borrowed(mode) ? std::string(" in the built-in ") + kBuiltinRatesFile + ")" : ")";
        } else if (m.measured(mode)) {
            how = " (measured against the line: never paired)";
        }
        std::printf("  %s: %.2fx that%s\n", mode_name(mode), m.ratio(mode), how.c_str());
    }
    if (threads <= 2)
        std::printf("  hours = CPU / %d threads, as measured\n", threads);
    else
        std::printf("  hours = CPU / %.1f: %d threads at 80 %% of the measured speed a thread up "
                    "to 16, 50 %% beyond (docs/results.md, \"Scaling past 2 cores\")\n",
                    effective_threads(threads), threads);
    // The records' wall seconds are not used: on a machine shared with other builds they
    // measure the others too. What CPU seconds leave out is stated instead.
    std::printf("  CPU time only: a streamed level's waits for the disk are not counted\n");
}

void print_rows(const BuildPlan& p) {
    std::printf("%5s %15s  %-13s %10s %13s %13s %9s\n", "level", "positions", "mode", "memory GB",
                "disk peak GB", "files so far", "hours");
    for (const PlanRow& r : p.rows)
        std::printf("%5d %15llu  %-13s %10.1f %13.1f %13.1f %9.2f%s%s\n", r.level,
                    static_cast<unsigned long long>(r.positions),
                    r.built ? "(built)" : mode_name(r.mode), gb(r.memory), gb(r.disk_peak),
                    gb(r.files_before), r.hours, r.fits_memory ? "" : "  MEMORY: does not fit",
                    r.fits_disk ? "" : "  DISK: does not fit");
}

} // namespace

int print_build_plan(const PlanRequest& request, const ModePlan& plan) {
    const LevelDir dir(request.dir, request.rules, db::LevelKind::Values, 1, plan.pits());
    // The free space does not hold the files already there: they count for the run too.
    uint64_t there = 0;
    if (request.disk.empty())
        for (int n = 0; n <= request.levels.max_level; ++n)
            if (request.levels.contains(n)) there += dir.level_bytes(n);
    const uint64_t disk = request.disk.empty() ? default_disk(request.dir) + there
                                               : parse_bytes("--disk", request.disk);
    std::string source;
    const std::vector<RateRecord> records = load_rates(request.rates, request.dir, source);
    // The line from a directory's own records or a --rates file's (one machine's); the ratio
    // of a word they never pair from the committed pairings: one run builds each level in one
    // mode.
    const RateModel rates(records, source == kBuiltinRates ? std::vector<RateRecord>{}
                                                           : builtin_rate_records());
    const BuildPlan p = make_build_plan(plan, request.levels, request.checkpoints, disk, rates,
                                        request.threads, &dir, records);
    std::printf("owaredb generate --plan: %s (nothing is written)\n", request.title.c_str());
    std::printf("memory %.1f GB (%s), disk %.1f GB (%s), checkpoints %s\n", gb(plan.budget().bytes),
                plan.budget().given ? "--memory" : "90 % of available", gb(disk),
                request.disk.empty()
                    ? (there ? "free where --dir is, and the files of its levels there"
                             : "free where --dir is")
                    : "--disk",
                request.checkpoints ? "on" : "off");
    print_rates(rates, source, records, request.threads);
    std::printf("files: 1.1x the bits a position of the largest smaller level measured (its "
                "file in --dir, else a record's size of a file of that name), 6.25 where none "
                "is\n");
    print_rows(p);
    std::printf("total: %.1f wall hours; peak memory %.1f GB; peak disk %.1f GB; files %.1f GB\n",
                p.hours, gb(p.peak_memory), gb(p.peak_disk), gb(p.files));
    std::printf("%s\n", p.fits() ? "the plan fits" : "the plan does not fit (levels marked)");
    return p.fits() ? 0 : 1;
}

} // namespace owaredb::cli
