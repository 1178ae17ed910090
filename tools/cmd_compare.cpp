// owaredb compare DIR_A DIR_B: two database directories, each of our level files or of
// Romein & Bal's published files (scores.N), compared level by level, value by value.
// Levels there on one side only are reported (and make the directories differ); within a
// level, the count of differing positions and the first few, with both values. Each side is
// read through its LevelStore (tablebase/level_store.hpp), a run at a time in order: two
// directories of one format in their files' order (published ones offset by offset); a
// level whose files keep another order than the other side's is first put in our order out
// of core (tablebase/order_conversion.hpp: within --memory, its work files in --work-dir).
#include "cli/active_clock.hpp"
#include "cli/disk_space.hpp"
#include "cli/options.hpp"
#include "cli/run_settings.hpp"
#include "cli/stop_signals.hpp"
#include "commands.hpp"
#include "database_options.hpp"
#include "oware/ranking.hpp"
#include "progress_line.hpp"
#include "retro/parallel.hpp"
#include "tablebase/level_store.hpp"
#include "tablebase/order_conversion.hpp"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <stop_token>
#include <thread>

namespace owaredb::cli {

namespace {

// The settings of a level's conversion to our order (a side whose files keep another).
struct ConversionSettings {
    uint64_t memory = 0;
    std::filesystem::path work_dir;
    int threads = 0;
};

// The conversion options of level n, its progress shown on a terminal (and in a log for a
// level that takes 10 s or more).
ConversionOptions conversion_options(int n, const ConversionSettings& settings) {
    check_disk(n, level_size<6>(n), settings.work_dir.string());
    ConversionOptions o;
    o.work_dir = settings.work_dir / ("level-" + std::to_string(n));
    o.memory = settings.memory;
    o.threads = settings.threads;
    o.progress = [n, line = ProgressLine(),
                  start = std::chrono::steady_clock::now()](const ConversionProgress& p) mutable {
        if (!line.terminal() && std::chrono::steady_clock::now() - start < std::chrono::seconds(10))
            return; // a log gets no line for a short level
        char text[120];
        std::snprintf(text, sizeof text, "level %2d: into our order, pass %d/2 %3.0f%%", n, p.pass,
                      100.0 * double(p.done) / double(std::max<uint64_t>(p.total, 1)));
        line.show(text);
    };
    return o;
}

// A directory of any format (tablebase/level_store.hpp): which levels it has, and a
// reader of one.
class Side {
  public:
    Side(const std::string& dir, const std::string& rules)
        : store_((require_directory(dir), open_store({dir, rules}, 0, 6))) {}
    std::string name() const { return store_->label(); }
    const std::string& rules() const { return store_->rules().name; }
    bool has(int n) const { return store_->has(n); }
    const LevelStore& store() const { return *store_; }
    /// Level n in the files' order if `file_order` (both sides of one format), else in ours.
    std::unique_ptr<LevelRuns> level(int n, bool file_order,
                                     const ConversionSettings& settings) const {
        if (store_->capture_bounded(n))
            throw std::runtime_error(store_->path(n).string() +
                                     ": capture-bounded (generate --compact); compare needs exact "
                                     "files");
        if (file_order || store_->in_our_order()) return store_->file_order(n);
        return store_->our_order(n, [&] { return conversion_options(n, settings); });
    }

