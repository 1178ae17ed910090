// The level fraction a sweep reports (retro/sweep.hpp's SweepProgress) and the shares of its
// thresholds (retro/progress.hpp's threshold_shares): a threshold's time follows the
// positions it decides, so the fraction, and with it the progress line's ETA, follows the
// work rather than the count of thresholds.
#include "retro/progress.hpp"
#include "retro/sweep.hpp"

#include <doctest/doctest.h>

#include <map>
#include <numeric>
#include <vector>

using namespace owaredb;

TEST_CASE("threshold_shares: a threshold's share is its decided positions plus a scan") {
    // 1,000 positions: 10 % of value +-1, 30 % +-2, 10 % +-3, none +-4, half draws.
    const std::map<int, uint64_t> counts{{-2, 100}, {-1, 50}, {0, 500},
                                         {1, 50},   {2, 200}, {3, 100}};
    const std::vector<double> shares = threshold_shares(4, counts);
    REQUIRE(shares.size() == 5);
    CHECK(shares[0] == 0);
    const double scan = 1 / kScansPerDecided;
    const double sum = 0.1 + 0.3 + 0.1 + 0.0 + 4 * scan;
    CHECK(shares[1] == doctest::Approx((0.1 + scan) / sum));
    CHECK(shares[2] == doctest::Approx((0.3 + scan) / sum));
    CHECK(shares[3] == doctest::Approx((0.1 + scan) / sum));
    CHECK(shares[4] == doctest::Approx(scan / sum)); // only its scan
    CHECK(std::accumulate(shares.begin(), shares.end(), 0.0) == doctest::Approx(1));
}

TEST_CASE("threshold_shares: without counts, or with draws only, the shares are even") {
    for (const auto& counts : {std::map<int, uint64_t>{}, std::map<int, uint64_t>{{0, 7}}}) {
        const std::vector<double> shares = threshold_shares(5, counts);
        REQUIRE(shares.size() == 6);
        for (int t = 1; t <= 5; ++t) CHECK(shares[t] == doctest::Approx(0.2));
    }
    CHECK(threshold_shares(0, {{0, 1}}) == std::vector<double>{0.0});
}

TEST_CASE("SweepProgress: even shares give the first pass, then n equal thresholds") {
    const ProgressFn none;
    const sweep::SweepProgress even(none, 4, 1000, 0.5);
    CHECK(even.fraction(0, 0) == 0);
    CHECK(even.fraction(0, 500) == doctest::Approx(0.25));
    CHECK(even.fraction(4, 0) == doctest::Approx(0.5)); // thresholds run n..1
    CHECK(even.fraction(4, 1000) == doctest::Approx(0.625));
    CHECK(even.fraction(2, 500) == doctest::Approx(0.5 + 0.5 * 2.5 / 4));
    CHECK(even.fraction(1, 1000) == doctest::Approx(1));
}

TEST_CASE("SweepProgress: with shares, the low thresholds that decide most take most") {
    const std::map<int, uint64_t> counts{{-2, 100}, {-1, 50}, {0, 500},
                                         {1, 50},   {2, 200}, {3, 100}};
    const std::vector<double> shares = threshold_shares(4, counts);
    const ProgressFn none;
    const sweep::SweepProgress p(none, 4, 1000, 0.5, shares);
    CHECK(p.fraction(4, 0) == doctest::Approx(0.5));
    CHECK(p.fraction(4, 1000) == doctest::Approx(0.5 + 0.5 * shares[4]));
    CHECK(p.fraction(3, 0) == doctest::Approx(p.fraction(4, 1000)));
    CHECK(p.fraction(2, 500) ==
          doctest::Approx(0.5 + 0.5 * (shares[4] + shares[3] + shares[2] / 2)));
    CHECK(p.fraction(1, 0) == doctest::Approx(0.5 + 0.5 * (1 - shares[1])));
    CHECK(p.fraction(1, 1000) == doctest::Approx(1));
    // Never backwards from one threshold to the next, nor inside a pass.
    double last = 0;
    for (int t = 4; t >= 1; --t)
        for (uint64_t done : {0, 250, 1000}) {
            CHECK(p.fraction(t, done) >= last);
            last = p.fraction(t, done);
        }
    // Shares of the wrong length are ignored: even.
    const sweep::SweepProgress wrong(none, 4, 1000, 0.5, std::vector<double>{1.0});
    CHECK(wrong.fraction(2, 500) == doctest::Approx(0.5 + 0.5 * 2.5 / 4));
}
