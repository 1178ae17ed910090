// Levels moved between our order and Romein & Bal's out of core
// (tablebase/order_conversion.hpp, tablebase/published_layout.hpp). The result is checked
// against the rank functions of oware/ranking.hpp, which compute each order on their own:
// value v at our rank r must land at published_rank(unrank<6>(n, r)), for every position.
// Budgets from the least up to a whole level exercise the banded and whole transposes.
#include "oware/ranking.hpp"
#include "quick.hpp"
#include "tablebase/order_conversion.hpp"
#include "tablebase/published_layout.hpp"
#include "temp_dir.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <stdexcept>

using namespace owaredb;
using owaredb::test::TempDir;

namespace {

// A value in -n..n drawn from the position, so that a misplaced value is wrong with
// probability 2n / (2n + 1) (and always for positions whose values differ).
int8_t value_of(int n, uint64_t key) {
    if (n == 0) return 0;
    const uint64_t h = (key + 1) * 0x9E3779B97F4A7C15ull;
    return int8_t(int64_t((h >> 33) % uint64_t(2 * n + 1)) - n);
}

// Level n in our order, each position valued by its index in their order.
std::vector<int8_t> ours_by_published_key(int n) {
    std::vector<int8_t> v(level_size<6>(n));
    Position p = unrank<6>(n, 0);
    for (uint64_t r = 0; r < v.size(); ++r) {
        v[r] = value_of(n, published_rank(p));
        if (r + 1 < v.size()) p = next_in_level(p);
    }
    return v;
}

std::vector<int8_t> read_whole(const db::ValueSource& src, uint64_t piece) {
    std::vector<int8_t> out(src.size());
    for (uint64_t b = 0; b < out.size(); b += piece)
        src.read(b, std::span(out).subspan(b, std::min<uint64_t>(piece, out.size() - b)));
    return out;
}

// A source that must not be read (a resumed pass 1).
class Untouchable final : public db::ValueSource {
  public:
    explicit Untouchable(uint64_t size) : size_(size) {}
    uint64_t size() const override { return size_; }
    void read(uint64_t, std::span<int8_t>) const override {
        throw std::logic_error("the source was read again");
    }

  private:
    uint64_t size_;
};

} // namespace

TEST_CASE("published layout: the matrices cover the level and the permutations are bijections") {
    for (int n = 0; n <= 30; ++n) {
        CAPTURE(n);
        const PublishedLayout l(n);
        uint64_t total = 0, rows = 0, columns = 0;
        for (int s = 0; s <= n; ++s) {
            total += l.matrix_size(s);
            for (auto perm : {l.row_to_theirs(s), l.column_to_theirs(s)}) {
                std::vector<bool> seen(perm.size());
                bool bijection = true;
                for (uint32_t k : perm) {
                    bijection = bijection && k < perm.size() && !seen[k];
                    if (bijection) seen[k] = true;
                }
                CHECK(bijection);
            }
        }
        for (uint8_t s : l.our_rows()) rows += l.columns(s);
        for (uint8_t s : l.their_columns()) columns += l.rows(s);
        CHECK(total == level_size<6>(n));
        CHECK(rows == level_size<6>(n));
        CHECK(columns == level_size<6>(n));
        CHECK(l.memory_bytes() == PublishedLayout::memory_bytes(n));
    }
}

TEST_CASE("published layout: our rows and their columns follow the rank functions") {
    // Level 9 position by position: our order is rows of C_s values, each row one south
    // half; their order is columns of R_s values, each column one north half.
    const int n = 9;
    const PublishedLayout l(n);
    auto south = [](const Position& p) {
        return p.pits[0] + p.pits[1] + p.pits[2] + p.pits[3] + p.pits[4] + p.pits[5];
    };
    uint64_t r = 0, wrong = 0;
    for (uint8_t s : l.our_rows())
        for (uint64_t j = 0; j < l.columns(s); ++j, ++r) wrong += south(unrank<6>(n, r)) != s;
    CHECK(r == level_size<6>(n));
    CHECK(wrong == 0);
    uint64_t k = 0;
    for (uint8_t s : l.their_columns())
        for (uint64_t i = 0; i < l.rows(s); ++i, ++k) wrong += south(published_unrank(n, k)) != s;
    CHECK(k == level_size<6>(n));
    CHECK(wrong == 0);
}

