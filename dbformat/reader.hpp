// Reading level files: lazy, validated, random access through a shared block cache.
//
// Contract:
// - Constructing a LevelReader does no I/O. The file is opened and its header, index and
//   trailer validated on the first call that needs them (open(), value(), info(), ...);
//   a directory of levels therefore costs nothing until a level is probed. The outcome of
//   opening is sticky: a reader that failed to open keeps returning that error (make a new
//   reader to retry, e.g. after the file has been generated; file_changed() says when
//   that may help).
// - Errors are values: no member function throws on bad data or I/O failure (only
//   std::bad_alloc may escape). Every error message names the file.
// - A value is only ever returned from a block whose checksum matched and which decoded to
//   exactly the expected size with every symbol in the value map. Header and index carry
//   their own checksums, checked at open, so a damaged header or index is never used.
//   The whole-file checksum is checked only by verify() (it needs to read everything).
// - All member functions are thread-safe; one reader may be shared by any number of
//   threads. Decompressed blocks live in a BlockCache (block_cache.hpp) that may be shared
//   by many readers. In front of it each thread keeps its 256 most recently used blocks
//   (shared_ptrs, used only while nothing has left the cache since; reader.cpp), so that
//   repeated lookups take no lock; such a table can keep up to 256 blocks evicted from the
//   cache alive until its thread looks up other blocks or ends.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "dbformat/block_cache.hpp"
#include "dbformat/format.hpp"
#include "dbformat/status.hpp"

namespace owaredb::db {

// What the caller expects the file to hold; unset fields are not checked. A difference is
// reported as ErrorCode::Mismatch (e.g. an awari level stored under an abapa name).
struct Expectation {
    std::optional<std::string> rules;
    std::optional<std::vector<uint8_t>> knobs;
    std::optional<uint32_t> n;
    std::optional<uint64_t> entries;
    std::optional<LevelKind> kind;

    static Expectation exactly(const LevelMeta& meta) {
        return {meta.rules, meta.knobs, meta.n, meta.entries, meta.kind};
    }
};

struct ReaderOptions {
    // Cache shared with other readers; null = a private cache of cache_bytes.
    std::shared_ptr<BlockCache> cache;
    std::size_t cache_bytes = std::size_t(64) << 20;
    Expectation expect;
};

// Everything the header and index say, for `owaredb info`.
struct LevelInfo {
    LevelMeta meta;
    uint16_t format_version = 0;
    uint8_t codec = 0;
    uint8_t symbol_bits = 0;
    std::string codec_name; // of the codec byte, as the file's codec calls itself
    int codec_level = 0;    // informational: the codec's level the writer used
    uint32_t block_entries = 0;
    uint64_t block_count = 0;
    std::vector<int8_t> value_map; // symbol -> value
    uint64_t header_bytes = 0;     // including the dictionary and the header checksum
    uint64_t dictionary_bytes = 0;
    uint64_t data_bytes = 0;  // compressed blocks
    uint64_t index_bytes = 0; // including the index checksum
    uint64_t file_bytes = 0;
    // file_bytes * 8 / entries; 0 for an empty level.
    double bits_per_position() const {
        return meta.entries ? double(file_bytes) * 8 / double(meta.entries) : 0;
    }
};

struct Histogram {
    std::array<uint64_t, 256> counts{}; // indexed by uint8_t(value); kDontCare at 128
    uint64_t count(int8_t value) const { return counts[uint8_t(value)]; }
    uint64_t total() const {
        uint64_t t = 0;
        for (auto c : counts) t += c;
        return t;
    }
};

struct VerifyReport {
    Status status;                        // the first problem found; ok if none
    std::vector<uint64_t> damaged_blocks; // every block that failed, ascending
    bool file_checksum_ok = false;
    bool ok() const { return status.ok(); }
};

class LevelReader;

// Where a sorted read (LevelReader::read_sorted) stands: the block it decoded last, kept
// for the next call. One per thread and level.
struct SortedCursor {
    uint64_t block = UINT64_MAX;
    std::shared_ptr<const BlockCache::Block> data;
};

// One lookup for LevelReader::read_values: the value at `index` of `reader`'s level.
struct ValueQuery {
    const LevelReader* reader = nullptr;
    uint64_t index = 0;
};

// Bytes of memory an open LevelReader keeps for each block of its file, whatever it reads:
// the block's offset and checksum (the file's index, read once at open()).
inline constexpr uint64_t kReaderBytesPerBlock = 2 * sizeof(uint64_t);

class LevelReader {
  public:
    // No I/O happens here.
    explicit LevelReader(std::filesystem::path path, ReaderOptions options = {});
    // A reader over bytes in memory (tests, fuzzing); `name` stands for the path in messages.
    static LevelReader from_memory(std::vector<uint8_t> bytes, std::string name,
                                   ReaderOptions options = {});
    ~LevelReader();
    LevelReader(LevelReader&&) noexcept;
    LevelReader& operator=(LevelReader&&) noexcept;