  private:
    std::unique_ptr<LevelStore> store_;
};

// How compare names a difference: by the offset in the files of `offsets` (both sides of
// one format that keeps an order of its own), else by our rank.
struct IndexNames {
    const LevelStore* offsets = nullptr;
    const char* word() const { return offsets ? "offset" : "index"; }
    std::string position(int n, uint64_t index) const {
        return offsets ? offsets->position_in_file(n, index) : to_string(unrank<6>(n, index));
    }
};

// What compare_level is told besides the level.
struct CompareSettings {
    int threads = 0;
    int show = 5; // differences listed
};

struct Difference {
    uint64_t index;
    int a, b;
};

// Compares level n of both sides; prints its line and returns the number of differences.
// Indices are offsets or ranks as `names` says.
// `started`: when the level's work began (a published level's conversion included).
uint64_t compare_level(int n, const LevelRuns& a, const LevelRuns& b, const IndexNames& names,
                       const CompareSettings& settings,
                       std::chrono::steady_clock::time_point started) {
    const int threads = settings.threads, show = settings.show;
    // A whole number of either side's blocks (powers of two: the larger is a multiple).
    const uint64_t chunk = std::max(a.chunk(), b.chunk());
    const uint64_t size = level_size<6>(n);
    std::atomic<uint64_t> differ{0}, done{0};
    std::mutex first_mutex;
    std::vector<Difference> first; // the `show` smallest indices that differ
    ProgressLine line;
    ActiveClock clock; // for the ETA of this pass: pauses left out (cli/active_clock.hpp)
    std::mutex line_mutex;
    parallel::for_chunks(threads, 0, size, chunk, [&](uint64_t begin, uint64_t end) {
        thread_local std::vector<int8_t> va, vb;
        va.resize(end - begin);
        vb.resize(end - begin);
        a.read(begin, va);
        b.read(begin, vb);
        std::vector<Difference> mine;
        uint64_t count = 0;
        for (uint64_t i = 0; i < end - begin; ++i) {
            if (va[i] == vb[i]) continue;
            ++count;
            if (mine.size() < size_t(show)) mine.push_back({begin + i, va[i], vb[i]});
        }
        differ += count;
        if (!mine.empty()) {
            const std::lock_guard lock(first_mutex);
            first.insert(first.end(), mine.begin(), mine.end());
            std::sort(first.begin(), first.end(),
                      [](const Difference& x, const Difference& y) { return x.index < y.index; });
            if (first.size() > size_t(show)) first.resize(size_t(show));
        }
        const uint64_t now_done = done += end - begin;
        if (size > (uint64_t(1) << 26)) {
            const std::unique_lock lock(line_mutex, std::try_to_lock);
            if (lock.owns_lock()) {
                const double elapsed = clock.elapsed();
                char text[120];
                std::snprintf(
                    text, sizeof text, "level %2d: %3.0f%% of %llu positions | ETA %s", n,
                    100.0 * double(now_done) / double(size), (unsigned long long)size,
                    now_done * 100 < size // too early to tell
                        ? "?"
                        : format_duration(elapsed * double(size - now_done) / double(now_done))
                              .c_str());
                line.show(text);
            }
        }
    });
    line.clear();
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::printf("level %2d: %llu positions compared, %llu differ (%.1f s, %.1f M positions/s)\n", n,
                (unsigned long long)size, (unsigned long long)differ.load(), seconds,
                seconds > 0 ? double(size) / seconds / 1e6 : 0.0);
    for (const Difference& d : first)
        std::printf("  %s %llu (%s): A %d, B %d\n", names.word(), (unsigned long long)d.index,
                    names.position(n, d.index).c_str(), d.a, d.b);
    std::fflush(stdout);
    return differ.load();
}

// The work directory of this compare, owaredb-compare-PID in `parent`, removed however the
// compare ends: when it returns or throws, and when SIGINT, SIGTERM or SIGHUP ends it (a
// thread waits for StopSignals' flag, removes the directory, and lets the signal end the
// process as it would have). One that SIGKILL left is removed by the next compare that
// finds it in the same place with its process gone.
class WorkDir {
  public:
    explicit WorkDir(const std::filesystem::path& parent)
        : dir_(parent / (kPrefix + std::to_string(::getpid()))),
          signals_("owaredb compare: stopping, removing its work files"),
          watch_([this](std::stop_token stop) { watch(stop); }) {
        remove_dead(parent);
    }
    ~WorkDir() {
        watch_.request_stop();
        watch_.join();
        remove();
    }
    WorkDir(const WorkDir&) = delete;
    WorkDir& operator=(const WorkDir&) = delete;
    const std::filesystem::path& path() const { return dir_; }

