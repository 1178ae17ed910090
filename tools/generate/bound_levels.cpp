// Bound levels (gM, gN; docs/values.md, Convention-free bounds) built in memory with the
// bounds solver (retro/bounds.hpp), 2 bytes per position of every level, beside any value
// files, with the same resume and checkpoints as value levels. A template on the board, P
// pits a side, for P <= 6 (the bounds solver's move counter keeps code 7).
#include "generate/builders.hpp"
#include "generate/solved_level.hpp"
#include "retro/bounds.hpp"
#include "tablebase/bounds_dir.hpp"

#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace owaredb::cli {

namespace {

template <int P> class BoundLevels final : public LevelBuilder {
  public:
    using Game = BasicOwareGame<P>;

    explicit BoundLevels(const BuildSettings& settings)
        : settings_(settings), db_(settings.dir, settings.rules, P), game_(settings.rules) {}

    const LevelDir& dir() const override { return db_; }

    bool load(int n, LevelRow& row) override {
        ValueArray bounds;
        const db::Status loaded = db_.load(n, bounds, settings_.threads);
        if (loaded.ok()) {
            db_.remove_scratch(n);
            keep(n, std::move(bounds), row);
            return true;
        }
        if (loaded.code() != db::ErrorCode::NotFound)
            std::fprintf(stderr, "level %d: existing bound file unusable, rebuilding it: %s\n", n,
                         loaded.message().c_str());
        return false;
    }

    void check(int n) const override {
        DiskNeed need = disk_need(n, 2, settings_.checkpoint_minutes >= 0, LevelMode::InMemory, P,
                                  db_.measured_file_bits(n));
        need.on_disk = db_.scratch_bytes(n);
        check_disk(n, need, settings_.dir);
    }

    void solve(int n, ProgressDisplay& display) override {
        solved_ = solve_level_in_memory<BoundsSolver>(
            game_, db_, n, levels_, {settings_.threads, settings_.checkpoint_minutes}, display);
    }

    void write(int n, LevelRow& row) override {
        db_.save(n, solved_.entries, settings_.threads);
        solved_.written(row);
        row.mode = "bounds";
        keep(n, std::move(solved_.entries), row);
        solved_ = SolvedLevel{};
    }

    std::string solved_label(const LevelRow&) const override { return "bounds solved"; }
    void skip(int) override { levels_.emplace_back(); } // keeps levels_[k] = level k
    std::string files_name() const override { return "bound files"; }

    std::string start_position(int k) override {
        const int n = 2 * P * k;
        const BoundPair b = bounds_equation(
            game_, n, BasicPosition<P>::start(k), [&](int level, const BasicPosition<P>& child) {
                return bound_pair(levels_[size_t(level)].data(), rank(child));
            });
        char line[48];
        std::snprintf(line, sizeof line, "gM %d, gN %d%s", b.gm, b.gn,
                      b.gm + b.gn == n ? " (exact)" : "");
        return line;
    }

  private:
    // Level n's bounds become a smaller level of the next ones; the row counts its exact
    // pairs (gM + gN = n).
    void keep(int n, ValueArray bounds, LevelRow& row) {
        uint64_t exact = 0;
        for (uint64_t i = 0; i < db_.level_size(n); ++i) {
            const BoundPair b = bound_pair(bounds.data(), i);
            exact += b.gm + b.gn == n;
        }
        row.exact = exact;
        levels_.push_back(std::move(bounds));
    }

    BuildSettings settings_;
    BoundsDir db_;
    Game game_;
    std::vector<ValueArray> levels_;
    SolvedLevel solved_;
};

} // namespace

std::unique_ptr<LevelBuilder> bound_levels(const BuildSettings& settings) {
    return with_pits_per_side(settings.pits, [&](auto pits) -> std::unique_ptr<LevelBuilder> {
        if constexpr (pits() > kMaxBoundsPitsPerSide)
            throw std::invalid_argument("--bounds is for boards of up to " +
                                        std::to_string(kMaxBoundsPitsPerSide) +
                                        " pits a side (the bounds solver's move counter)");
        else
            return std::make_unique<BoundLevels<pits()>>(settings);
    });
}

} // namespace owaredb::cli
