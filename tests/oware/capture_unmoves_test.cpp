// Un-capture generation is complete and exact: for every position p of D_k, k < n <= 13,
// and c = n - k, the capture parents it generates are exactly the positions of D_n with a
// legal move capturing c seeds into p, found by brute force over D_n with the forward
// move generator; plus hand-checked positions, grand slams among them.
#include "oware/capture_unmoves.hpp"
#include "oware/moves.hpp"
#include "oware/ranking.hpp"
#include "quick.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <vector>

using namespace owaredb;

namespace {

std::vector<Position> capture_parents(const Rules& rules, const Position& p, int captured) {
    std::vector<Position> out;
    for_each_capture_parent(rules, p, captured, [&](const Position& q) { out.push_back(q); });
    std::sort(out.begin(), out.end());
    return out;
}

// Every capture move of D_n, checked against the un-captures of every smaller position.
void check_capture_unmoves(const Rules& rules, int n) {
    // expected[k][child rank]: the ranks of the positions of D_n capturing n - k into it.
    std::vector<std::vector<std::vector<uint64_t>>> expected(static_cast<size_t>(n));
    for (int k = 0; k < n; ++k) expected[size_t(k)].resize(level_size<6>(k));
    uint64_t moves = 0;
    for (uint64_t i = 0; i < level_size<6>(n); ++i)
        for (const Move& m : legal_moves(rules, unrank<6>(n, i))) {
            if (m.captured == 0) continue;
            REQUIRE(m.captured >= kMinCapture);
            REQUIRE(m.captured <= kMaxCapture);
            REQUIRE(m.child.in_database());
            expected[size_t(n - m.captured)][rank(m.child)].push_back(i);
            ++moves;
        }
    uint64_t found = 0;
    for (int k = 0; k < n; ++k)
        for (uint64_t j = 0; j < level_size<6>(k); ++j) {
            const Position p = unrank<6>(k, j);
            std::vector<uint64_t> got;
            for (const Position& q : capture_parents(rules, p, n - k)) {
                REQUIRE(q.seeds() == n);
                got.push_back(rank(q));
            }
            std::vector<uint64_t>& want = expected[size_t(k)][j];
            std::sort(want.begin(), want.end());
            if (got != want) {
                FAIL_CHECK("capture parents differ for "
                           << to_string(p) << ", " << n - k << " seeds (" << rules.name << "): got "
                           << got.size() << ", expected " << want.size());
                return;
            }
            found += got.size();
        }
    CHECK(found == moves);
    if (n >= 4) CHECK(moves > 0);
}

} // namespace

TEST_CASE("un-captures equal the brute-force capture parents of every position, n <= 13") {
    // Laps (sowings of 12 seeds or more) capture from n = 13 on.
    const int max_n = test::quick() ? 9 : 13;
    for (const Rules& rules : {Rules::abapa(), Rules::awari()})
        for (int n = 1; n <= max_n; ++n) {
            CAPTURE(rules.name);
            CAPTURE(n);
            check_capture_unmoves(rules, n);
        }
}

TEST_CASE("un-captures: hand-checked positions") {
    // q: the mover's last pit holds 1, the opponent's first 1 and its second 4. Sowing pit
    // 5 makes pit 6 hold 2, which is captured; 4 seeds stay, now the mover's pit 1.
    const Position q = parse_position_or_throw<6>("0 0 0 0 0 1 1 4 0 0 0 0");
    const Position p = parse_position_or_throw<6>("0 4 0 0 0 0 0 0 0 0 0 0");
    for (const Rules& rules : {Rules::abapa(), Rules::awari()}) {
        CAPTURE(rules.name);
        const std::vector<Position> two = capture_parents(rules, p, 2);
        CHECK(std::find(two.begin(), two.end(), q) != two.end());
        for (const Position& parent : two) CHECK(parent.seeds() == 6);
        // One pit holding 3 after the sowing: q with 2 in pit 6 instead of 1.
        const Position q3 = parse_position_or_throw<6>("0 0 0 0 0 1 2 4 0 0 0 0");
        const std::vector<Position> three = capture_parents(rules, p, 3);
        CHECK(std::find(three.begin(), three.end(), q3) != three.end());
        // No move captures 1 seed, or more than six pits of 3.
        CHECK(capture_parents(rules, p, 1).empty());
        CHECK(capture_parents(rules, p, 19).empty());
    }
    // A grand slam: q's one move takes the opponent's only seeds. Under abapa it captures
    // nothing (the child stays in D_2), so the empty board has no capture parent there;
    // under awari it captures both, and is legal because it is q's only move.
    const Position slam = parse_position_or_throw<6>("0 0 0 0 0 1 1 0 0 0 0 0");
    const Position empty{};
    CHECK(capture_parents(Rules::abapa(), empty, 2).empty());
    const std::vector<Position> awari = capture_parents(Rules::awari(), empty, 2);
    CHECK(std::find(awari.begin(), awari.end(), slam) != awari.end());
}

TEST_CASE("un-captures: random large positions, sowings of two laps and more") {
    // Two full laps (23 seeds or more in one pit) first capture at n = 23, beyond the
    // exhaustive test: random positions with one big pit, n = 23..48. Every capture move
    // of such a q must be found again from its child (completeness), and every parent
    // found from that child must have such a move (soundness).
    std::mt19937_64 rng(20261201);
    int two_laps = 0, checked = 0;
    for (const Rules& rules : {Rules::abapa(), Rules::awari()})
        for (int trial = 0; trial < (test::quick() ? 4000 : 40000); ++trial) {
            const int n = 23 + int(rng() % 26);
            Position q;
            const int big = 22 + int(rng() % 12);
            if (big > n) continue;
            q.pits[rng() % kPitsPerSide] = static_cast<uint8_t>(big);
            for (int left = n - big; left > 0; --left) ++q.pits[rng() % kPits];
            if (!q.in_database() || q.seeds() != n) continue;
            for (const Move& m : legal_moves(rules, q)) {
                if (m.captured == 0) continue;
                const std::vector<Position> found = capture_parents(rules, m.child, m.captured);
                CHECK(std::find(found.begin(), found.end(), q) != found.end());
                for (const Position& parent : found) {
                    bool has = false;
                    for (const Move& back : legal_moves(rules, parent))
                        has |= back.captured == m.captured && back.child == m.child;
                    CHECK(has);
                }
                two_laps += q.pits[m.pit] >= 23;
                ++checked;
            }
        }
    CHECK(checked > 1000);
    CHECK(two_laps > 100);
}
