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

#include <algorithm>
#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <vector>

#include "dbformat/format.hpp"

namespace owaredb::db {

enum class DictionaryMode {
    Off,  // never use a dictionary
    On,   // train one and use it (unless zstd cannot train on this data)
    Auto, // use one only if it makes the measured sample smaller, its own size included
};

// The zstd level and block size a level gets by its size when WriterOptions::level is
// kLevelBySize: the tier with the largest min_entries <= the level's entries.
struct SizeTier {
    uint64_t min_entries = 0;
    int level = 13;             // zstd level, -100..22
    uint32_t block_entries = 0; // 0 = measure WriterOptions::block_candidates
};

struct WriterOptions {
    // zstd level, -100..22, or kLevelBySize: from size_tiers, which also fix the block size
    // (unless block_entries is set). Decompression speed hardly depends on the level.
    static constexpr int kLevelBySize = 1000;
    int level = kLevelBySize;
    // Chosen so that writing costs at most a fifth of solving the level (the measurements:
    // dbformat/README.md, "Writing time"). zstd 6 takes a fraction of zstd 13's time for
    // files a few percent larger. Below 2 Gi entries (abapa n <= 29) a level's solve per
    // entry is too cheap for zstd 13 to stay clearly under the fifth: under 24 Mi (n <= 17)
    // those levels get zstd 6 on 2^18-entry blocks (smaller blocks cost more there), above
    // it zstd 1 on 2^14 (close to the best block there, and the cheapest cold probe), where
    // zstd 1 is within half a percent of zstd 6's size at a third of its time (which is
    // what `import`, all writing, runs at). Solving per entry grows with the level while
    // writing does not, so from 2 Gi on (n >= 30) zstd 13 on 2^16-entry blocks fits, for
    // the smaller files that matter most at gigabytes a level.
    std::vector<SizeTier> size_tiers = {
        {0, 6, 1u << 18}, {24u << 20, 1, 1u << 14}, {uint64_t(1) << 31, 13, 1u << 16}};
    // Entries per block: a power of two in [kMinBlockEntries, kMaxBlockEntries]. Larger blocks
    // compress better; smaller ones make a cold probe cheaper. 0 = the tier's, or, with an
    // explicit level or a tier without one, chosen among block_candidates by measurement:
    // the smallest block whose compressed size is within larger_block_tolerance of the best.
    uint32_t block_entries = 0;
    std::vector<uint32_t> block_candidates = {1u << 14, 1u << 16, 1u << 18};
    double larger_block_tolerance = 0.03;
    // Bits per stored symbol: 1, 2, 4 or 8 (must hold every distinct value), or 0 = measure
    // the narrowest width against whole bytes and keep the smaller.
    uint8_t symbol_bits = 0;
    // Off by default: on real levels a dictionary never made a file noticeably smaller, and
    // Auto, judging on half the sample, sometimes kept one that made it larger, while
    // training and judging cost about a sample compression (dbformat/README.md, "Writing
    // time").
    DictionaryMode dictionary = DictionaryMode::Off;
    // The block codec, by its header byte (README, Header): 1, zstd, the only one so far.
    // `level` and the dictionary are the codec's.
    uint8_t codec = 1;
    std::size_t dictionary_bytes = 16 << 10; // capacity given to the trainer, <= 1 MiB
    // Upper bound on the entries compressed while measuring (evenly spaced sample regions of
    // the largest candidate block size), and on their share of the level: at most one
    // entry in sample_one_in (but at least one region). Each candidate costs one compression
    // of the sample; the chosen candidate's sample blocks go into the file as they are.
    uint64_t sample_entries = 1u << 22;
    uint32_t sample_one_in = 8;
    // OpenMP threads for compression: the caller's count, at least 1 (0, left unset, is
    // refused with std::invalid_argument; dbformat/threads.hpp). The bytes do not depend
    // on it.
    int threads = 0;
    // The most entries the writer reads from a ValueSource at once (the blocks are
    // compressed a chunk of blocks at a time, at most this many entries or one block).
    uint64_t window_entries = uint64_t(64) << 20;
    // Decompress every block right after compressing it and compare: guards against a
    // codec bug turning into a database that silently holds wrong values.
    bool self_check = true;
};

// What the writer chose and produced.
struct WriteReport {
    uint8_t symbol_bits = 0;
    uint32_t block_entries = 0;
    int level = 0;                    // the zstd level used (the tier's with kLevelBySize)
    std::size_t dictionary_bytes = 0; // 0 = no dictionary
    uint64_t blocks = 0;
    uint64_t file_bytes = 0;
    double bits_per_position = 0; // file_bytes * 8 / entries (0 for an empty level)
};

// The zstd level and block size (0 = measured among block_candidates) that `options` give a
// level of `entries` entries. Throws std::invalid_argument for bad size_tiers.
SizeTier encoding_for(const WriterOptions& options, uint64_t entries);

// Writes the level to `path` atomically (see above). values.size() must equal meta.entries;
// every value must be in -meta.n..meta.n or kDontCare.
WriteReport write_level(const std::filesystem::path& path, const LevelMeta& meta,
                        std::span<const int8_t> values, const WriterOptions& options);

// The values of a level that is not in memory in one piece (`mpirun ... owaredb generate`:
// rank 0 writes a level whose slices the other ranks hold). The writer reads it from one
// thread: one pass in order to count the values (unless the source knows the counts), the
// sample regions in order, then the blocks in order, a window of at most 64 Mi entries at a
// time; so its memory stays bounded whatever the level's size.
class ValueSource {
  public:
    virtual ~ValueSource() = default;
    virtual uint64_t size() const = 0;
    // out[k] = value begin + k, for begin + out.size() <= size(). Throws on failure.
    virtual void read(uint64_t begin, std::span<int8_t> out) const = 0;
    // All the values in one piece of memory, if they are (then read() is not called).
    virtual const int8_t* contiguous() const { return nullptr; }
    // The number of entries of each value (index: the value as uint8_t), if the source has
    // them without reading its values (an engine that counted them as it decided them):
    // the writer then skips its counting pass. It still counts the values as it compresses
    // them, and throws std::runtime_error, writing nothing, where they differ.
    virtual std::optional<std::array<uint64_t, 256>> counts() const { return std::nullopt; }
};

// A ValueSource over values in memory.
class SpanValues final : public ValueSource {
  public:
    explicit SpanValues(std::span<const int8_t> values) : values_(values) {}
    uint64_t size() const override { return values_.size(); }
    void read(uint64_t begin, std::span<int8_t> out) const override {
        std::copy_n(values_.begin() + std::ptrdiff_t(begin), out.size(), out.begin());
    }
    const int8_t* contiguous() const override { return values_.data(); }

  private:
    std::span<const int8_t> values_;
};

// write_level for values from a ValueSource: the same bytes as for the same values in memory.
WriteReport write_level(const std::filesystem::path& path, const LevelMeta& meta,
                        const ValueSource& values, const WriterOptions& options);

// The exact bytes write_level would write, in memory (benchmarks, tests, fuzz seeds).
std::vector<uint8_t> encode_level(const LevelMeta& meta, std::span<const int8_t> values,
                                  const WriterOptions& options, WriteReport* report = nullptr);

} // namespace owaredb::db