TEST_CASE("order conversion: every position lands at its published offset, and back") {
    const int top = test::quick() ? 11 : 15;
    for (int n = 0; n <= top; ++n) {
        CAPTURE(n);
        const std::vector<int8_t> ours = ours_by_published_key(n);
        // Bands of one run (the least), of a few, and whole matrices. Each budget on
        // every level would spend the test's time in fsync: the narrow ones on some.
        std::vector<uint64_t> bands = {0};
        if (n % 4 == 3) bands = {1, 1 + level_size<6>(n) / 40, 0};
        if (n == top) bands = {1 + level_size<6>(n) / 40, 0};
        for (uint64_t band : bands) {
            CAPTURE(band);
            TempDir work;
            ConversionOptions o;
            o.threads = 2;
            o.work_dir = work.path() / "convert";
            o.memory = ConvertedLevel::budget_needed(n);
            o.band_bytes = band;
            ConvertedLevel theirs(n, OrderDirection::to_published, db::SpanValues(ours), o);
            const std::vector<int8_t> published = read_whole(theirs, 1000003);
            bool in_place = true;
            for (uint64_t k = 0; k < published.size() && in_place; ++k)
                in_place = published[k] == value_of(n, k);
            CHECK(in_place);
            o.work_dir = work.path() / "back";
            ConvertedLevel back(n, OrderDirection::to_ours, db::SpanValues(published), o);
            CHECK(read_whole(back, 999983) == ours);
            theirs.remove_work_files();
            back.remove_work_files();
            CHECK(!std::filesystem::exists(work.path() / "convert"));
        }
    }
}

TEST_CASE("order conversion: reads in any order give the same values") {
    const int n = 14; // 4.4 M positions: a whole read is split among the threads
    const std::vector<int8_t> ours = ours_by_published_key(n);
    TempDir work;
    ConversionOptions o;
    o.work_dir = work.path();
    o.threads = 2;
    ConvertedLevel theirs(n, OrderDirection::to_published, db::SpanValues(ours), o);
    const std::vector<int8_t> whole = read_whole(theirs, 1 << 20);
    // Backwards in pieces of 7, then a few scattered reads: each restarts or skips ahead.
    std::vector<int8_t> piece(7);
    bool same = true;
    for (uint64_t b = whole.size() - 7; b > whole.size() - 7000 && same; b -= 7) {
        theirs.read(b, piece);
        same = std::equal(piece.begin(), piece.end(), whole.begin() + std::ptrdiff_t(b));
    }
    CHECK(same);
    for (uint64_t b : {uint64_t(0), whole.size() / 2, uint64_t(1), whole.size() - 7}) {
        theirs.read(b, piece);
        CHECK(std::equal(piece.begin(), piece.end(), whole.begin() + std::ptrdiff_t(b)));
    }
    CHECK_THROWS_AS(theirs.read(whole.size() - 3, piece), std::out_of_range);
    // From several threads at once, pieces in a scrambled order (compare reads so).
    const uint64_t pieces = (whole.size() + 4095) / 4096;
    std::vector<int8_t> again(whole.size());
#pragma omp parallel for schedule(dynamic, 1) num_threads(4)
    for (int64_t k = 0; k < int64_t(pieces); ++k) {
        const uint64_t b = (uint64_t(k) * 7919 % pieces) * 4096;
        theirs.read(b, std::span(again).subspan(b, std::min<uint64_t>(4096, again.size() - b)));
    }
    CHECK(again == whole);
    std::vector<int8_t> at_once(whole.size());
    theirs.read(0, at_once);
    CHECK(at_once == whole);
}

