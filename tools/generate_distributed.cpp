// owaredb generate under mpirun (docs/distributed.md): every level is built by all the
// ranks together with the streamed engine, each rank holding its slice of the level (1
// byte a position) and its own exit file, reading the smaller levels from their files in
// the shared directory. Rank 0 takes the directory's lock, checks the levels already
// there, and writes each finished level's file with the same writer as one process (so
// the same bytes), reading the other ranks' slices from them a window at a time while
// they serve them; the others wait for it before the next level, which reads that file. A rank that
// fails ends the job (owaredb_main.cpp); a rerun starts again from the first level whose file is
// missing.
#include "generate_distributed.hpp"

#include "cli/system_stats.hpp"
#include "generate_preflight.hpp"
#include "generate_progress.hpp"
#include "oware/oware_game.hpp"
#include "retro/bellman.hpp"
#include "retro/streamed_retrograde.hpp"
#include "tablebase/database_dir.hpp"
#include "tablebase/streamed_files.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <string>

namespace owaredb::cli {

namespace {

struct Row {
    int n = 0;
    uint64_t positions = 0;
    bool loaded = false;
    double seconds = 0, write_seconds = 0;
    uint64_t messages = 0, rounds = 0;
    std::vector<uint64_t> peak_rss; // per rank
    uint64_t file_bytes = 0;
    std::map<int, uint64_t> values;
};

// "abapa-24.owdb" -> "abapa-24.rank3.exits": each rank's exit file.
std::filesystem::path rank_exit_file(const std::filesystem::path& level_file, int rank) {
    std::filesystem::path p = ExitFile::beside(level_file);
    return p.replace_extension(".rank" + std::to_string(rank) + ".exits");
}

// Rank exit files of level n left by a killed job, of any rank count (rank 0, once the
// level's file is written).
void remove_exit_files(const DatabaseDir& db, int n) {
    const std::string prefix = ExitFile::beside(db.path(n)).stem().string() + ".rank";
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(db.dir(), ec)) {
        const std::string name = entry.path().filename().string();
        if (name.starts_with(prefix) && name.ends_with(".exits"))
            std::filesystem::remove(entry.path(), ec);
    }
}

// Where the ranks' slices of level n begin (as the engine cuts them).
std::vector<uint64_t> solver_bounds(int n, int ranks) {
    return slice_bounds(level_size(n), ranks, StreamedRetrogradeSolver<OwareGame>::kSliceUnit);
}

// Level n as rank 0's writer reads it: its own slice from memory, the others' fetched from
// their ranks a window at a time (they serve() meanwhile), so that rank 0 never holds more
// than its slice and the writer's window.
class RankValues final : public db::ValueSource {
  public:
    RankValues(MpiJob& job, const ValueArray& mine, std::vector<uint64_t> bounds)
        : job_(job), mine_(mine), bounds_(std::move(bounds)) {}
    uint64_t size() const override { return bounds_.back(); }
    void read(uint64_t begin, std::span<int8_t> out) const override {
        for (uint64_t at = 0; at < out.size();) {
            const uint64_t i = begin + at;
            const int owner = owner_of(bounds_, i);
            const uint64_t offset = i - bounds_[size_t(owner)];
            const uint64_t count =
                std::min<uint64_t>(out.size() - at, bounds_[size_t(owner) + 1] - i);
            const auto piece = out.subspan(at, count);
            if (owner == 0)
                std::copy_n(mine_.data() + offset, count, piece.begin());
            else
                job_.fetch(owner, offset, piece);
            at += count;
        }
    }

  private:
    MpiJob& job_;
    const ValueArray& mine_;
    std::vector<uint64_t> bounds_;
};

// Collective: value -> positions of the whole level, from every rank's slice.
std::map<int, uint64_t> level_histogram(MpiJob& job, const ValueArray& slice) {
    std::map<int, uint64_t> mine = histogram(slice), all;
    for (int v = -kMaxSeeds; v <= kMaxSeeds; ++v)
        if (const uint64_t count = job.sum(mine.count(v) ? mine[v] : 0)) all[v] = count;
    return all;
}

void print_rows(const std::vector<Row>& rows, int ranks) {
    std::printf("\n%5s %11s %13s %9s %12s %8s %17s %10s %10s  %s\n", "level", "mode", "positions",
                "seconds", "positions/s", "write s", "peak MiB r0/other", "msgs/pos", "file KiB",
                "values (V>0 / V=0 / V<0)");
    const std::string mode = "mpi x " + std::to_string(ranks);
    for (const Row& r : rows) {
        uint64_t win = 0, draw = 0, loss = 0;
        for (auto [v, c] : r.values) (v > 0 ? win : v == 0 ? draw : loss) += c;
        char rate[32] = "(loaded)", msgs[32] = "-";
        if (!r.loaded && r.seconds > 0)
            std::snprintf(rate, sizeof rate, "%.0f", double(r.positions) / r.seconds);
        if (!r.loaded && r.positions)
            std::snprintf(msgs, sizeof msgs, "%.3f", double(r.messages) / double(r.positions));
        // Rank 0 gathers and writes the level; the others hold their slices only.
        const uint64_t first = r.peak_rss.empty() ? 0 : r.peak_rss[0];
        const uint64_t other =
            r.peak_rss.size() < 2 ? 0 : *std::max_element(r.peak_rss.begin() + 1, r.peak_rss.end());
        char peak[48];
        std::snprintf(peak, sizeof peak, "%.0f / %.0f", double(first) / (1 << 20),
                      double(other) / (1 << 20));
        std::printf("%5d %11s %13llu %9.2f %12s %8.2f %17s %10s %10.1f  %llu / %llu / %llu\n", r.n,
                    r.loaded ? "loaded" : mode.c_str(), (unsigned long long)r.positions, r.seconds,
                    rate, r.write_seconds, peak, msgs, double(r.file_bytes) / 1024,
                    (unsigned long long)win, (unsigned long long)draw, (unsigned long long)loss);
    }
    std::printf("\n(peak MiB r0/other: the peak RSS of rank 0, which writes each "
                "level, and the largest of the other ranks'; msgs/pos: propagation messages of 8 "
                "bytes between ranks per position of the level)\n");
}

} // namespace

