// A level file with no header: one signed byte per entry, nothing else, as Romein & Bal
// published their Awari databases ("scores.N", VU Amsterdam 2024). It says nothing about
// itself, so the reader checks what it can: that it is a regular file of exactly the
// expected number of bytes, and, on every read, that each value lies within its bound;
// anything else is an error naming the file and the offset, never a value.
//
// The file is memory-mapped read-only: reads are copies out of the page cache, with no
// decompression and no cache of ours. Thread-safe: every method is const.
//
// A file truncated while it is open: a read of a mapped page past the truncation raises
// SIGBUS, which the reads turn into Corrupt ("file shorter than when opened") for that
// read, the process going on. For that, each open that maps a file makes sure the
// process's SIGBUS handler is this one's; a SIGBUS that is not such a read goes to the
// handler that was there before (or the default action, which ends the process). A program
// that installs a SIGBUS handler of its own later, not chaining to this one, gets SIGBUS
// for such reads again until the next open. A file rewritten in place is read as it is
// then; one replaced by rename is safe: the mapping keeps the old one.
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
    /// file and the first offset, for a value outside the bound (out is then partly written),
    /// or naming the file when it is shorter than when it was opened.
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
    Status out_of_bound(uint64_t offset, int8_t value) const;
    /// Copies [begin, begin + out.size()) of the mapping into out; false if that faulted.
    bool copy(uint64_t begin, std::span<int8_t> out) const;
    std::unique_ptr<Mapping> m_;
};

} // namespace owaredb::db