TEST_CASE("order conversion: a killed conversion resumes from its work files") {
    const int n = 13;
    const std::vector<int8_t> ours = ours_by_published_key(n);
    TempDir work;
    ConversionOptions o;
    o.threads = 2;
    o.work_dir = work.path();
    o.band_bytes = level_size<6>(n) / 20; // bands of several runs
    std::vector<int8_t> expected;
    {
        ConvertedLevel whole(n, OrderDirection::to_published, db::SpanValues(ours), o);
        expected = read_whole(whole, 1 << 20);
        whole.remove_work_files();
    }
    SUBCASE("killed in pass 1: it starts again") {
        ConversionOptions dying = o;
        dying.progress = [](const ConversionProgress& p) {
            if (p.pass == 1 && p.done > 0) throw std::runtime_error("killed");
        };
        // Pass 1 reports every 64 MB only; level 13 is smaller, so it reports at its end.
        CHECK_THROWS_WITH(
            ConvertedLevel(n, OrderDirection::to_published, db::SpanValues(ours), dying), "killed");
        CHECK(!std::filesystem::exists(work.path() / "pass1.done"));
        ConvertedLevel again(n, OrderDirection::to_published, db::SpanValues(ours), o);
        CHECK(read_whole(again, 1 << 20) == expected);
    }
    SUBCASE("killed in pass 2: pass 1 is not done again, nor the finished matrices") {
        ConversionOptions dying = o;
        dying.progress = [](const ConversionProgress& p) {
            if (p.pass == 2 && p.done * 2 > p.total) throw std::runtime_error("killed");
        };
        CHECK_THROWS_WITH(
            ConvertedLevel(n, OrderDirection::to_published, db::SpanValues(ours), dying), "killed");
        CHECK(std::filesystem::exists(work.path() / "pass1.done"));
        CHECK(std::filesystem::exists(work.path() / "pass2-0"));
        ConvertedLevel again(n, OrderDirection::to_published, Untouchable(level_size<6>(n)), o);
        CHECK(read_whole(again, 1 << 20) == expected);
    }
    SUBCASE("work files of another conversion are not taken for this one's") {
        ConversionOptions dying = o;
        dying.progress = [](const ConversionProgress& p) {
            if (p.pass == 2) throw std::runtime_error("killed");
        };
        CHECK_THROWS(ConvertedLevel(n, OrderDirection::to_ours, db::SpanValues(expected), dying));
        CHECK(ConvertedLevel::has_work_files(work.path()));
        ConvertedLevel again(n, OrderDirection::to_published, db::SpanValues(ours), o);
        CHECK(read_whole(again, 1 << 20) == expected);
    }
}

// The hostile run of #52: a conversion killed in pass 2 left work files; what a rerun may
// take from them.
TEST_CASE("order conversion: work files of another source or damaged are not used") {
    const int n = 13;
    const std::vector<int8_t> ours = ours_by_published_key(n);
    TempDir work;
    ConversionOptions o;
    o.work_dir = work.path();
    o.band_bytes = level_size<6>(n) / 20;
    o.threads = 2;
    o.source_identity = "the true source";
    std::vector<int8_t> expected;
    {
        ConvertedLevel whole(n, OrderDirection::to_published, db::SpanValues(ours), o);
        expected = read_whole(whole, 1 << 20);
        whole.remove_work_files();
    }
    // Another source of the same level and size: every value changed.
    std::vector<int8_t> forged = ours;
    for (int8_t& v : forged) v = int8_t(v == n ? -n : v + 1);
    auto killed_in_pass2 = [&](const std::vector<int8_t>& source, const std::string& identity) {
        ConversionOptions dying = o;
        dying.source_identity = identity;
        dying.progress = [](const ConversionProgress& p) {
            if (p.pass == 2 && p.done * 2 > p.total) throw std::runtime_error("killed");
        };
        CHECK_THROWS_WITH(
            ConvertedLevel(n, OrderDirection::to_published, db::SpanValues(source), dying),
            "killed");
        REQUIRE(std::filesystem::exists(work.path() / "pass1.done"));
    };
    // The last matrix's pass-1 file (pass 2 stopped before it) or its pass-2 file.
    auto damage = [&](const std::string& name, bool zero_tail) {
        const auto path = work.path() / name;
        REQUIRE(std::filesystem::exists(path));
        std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
        const auto size = std::streamoff(std::filesystem::file_size(path));
        if (zero_tail) {
            const std::streamoff tail = std::min<std::streamoff>(size, 4096);
            f.seekp(size - tail);
            const std::vector<char> zeros(std::size_t(tail), 0);
            f.write(zeros.data(), tail);
        } else {
            f.seekg(size / 2);
            const char c = char(f.get());
            f.seekp(size / 2);
            f.put(char(c == 0 ? 1 : 0)); // another value in -n..n
        }
    };
    SUBCASE("another source's work files (same level, direction and size)") {
        killed_in_pass2(forged, "another source");
        ConvertedLevel again(n, OrderDirection::to_published, db::SpanValues(ours), o);
        CHECK(read_whole(again, 1 << 20) == expected);
    }
    SUBCASE("the same source's work files are still taken") {
        killed_in_pass2(ours, o.source_identity);
        ConvertedLevel again(n, OrderDirection::to_published, Untouchable(level_size<6>(n)), o);
        CHECK(read_whole(again, 1 << 20) == expected);
    }
    SUBCASE("a pass-1 file with one byte changed") {
        killed_in_pass2(ours, o.source_identity);
        damage("pass1-" + std::to_string(n), false);
        ConvertedLevel again(n, OrderDirection::to_published, db::SpanValues(ours), o);
        CHECK(read_whole(again, 1 << 20) == expected);
    }
    SUBCASE("a pass-1 file whose last 4 KiB are zeros") {
        killed_in_pass2(ours, o.source_identity);
        damage("pass1-" + std::to_string(n), true);
        ConvertedLevel again(n, OrderDirection::to_published, db::SpanValues(ours), o);
        CHECK(read_whole(again, 1 << 20) == expected);
    }
    SUBCASE("a pass-2 file with one byte changed") {
        killed_in_pass2(ours, o.source_identity);
        damage("pass2-0", false);
        ConvertedLevel again(n, OrderDirection::to_published, db::SpanValues(ours), o);
        CHECK(read_whole(again, 1 << 20) == expected);
    }
}