int generate_distributed(MpiJob& job, const Rules& rules, const std::string& dir, int max_seeds,
                         int threads, uint64_t budget, bool budget_given) {
    const int rank = job.rank(), ranks = job.ranks();
    const bool lead = rank == 0;
    // Every rank checks its own memory before anything is written.
    check_level_fits(max_seeds, distributed_bytes(max_seeds, rank, ranks, kMinRequestBytes),
                     "distributed mode on rank " + std::to_string(rank) + " of " +
                         std::to_string(ranks) + (lead ? ", which writes each level" : ""),
                     0, dir, budget, budget_given);
    std::unique_ptr<db::DirectoryLock> lock;
    if (lead) lock = prepare_output_directory(dir);
    job.broadcast(0); // the directory exists before any rank looks into it
    DatabaseDir db(dir, rules);
    if (lead) {
        std::printf("owaredb generate: rules %s, levels 0..%d, directory %s, %d MPI ranks x %d "
                    "threads\n",
                    rules.name.c_str(), max_seeds, dir.c_str(), ranks, threads);
        std::fflush(stdout);
    }
    ProgressDisplay display(ProgressDisplay::work_to_do(db, max_seeds));

    std::vector<Row> rows;
    for (int n = 0; n <= max_seeds; ++n) {
        Row row;
        row.n = n;
        row.positions = level_size(n);
        reset_peak_rss();
        auto t0 = Clock::now();
        // Rank 0 checks a present file (every block, as one process does) and tells the others.
        uint64_t present = 0;
        if (lead) {
            db::ReaderOptions options;
            options.expect = db.expectation(n);
            db::Result<db::Histogram> h = db::LevelReader(db.path(n), options).histogram(threads);
            if (h.ok()) {
                present = 1;
                for (int b = 0; b < 256; ++b)
                    if (h->counts[b]) row.values[int8_t(b)] = h->counts[b];
            } else if (h.status().code() != db::ErrorCode::NotFound) {
                std::fprintf(stderr, "level %d: existing file unusable, rebuilding it: %s\n", n,
                             h.status().message().c_str());
            }
            if (present) remove_exit_files(db, n);
        }
        if (job.broadcast(present)) {
            row.loaded = true;
            row.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
            std::error_code ec;
            row.file_bytes = lead ? std::filesystem::file_size(db.path(n), ec) : 0;
            row.peak_rss = job.gather(peak_rss_bytes());
            rows.push_back(std::move(row));
            continue;
        }
        const uint64_t request = distributed_request_bytes(n, rank, ranks, budget);
        check_level_fits(n, distributed_bytes(n, rank, ranks, request), "distributed mode", 0, dir,
                         budget, budget_given);
        FileSmallerLevels smaller(db, n, threads);
        ExitFile exits(rank_exit_file(db.path(n), rank));
        StreamedRetrogradeSolver<OwareGame> solver(db.game(), smaller, exits, threads,
                                                   segment_positions_for(request), &job.link());
        if (lead) display.level_started(n, level_size(n), LevelMode::Distributed);
        LevelStats stats;
        const ValueArray slice = solver.solve(
            n,
            [&](const LevelProgress& p) {
                if (lead) display.update(p);
            },
            &stats);
        exits.remove();
        row.messages = job.sum(stats.messages);
        row.rounds = stats.rounds;
        row.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
        auto w0 = Clock::now();
        if (lead) {
            if (row.positions > (1u << 24)) display.writing();
            RankValues values(job, slice, solver_bounds(n, ranks));
            const db::WriteReport report = db.save(n, values, threads);
            job.stop_serving();
            row.file_bytes = report.file_bytes;
            remove_exit_files(db, n);
            display.level_finished();
        } else {
            job.serve(std::span<const int8_t>(slice.data(), slice.size()));
        }
        row.write_seconds = std::chrono::duration<double>(Clock::now() - w0).count();
        row.values = level_histogram(job, slice);
        row.peak_rss = job.gather(peak_rss_bytes());
        job.broadcast(0); // level n's file is written before anyone reads it
        if (lead) {
            std::printf("level %2d solved (distributed, %d ranks): %llu positions in %.2f s, "
                        "%.3f messages/position\n",
                        n, ranks, (unsigned long long)row.positions, row.seconds,
                        row.positions ? double(row.messages) / double(row.positions) : 0);
            std::fflush(stdout);
        }
        rows.push_back(std::move(row));
    }
    if (!lead) return 0;
    print_rows(rows, ranks);
    double total = 0;
    for (const Row& r : rows) total += r.seconds + r.write_seconds;
    std::printf("\ntotal: %.1f s solving, loading and writing levels 0..%d\n", total, max_seeds);
    std::printf("\nstart positions (k seeds in every pit, one ply over the databases):\n");
    const std::vector<ValueArray> none; // every level from its file
    ChildValues child_value(db, none);
    for (int k = 1; 12 * k <= max_seeds; ++k) {
        const int v = bellman_value(db.game(), 12 * k, Position::start(k), child_value);
        std::printf("  %d per pit (%2d seeds): value %+d under %s\n", k, 12 * k, v,
                    rules.name.c_str());
    }
    return 0;
}

} // namespace owaredb::cli
