// Romein & Bal's published files as a LevelStore (level_store.hpp): awari values of the
// standard board only, in their order, with no header, no checksum and no bounds.
#include "dbformat/file_io.hpp"
#include "dbformat/raw_level.hpp"
#include "oware/ranking.hpp"
#include "tablebase/level_store_formats.hpp"
#include "tablebase/published_dir.hpp"

#include <array>
#include <mutex>
#include <stdexcept>

namespace owaredb {

namespace {

// "scores.N", memory-mapped when it opens; a failed one is opened anew on the next try
// (stale(): opening costs no more than looking), an open one once the file at its path is
// not the one it mapped.
class PublishedSource final : public LevelSource {
  public:
    PublishedSource(const std::filesystem::path& dir, int n) : dir_(dir), n_(n) {}
    db::Status open() const override {
        std::call_once(once_, [&] {
            stamp_ = db::detail::file_stamp(dir_.path(n_)); // before: a change after is seen
            db::Result<db::RawLevelFile> f = dir_.open(n_);
            if (f.ok())
                file_.emplace(std::move(f).value());
            else
                failure_ = f.status();
        });
        return failure_;
    }
    bool stale() const override {
        return !file_ || db::detail::file_stamp(dir_.path(n_)) != stamp_;
    }
    db::Status read(std::span<const uint64_t> indices, std::span<int8_t> out) const override {
        std::array<uint64_t, 256> offsets;
        for (std::size_t i = 0; i < indices.size(); i += offsets.size()) {
            const std::size_t count = std::min(offsets.size(), indices.size() - i);
            for (std::size_t k = 0; k < count; ++k) {
                if (indices[i + k] >= file_->entries())
                    return db::Status(db::ErrorCode::OutOfRange,
                                      file_->path().string() + ": index " +
                                          std::to_string(indices[i + k]) +
                                          " >= " + std::to_string(file_->entries()));
                offsets[k] = published_rank(unrank<6>(n_, indices[i + k]));
            }
            if (db::Status s =
                    file_->read_at(std::span(offsets).first(count), out.subspan(i, count));
                !s.ok())
                return s;
        }
        return {};
    }
    bool capture_bounded() const override { return false; } // their format has no such kind

  private:
    PublishedDir dir_;
    int n_;
    mutable std::once_flag once_;
    mutable std::optional<db::RawLevelFile> file_;
    mutable db::Status failure_;
    mutable db::detail::FileStamp stamp_;
};

// A level at the offsets of their file.
class PublishedRuns final : public LevelRuns {
  public:
    PublishedRuns(const PublishedDir& dir, int n) : file_(open(dir, n)), values_(file_) {}
    uint64_t size() const override { return values_.size(); }
    void read(uint64_t begin, std::span<int8_t> out) const override { values_.read(begin, out); }

  private:
    static db::RawLevelFile open(const PublishedDir& dir, int n) {
        db::Result<db::RawLevelFile> f = dir.open(n);
        if (!f.ok()) throw std::runtime_error(f.status().message());
        return std::move(*f);
    }
    db::RawLevelFile file_;
    PublishedFileValues values_;
};

// A level put in our order out of core; the work files go with it.
class ConvertedRuns final : public LevelRuns {
  public:
    ConvertedRuns(const PublishedDir& dir, int n, const std::function<ConversionOptions()>& options)
        : file_(dir, n), level_(n, OrderDirection::to_ours, file_, options()) {}
    ~ConvertedRuns() override { level_.remove_work_files(); }
    uint64_t size() const override { return level_.size(); }
    void read(uint64_t begin, std::span<int8_t> out) const override { level_.read(begin, out); }