TEST_CASE("order conversion: a work directory that is a link is refused, and left alone") {
    TempDir work;
    std::filesystem::create_directories(work.path() / "victim");
    std::ofstream(work.path() / "victim" / "pass1.done") << "not ours";
    std::filesystem::create_directory_symlink(work.path() / "victim", work.path() / "convert");
    ConversionOptions o;
    o.work_dir = work.path() / "convert";
    o.threads = 2;
    const std::vector<int8_t> level(level_size<6>(5));
    CHECK_THROWS_WITH(ConvertedLevel(5, OrderDirection::to_published, db::SpanValues(level), o),
                      doctest::Contains("a symbolic link"));
    ConvertedLevel::discard_work_files(o.work_dir);
    CHECK(std::filesystem::exists(work.path() / "victim" / "pass1.done"));
}

TEST_CASE("order conversion: work files left after the result was written are removed") {
    TempDir work;
    ConversionOptions o;
    o.work_dir = work.path() / "convert";
    o.threads = 2;
    const std::vector<int8_t> level(level_size<6>(5));
    {
        const ConvertedLevel done(5, OrderDirection::to_published, db::SpanValues(level), o);
    } // killed before remove_work_files()
    REQUIRE(ConvertedLevel::has_work_files(o.work_dir));
    ConvertedLevel::discard_work_files(o.work_dir);
    CHECK(!std::filesystem::exists(o.work_dir));
}

TEST_CASE("order conversion: bad arguments are refused with the reason") {
    TempDir work;
    ConversionOptions o;
    o.work_dir = work.path();
    std::vector<int8_t> level(level_size<6>(5));
    // No thread count given (0): the caller's is required.
    CHECK_THROWS_WITH_AS(ConvertedLevel(5, OrderDirection::to_published, db::SpanValues(level), o),
                         doctest::Contains("threads must be at least 1"), std::invalid_argument);
    o.threads = 2;
    std::vector<int8_t> short_level(level_size<6>(5) - 1);
    CHECK_THROWS_AS(ConvertedLevel(5, OrderDirection::to_published, db::SpanValues(short_level), o),
                    std::invalid_argument);
    o.memory = ConvertedLevel::budget_needed(5) - 1;
    CHECK_THROWS_WITH(ConvertedLevel(5, OrderDirection::to_published, db::SpanValues(level), o),
                      doctest::Contains("over the budget"));
    // A value outside -n..n reaches the result's reader, which refuses it.
    o.memory = ConvertedLevel::budget_needed(5);
    level[17] = 6;
    ConvertedLevel bad(5, OrderDirection::to_published, db::SpanValues(level), o);
    std::vector<int8_t> all(level.size());
    CHECK_THROWS_WITH(bad.read(0, all), doctest::Contains("pass2-"));
}
