#include "mode_plan.hpp"

#include "cli/command.hpp"
#include "oware/ranking.hpp"

namespace owaredb::cli {

const char* mode_name(LevelMode mode) {
    return mode == LevelMode::InMemory   ? "in-memory"
           : mode == LevelMode::Streamed ? "streamed"
                                         : "distributed";
}

uint64_t in_memory_bytes(int n, int working, int stored, int pits_per_side) {
    // The process itself, the compressor's buffers and the page cache of the files being
    // read come on top of the arrays: a fixed margin.
    uint64_t bytes = level_size(pits_per_side, n) * uint64_t(working) + (uint64_t(128) << 20);
    for (int k = 0; k < n; ++k) bytes += level_size(pits_per_side, k) * uint64_t(stored);
    return bytes;
}

ModePlan::ModePlan(const std::string& mode, MemoryBudget budget, int pits_per_side,
                   LevelFootprint footprint)
    : budget_(budget), footprint_(footprint), pits_(pits_per_side) {
    if (mode == "in-memory" || mode == "streamed") {
        forced_ = true;
        forced_mode_ = mode == "in-memory" ? LevelMode::InMemory : LevelMode::Streamed;
    } else if (mode != "auto") {
        throw UsageError("--mode must be auto, in-memory or streamed, got '" + mode + "'");
    }
    check_board();
}

void ModePlan::set_board(int pits_per_side) {
    pits_ = pits_per_side;
    check_board();
}

void ModePlan::check_board() const {
    if (forced_mode_ == LevelMode::Streamed && !streams())
        throw UsageError("a board of " + std::to_string(pits_) +
                         " pits a side has no streamed mode (its byte a position holds up to 7 "
                         "moves); use --mode in-memory or auto");
}

LevelMode ModePlan::mode(int n) const {
    if (forced_) return forced_mode_;
    return budget_.bytes == 0 || !streams() || in_memory_bytes(n) <= budget_.bytes
               ? LevelMode::InMemory
               : LevelMode::Streamed;
}

uint64_t ModePlan::in_memory_bytes(int n) const {
    return cli::in_memory_bytes(n, footprint_.working, footprint_.stored, pits_);
}

} // namespace owaredb::cli
