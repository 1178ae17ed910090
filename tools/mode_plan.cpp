#include "mode_plan.hpp"

#include "cli/command.hpp"
#include "dbformat/reader.hpp"
#include "dbformat/writer.hpp"
#include "oware/ranking.hpp"
#include "retro/sweep.hpp"
#include "tablebase/scan_files.hpp"
#include "tablebase/streamed_files.hpp"

#include <algorithm>
#include <string>

namespace owaredb::cli {

const char* mode_name(LevelMode mode) {
    return mode == LevelMode::InMemory   ? "in-memory"
           : mode == LevelMode::Streamed ? "streamed"
           : mode == LevelMode::Nibble   ? "streamed-4bit"
           : mode == LevelMode::Wld      ? "streamed-2bit"
                                         : "distributed";
}

uint64_t in_memory_bytes(int n, int working, int stored, int pits_per_side) {
    // The process itself, the compressor's buffers and the page cache of the files being
    // read come on top of the arrays: a fixed margin.
    uint64_t bytes = level_size(pits_per_side, n) * uint64_t(working) + (uint64_t(128) << 20);
    for (int k = 0; k < n; ++k) bytes += level_size(pits_per_side, k) * uint64_t(stored);
    return bytes;
}

namespace {

// The entries of the level's block (decoded, a byte a position) that the writer's default
// tiers give a level of `positions`.
uint64_t default_block_entries(uint64_t positions) {
    const db::WriterOptions defaults;
    const uint64_t tier_block = db::encoding_for(defaults, positions).block_entries;
    return tier_block ? tier_block : defaults.block_candidates.front();
}

// A propagation stack's entry on the largest board.
constexpr uint64_t kStackEntryBytes =
    sizeof(sweep::PropagationStack<BasicPosition<kMaxPitsPerSide>>::Entry);

} // namespace

uint64_t build_thread_bytes(int n, int bits, int pits_per_side) {
    uint64_t bytes = sweep::kStackLimit * kStackEntryBytes;
    if (bits > 8) return bytes;
    if (bits < 8) bytes += kSpillMemoryEntries * sizeof(uint64_t);
    for (int k = 0; k < n; ++k)
        if (streamed_source_holds(n, k, false, pits_per_side))
            bytes += default_block_entries(level_size(pits_per_side, k));
    return bytes;
}

uint64_t streamed_word_bytes(int n, int bits, int pits_per_side) {
    const uint64_t size = level_size(pits_per_side, n);
    uint64_t bytes = (size * uint64_t(bits) + 7) / 8 + (uint64_t(56) << 20);
    // The scan engines' store (4 and 2 bits, and their gathering) keeps the index of the
    // generation it writes in memory: a generation covers the level in chunks of kChunk.
    if (bits < 8)
        bytes += (size + sweep::kChunk - 1) / sweep::kChunk * ScanFiles::kIndexBytesPerChunk;
    // The readers of the smaller levels a capture reaches keep their files' block indexes,
    // the blocks being those the writer's default tiers give a level of that size.
    for (int k = 0; k < n; ++k)
        if (streamed_source_holds(n, k, false, pits_per_side)) {
            const uint64_t positions = level_size(pits_per_side, k);
            const uint64_t block = default_block_entries(positions);
            bytes += (positions + block - 1) / block * db::kReaderBytesPerBlock;
        }
    return bytes;
}

ModePlan::ModePlan(const std::string& mode, MemoryBudget budget, int pits_per_side,
                   LevelFootprint footprint)
    : budget_(budget), footprint_(footprint), pits_(pits_per_side) {
    const bool sub_byte = footprint.max_nibble_pits > 0;
    if (mode == "in-memory" || mode == "streamed" ||
        (sub_byte && (mode == "streamed-4bit" || mode == "streamed-2bit"))) {
        forced_ = true;
        forced_mode_ = mode == "in-memory"       ? LevelMode::InMemory
                       : mode == "streamed"      ? LevelMode::Streamed
                       : mode == "streamed-4bit" ? LevelMode::Nibble
                                                 : LevelMode::Wld;
    } else if (mode != "auto") {
        throw UsageError(
            std::string("--mode must be auto, in-memory") +
            (sub_byte ? ", streamed, streamed-4bit or streamed-2bit" : " or streamed") + ", got '" +
            mode + "'");
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
    const bool sub_byte = forced_mode_ == LevelMode::Nibble || forced_mode_ == LevelMode::Wld;
    if (sub_byte && pits_ > footprint_.max_nibble_pits)
        throw UsageError("a board of " + std::to_string(pits_) + " pits a side has no " +
                         mode_name(forced_mode_) + " mode (" +
                         (forced_mode_ == LevelMode::Nibble ? "4 bits a position hold"
                                                            : "its first pass takes") +
                         " up to " + std::to_string(footprint_.max_nibble_pits) +
                         " moves); use --mode streamed or auto");
}

LevelMode ModePlan::mode(int n) const {
    if (forced_) return forced_mode_;
    if (budget_.bytes == 0 || !streams() || in_memory_bytes(n) <= budget_.bytes)
        return LevelMode::InMemory;
    if (pits_ > footprint_.max_nibble_pits || streamed_bytes(n, 8) <= budget_.bytes)
        return LevelMode::Streamed;
    return streamed_bytes(n, 4) > budget_.bytes ? LevelMode::Wld : LevelMode::Nibble;
}

uint64_t ModePlan::in_memory_bytes(int n) const {
    return cli::in_memory_bytes(n, footprint_.working, footprint_.stored, pits_) +
           threads_beyond_margin() * build_thread_bytes(n, 16, pits_);
}

uint64_t ModePlan::streamed_bytes(int n, int bits) const {
    return streamed_word_bytes(n, bits, pits_) +
           threads_beyond_margin() * build_thread_bytes(n, bits, pits_);
}

uint64_t ModePlan::threads_beyond_margin() const {
    return uint64_t(std::max(build_threads_ - kMarginThreads, 0));
}

} // namespace owaredb::cli
