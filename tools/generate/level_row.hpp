// What `owaredb generate` records of each level, whatever built it, and the one summary
// table it prints at the end of a run.
#pragma once

#include "generate/phase_times.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace owaredb::cli {

struct LevelRow {
    int n = 0;
    uint64_t positions = 0;
    bool loaded = false;      ///< read from an existing file rather than built
    bool recorded = false;    ///< loaded, with its build's figures from the build record
    std::string mode;         ///< how it was built: "in-memory", "streamed", "bounds", "mpi x 4"
    double seconds = 0;       ///< solving (or checking the existing file)
    double write_seconds = 0; ///< compressing and writing the file
    double cpu_seconds = 0;   ///< CPU time of this process for both (user + system)
    /// A level resumed from its checkpoint: what earlier runs spent on it (included in
    /// `seconds` and `cpu_seconds`), or unknown (a version-2 checkpoint did not record it:
    /// then `seconds` and `cpu_seconds` are this run's only).
    double earlier_seconds = 0, earlier_cpu_seconds = 0;
    bool earlier_unknown = false;
    std::vector<uint64_t> peak_rss; ///< bytes, per process: one, or every rank
    uint64_t file_bytes = 0;
    std::map<int, uint64_t> values;   ///< value files: value -> positions
    std::optional<uint64_t> exact;    ///< bound files: positions with gM + gN = n
    std::optional<uint64_t> messages; ///< distributed: propagation messages between ranks
    /// Built here: the most bytes the level's files held at once while it was built (its
    /// file, checkpoint, exit and scan files; DiskPeak, sampled each second).
    std::optional<uint64_t> disk_peak;
    /// Built here: the solving time by phase (PhaseClock; without the file's write).
    PhaseTimes phases;
    /// Built here: the threshold scans, overflow rescans included (LevelStats::scans).
    std::optional<uint64_t> scans;
    /// Built here in 4 or 2 bits: the most parents one thread's full propagation stack
    /// held spilled at once, in this process's part of the level (LevelStats::spilled_peak).
    std::optional<uint64_t> spilled_peak;

    double bits_per_position() const {
        return positions ? 8.0 * double(file_bytes) / double(positions) : 0;
    }
};

/// The summary table of a run (columns for what the rows hold: value counts, exact bound
/// counts, messages and per-rank memory), the value distribution of value levels, and
/// the total time. `what`: "levels" or "bound levels".
void print_summary(const std::vector<LevelRow>& rows, const std::string& what);

} // namespace owaredb::cli
