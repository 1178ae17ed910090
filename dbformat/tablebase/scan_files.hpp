// The scan store of the engines over one (retro/scan_store.hpp) in `owaredb generate`: one
// scratch file a generation beside the level ("<rules>-NN.scanG", dbformat/checkpoint.hpp),
// each chunk compressed on its own by the level files' codec (zstd) and checksummed
// (XXH3-64 of its bytes), so that a generation of bytes takes about what the level's file
// takes, not a byte a position (a bitmap generation of the nibble engine a fraction of a
// bit), and a damaged chunk is named, never used.
//
// A generation file: the chunks' compressed bytes, in the order they were written; then
// the index, one entry a chunk {offset, compressed bytes, checksum}; then a footer {magic,
// generation, size, chunk, chunks, checksum of the index and the fields before it}. The
// generation's checksum (what a checkpoint's chain records) is the footer's. Only the
// generation being written keeps its index in memory (index_memory()).
//
// Files: begin() creates the generation's file (O_EXCL after removing a stale one, so a
// planted symlink is never followed); end() writes the index and footer and syncs. Every
// generation ended or resumed stays, open and readable, until drop() (deferred while it is
// pinned) or remove_all(); a generation begun and not ended goes at the next begin().
// resume() opens a file an earlier process left; files it does not resume stay until
// begin() replaces them or remove_all().
#pragma once

#include "retro/scan_store.hpp"
#include "tablebase/spill_files.hpp"

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

namespace owaredb {

class ScanFiles final : public ScanStore {
  public:
    /// The store of the level whose file is `level_file`; no I/O until the first call.
    explicit ScanFiles(std::filesystem::path level_file);
    ~ScanFiles() override;
    ScanFiles(const ScanFiles&) = delete;
    ScanFiles& operator=(const ScanFiles&) = delete;

    void begin(uint64_t generation, uint64_t size, uint64_t chunk) override;
    void write(uint64_t index, std::span<const int8_t> bytes) override;
    uint64_t end() override;
    void read(uint64_t generation, uint64_t index, std::span<int8_t> out) const override;
    void drop(uint64_t generation) override;
    void pin() override;
    std::optional<uint64_t> resume(uint64_t generation, uint64_t size, uint64_t chunk) override;
    /// Anonymous files in the level's directory (spill_files.hpp).
    SpillSpace& spill_space() override { return spill_; }

    /// Removes every generation file of the level (once its file is written).
    void remove_all();
    /// Bytes of the generations kept (their files), for reports.
    uint64_t kept_bytes() const;
    /// Bytes of memory an index entry takes (one a chunk of the generation written).
    static constexpr uint64_t kIndexBytesPerChunk = 24;
    /// Bytes of index entries held in memory: the generation being written's,
    /// kIndexBytesPerChunk a chunk. An ended or resumed generation's entries are read from its file
    /// as its chunks are (one more read of 24 bytes a chunk), so that the memory a level's
    /// generations take does not grow with their number.
    uint64_t index_memory() const;

    struct Generation;

  private:
    std::filesystem::path path_of(uint64_t generation) const;
    /// Removes kept generation `generation` and its file, pinned or not.
    void forget(uint64_t generation);
    void remove_others(uint64_t keep) const;

    std::filesystem::path level_file_;
    std::map<uint64_t, std::shared_ptr<Generation>> kept_;
    std::shared_ptr<Generation> writing_, last_, pinned_; // last_: the last ended or resumed
    struct Compressors;
    std::unique_ptr<Compressors> compressors_;
    SpillFiles spill_;
};

} // namespace owaredb
