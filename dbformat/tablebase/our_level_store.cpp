// owaredb's level files as a LevelStore (level_store.hpp).
#include "tablebase/bounds_dir.hpp"
#include "tablebase/database_dir.hpp"
#include "tablebase/level_store_formats.hpp"
#include "tablebase/streamed_files.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace owaredb {

namespace {

// A level file read through a db::LevelReader (kept between tries while the file is as it
// found it: a failure is looked at again for one stat()).
class OurSource final : public LevelSource {
  public:
    OurSource(const LevelDir& dir, int n, std::shared_ptr<db::BlockCache> cache)
        : reader_(dir.path(n), options(dir, n, std::move(cache))) {}
    db::Status open() const override { return reader_.open(); }
    bool stale() const override { return reader_.file_changed(); }
    db::Status read(std::span<const uint64_t> indices, std::span<int8_t> out) const override {
        for (std::size_t i = 0; i < indices.size(); ++i) {
            db::Result<int8_t> v = reader_.value(indices[i]);
            if (!v.ok()) return v.status();
            out[i] = *v;
        }
        return {};
    }
    bool capture_bounded() const override {
        db::Result<db::LevelInfo> info = reader_.info();
        return info.ok() && info->meta.capture_bounded;
    }
    const db::LevelReader* level_reader() const override { return &reader_; }

  private:
    static db::ReaderOptions options(const LevelDir& dir, int n,
                                     std::shared_ptr<db::BlockCache> cache) {
        db::ReaderOptions o;
        o.cache = std::move(cache);
        o.expect = dir.expectation(n);
        return o;
    }
    db::LevelReader reader_;
};

// A level decoded a block at a time in order, bypassing the cache.
class OurRuns final : public LevelRuns {
  public:
    OurRuns(const LevelDir& dir, int n) : reader_(dir.path(n), options(dir, n)) {
        db::Result<db::LevelInfo> info = reader_.info();
        if (!info.ok()) throw std::runtime_error(info.status().message());
        entries_ = info->meta.entries;
        block_entries_ = info->block_entries;
    }
    uint64_t size() const override { return entries_; }
    uint64_t chunk() const override { return std::max<uint64_t>(block_entries_, 1 << 16); }
    void read(uint64_t begin, std::span<int8_t> out) const override {
        thread_local std::vector<uint64_t> indices;
        indices.resize(out.size());
        std::iota(indices.begin(), indices.end(), begin);
        db::SortedCursor cursor; // a run is read in order: one block decoded at a time
        if (db::Status s = reader_.read_sorted(indices, out, cursor); !s.ok())
            throw std::runtime_error(s.message());
    }

  private:
    static db::ReaderOptions options(const LevelDir& dir, int n) {
        db::ReaderOptions o;
        o.cache_bytes = 0;
        o.expect = dir.expectation(n);
        return o;
    }
    db::LevelReader reader_;
    uint64_t entries_ = 0, block_entries_ = 0;
};

class OurLevelStore final : public LevelStore {
  public:
    OurLevelStore(const std::filesystem::path& dir, const Rules& rules, int pits, int threads)
        : db_(dir, rules, false, pits), bounds_(dir, rules, pits), threads_(threads) {}
    std::string_view format() const override { return "owaredb"; }
    const std::filesystem::path& dir() const override { return db_.dir(); }
    const Rules& rules() const override { return db_.rules(); }
    int pits() const override { return db_.pits(); }
    std::string files_words() const override { return "owaredb level files"; }
    std::string values_words() const override { return "owaredb values"; }
    std::string label() const override {
        return db_.dir().string() + " (" + db_.rules().name + "-NN.owdb)";
    }
    std::filesystem::path path(int n) const override { return db_.path(n); }
    db::Status load(int n, ValueArray& out, const std::vector<ValueArray>& smaller) const override {
        return db_.load(n, out, threads_, smaller);
    }
    std::unique_ptr<SmallerLevelValues> streamed(int n) const override {
        return std::make_unique<FileSmallerLevels>(db_, n, threads_, true); // and level n
    }
    db::Histogram histogram(int n) const override {
        db::Result<db::Histogram> h = reader(n).histogram(threads_);
        if (!h.ok()) throw std::runtime_error(h.status().message());
        return *h;
    }
    bool capture_bounded(int n) const override {
        if (!has(n)) return false;
        db::Result<db::LevelInfo> info = reader(n).info();
        if (!info.ok()) throw std::runtime_error(info.status().message());
        return info->meta.capture_bounded;
    }
    db::VerifyReport check(int n) const override { return db_.verify(n, threads_); }
    std::string check_summary(std::size_t intact, std::size_t damaged) const override {
        return "checksums: " + std::to_string(intact) + " level files intact, " +
               std::to_string(damaged) + " damaged";
    }
    std::string no_levels_message() const override {
        return "no " + db_.rules().name + " level files in '" + db_.dir().string() + "'";
    }
    std::string where(int, uint64_t) const override { return {}; }
    std::unique_ptr<LevelRuns> file_order(int n) const override {
        return std::make_unique<OurRuns>(db_, n);
    }
    std::unique_ptr<LevelSource> source(StoredKind kind, int n,
                                        std::shared_ptr<db::BlockCache> cache) const override {
        const LevelDir& dir = kind == StoredKind::Values ? static_cast<const LevelDir&>(db_)
                                                         : static_cast<const LevelDir&>(bounds_);
        return std::make_unique<OurSource>(dir, n, std::move(cache));
    }

  private:
    db::LevelReader reader(int n) const {
        db::ReaderOptions options;
        options.expect = db_.expectation(n);
        return db::LevelReader(db_.path(n), options);
    }
    DatabaseDir db_;
    BoundsDir bounds_;
    int threads_;
};

std::optional<std::string> our_files_found(const std::filesystem::path& dir) {
    const std::vector<std::string> rule_sets = rule_sets_in(dir);
    if (rule_sets.empty()) return std::nullopt;
    return "owaredb level files (" + rule_sets.front() + "-NN.owdb)";
}

std::unique_ptr<LevelStore> open_our_store(const std::filesystem::path& dir, const Rules& rules,
                                           int pits, int threads) {
    return std::make_unique<OurLevelStore>(dir, rules, pits, threads);
}

} // namespace

const StoreFormat kOurFormat{"owaredb", our_files_found, open_our_store};

} // namespace owaredb
