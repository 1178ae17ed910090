// Value levels built under mpirun (docs/distributed.md): every level is built by all the
// ranks together with the streamed engine, each rank holding its slice of the level (1
// byte a position) and its own exit file, reading the smaller levels from their files in
// the shared directory. Rank 0 checks the levels already there and writes each finished
// level's file with the same writer as one process (so the same bytes), reading the other
// ranks' slices from them a window at a time while they serve them; the others wait for
// it before the next level, which reads that file. A rank that fails ends the job
// (owaredb_main.cpp); a rerun starts again from the first level whose file is missing.
#include "cli/system_stats.hpp"
#include "generate/builders.hpp"
#include "oware/partition.hpp"
#include "retro/distributed_rounds.hpp"
#include "retro/streamed_retrograde.hpp"
#include "tablebase/database_dir.hpp"
#include "tablebase/streamed_files.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace owaredb::cli {

namespace {

// The values that `rank` holds of positions [begin, end) of level n, in the level's order,
// from its slice (in the partition's order), into `out` (exactly their number).
void rank_values(const LevelPartition<6>& partition, int rank, std::span<const int8_t> slice,
                 uint64_t begin, uint64_t end, std::span<int8_t> out) {
    size_t at = 0;
    partition.for_each_run(begin, end, [&](const LevelPartition<6>::Run& run) {
        if (run.rank != rank) return;
        if (at + run.count > out.size())
            throw std::logic_error("MPI fetch: more values held than rank 0 asked for");
        for (uint64_t m = 0; m < run.count; ++m) out[at++] = slice[run.local + m * run.stride];
    });
    if (at != out.size())
        throw std::logic_error("MPI fetch: fewer values held than rank 0 asked for");
}

// Level n as rank 0's writer reads it, in the level's order: its own values from its slice,
// the others' fetched from their ranks a window at a time (they serve() meanwhile), so
// that rank 0 never holds more than its slice and the writer's window. The values' counts
// were summed over the ranks before, so the level crosses the network once for its blocks
// (and its sample), not a second time for a counting pass.
class RankValues final : public db::ValueSource {
  public:
    RankValues(MpiJob& job, const ValueArray& mine, const LevelPartition<6>& partition,
               const std::map<int, uint64_t>& counts)
        : job_(job), mine_(mine), partition_(partition) {
        for (const auto& [value, count] : counts) counts_[uint8_t(int8_t(value))] = count;
    }
    uint64_t size() const override { return partition_.bounds().back(); }
    std::optional<std::array<uint64_t, 256>> counts() const override { return counts_; }
    void read(uint64_t begin, std::span<int8_t> out) const override {
        const uint64_t end = begin + out.size();
        std::vector<std::vector<int8_t>> theirs(size_t(partition_.ranks()));
        std::vector<size_t> taken(theirs.size(), 0);
        partition_.for_each_run(begin, end, [&](const LevelPartition<6>::Run& run) {
            taken[size_t(run.rank)] += run.count;
        });
        for (int r = 1; r < partition_.ranks(); ++r) {
            if (taken[size_t(r)] == 0) continue;
            theirs[size_t(r)].resize(taken[size_t(r)]);
            job_.fetch(r, begin, out.size(), theirs[size_t(r)]);
        }
        std::fill(taken.begin(), taken.end(), 0);
        partition_.for_each_run(begin, end, [&](const LevelPartition<6>::Run& run) {
            int8_t* to = out.data() + (run.first - begin);
            const size_t r = size_t(run.rank);
            if (r == 0)
                for (uint64_t m = 0; m < run.count; ++m)
                    to[m] = mine_.data()[run.local + m * run.stride];
            else
                std::copy_n(theirs[r].data() + taken[r], run.count, to);
            taken[r] += run.count;
        });
    }

  private:
    MpiJob& job_;
    const ValueArray& mine_;
    const LevelPartition<6>& partition_;
    std::array<uint64_t, 256> counts_{};
};

class DistributedLevels final : public LevelBuilder {
  public:
    DistributedLevels(const BuildSettings& settings, MpiJob& job, MemoryBudget budget)
        : settings_(settings), job_(job), budget_(budget),
          db_(settings.dir, settings.rules, false, kPitsPerSide), lead_(job.rank() == 0) {}

