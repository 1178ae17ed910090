// Checkpoints inside a level (retro/checkpoint.hpp): a sweep resumed from any of its safe
// points ends with the same level, byte for byte, as an uninterrupted one. For both
// engines (values and bounds), on Oware (both rule sets) and on the toy ring game.
#include "oware/oware_game.hpp"
#include "quick.hpp"
#include "retro/bounds.hpp"
#include "retro/checkpoint.hpp"
#include "retro/retrograde.hpp"
#include "toy_game.hpp"

#include <doctest/doctest.h>

#include <cstring>
#include <optional>
#include <vector>

using namespace owaredb;

namespace {

// Saves every safe point it is offered (a copy of the words), and restores the one it was
// told to.
class RecordingCheckpoint final : public SweepCheckpoint {
  public:
    struct Saved {
        SweepPoint point;
        std::vector<uint8_t> words;
    };
    std::vector<Saved> saved;
    std::optional<Saved> to_restore;
    std::optional<SweepPoint> restore(std::span<uint8_t> words) override {
        if (!to_restore) return std::nullopt;
        REQUIRE(to_restore->words.size() == words.size());
        std::memcpy(words.data(), to_restore->words.data(), words.size_bytes());
        return to_restore->point;
    }
    bool reached(const SweepPoint& point, std::span<const uint8_t> words) override {
        saved.push_back({point, {words.begin(), words.end()}});
        return true;
    }
};

bool same(const ValueArray& a, const ValueArray& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size()) == 0;
}

bool later(const SweepPoint& a, const SweepPoint& b) {
    return a.thresholds_done > b.thresholds_done ||
           (a.thresholds_done == b.thresholds_done && a.first_pass_done > b.first_pass_done);
}

// Solves levels 0..n - 1 in memory, then level n once straight through (recording its safe
// points) and once resumed from each of them; every resumed result must equal the first.
// Returns how many of the safe points lie inside the first pass.
template <template <class> class Solver, RetroGame Game>
int check_resume_everywhere(const Game& game, int n, int threads) {
    std::vector<ValueArray> levels;
    std::vector<const int8_t*> smaller;
    for (int k = 0; k < n; ++k) {
        levels.push_back(Solver<Game>(game, smaller, threads).solve(k));
        smaller.push_back(levels.back().data());
    }
    Solver<Game> solver(game, smaller, threads);
    RecordingCheckpoint recorder;
    LevelStats straight_stats;
    const ValueArray straight = solver.solve(n, {}, &straight_stats, &recorder);
    CHECK(same(straight, solver.solve(n))); // a checkpoint that saves changes nothing
    // Safe points come in order: the first-pass segments, then one per threshold.
    REQUIRE(recorder.saved.size() >= size_t(n) + 1);
    CHECK(recorder.saved.back().point.thresholds_done == n);
    CHECK(recorder.saved.back().point.scans == straight_stats.scans);
    for (size_t i = 1; i < recorder.saved.size(); ++i)
        CHECK(later(recorder.saved[i].point, recorder.saved[i - 1].point));
    for (const RecordingCheckpoint::Saved& at : recorder.saved) {
        CAPTURE(at.point.first_pass_done);
        CAPTURE(at.point.thresholds_done);
        RecordingCheckpoint resumed;
        resumed.to_restore = at;
        LevelStats stats;
        CHECK(same(solver.solve(n, {}, &stats, &resumed), straight));
        // It went on from there: every point it offered lies after the restored one, and
        // the statistics carried over (the propagation count does not depend on timing).
        for (const RecordingCheckpoint::Saved& next : resumed.saved)
            CHECK(later(next.point, at.point));
        CHECK(stats.propagated == straight_stats.propagated);
    }
    int inside_first_pass = 0;
    for (const RecordingCheckpoint::Saved& at : recorder.saved)
        inside_first_pass += at.point.first_pass_done < game.level_size(n);
    return inside_first_pass;
}

} // namespace

// First-pass segments hold at least 16 chunks (2^14 positions each) per thread, so the
// single-thread cases on levels of over 32 chunks also resume from inside the first pass.
TEST_CASE("checkpoint: values resume from every safe point, Oware, both rule sets") {
    // Sanitizer builds (quick): smaller levels, the same safe points but for their number.
    const bool quick = test::quick();
    const int inside =
        check_resume_everywhere<RetrogradeSolver>(OwareGame(Rules::abapa()), quick ? 7 : 11, 1);
    if (!quick) CHECK(inside >= 2); // level 11: 43 chunks, segments of 16
    check_resume_everywhere<RetrogradeSolver>(OwareGame(Rules::awari()), quick ? 6 : 8, 2);
}

TEST_CASE("checkpoint: bounds resume from every safe point, Oware, both rule sets") {
    const bool quick = test::quick();
    const int inside =
        check_resume_everywhere<BoundsSolver>(OwareGame(Rules::abapa()), quick ? 6 : 10, 1);
    if (!quick) CHECK(inside >= 1); // level 10: 22 chunks, segments of 16
    check_resume_everywhere<BoundsSolver>(OwareGame(Rules::awari()), quick ? 7 : 9, 2);
}

TEST_CASE("checkpoint: the toy ring game resumes from every safe point, both engines") {
    const test::RingGame game(12);
    check_resume_everywhere<RetrogradeSolver>(game, 12, 2);
    check_resume_everywhere<BoundsSolver>(game, 12, 2);
}
