#include "stored_levels.hpp"

#include "cli/command.hpp"
#include "dbformat/raw_level.hpp"
#include "oware/ranking.hpp"
#include "tablebase/streamed_files.hpp"

#include <stdexcept>

namespace owaredb::cli {

namespace {

class OurLevels final : public StoredLevels {
  public:
    OurLevels(const DatabaseDir& db, int threads) : db_(db), threads_(threads) {}
    const Rules& rules() const override { return db_.rules(); }
    int pits() const override { return db_.pits(); }
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
    std::string where(int, uint64_t) const override { return {}; }

  private:
    db::LevelReader reader(int n) const {
        db::ReaderOptions options;
        options.expect = db::Expectation::exactly(db_.meta(n));
        return db::LevelReader(db_.path(n), options);
    }
    const DatabaseDir& db_;
    int threads_;
};

class PublishedLevelFiles final : public StoredLevels {
  public:
    PublishedLevelFiles(const PublishedDir& dir, int threads)
        : dir_(dir), rules_(Rules::awari()), threads_(threads) {}
    const Rules& rules() const override { return rules_; }
    int pits() const override { return 6; } // their files are of the standard board
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
    bool capture_bounded(int) const override { return false; } // their format has no such kind
    std::string where(int n, uint64_t index) const override {
        return ", offset " + std::to_string(published_rank(unrank<6>(n, index))) + " of " +
               dir_.path(n).string();
    }

  private:
    const PublishedDir& dir_;
    Rules rules_;
    int threads_;
};

} // namespace

std::string position_text(int pits, int n, uint64_t index) {
    return with_pits_per_side(
        pits, [&](auto p) { return to_string(unrank<decltype(p)::value>(n, index)); });
}

void require_published_board(const std::string& dir, int pits) {
    if (pits != 6)
        throw UsageError("directory '" + dir +
                         "' holds Romein & Bal's published files, which are of the board of 6 "
                         "pits a side, not " +
                         std::to_string(pits));
}

std::unique_ptr<StoredLevels> our_stored_levels(const DatabaseDir& db, int threads) {
    return std::make_unique<OurLevels>(db, threads);
}

std::unique_ptr<StoredLevels> published_stored_levels(const PublishedDir& dir, int threads) {
    return std::make_unique<PublishedLevelFiles>(dir, threads);
}

} // namespace owaredb::cli