    const LevelDir& dir() const override { return db_; }
    bool prints() const override { return lead_; }

    // Rank 0 checks a present file (every block, as one process does) and tells the others.
    bool load(int n, LevelRow& row) override {
        uint64_t present = 0;
        if (lead_) {
            db::Result<db::Histogram> h = db_.check(n, settings_.threads);
            if (h.ok()) {
                present = 1;
                row.values = histogram(*h);
                db_.remove_scratch(n);
            } else if (h.status().code() != db::ErrorCode::NotFound) {
                std::fprintf(stderr, "level %d: existing file unusable, rebuilding it: %s\n", n,
                             h.status().message().c_str());
            }
        }
        return job_.broadcast(present) != 0;
    }

    void check(int n) const override {
        check_memory(n, distributed_bytes(n, job_.rank(), job_.ranks(), request_bytes(n)),
                     "distributed mode", budget_);
    }

    void solve(int n, ProgressDisplay& display) override {
        FileSmallerLevels smaller(db_, n, settings_.threads);
        ExitFile exits(db::rank_exit_file_path(db_.path(n), job_.rank()));
        const OwareGame game(db_.rules());
        partition_.emplace(n,
                           slice_bounds(level_size<6>(n), job_.ranks(), distributed::kSliceUnit));
        const PartitionedOwareGame<6> ranked(game, *partition_);
        StreamedRetrogradeSolver<PartitionedOwareGame<6>> solver(
            ranked, smaller, exits, settings_.threads, segment_positions_for(request_bytes(n)),
            &job_.link());
        if (lead_) display.level_started(n, level_size<6>(n), LevelMode::Distributed);
        slice_ = solver.solve(n, [&](const LevelProgress& p) {
            if (lead_) display.update(p);
        });
        exits.remove();
        messages_ = job_.sum(solver.round_stats().messages);
    }

    void write(int n, LevelRow& row) override {
        row.values = level_histogram();
        if (lead_) {
            RankValues values(job_, slice_, *partition_, row.values);
            db_.save(n, values, settings_.threads);
            job_.stop_serving();
            db_.remove_scratch(n);
        } else {
            job_.serve([&](uint64_t begin, uint64_t length, std::span<int8_t> out) {
                rank_values(*partition_, job_.rank(),
                            std::span<const int8_t>(slice_.data(), slice_.size()), begin,
                            begin + length, out);
            });
        }
        row.mode = "mpi x " + std::to_string(job_.ranks());
        row.messages = messages_;
        job_.broadcast(0); // level n's file is written before anyone reads it
    }

    std::vector<uint64_t> peak_rss() const override { return job_.gather(peak_rss_bytes()); }

    std::string solved_label(const LevelRow&) const override {
        return "solved (distributed, " + std::to_string(job_.ranks()) + " ranks)";
    }
    std::string files_name() const override { return "databases"; }

    std::string start_position(int k) override {
        return start_value<6>(db_, {}, k); // every level from its file
    }

  private:
    uint64_t request_bytes(int n) const {
        return distributed_request_bytes(n, job_.rank(), job_.ranks(), budget_.bytes);
    }
    // Collective: value -> positions of the whole level, from every rank's slice.
    std::map<int, uint64_t> level_histogram() {
        std::map<int, uint64_t> mine = histogram(slice_), all;
        for (int v = -kMaxSeeds; v <= kMaxSeeds; ++v)
            if (const uint64_t count = job_.sum(mine.count(v) ? mine[v] : 0)) all[v] = count;
        return all;
    }

    BuildSettings settings_;
    MpiJob& job_;
    MemoryBudget budget_;
    DatabaseDir db_;
    bool lead_;
    std::optional<LevelPartition<6>> partition_; ///< of the level being solved and written
    ValueArray slice_; ///< this rank's values of it, in the partition's order
    uint64_t messages_ = 0;
};

} // namespace

std::unique_ptr<LevelBuilder> distributed_levels(const BuildSettings& settings, MpiJob& job,
                                                 MemoryBudget budget) {
    return std::make_unique<DistributedLevels>(settings, job, budget);
}

} // namespace owaredb::cli
