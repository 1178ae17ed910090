// Writing level files.
//
// Contract:
// - write_level() writes the whole level atomically: bytes go to "<path>.tmp" in the same
//   directory, which is fsync'ed, renamed over <path>, and the directory is fsync'ed. A
//   crash or error at any point leaves either the old <path> or the complete new one; a
//   leftover "<path>.tmp" is never opened by readers (and would fail validation anyway:
//   the trailer and the checksums are written last).
// - Errors throw: std::invalid_argument for bad arguments (with the offending index for a
//   value out of range), std::runtime_error for I/O failures, with a message naming the
//   file and the OS error (e.g. "No space left on device"). On error the temp file is
//   removed.
// - Deterministic: the same meta, values and options give byte-identical files whatever the
//   thread count. All choices made by measurement use a fixed sample and fixed tie-breaks.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <vector>

#include "dbformat/format.hpp"

namespace owaredb::db {

enum class DictionaryMode {
    Off,  // never use a dictionary
    On,   // train one and use it (unless zstd cannot train on this data)
    Auto, // use one only if it makes the measured sample smaller, its own size included
};

struct WriterOptions {
    // Entries per block: a power of two in [kMinBlockEntries, kMaxBlockEntries]. Larger blocks
    // compress better; smaller ones make a cold probe cheaper. 0 = choose among
    // block_candidates by measurement: the smallest block whose compressed size is within
    // larger_block_tolerance of the best candidate.
    uint32_t block_entries = 0;
    std::vector<uint32_t> block_candidates = {1u << 14, 1u << 16, 1u << 18};
    double larger_block_tolerance = 0.03;
    // zstd level, -100..22. Decompression speed hardly depends on it. The default is the best
    // size for the time measured on abapa levels 14..20 (owaredb_format_bench --profile,
    // dbformat/README.md): files 0.4-0.7 % larger than at level 19, compressed 2-3x faster
    // (level 16: 0.0-0.4 % larger, but 2x slower than 14 on the 2^14-entry blocks that large
    // levels choose; level 12: 1-3 % larger).
    int level = 14;
    // Bits per stored symbol: 1, 2, 4 or 8 (must hold every distinct value), or 0 = measure
    // the narrowest width against whole bytes and keep the smaller.
    uint8_t symbol_bits = 0;
    // Off by default: on real levels (abapa 12..20) a dictionary never made a file smaller by
    // more than 0.1 %, and Auto, judging on half the sample, sometimes kept one that made it
    // larger, while training and judging cost about a sample compression (dbformat/README.md).
    DictionaryMode dictionary = DictionaryMode::Off;
    std::size_t dictionary_bytes = 16 << 10; // capacity given to the trainer, <= 1 MiB
    // Upper bound on the entries compressed while measuring (evenly spaced sample regions of
    // the largest candidate block size), and on their share of the level: at most one
    // entry in sample_one_in (but at least one region). Each candidate costs one compression
    // of the sample; the chosen candidate's sample blocks go into the file as they are.
    uint64_t sample_entries = 1u << 22;
    uint32_t sample_one_in = 8;
    int threads = 0; // OpenMP threads for compression; 0 = OpenMP's default
    // Decompress every block right after compressing it and compare: guards against a
    // codec bug turning into a database that silently holds wrong values.
    bool self_check = true;
};

// What the writer chose and produced.
struct WriteReport {
    uint8_t symbol_bits = 0;
    uint32_t block_entries = 0;
    int level = 0;
    std::size_t dictionary_bytes = 0; // 0 = no dictionary
    uint64_t blocks = 0;
    uint64_t file_bytes = 0;
    double bits_per_position = 0; // file_bytes * 8 / entries (0 for an empty level)
};

// Writes the level to `path` atomically (see above). values.size() must equal meta.entries;
// every value must be in -meta.n..meta.n or kDontCare.
WriteReport write_level(const std::filesystem::path& path, const LevelMeta& meta,
                        std::span<const int8_t> values, const WriterOptions& options = {});

// The exact bytes write_level would write, in memory (benchmarks, tests, fuzz seeds).
std::vector<uint8_t> encode_level(const LevelMeta& meta, std::span<const int8_t> values,
                                  const WriterOptions& options = {}, WriteReport* report = nullptr);

} // namespace owaredb::db