    // Opens and validates (once). NotFound for a missing file, Io, Corrupt, Unsupported or
    // Mismatch otherwise.
    Status open() const;
    // Whether the file at path() is no longer as open() found it: another file, or none,
    // or the same file modified (size, modification or status-change time). True before
    // open() has run; false for a reader over memory. A stat(), no open.
    bool file_changed() const;
    // The value at a position index: in -n..n or kDontCare. OutOfRange past the end,
    // Corrupt (with block()) if the block holding it is damaged.
    Result<int8_t> value(uint64_t index) const;
    // Several values, possibly of different levels (readers), read as value() would read
    // them one by one, but faster: every block is found first and the byte holding each
    // value prefetched, then the values are read, so the cache misses of random lookups
    // overlap instead of following one another. Fills values[i] for queries[i] (the spans
    // must have the same size) and returns queries.size(), or stops at the first query
    // that fails and returns its index, with its error in `error` (values from there on
    // are unspecified).
    static std::size_t read_values(std::span<const ValueQuery> queries, std::span<int8_t> values,
                                   Status& error);
    // Values of ascending `indices` (values[i] for indices[i]), decoding each block once
    // and keeping the last one in `cursor` for the next call: a pass over a level in index
    // order (the streamed generator's first pass) that holds one block, bypassing the
    // cache. Checks like value(); on an error, values from the failing index on are
    // unspecified. The cursor must stay with this reader.
    Status read_sorted(std::span<const uint64_t> indices, std::span<int8_t> values,
                       SortedCursor& cursor) const;
    Result<LevelInfo> info() const;
    // The four calls below run `threads` OpenMP threads, the caller's count: at least 1,
    // else std::invalid_argument (dbformat/threads.hpp). The answer does not depend on it.
    //
    // Counts of every value over the whole level (decompresses every block). Fails on the
    // first damaged block.
    Result<Histogram> histogram(int threads) const;
    // Decodes the whole level into `out` (out.size() must equal the entry count), checking
    // every block's checksum; the bulk load of a level into memory. Bypasses the cache. On
    // error `out` holds partial data.
    Status read_all(std::span<int8_t> out, int threads) const;
    // Decodes the values at [begin, begin + out.size()) into `out` as read_all() does, but
    // only the blocks that range touches (bypasses the cache): a level read in order piece
    // by piece, when it does not fit in memory. OutOfRange past the end; on an error `out`
    // holds partial data.
    Status read_range(uint64_t begin, std::span<int8_t> out, int threads) const;
    // Checks every block (checksum and decoding) and the whole-file checksum.
    VerifyReport verify(int threads) const;

    const std::filesystem::path& path() const;
    const std::shared_ptr<BlockCache>& cache() const;

  private:
    struct Impl;
    explicit LevelReader(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

} // namespace owaredb::db
