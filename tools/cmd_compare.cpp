// owaredb compare DIR_A DIR_B: two database directories, each of our level files or of
// Romein & Bal's published files (scores.N), compared level by level, value by value in
// our rank order. Levels there on one side only are reported (and make the directories
// differ); within a level, the count of differing positions and the first few, with both
// values. Memory: a chunk of each side per thread, whatever the level's size: our files
// are decoded a block at a time in order, the published ones read at their permuted
// offsets from the memory-mapped file.
#include "cli/options.hpp"
#include "commands.hpp"
#include "database_options.hpp"
#include "oware/ranking.hpp"
#include "progress_line.hpp"
#include "retro/parallel.hpp"
#include "tablebase/database_dir.hpp"
#include "tablebase/published_dir.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <mutex>
#include <numeric>
#include <optional>

namespace owaredb::cli {

namespace {

// One level of one side, read a run of our rank order at a time. Thread-safe.
class LevelSide {
  public:
    virtual ~LevelSide() = default;
    /// out[i] = the value of position begin + i (our rank) of the level; throws
    /// std::runtime_error naming the file and what is wrong.
    virtual void read(uint64_t begin, std::span<int8_t> out) const = 0;
    /// Positions a chunk should hold so that a read decodes each block once.
    virtual uint64_t chunk() const { return uint64_t(1) << 16; }
};

class OurLevel final : public LevelSide {
  public:
    OurLevel(const DatabaseDir& db, int n) : reader_(db.path(n), options(db, n)) {
        db::Result<db::LevelInfo> info = reader_.info();
        if (!info.ok()) throw std::runtime_error(info.status().message());
        if (info->meta.capture_bounded)
            throw std::runtime_error(db.path(n).string() +
                                     ": capture-bounded (generate --compact); compare needs exact "
                                     "files");
        block_entries_ = info->block_entries;
    }
    uint64_t chunk() const override { return std::max<uint64_t>(block_entries_, 1 << 16); }
    void read(uint64_t begin, std::span<int8_t> out) const override {
        thread_local std::vector<uint64_t> indices;
        indices.resize(out.size());
        std::iota(indices.begin(), indices.end(), begin);
        db::SortedCursor cursor; // a chunk is read in order: one block decoded at a time
        if (db::Status s = reader_.read_sorted(indices, out, cursor); !s.ok())
            throw std::runtime_error(s.message());
    }

  private:
    static db::ReaderOptions options(const DatabaseDir& db, int n) {
        db::ReaderOptions o;
        o.cache_bytes = 0;
        o.expect = db.expectation(n);
        return o;
    }
    db::LevelReader reader_;
    uint64_t block_entries_ = 0;
};

class PublishedLevel final : public LevelSide {
  public:
    PublishedLevel(const PublishedDir& dir, int n) : n_(n), file_(open(dir, n)) {}
    void read(uint64_t begin, std::span<int8_t> out) const override {
        thread_local std::vector<uint64_t> offsets;
        offsets.resize(out.size());
        Position p = unrank(n_, begin);
        for (size_t i = 0; i < out.size(); ++i) {
            offsets[i] = published_rank(p);
            if (i + 1 < out.size()) p = next_in_level(p);
        }
        if (db::Status s = file_.read_at(offsets, out); !s.ok())
            throw std::runtime_error(s.message());
    }

  private:
    static db::RawLevelFile open(const PublishedDir& dir, int n) {
        db::Result<db::RawLevelFile> f = dir.open(n);
        if (!f.ok()) throw std::runtime_error(f.status().message());
        return std::move(*f);
    }
    int n_;
    db::RawLevelFile file_;
};

// A directory of either kind: which levels it has, and a reader of one.
class Side {
  public:
    Side(const std::string& dir, const std::string& rules) {
        require_directory(dir);
        const DatabaseOptions options{dir, rules};
        if (directory_format(options) == DirectoryFormat::Published) {
            published_.emplace(dir);
            name_ = dir + " (published scores.N, awari)";
            rules_ = "awari";
        } else {
            ours_.emplace(dir, resolve_rules(options));
            rules_ = ours_->rules().name;
            name_ = dir + " (" + rules_ + "-NN.owdb)";
        }
    }
    const std::string& name() const { return name_; }
    const std::string& rules() const { return rules_; }
    bool has(int n) const {
        return std::filesystem::exists(published_ ? published_->path(n) : ours_->path(n));
    }
    std::unique_ptr<LevelSide> level(int n) const {
        if (published_) return std::make_unique<PublishedLevel>(*published_, n);
        return std::make_unique<OurLevel>(*ours_, n);
    }

  private:
    std::optional<PublishedDir> published_;
    std::optional<DatabaseDir> ours_;
    std::string name_, rules_;
};

struct Difference {
    uint64_t index;
    int a, b;
};

// Compares level n of both sides; prints its line and returns the number of differences.
uint64_t compare_level(int n, const LevelSide& a, const LevelSide& b, int threads, int show) {
    // A whole number of either side's blocks (powers of two: the larger is a multiple).
    const uint64_t chunk = std::max(a.chunk(), b.chunk());
    const uint64_t size = level_size(n);
    const auto started = std::chrono::steady_clock::now();
    std::atomic<uint64_t> differ{0}, done{0};
    std::mutex first_mutex;
    std::vector<Difference> first; // the `show` smallest indices that differ
    ProgressLine line;
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
                const double elapsed =
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - started)
                        .count();
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
        std::printf("  index %llu (%s): A %d, B %d\n", (unsigned long long)d.index,
                    to_string(unrank(n, d.index)).c_str(), d.a, d.b);
    std::fflush(stdout);
    return differ.load();
}

} // namespace

int cmd_compare(const Args& args) {
    std::string rules, dir_a, dir_b;
    int threads = 0, max_seeds = kMaxSeeds, show = 5;
    po::options_description opts("options");
    opts.add_options()("rules", po::value(&rules),
                       "rule set of a directory of our files (default: the one it holds)")(
        "max-seeds", po::value(&max_seeds)->default_value(kMaxSeeds), "compare levels 0..N only")(
        "show", po::value(&show)->default_value(show), "differences listed per level (0..1000)");
    add_threads_option(opts, threads);
    opts.add_options()("a", po::value(&dir_a), "directory A (the first argument)")(
        "b", po::value(&dir_b), "directory B (the second argument)");
    po::positional_options_description positional;
    positional.add("a", 1).add("b", 1);
    po::variables_map vm;
    if (!parse_args(args,
                    "usage: owaredb compare DIR_A DIR_B [--rules R] [--max-seeds N] [--show K] "
                    "[--threads T]\n(each directory of owaredb level files or of Romein & Bal's "
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
    int equal = 0, different = 0, one_sided = 0;
    for (int n = 0; n <= max_seeds; ++n) {
        const bool in_a = a.has(n), in_b = b.has(n);
        if (!in_a && !in_b) continue;
        if (in_a != in_b) {
            std::printf("level %2d: only in %s\n", n, in_a ? "A" : "B");
            ++one_sided;
            continue;
        }
        const auto level_a = a.level(n);
        const auto level_b = b.level(n);
        (compare_level(n, *level_a, *level_b, threads, show) == 0 ? equal : different)++;
    }
    const bool same = different == 0 && one_sided == 0 && equal > 0;
    std::printf("compare: %s (%d levels equal, %d differ, %d on one side only)\n",
                same ? "EQUAL" : "DIFFERENT", equal, different, one_sided);
    return same ? 0 : 1;
}

} // namespace owaredb::cli
