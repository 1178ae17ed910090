// Value levels built in this process (the mode plan, mode_plan.hpp, says how each level is
// built): in memory, with every smaller level in memory (1 byte per position; present
// levels are read back from their files, which checks every block), or streamed, with the
// smaller levels read from their files in order and 1 byte of working state a position
// (retro/streamed_retrograde.hpp), from the first level whose in-memory build does not fit
// --memory, or streamed with 4 bits a position and compressed scan files beside the level
// (retro/nibble_retrograde.hpp) from the first level whose byte does not fit, or with 2 bits a
// position and the same scan files (retro/wld_retrograde.hpp) from the first level whose 4 bits
// do not fit. Inside a level the
// sweep saves its working state at safe points (tablebase/level_checkpoint.hpp), so a killed run
// resumes inside the level it was solving and ends with the same files as an uninterrupted one. The
// builder is a template on the board (P pits a side), chosen once from the settings; P = 8 has no
// streamed mode, P = 7 no 4- or 2-bit mode (ModePlan).
#include "generate/builders.hpp"
#include "generate/solved_level.hpp"
#include "oware/position.hpp"
#include "retro/nibble_retrograde.hpp"
#include "retro/retrograde.hpp"
#include "retro/streamed_retrograde.hpp"
#include "retro/wld_retrograde.hpp"
#include "tablebase/database_dir.hpp"
#include "tablebase/streamed_files.hpp"

#include <cstdio>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace owaredb::cli {

namespace {

// A level solved by an engine over scan files (Solver: the nibble engine or the WLD engine), as
// the values its file is written from: the engine keeps its words, and the values are read from
// them and its scan files in order.
template <template <class> class Solver, class Game>
class ScanLevel final : public db::ValueSource {
  public:
    ScanLevel(const Game& game, const DatabaseDir& db, int n, ScanStore& store, int threads,
              uint64_t gather_positions)
        : smaller_(db, n, threads), solver_(game, smaller_, store, threads, gather_positions) {}
    Solver<Game>& solver() { return solver_; }
    uint64_t size() const override { return solver_.size(); }
    void read(uint64_t begin, std::span<int8_t> out) const override {
        solver_.read_values(begin, out);
    }
    // Each value read costs every threshold's bitmap: the writer need not count them first.
    std::optional<std::array<uint64_t, 256>> counts() const override {
        return solver_.value_counts();
    }

