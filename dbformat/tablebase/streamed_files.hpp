// The files behind the streamed engine (retro/streamed_sources.hpp) in `owaredb generate`:
// the smaller levels' value files, read in index order, and the level's exit file, a
// scratch file beside it ("<rules>-NN.exits") that lives while the level is solved.
#pragma once

#include "dbformat/reader.hpp"
#include "oware/oware_game.hpp"
#include "retro/streamed_sources.hpp"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <vector>

namespace owaredb {

class DatabaseDir;

/// The smaller levels that a capture from level n reaches (n - kMaxCapture .. n -
/// kMinCapture: not n - 1, which a k-seeds-per-pit game may leave out), and with
/// `and_level_n` level n itself (verify's streamed check: the quiet moves), read through
/// one block at a time per thread and level (LevelReader::read_sorted): the memory they
/// take is a few blocks per thread.
/// Whether a streamed source for level n holds level k: the levels a capture from n
/// reaches (n - kMaxCapture .. n - kMinCapture; on a board of P pits a side a capture
/// takes up to 3P seeds), and level n itself with `and_level_n`.
/// FileSmallerLevels and PublishedLevels (published_dir.hpp) open exactly these.
inline bool streamed_source_holds(int n, int k, bool and_level_n, int pits_per_side) {
    return k == n ? and_level_n : n - k >= kMinCapture && n - k <= 3 * pits_per_side;
}

class FileSmallerLevels final : public SmallerLevelValues {
  public:
    /// Opens the files of those levels and checks them (rule set, level, size, kind).
    /// Throws std::runtime_error naming the file when one is missing, damaged, of another
    /// level, or capture-bounded (--compact: its capture positions hold no value); read()
    /// of another level is a std::logic_error.
    /// `threads`: the most threads that will read at once (OpenMP thread numbers).
    FileSmallerLevels(const DatabaseDir& db, int n, int threads, bool and_level_n = false);
    ~FileSmallerLevels() override;
    void read(int level, std::span<const uint64_t> indices,
              std::span<int8_t> values) const override;

  private:
    std::vector<std::optional<db::LevelReader>> readers_; // by level; none: not reached
    // cursors_[thread * levels + level]
    mutable std::vector<db::SortedCursor> cursors_;
    int threads_;
};

/// The exit file of a level: appended by the first pass, read by the scans, fsync'ed and
/// checksummed at safe points so that a checkpoint can say which exits it was saved with.
/// It is kept compressed (about 2 bits a position, not a byte: docs/results.md), so that a
/// large level's exits fit beside its checkpoints.
///
/// On disk: the magic "OWEXIT01", then the chunks in position order, each a record {u32
/// positions, u32 compressed bytes, u64 XXH3-64 of the chunk's exit bytes} (little-endian)
/// followed by the exit bytes compressed as one zstd frame (the level files' codec, at its
/// fastest level). A chunk holds kChunkPositions positions, the span each scan reads, so a
/// read decompresses what it returns; sync() writes what is pending as a shorter chunk,
/// so a sync point is a chunk boundary. A chunk that does not decompress to its size and
/// checksum is damaged: read() throws naming the file, resume() does not resume.
///
/// The checksum sync() returns (and resume() checks) is XXH3-64 of all exit bytes in
/// position order, as the level files' checksum; a file without the magic (an earlier,
/// uncompressed exit file) is never resumed from.
class ExitFile final : public ExitStore {
  public:
    /// Positions a full chunk holds: the streamed engine's scan chunk (sweep::kChunk).
    static constexpr uint64_t kChunkPositions = uint64_t(1) << 14;

    /// No I/O until the first call; the file is created anew by reset() (whatever was at
    /// the path, a planted link included, is removed, never written through) or found by
    /// resume() (a regular file, not through a link).
    explicit ExitFile(std::filesystem::path path);
    ~ExitFile() override;
    ExitFile(const ExitFile&) = delete;
    ExitFile& operator=(const ExitFile&) = delete;
    void reset() override;
    bool resume(uint64_t size, uint64_t checksum) override;
    void append(std::span<const int8_t> exits) override;
    uint64_t sync() override;
    /// Reads within a chunk decompress it once per thread (each thread keeps the last
    /// chunk it decompressed). Throws std::runtime_error naming the file when a chunk cannot
    /// be read or is damaged.
    void read(uint64_t begin, std::span<int8_t> out) const override;
    /// Deletes the file (once the level's file is written).
    void remove();
    const std::filesystem::path& path() const { return path_; }
    /// Bytes of the file written so far (for reports and tests).
    uint64_t file_bytes() const { return end_; }

  private:
    struct Chunk {
        uint64_t first = 0;  // its first position
        uint64_t offset = 0; // of its compressed bytes in the file
        uint32_t positions = 0, bytes = 0;
        uint64_t checksum = 0;
    };
    void open(bool truncate);
    void write_chunk(std::span<const int8_t> exits);
    void decode(const Chunk& chunk, std::span<int8_t> out) const;
    bool load(uint64_t size, uint64_t checksum);
    std::filesystem::path path_;
    int fd_ = -1;
    uint64_t size_ = 0;           // positions appended
    uint64_t end_ = 0;            // bytes of the file
    std::vector<Chunk> chunks_;   // written, in position order
    std::vector<int8_t> pending_; // appended after the last chunk
    uint64_t id_;                 // tells this file's chunks apart in the threads' caches
    struct Hash;
    std::unique_ptr<Hash> hash_;
    struct Compressor;
    std::unique_ptr<Compressor> compressor_;
};

} // namespace owaredb
