// One storage interface (tablebase/level_store.hpp): the format of a directory found from
// its files, a directory of two formats refused, and both formats answering alike for the
// same levels (ours saved by DatabaseDir, theirs by PublishedDir, from one solve).
#include "oware/oware_game.hpp"
#include "oware/ranking.hpp"
#include "retro/solve_in_memory.hpp"
#include "tablebase/database_dir.hpp"
#include "tablebase/level_store.hpp"
#include "tablebase/published_dir.hpp"
#include "temp_dir.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <numeric>

using namespace owaredb;
using owaredb::test::TempDir;

namespace {

constexpr int kTop = 8; // levels 0..8 of awari: small, and with captures between levels

const std::vector<ValueArray>& awari_levels() {
    static const std::vector<ValueArray> levels =
        solve_in_memory(OwareGame(Rules::awari()), kTop, 2);
    return levels;
}

// The store of `dir` for awari on the standard board; fails the test if it does not open.
std::unique_ptr<LevelStore> store_of(const std::filesystem::path& dir) {
    db::Result<std::unique_ptr<LevelStore>> store = open_level_store(dir, Rules::awari(), 6, 2);
    REQUIRE_MESSAGE(store.ok(), store.status().message());
    return std::move(store).value();
}

std::vector<int8_t> values_of(const ValueArray& a) {
    return {a.data(), a.data() + a.size()};
}

void save_ours(const std::filesystem::path& dir) {
    const DatabaseDir db(dir, Rules::awari(), false, 6);
    for (int n = 0; n <= kTop; ++n) db.save(n, awari_levels()[size_t(n)], 2, awari_levels());
}

void save_published(const std::filesystem::path& dir) {
    const PublishedDir published(dir);
    for (int n = 0; n <= kTop; ++n) published.save(n, awari_levels()[size_t(n)], 2);
}

} // namespace

TEST_CASE("level store: the format is the one whose files the directory holds") {
    TempDir empty, ours, theirs;
    save_ours(ours.path());
    save_published(theirs.path());
    CHECK(formats_in(empty.path()).empty());
    CHECK(store_of(empty.path())->format() == "owaredb"); // where generate writes
    CHECK(store_of(empty.path())->levels().empty());
    CHECK(formats_in(ours.path()) == std::vector<std::string_view>{"owaredb"});
    CHECK(store_of(ours.path())->format() == "owaredb");
    CHECK(store_of(ours.path())->label() == ours.path().string() + " (awari-NN.owdb)");
    CHECK(formats_in(theirs.path()) == std::vector<std::string_view>{"published"});
    const std::unique_ptr<LevelStore> published = store_of(theirs.path());
    CHECK(published->format() == "published");
    CHECK(published->only_rules() == std::optional<std::string>("awari"));
    CHECK(published->only_pits() == std::optional<int>(6));
    CHECK(published->path(3) == theirs.path() / "scores.3");
    std::vector<int> all(kTop + 1);
    std::iota(all.begin(), all.end(), 0);
    CHECK(published->levels() == all);
    CHECK(store_of(ours.path())->levels() == all);
    CHECK(published->where(4, 7) == ", offset " + std::to_string(published_rank(unrank<6>(4, 7))) +
                                        " of " + (theirs.path() / "scores.4").string());
    CHECK(store_of(ours.path())->where(4, 7).empty());
}

TEST_CASE("level store: a directory of both formats is refused, naming a file of each") {
    TempDir dir;
    save_ours(dir.path());
    PublishedDir(dir.path()).save(2, awari_levels()[2], 2);
    CHECK(formats_in(dir.path()) == std::vector<std::string_view>{"published", "owaredb"});
    db::Result<std::unique_ptr<LevelStore>> store =
        open_level_store(dir.path(), Rules::awari(), 6, 2);
    REQUIRE_FALSE(store.ok());
    CHECK(store.status().code() == db::ErrorCode::Corrupt);
    CHECK(store.status().message() ==
          "directory '" + dir.path().string() +
              "' holds both Romein & Bal's published files (scores.2, ...) and owaredb level "
              "files (awari-NN.owdb): give each kind a directory of its own");
}

TEST_CASE("level store: both formats give the same values of the same levels") {
    TempDir ours_dir, theirs_dir;
    save_ours(ours_dir.path());
    save_published(theirs_dir.path());
    const std::unique_ptr<LevelStore> ours = store_of(ours_dir.path());
    const std::unique_ptr<LevelStore> theirs = store_of(theirs_dir.path());
    for (int n = 0; n <= kTop; ++n) {
        CAPTURE(n);
        const ValueArray& expected = awari_levels()[size_t(n)];
        ValueArray a, b;
        REQUIRE(ours->load(n, a, {}).ok());
        REQUIRE(theirs->load(n, b, {}).ok());
        CHECK(values_of(a) == values_of(expected));
        CHECK(values_of(b) == values_of(expected));
        CHECK(ours->histogram(n).counts == theirs->histogram(n).counts);
        CHECK_FALSE(ours->capture_bounded(n));
        CHECK_FALSE(theirs->capture_bounded(n));
        // Every rank read by rank, as the streamed checks ask (level n and those below).
        std::vector<uint64_t> ranks(expected.size());
        std::iota(ranks.begin(), ranks.end(), 0);
        std::vector<int8_t> va(ranks.size()), vb(ranks.size());
        ours->streamed(n)->read(n, ranks, va);
        theirs->streamed(n)->read(n, ranks, vb);
        CHECK(va == values_of(expected));
        CHECK(vb == va);
    }
}