  private:
    static constexpr const char* kPrefix = "owaredb-compare-";
    void remove() const {
        std::error_code ec;
        // Threads of the compare may still add a file while it goes: tried again then.
        for (int i = 0; i < 5 && std::filesystem::exists(dir_, ec); ++i)
            std::filesystem::remove_all(dir_, ec);
    }
    void watch(const std::stop_token& stop) const {
        while (!stop.stop_requested() && !StopSignals::requested())
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        if (!StopSignals::requested()) return;
        remove();
        StopSignals::end_by_signal();
    }
    // Work directories in `parent` of compares whose process is gone.
    static void remove_dead(const std::filesystem::path& parent) {
        std::error_code ec;
        for (const auto& entry : std::filesystem::directory_iterator(parent, ec)) {
            const std::string name = entry.path().filename().string();
            if (!name.starts_with(kPrefix)) continue;
            const std::string digits = name.substr(std::strlen(kPrefix));
            if (digits.empty() || digits.size() > 9 ||
                digits.find_first_not_of("0123456789") != std::string::npos)
                continue;
            const pid_t pid = pid_t(std::stol(digits));
            if (pid <= 0 || pid == ::getpid() || ::kill(pid, 0) == 0 || errno != ESRCH) continue;
            if (entry.is_symlink(ec) || !entry.is_directory(ec)) continue;
            std::filesystem::remove_all(entry.path(), ec);
        }
    }
    std::filesystem::path dir_;
    StopSignals signals_;
    std::jthread watch_;
};

} // namespace

int cmd_compare(const Args& args) {
    std::string rules, dir_a, dir_b, memory, work_dir;
    int threads = 0, max_seeds = kMaxSeeds, show = 5;
    po::options_description opts("options");
    opts.add_options()("rules", po::value(&rules),
                       "rule set of a directory of our files (default: the one it holds)")(
        "max-seeds", po::value(&max_seeds)->default_value(kMaxSeeds), "compare levels 0..N only")(
        "show", po::value(&show)->default_value(show), "differences listed per level (0..1000)")(
        "memory", po::value(&memory),
        "memory budget of putting a published level in our order, e.g. 600M or 20G (default: "
        "90 % of the available memory)")(
        "work-dir", po::value(&work_dir),
        "where a published level waits in our order, its size on disk (default: the system's "
        "temp directory)");
    add_threads_option(opts, threads);
    opts.add_options()("a", po::value(&dir_a), "directory A (the first argument)")(
        "b", po::value(&dir_b), "directory B (the second argument)");
    po::positional_options_description positional;
    positional.add("a", 1).add("b", 1);
    po::variables_map vm;
    if (!parse_args(args,
                    "usage: owaredb compare DIR_A DIR_B [--rules R] [--max-seeds N] [--show K] "
                    "[--memory SIZE] [--work-dir DIR] [--threads T]\n(each directory of owaredb "
                    "level files or of Romein & Bal's "
                    "published scores.N files; exit status 0 only when every level there is on "
                    "both sides and equal)",
                    opts, positional, vm))
        return 0;
    if (dir_a.empty() || dir_b.empty()) throw UsageError("compare needs two directories");
    if (max_seeds < 0 || max_seeds > kMaxSeeds)
        throw UsageError("--max-seeds must be 0..48, got " + std::to_string(max_seeds));
    if (show < 0 || show > 1000) throw UsageError("--show must be 0..1000");
    const Side a(dir_a, rules), b(dir_b, rules);
    if (a.rules() != b.rules())
        throw UsageError("the directories hold different rule sets: " + a.name() + " and " +
                         b.name());
    std::printf("A: %s\nB: %s\n", a.name().c_str(), b.name().c_str());
    // Two directories of one format are compared in their files' order (offset by offset).
    const bool file_order = a.store().format() == b.store().format();
    const IndexNames names{file_order && !a.store().in_our_order() ? &a.store() : nullptr};
    ConversionSettings settings;
    settings.threads = threads;
    settings.memory = resolve_memory_budget(memory, 1).bytes; // one process
    if (settings.memory == 0) settings.memory = uint64_t(1) << 30;
    if (!work_dir.empty()) require_directory(work_dir, "(create it first)");
    const WorkDir work(work_dir.empty() ? std::filesystem::temp_directory_path()
                                        : std::filesystem::path(work_dir));
    settings.work_dir = work.path();
    if (!file_order && !(a.store().in_our_order() && b.store().in_our_order()))
        std::filesystem::create_directories(settings.work_dir); // a side is converted
    int equal = 0, different = 0, one_sided = 0;
    for (int n = 0; n <= max_seeds; ++n) {
        const bool in_a = a.has(n), in_b = b.has(n);
        if (!in_a && !in_b) continue;
        if (in_a != in_b) {
            std::printf("level %2d: only in %s\n", n, in_a ? "A" : "B");
            ++one_sided;
            continue;
        }
        const auto started = std::chrono::steady_clock::now();
        const auto level_a = a.level(n, file_order, settings);
        const auto level_b = b.level(n, file_order, settings);
        ProgressLine().clear(); // the conversion's line
        (compare_level(n, *level_a, *level_b, names, {threads, show}, started) == 0 ? equal
                                                                                    : different)++;
    }
    const bool same = different == 0 && one_sided == 0 && equal > 0;
    std::printf("compare: %s (%d levels equal, %d differ, %d on one side only)\n",
                same ? "EQUAL" : "DIFFERENT", equal, different, one_sided);
    return same ? 0 : 1;
}

} // namespace owaredb::cli