  private:
    FileSmallerLevels smaller_;
    Solver<Game> solver_;
};

template <int P> class ValueLevels final : public LevelBuilder {
  public:
    using Game = BasicOwareGame<P>;

    ValueLevels(const BuildSettings& settings, const ModePlan& plan, bool compact)
        : settings_(settings), plan_(plan), db_(settings.dir, settings.rules, compact, P),
          game_(settings.rules), compact_(compact) {}

    const LevelDir& dir() const override { return db_; }

    bool load(int n, LevelRow& row) override {
        if (n == 0) stream_from_start();
        if (plan_.streamed(n) && !streaming_) {
            streaming_ = true;
            levels_.clear(); // gives their memory back: the streamed engine reads the files
        }
        db::Status loaded;
        if (!streaming_) {
            ValueArray values;
            loaded = db_.load(n, values, settings_.threads, levels_);
            if (loaded.ok()) {
                row.values = histogram(values);
                levels_.push_back(std::move(values));
            }
        } else {
            db::Result<db::Histogram> h = db_.check(n, settings_.threads);
            if (h.ok()) row.values = histogram(*h);
            loaded = h.status();
        }
        if (loaded.ok()) {
            value_counts_[n] = row.values;
            db_.remove_scratch(n);
            if (compact_ && !db_.capture_bounded(n))
                std::fprintf(stderr,
                             "level %d: exact values already on disk, kept as they are (remove "
                             "the file to rewrite it compact)\n",
                             n);
            return true;
        }
        if (loaded.code() != db::ErrorCode::NotFound)
            std::fprintf(stderr, "level %d: existing file unusable, rebuilding it: %s\n", n,
                         loaded.message().c_str());
        return false;
    }

    void check(int n) const override {
        DiskNeed need = disk_need(n, 1, settings_.checkpoint_minutes >= 0, plan_.mode(n), P,
                                  db_.measured_file_bits(n, {}, compact_));
        need.on_disk = db_.scratch_bytes(n);
        check_disk(n, need, settings_.dir);
        if (compact_ && streaming_)
            throw std::runtime_error("level " + std::to_string(n) +
                                     " is streamed, and --compact needs every level in "
                                     "memory: drop --compact, or give more --memory");
    }

    void solve(int n, ProgressDisplay& display) override {
        const LevelMode mode = plan_.mode(n);
        solved_ = mode == LevelMode::Nibble ? solve_scan<NibbleRetrogradeSolver>(n, display, mode)
                  : mode == LevelMode::Wld  ? solve_scan<WldRetrogradeSolver>(n, display, mode)
                  : streaming_
                      ? solve_streamed(n, display)
                      : solve_level_in_memory<RetrogradeSolver>(
                            game_, db_, n, levels_,
                            {settings_.threads, settings_.checkpoint_minutes, progress_shares(n)},
                            display);
    }

    void write(int n, LevelRow& row) override {
        if (solved_.source) {
            db_.save(n, *solved_.source, settings_.threads);
            // Counted from the file just written (which reads every block back).
            db::Result<db::Histogram> h = db_.check(n, settings_.threads);
            if (!h.ok()) throw std::runtime_error(h.status().message());
            row.values = histogram(*h);
        } else {
            db_.save(n, solved_.entries, settings_.threads, levels_);
            row.values = histogram(solved_.entries);
        }
        solved_.written(row);
        // What a run of another mode left (a killed streamed run's exit file, before an
        // in-memory one finished the level) is not needed either.
        db_.remove_scratch(n);
        row.mode = mode_name(plan_.mode(n));
        value_counts_[n] = row.values;
        if (!streaming_) levels_.push_back(std::move(solved_.entries));
        solved_ = SolvedLevel{};
    }

    std::string solved_label(const LevelRow& row) const override {
        return "solved (" + row.mode + ")";
    }
    void skip(int) override {
        if (!streaming_) levels_.emplace_back(); // keeps levels_[k] = level k
    }
    std::string files_name() const override { return "databases"; }

    std::string start_position(int k) override { return start_value<P>(db_, levels_, k); }

  private:
    // A run resumed where the first level still to build is streamed needs none of the
    // levels below it in memory (the streamed engine reads their files): they are checked,
    // not loaded, which spares reading them into memory only to give it back when the
    // first streamed level starts. Not for --compact, whose levels are all in memory.
    void stream_from_start() {
        if (compact_ || plan_.streamed(0)) return;
        const GameLevels& levels = settings_.levels;
        int first_missing = 0, last_present = -1;
        for (; first_missing <= levels.max_level; ++first_missing) {
            if (!levels.contains(first_missing)) continue; // not part of the game: no file
            if (db_.file_bytes(first_missing) == 0) break;
            last_present = first_missing;
        }
        if (first_missing > levels.max_level) { // all built: a rerun checks them
            if (!plan_.streamed(levels.max_level)) return;
            streaming_ = true;
            std::printf("every level is on disk: checked, not loaded (level %d is streamed)\n",
                        levels.max_level);
            std::fflush(stdout);
            return;
        }
        if (last_present < 0 || !plan_.streamed(first_missing)) return;
        streaming_ = true;
        std::printf("levels 0..%d are on disk: checked, not loaded (level %d, the first to "
                    "build, is streamed)\n",
                    last_present, first_missing);
        std::fflush(stdout);
    }

    // The shares of level n's thresholds in its sweep's time, for the progress line and its
    // ETA: from the value counts of level n - 2 (the same parity), which this run checked,
    // loaded or built; even without them.
    std::vector<double> progress_shares(int n) const {
        const auto it = value_counts_.find(n - 2);
        return it == value_counts_.end() ? std::vector<double>{} : threshold_shares(n, it->second);
    }

    // Level n streamed: the smaller levels are read from their files (each once, in order:
    // the engine pushes their values to their capture parents), the exits go to the scratch
    // file beside the level's.
    SolvedLevel solve_streamed(int n, ProgressDisplay& display) {
        if constexpr (Game::kMaxMoves > 7) {
            throw std::logic_error("a board of " + std::to_string(P) +
                                   " pits a side has no streamed mode"); // ModePlan says so
        } else {
            FileSmallerLevels smaller(db_, n, settings_.threads);
            SolvedLevel solved{
                ValueArray(),
                level_checkpoint(db_, n, StreamedRetrogradeSolver<Game>::kCheckpointFormat,
                                 settings_.checkpoint_minutes, display),
                std::make_unique<ExitFile>(db::exit_file_path(db_.path(n))), nullptr, nullptr};
            StreamedRetrogradeSolver<Game> solver(game_, smaller, *solved.exits, settings_.threads);
            solver.set_threshold_shares(progress_shares(n));
            display.level_started(n, db_.level_size(n), LevelMode::Streamed,
                                  solved.checkpoint ? &*solved.checkpoint : nullptr);
            solved.entries = solver.solve(
                n, [&](const LevelProgress& p) { display.update(p); }, &solved.stats,
                solved.checkpoint ? &*solved.checkpoint : nullptr);
            return solved;
        }
    }

    // Level n streamed with 4 or 2 bits a position (Solver: retro/nibble_retrograde.hpp,
    // retro/wld_retrograde.hpp): as streamed, with the scan files beside the level's file,
    // and the exits gathered in slices of what the memory budget leaves beside the words.
    template <template <class> class Solver>
    SolvedLevel solve_scan(int n, ProgressDisplay& display, LevelMode mode) {
        if constexpr (Game::kMaxMoves > NibbleWord::kMaxMoves) {
            throw std::logic_error("a board of " + std::to_string(P) + " pits a side has no " +
                                   mode_name(mode) + " mode"); // ModePlan says so
        } else {
            SolvedLevel solved{ValueArray(),
                               level_checkpoint(db_, n, Solver<Game>::kCheckpointFormat,
                                                settings_.checkpoint_minutes, display),
                               nullptr, std::make_unique<ScanFiles>(db_.path(n)), nullptr};
            auto level = std::make_unique<ScanLevel<Solver, Game>>(
                game_, db_, n, *solved.scan, settings_.threads, gather_positions(n));
            auto& solver = level->solver();
            solver.set_threshold_shares(progress_shares(n));
            display.level_started(n, db_.level_size(n), mode,
                                  solved.checkpoint ? &*solved.checkpoint : nullptr);
            solver.solve(
                n, [&](const LevelProgress& p) { display.update(p); }, &solved.stats,
                solved.checkpoint ? &*solved.checkpoint : nullptr);
            solved.source = std::move(level);
            return solved;
        }
    }

    // Positions whose exits one slice of the scan engines' gathering holds (a byte each):
    // what the budget leaves beside the margin, the whole level without a budget.
    uint64_t gather_positions(int n) const {
        const uint64_t budget = plan_.budget().bytes;
        const uint64_t margin = plan_.streamed_bytes(n, 0);
        if (budget == 0) return 0;
        return std::max<uint64_t>(sweep::kChunk, budget > margin ? budget - margin : 0);
    }

    BuildSettings settings_;
    const ModePlan& plan_;
    DatabaseDir db_;
    Game game_;
    bool compact_;
    // The levels in memory: all of them while in-memory mode lasts, none from the first
    // streamed level on.
    std::vector<ValueArray> levels_;
    bool streaming_ = false;
    SolvedLevel solved_;
    std::map<int, std::map<int, uint64_t>> value_counts_; // level -> value -> positions
};

} // namespace

std::unique_ptr<LevelBuilder> value_levels(const BuildSettings& settings, const ModePlan& plan,
                                           bool compact) {
    return with_pits_per_side(settings.pits, [&](auto pits) -> std::unique_ptr<LevelBuilder> {
        return std::make_unique<ValueLevels<pits()>>(settings, plan, compact);
    });
}

} // namespace owaredb::cli