TEST_CASE("level store: sources read the same entries, together or one by one") {
    TempDir ours_dir, theirs_dir;
    save_ours(ours_dir.path());
    save_published(theirs_dir.path());
    const auto cache = std::make_shared<db::BlockCache>(std::size_t(1) << 20);
    const std::unique_ptr<LevelStore> ours = store_of(ours_dir.path());
    const std::unique_ptr<LevelStore> theirs = store_of(theirs_dir.path());
    std::vector<std::unique_ptr<LevelSource>> sources;
    for (int n = 0; n <= kTop; ++n) {
        sources.push_back(ours->source(StoredKind::Values, n, cache));
        sources.push_back(theirs->source(StoredKind::Values, n, cache));
        REQUIRE(sources[sources.size() - 2]->open().ok());
        REQUIRE(sources.back()->open().ok());
        // An open file of either format is kept while it is the file at its path.
        CHECK_FALSE(sources.back()->stale());
        CHECK_FALSE(sources[sources.size() - 2]->stale());
    }
    // Queries of both formats mixed in one batch: each the value of its level.
    std::vector<EntryQuery> queries;
    std::vector<int8_t> expected;
    for (int n = kTop; n >= 0 && queries.size() < kMaxEntryQueries; --n)
        for (int side = 0; side < 2; ++side) {
            const uint64_t at = level_size<6>(n) / 3;
            queries.push_back({sources[size_t(2 * n + side)].get(), at});
            expected.push_back(awari_levels()[size_t(n)][at]);
        }
    std::vector<int8_t> values(queries.size());
    db::Status error;
    CHECK(read_entries(queries, values, error) == queries.size());
    CHECK(values == expected);
    // A query past a level's end fails there, of either format (3: published, 4: ours);
    // those before it are read.
    for (std::size_t bad : {std::size_t(4), std::size_t(3)}) {
        CAPTURE(bad);
        const uint64_t index = queries[bad].index;
        queries[bad].index = level_size<6>(kTop - int(bad) / 2) + 5;
        error = {};
        CHECK(read_entries(queries, values, error) == bad);
        CHECK(error.code() == db::ErrorCode::OutOfRange);
        CHECK(std::vector<int8_t>(values.begin(), values.begin() + std::ptrdiff_t(bad)) ==
              std::vector<int8_t>(expected.begin(), expected.begin() + std::ptrdiff_t(bad)));
        queries[bad].index = index;
    }
    // A file replaced (a repair by mv) makes its open source stale, of either format.
    for (int side = 0; side < 2; ++side) {
        const LevelSource& source = *sources[size_t(2 * kTop + side)];
        const std::filesystem::path file = (side == 0 ? ours : theirs)->path(kTop),
                                    copy = file.string() + ".copy";
        std::filesystem::copy_file(file, copy);
        std::filesystem::rename(copy, file);
        CHECK(source.stale());
    }
}

TEST_CASE("level store: what Romein & Bal's files cannot hold is refused by their sources") {
    TempDir dir;
    save_published(dir.path());
    const auto cache = std::make_shared<db::BlockCache>(std::size_t(1) << 20);
    const std::string only = "': it holds Romein & Bal's published awari values only";
    db::Result<std::unique_ptr<LevelStore>> abapa =
        open_level_store(dir.path(), Rules::abapa(), 6, 2);
    REQUIRE(abapa.ok());
    db::Status s = (*abapa)->source(StoredKind::Values, 3, cache)->open();
    CHECK(s.code() == db::ErrorCode::NotFound);
    CHECK(s.message() == "no abapa level files in '" + dir.path().string() + only);
    s = store_of(dir.path())->source(StoredKind::Bounds, 3, cache)->open();
    CHECK(s.message() == "no bound files in '" + dir.path().string() + only);
    db::Result<std::unique_ptr<LevelStore>> four =
        open_level_store(dir.path(), Rules::awari(), 4, 2);
    REQUIRE(four.ok());
    CHECK((*four)->source(StoredKind::Values, 3, cache)->open().code() == db::ErrorCode::NotFound);
    // A missing level of theirs: the file's own error.
    CHECK(store_of(dir.path())->source(StoredKind::Values, kTop + 1, cache)->open().code() ==
          db::ErrorCode::NotFound);
}
