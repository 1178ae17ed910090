// The write's share of a level's ETA (cli/write_rate.hpp): by the last level of the same
// mode, else the last level written.
#include "cli/write_rate.hpp"

#include <doctest/doctest.h>

using owaredb::cli::WriteRate;

TEST_CASE("no level written yet: no estimate") {
    WriteRate rate;
    CHECK_FALSE(rate.seconds("streamed", 1000));
    rate.add("streamed", 0, 5);   // an empty level
    rate.add("streamed", 100, 0); // no time measured
    CHECK_FALSE(rate.seconds("streamed", 1000));
}

TEST_CASE("the last level of the mode, else the last level") {
    // The 36-seed awari run (#26): level 31 in memory wrote its 3,679,756,080 positions in
    // 251 s, level 32 streamed its 4,897,012,197 in 174 s.
    WriteRate rate;
    rate.add("in-memory", 2742236068, 159); // level 30
    rate.add("in-memory", 3679756080, 251); // level 31
    // Level 32, the first streamed one: the in-memory rate is all there is.
    CHECK(*rate.seconds("streamed", 4897012197) ==
          doctest::Approx(251.0 / 3679756080 * 4897012197));
    rate.add("streamed", 4897012197, 174);
    // Level 33 streamed, by level 32's rate; an in-memory level still by level 31's.
    CHECK(*rate.seconds("streamed", 6466016844) ==
          doctest::Approx(174.0 / 4897012197 * 6466016844));
    CHECK(*rate.seconds("in-memory", 100) == doctest::Approx(251.0 / 3679756080 * 100));
    CHECK(*rate.seconds("mpi x 4", 100) == doctest::Approx(174.0 / 4897012197 * 100));
}