  private:
    PublishedRuns file_;
    ConvertedLevel level_;
};

class PublishedLevelStore final : public LevelStore {
  public:
    PublishedLevelStore(const std::filesystem::path& dir, const Rules& rules, int pits, int threads)
        : dir_(dir), rules_(rules), pits_(pits), threads_(threads) {}
    std::string_view format() const override { return "published"; }
    const std::filesystem::path& dir() const override { return dir_.dir(); }
    const Rules& rules() const override { return rules_; }
    int pits() const override { return pits_; }
    std::optional<std::string> only_rules() const override { return "awari"; }
    std::optional<int> only_pits() const override { return 6; }
    std::string files_words() const override { return "Romein & Bal's published files"; }
    bool built_by_generate() const override { return false; }
    std::string values_words() const override { return "Romein & Bal's published values"; }
    bool stores_bounds() const override { return false; }
    std::string label() const override {
        return dir_.dir().string() + " (published scores.N, awari)";
    }
    std::filesystem::path path(int n) const override { return dir_.path(n); }
    db::Status load(int n, ValueArray& out, const std::vector<ValueArray>&) const override {
        return dir_.load(n, out, threads_);
    }
    std::unique_ptr<SmallerLevelValues> streamed(int n) const override {
        return std::make_unique<PublishedLevels>(dir_, n, true); // and level n
    }
    db::Histogram histogram(int n) const override {
        db::Result<db::RawLevelFile> file = dir_.open(n);
        if (!file.ok()) throw std::runtime_error(file.status().message());
        db::Result<db::Histogram> h = file->histogram(threads_);
        if (!h.ok()) throw std::runtime_error(h.status().message());
        return *h;
    }
    bool capture_bounded(int) const override { return false; }
    db::VerifyReport check(int n) const override {
        db::VerifyReport r;
        if (db::Result<db::RawLevelFile> file = dir_.open(n); !file.ok()) r.status = file.status();
        return r;
    }
    std::string check_summary(std::size_t intact, std::size_t damaged) const override {
        return "published files (Romein & Bal's scores.N, awari; no checksums in that format): " +
               std::to_string(intact) + " of the right size, " + std::to_string(damaged) + " not";
    }
    std::string no_levels_message() const override {
        return "no published files (scores.N) in '" + dir_.dir().string() + "'";
    }
    std::string where(int n, uint64_t index) const override {
        return ", offset " + std::to_string(published_rank(unrank<6>(n, index))) + " of " +
               dir_.path(n).string();
    }
    bool in_our_order() const override { return false; }
    std::unique_ptr<LevelRuns> file_order(int n) const override {
        return std::make_unique<PublishedRuns>(dir_, n);
    }
    std::unique_ptr<LevelRuns>
    our_order(int n, const std::function<ConversionOptions()>& options) const override {
        return std::make_unique<ConvertedRuns>(dir_, n, options);
    }
    std::string position_in_file(int n, uint64_t offset) const override {
        return to_string(published_unrank(n, offset));
    }
    std::unique_ptr<LevelSource> source(StoredKind kind, int n,
                                        std::shared_ptr<db::BlockCache>) const override {
        if (pits_ != 6 || kind == StoredKind::Bounds || rules_.name != "awari")
            return std::make_unique<RefusedSource>(
                db::Status(db::ErrorCode::NotFound,
                           std::string(kind == StoredKind::Bounds
                                           ? "no bound files in '"
                                           : "no " + rules_.name + " level files in '") +
                               dir_.dir().string() +
                               "': it holds Romein & Bal's published awari values only"));
        return std::make_unique<PublishedSource>(dir_.dir(), n);
    }

  private:
    PublishedDir dir_;
    Rules rules_;
    int pits_;
    int threads_;
};

std::optional<std::string> published_files_found(const std::filesystem::path& dir) {
    const std::vector<int> levels = PublishedDir::levels_in(dir);
    if (levels.empty()) return std::nullopt;
    return "Romein & Bal's published files (scores." + std::to_string(levels.front()) + ", ...)";
}

std::unique_ptr<LevelStore> open_published_store(const std::filesystem::path& dir,
                                                 const Rules& rules, int pits, int threads) {
    return std::make_unique<PublishedLevelStore>(dir, rules, pits, threads);
}

} // namespace

const StoreFormat kPublishedFormat{"published", published_files_found, open_published_store};

} // namespace owaredb
