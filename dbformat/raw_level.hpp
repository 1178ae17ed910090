// A level file with no header: one signed byte per entry, nothing else, as Romein & Bal
// published their Awari databases ("scores.N", VU Amsterdam 2024). It says nothing about
// itself, so the reader checks what it can: that it is a regular file of exactly the
// expected number of bytes, and, on every read, that each value lies within its bound;
// anything else is an error naming the file and the offset, never a value.
//
// The file is memory-mapped read-only: reads are copies out of the page cache, with no
// decompression and no cache of ours. Thread-safe: every method is const.
//
// The file must not be truncated or rewritten in place while it is open: a read of a
// mapped page past a truncation raises SIGBUS, which no check here can turn into a
// Status (a file replaced by rename is safe: the mapping keeps the old one).
#pragma once

#include "dbformat/reader.hpp"
#include "dbformat/status.hpp"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>

namespace owaredb::db {

class RawLevelFile {
  public:
    /// Opens and maps `path`, which must be a regular file of exactly `entries` bytes whose
    /// values all lie in [-bound, bound] (0 <= bound <= 127; checked as they are read).
    /// NotFound for a missing file; Io for one that is not a regular file or cannot be
    /// mapped; Corrupt for another size, naming both sizes.
    static Result<RawLevelFile> open(const std::filesystem::path& path, uint64_t entries,
                                     int bound);

    RawLevelFile(RawLevelFile&&) noexcept;
    RawLevelFile& operator=(RawLevelFile&&) noexcept;
    ~RawLevelFile();

    uint64_t entries() const;
    const std::filesystem::path& path() const;

    /// out[i] = the value at offset begin + i. OutOfRange past the end; Corrupt, naming the
    /// file and the first offset, for a value outside the bound (out is then partly written).
    Status read(uint64_t begin, std::span<int8_t> out) const;
    /// values[i] = the value at offsets[i] (any order), checked as read().
    Status read_at(std::span<const uint64_t> offsets, std::span<int8_t> values) const;

    /// How many times each value occurs in the whole file (Histogram, as LevelReader's),
    /// read in order by `threads` OpenMP threads (the caller's count, at least 1, else
    /// std::invalid_argument), each part dropped from the page cache once counted. Corrupt,
    /// naming the file and the lowest offset, for a value outside the bound.
    Result<Histogram> histogram(int threads) const;

    /// Asks the kernel to read [begin, begin + count) ahead (a sequential pass over a file
    /// larger than memory: madvise(WILLNEED)), and to drop it again once passed (DONTNEED).
    void will_need(uint64_t begin, uint64_t count) const;
    void done_with(uint64_t begin, uint64_t count) const;

  private:
    struct Mapping;
    explicit RawLevelFile(std::unique_ptr<Mapping> m);
    Status out_of_bound(uint64_t offset) const;
    std::unique_ptr<Mapping> m_;
};

} // namespace owaredb::db
