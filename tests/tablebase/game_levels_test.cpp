// Which levels a run builds (tablebase/game_levels.hpp): every level, or the levels of a
// game of k seeds per pit, which never has 12k - 1 seeds on the board.
#include "tablebase/game_levels.hpp"

#include <doctest/doctest.h>

#include <numeric>
#include <vector>

using namespace owaredb;

namespace {
std::vector<int> levels(int first, int last) {
    std::vector<int> v(size_t(last - first + 1));
    std::iota(v.begin(), v.end(), first);
    return v;
}
} // namespace

TEST_CASE("GameLevels: a game of k seeds per pit leaves out 12k - 1, nothing else") {
    const GameLevels three = GameLevels::of_game(3, 6);
    CHECK(three.max_level == 36);
    CHECK(three.skipped == 35);
    for (int n = 0; n <= 34; ++n) CHECK(three.contains(n));
    CHECK_FALSE(three.contains(35));
    CHECK(three.contains(36));
    CHECK_FALSE(three.contains(37));
    CHECK(three.why_not(35) == "not part of a game of 3 seeds per pit (it never has 35 seeds)");
    CHECK(three.why_not(34).empty());
    // One seed a pit is "seed", not "seeds".
    CHECK(GameLevels::of_game(1, 6).why_not(11) ==
          "not part of a game of 1 seed per pit (it never has 11 seeds)");
    const GameLevels four = GameLevels::of_game(4, 6); // Romein & Bal's 0..46 and 48
    CHECK(four.skipped == 47);
    CHECK(four.contains(46));
    CHECK(four.contains(48));
    const GameLevels all = GameLevels::up_to(20, 6);
    for (int n = 0; n <= 20; ++n) CHECK(all.contains(n));
    CHECK(all.skipped == -1);
    CHECK(all.why_not(19).empty());
}

TEST_CASE("GameLevels::of_directory: a game's levels only when 12k is there and 12k - 1 is not") {
    std::vector<int> game3 = levels(0, 34);
    game3.push_back(36);
    CHECK(GameLevels::of_directory(game3, 6).skipped == 35);
    CHECK(GameLevels::of_directory(game3, 6).max_level == 36);
    std::vector<int> game1 = levels(0, 10);
    game1.push_back(12);
    CHECK(GameLevels::of_directory(game1, 6).skipped == 11);
    // Every level there, or the largest not a game's: no level is left out.
    CHECK(GameLevels::of_directory(levels(0, 36), 6).skipped == -1);
    CHECK(GameLevels::of_directory(levels(0, 35), 6).skipped == -1);
    std::vector<int> gap = levels(0, 11);
    gap.push_back(13); // 12 missing below 13: a gap, not a game's level
    CHECK(GameLevels::of_directory(gap, 6).skipped == -1);
    CHECK(GameLevels::of_directory(gap, 6).max_level == 13);
    CHECK(GameLevels::of_directory(levels(0, 10), 6).max_level == 10);
}

TEST_CASE("GameLevels on other boards: a game of k per pit on P pits a side has 2Pk seeds") {
    const GameLevels four_by_two = GameLevels::of_game(2, 4); // 16 seeds, never 15
    CHECK(four_by_two.max_level == 16);
    CHECK(four_by_two.skipped == 15);
    CHECK(four_by_two.contains(14));
    CHECK_FALSE(four_by_two.contains(15));
    CHECK(four_by_two.why_not(15) ==
          "not part of a game of 2 seeds per pit (it never has 15 seeds)");
    std::vector<int> game{};
    for (int n = 0; n <= 14; ++n) game.push_back(n);
    game.push_back(16);
    CHECK(GameLevels::of_directory(game, 4).skipped == 15);
    // On the standard board 16 seeds is no start position: 15 is a gap there.
    CHECK(GameLevels::of_directory(game, 6).skipped == -1);
    CHECK(GameLevels::of_game(3, 1).max_level == 6);
    CHECK(GameLevels::of_game(3, 1).skipped == 5);
}
