// The streamed engine (retro/streamed_retrograde.hpp) against the in-memory one
// (retro/retrograde.hpp): the same bytes for every level, whatever the thread count and
// the first-pass segment size, on Oware (both rule sets) and on the toy ring game; and
// resumed from every safe point (the gathering of capture exits, the first pass, the
// thresholds), including with an exit store that no longer matches.
#include "oware/oware_game.hpp"
#include "quick.hpp"
#include "retro/checkpoint.hpp"
#include "retro/retrograde.hpp"
#include "retro/streamed_retrograde.hpp"
#include "toy_game.hpp"

#include <doctest/doctest.h>

#include <cstring>
#include <optional>
#include <tuple>
#include <vector>

using namespace owaredb;

namespace {

bool same(const ValueArray& a, const ValueArray& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size()) == 0;
}

// Levels 0..max_n by the in-memory engine.
template <RetroGame Game> std::vector<ValueArray> reference(const Game& game, int max_n) {
    return sweep::solve_levels_in_memory<RetrogradeSolver>(game, max_n, 2);
}

std::vector<const int8_t*> pointers(const std::vector<ValueArray>& levels, int n) {
    return level_pointers(levels, n);
}

// Every level 0..max_n solved by the streamed engine over the reference's smaller levels
// equals the reference level.
template <RetroGame Game>
void check_streamed_levels(const Game& game, int max_n, int threads, uint64_t segment_positions) {
    const std::vector<ValueArray> ref = reference(game, max_n);
    for (int n = 0; n <= max_n; ++n) {
        CAPTURE(n);
        InMemorySmallerLevels smaller(pointers(ref, n));
        InMemoryExitStore exits;
        StreamedRetrogradeSolver<Game> solver(game, smaller, exits, threads, segment_positions);
        LevelStats stats;
        const ValueArray v = solver.solve(n, {}, &stats);
        CHECK(same(v, ref[n]));
        CHECK(exits.exits().size() == game.level_size(n));
    }
}

class RecordingCheckpoint final : public SweepCheckpoint {
  public:
    struct Saved {
        SweepPoint point;
        std::vector<uint8_t> words;
        std::vector<int8_t> exits;
    };
    explicit RecordingCheckpoint(InMemoryExitStore& exits) : exits_(exits) {}
    std::vector<Saved> saved;
    std::optional<Saved> to_restore;
    int notes = 0;
    std::optional<SweepPoint> restore(std::span<uint8_t> words) override {
        if (!to_restore) return std::nullopt;
        REQUIRE(to_restore->words.size() == words.size());
        std::memcpy(words.data(), to_restore->words.data(), words.size());
        return to_restore->point;
    }
    bool reached(const SweepPoint& point, std::span<const uint8_t> words) override {
        saved.push_back({point, {words.begin(), words.end()}, exits_.exits()});
        return true;
    }
    void note(const std::string&) override { ++notes; }

  private:
    InMemoryExitStore& exits_;
};

