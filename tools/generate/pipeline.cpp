#include "generate/pipeline.hpp"

#include "cli/stop_signals.hpp"
#include "cli/system_stats.hpp"
#include "generate/build_record.hpp"
#include "generate/disk_peak.hpp"
#include "oware/position.hpp"
#include "tablebase/level_checkpoint.hpp"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace owaredb::cli {

namespace {

double since(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

} // namespace

std::vector<uint64_t> LevelBuilder::peak_rss() const {
    return {peak_rss_bytes()};
}

namespace {

// Level n's row: loaded from its file if that is there and sound, else built (checked,
// solved, written), its time and peak memory measured.
LevelRow load_or_build(LevelBuilder& builder, int n, ProgressDisplay& display) {
    const bool prints = builder.prints();
    LevelRow row;
    row.n = n;
    row.positions = builder.dir().level_size(n);
    reset_peak_rss();
    const auto t0 = Clock::now();
    if (builder.load(n, row)) {
        row.loaded = true;
        row.seconds = since(t0);
    } else {
        // The level's own peak from here: what load() just gave back (the in-memory
        // levels, when the run turns to streamed ones) was never this level's.
        reset_peak_rss();
        DiskPeak disk(builder.dir(), n);
        builder.check(n);
        builder.solve(n, display);
        // The phases first: read after the level's time, they counted the moments between
        // the two reads (a process descheduled there gave phases 4 ms over a 12 ms level).
        row.phases = display.phases();
        row.seconds = since(t0);
        if (prints && row.positions > (1u << 24)) display.writing();
        const auto w0 = Clock::now();
        builder.write(n, row);
        row.write_seconds = since(w0);
        if (prints) display.level_finished(row.write_seconds);
        row.disk_peak = disk.stop();
    }
    row.file_bytes = builder.dir().file_bytes(n);
    row.seconds += row.earlier_seconds;
    return row;
}

// The line of a level just built: "level 12 solved (in-memory): ... positions in ... s".
void print_solved(const LevelBuilder& builder, const LevelRow& row) {
    std::printf("level %2d %s: %llu positions in %.2f s", row.n, builder.solved_label(row).c_str(),
                (unsigned long long)row.positions, row.seconds);
    if (row.earlier_seconds > 0)
        std::printf(" (%.2f s of them in earlier runs)", row.earlier_seconds);
    if (row.earlier_unknown)
        std::printf(" (this run's part: the checkpoint it resumed from does not record "
                    "the earlier runs' time)");
    std::printf(", %.3f bits/position on disk", row.bits_per_position());
    if (row.messages && row.positions)
        std::printf(", %.3f messages/position", double(*row.messages) / double(row.positions));
    std::printf("\n");
    std::fflush(stdout);
}

// A level loaded from its file shows the row the record keeps of its build, if any.
void recall_build(const BuildRecord& record, const std::filesystem::path& file, LevelRow& row) {
    const std::optional<LevelRow> built = record.find(file);
    if (!built) return;
    row.recorded = true;
    row.mode = built->mode;
    row.seconds = built->seconds;
    row.write_seconds = built->write_seconds;
    row.cpu_seconds = built->cpu_seconds;
    row.earlier_unknown = built->earlier_unknown;
    row.peak_rss = built->peak_rss;
    row.messages = built->messages;
    row.disk_peak = built->disk_peak;
    row.phases = built->phases;
    row.scans = built->scans;
    row.spilled_peak = built->spilled_peak;
}

// The summary table and the start positions' values.
void print_ending(LevelBuilder& builder, const GameLevels& levels,
                  const std::vector<LevelRow>& rows, const std::string& what) {
    print_summary(rows, what);
    if (levels.skipped >= 0)
        std::printf("(level %d: %s, not built)\n", levels.skipped,
                    levels.why_not(levels.skipped).c_str());
    std::printf("\nstart positions (k seeds in every pit, one ply over the %s):\n",
                builder.files_name().c_str());
    const int pits = 2 * builder.dir().pits();
    for (int k = 1; pits * k <= levels.max_level; ++k)
        std::printf("  %d per pit (%2d seeds): %s under %s\n", k, pits * k,
                    builder.start_position(k).c_str(), builder.dir().rules().name.c_str());
}

// A run a signal asked to stop (StopSignals): says where it stopped and how to go on, and
// gives the exit status.
int stopped(ProgressDisplay& display, int n, const std::string& where) {
    std::fflush(stdout);
    display.note(n, "stopped by " + StopSignals::signal_name() + ": " + where +
                        "; rerun the same command to resume");
    return kStoppedStatus;
}

} // namespace

int run_levels(LevelBuilder& builder, const GameLevels& levels, const std::string& title,
               const std::string& what, int threads) {
    const bool prints = builder.prints();
    if (prints) {
        std::printf("%s\n", title.c_str());
        std::fflush(stdout);
    }
    ProgressDisplay display(ProgressDisplay::work_to_do(builder.dir(), levels),
                            ProgressDisplay::recorded(builder.dir(), levels));
    const BuildRecord record(builder.dir().dir());
    std::vector<LevelRow> rows;
    for (int n = 0; n <= levels.max_level; ++n) {
        if (!levels.contains(n)) {
            builder.skip(n);
            if (prints) std::printf("level %2d: %s, not built\n", n, levels.why_not(n).c_str());
            continue;
        }
        if (db::Status s = builder.dir().check_file_types(n); !s.ok())
            throw std::runtime_error(s.message() + " (where level " + std::to_string(n) +
                                     "'s files go; remove it or choose another --dir)");
        if (StopSignals::requested())
            return stopped(display, n,
                           "before the level started (every level below it is "
                           "written)");
        const double cpu0 = cpu_seconds();
        LevelRow row;
        try {
            row = load_or_build(builder, n, display);
        } catch (const CheckpointStop& stop) {
            return stopped(display, n, stop.what());
        }
        if (prints && !row.loaded) print_solved(builder, row);
        row.cpu_seconds = cpu_seconds() - cpu0 + row.earlier_cpu_seconds;
        row.peak_rss = builder.peak_rss(); // collective in a distributed run: every level
        if (prints && !row.loaded)
            record.append(builder.dir().path(n), row, threads);
        else if (prints)
            recall_build(record, builder.dir().path(n), row);
        rows.push_back(std::move(row));
    }
    if (prints) print_ending(builder, levels, rows, what);
    return 0;
}

} // namespace owaredb::cli