// Level n straight through, then resumed from each safe point with the exit store as it
// was then (plus some exits of a later point, as a killed run leaves them), and once with
// an exit store that was changed: the same bytes every time.
template <RetroGame Game>
void check_streamed_resume(const Game& game, int n, int threads, uint64_t segment_positions) {
    const std::vector<ValueArray> ref = reference(game, n);
    InMemorySmallerLevels smaller(pointers(ref, n));
    InMemoryExitStore exits;
    StreamedRetrogradeSolver<Game> solver(game, smaller, exits, threads, segment_positions);
    RecordingCheckpoint recorder(exits);
    const ValueArray straight = solver.solve(n, {}, nullptr, &recorder);
    REQUIRE(same(straight, ref[n]));
    REQUIRE(recorder.saved.size() >= size_t(n) + 1);
    const std::vector<int8_t> all_exits = exits.exits();
    // Safe points come in order: the gathering's (first_pass_done 0, exits_gathered the
    // smaller positions read), then the first pass's, then the thresholds'.
    auto order = [](const SweepPoint& p) {
        return std::tuple(p.first_pass_done > 0, p.exits_gathered, p.first_pass_done,
                          p.thresholds_done);
    };
    int gathering = 0, inside_first_pass = 0;
    for (const RecordingCheckpoint::Saved& at : recorder.saved) {
        CAPTURE(at.point.first_pass_done);
        CAPTURE(at.point.thresholds_done);
        CAPTURE(at.point.exits_gathered);
        gathering += at.point.first_pass_done == 0;
        inside_first_pass +=
            at.point.first_pass_done > 0 && at.point.first_pass_done < game.level_size(n);
        exits.exits() = all_exits; // the store holds more than the checkpoint says
        RecordingCheckpoint resumed(exits);
        resumed.to_restore = at;
        CHECK(same(solver.solve(n, {}, nullptr, &resumed), straight));
        CHECK(resumed.notes == 0);
        for (const auto& next : resumed.saved) CHECK(order(next.point) > order(at.point));
        // A changed exit store is refused: the level starts afresh and ends the same.
        if (at.point.first_pass_done > 0) {
            exits.exits() = all_exits;
            exits.exits()[at.point.first_pass_done / 2] ^= 1;
            RecordingCheckpoint refused(exits);
            refused.to_restore = at;
            CHECK(same(solver.solve(n, {}, nullptr, &refused), straight));
            CHECK(refused.notes == 1);
        }
    }
    // One safe point per segment of each smaller level a capture reaches, then one inside
    // the first pass per segment but the last.
    const uint64_t per_segment = std::max<uint64_t>(1, segment_positions / sweep::kChunk);
    auto segments = [&](int level) {
        const uint64_t chunks = (game.level_size(level) + sweep::kChunk - 1) / sweep::kChunk;
        return (chunks + per_segment - 1) / per_segment;
    };
    uint64_t gather_segments = 0;
    for (int c = Game::kMinCapture; c <= Game::kMaxCapture && c <= n; ++c)
        gather_segments += segments(n - c);
    CHECK(uint64_t(gathering) == gather_segments);
    CHECK(gathering > 0);
    CHECK(uint64_t(inside_first_pass) == segments(n) - 1);
    // A gathering point that claims more smaller positions than there are is refused.
    for (const RecordingCheckpoint::Saved& at : recorder.saved) {
        if (at.point.first_pass_done != 0) continue;
        RecordingCheckpoint bogus(exits);
        bogus.to_restore = at;
        bogus.to_restore->point.exits_gathered = uint64_t(1) << 50;
        CHECK(same(solver.solve(n, {}, nullptr, &bogus), straight));
        CHECK(bogus.notes == 1);
        break;
    }
}

} // namespace

TEST_CASE("streamed engine: the in-memory engine's bytes, Oware abapa") {
    const int max_n = test::quick() ? 9 : 12;
    check_streamed_levels(OwareGame(Rules::abapa()), max_n, 1, 0);
    check_streamed_levels(OwareGame(Rules::abapa()), max_n, 2, sweep::kChunk);
}

TEST_CASE("streamed engine: the in-memory engine's bytes, Oware awari") {
    const int max_n = test::quick() ? 9 : 12;
    check_streamed_levels(OwareGame(Rules::awari()), max_n, 2, 0);
    check_streamed_levels(OwareGame(Rules::awari()), max_n, 1, 3 * sweep::kChunk);
}

TEST_CASE("streamed engine: the in-memory engine's bytes, toy ring game") {
    const test::RingGame game(14);
    check_streamed_levels(game, 14, 2, sweep::kChunk);
    check_streamed_levels(game, 14, 1, 0);
}

TEST_CASE("streamed engine: resumes from every safe point, and refuses a changed exit store") {
    const bool quick = test::quick();
    check_streamed_resume(OwareGame(Rules::abapa()), quick ? 7 : 9, 2, sweep::kChunk);
    check_streamed_resume(OwareGame(Rules::awari()), quick ? 7 : 8, 1, sweep::kChunk);
    check_streamed_resume(test::RingGame(12), 12, 2, sweep::kChunk);
}

TEST_CASE("overflow rescans: propagation stacks of 2 entries give the same bytes") {
    // Propagation that overflows its stack leaves parents to a rescan of the threshold;
    // only large levels overflow the real limit, so a tiny one makes small levels take
    // that path, in both value engines.
    const int max_n = test::quick() ? 8 : 10;
    for (const Rules& rules : {Rules::abapa(), Rules::awari()}) {
        const OwareGame game(rules);
        const std::vector<ValueArray> ref = reference(game, max_n);
        uint64_t rescans = 0;
        for (int n = 0; n <= max_n; ++n) {
            CAPTURE(n);
            RetrogradeSolver<OwareGame> in_memory(game, pointers(ref, n), 2);
            in_memory.set_stack_limit(2);
            LevelStats stats;
            CHECK(same(in_memory.solve(n, {}, &stats), ref[n]));
            rescans += stats.scans - uint64_t(n);
            InMemorySmallerLevels smaller(pointers(ref, n));
            InMemoryExitStore exits;
            StreamedRetrogradeSolver<OwareGame> streamed(game, smaller, exits, 2);
            streamed.set_stack_limit(2);
            LevelStats streamed_stats;
            CHECK(same(streamed.solve(n, {}, &streamed_stats), ref[n]));
            rescans += streamed_stats.scans - uint64_t(n);
        }
        CHECK(rescans > 0); // the path was taken
    }
}
