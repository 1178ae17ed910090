// The scan store of the nibble engine (retro/scan_store.hpp) in `owaredb generate`: one
// scratch file a generation beside the level ("<rules>-NN.scanG", dbformat/checkpoint.hpp),
// each chunk compressed on its own by the level files' codec (zstd) and checksummed
// (XXH3-64 of its bytes), so that a generation takes about what the level's file takes,
// not a byte a position, and a damaged chunk is named, never used.
//
// A generation file: the chunks' compressed bytes, in the order they were written; then
// the index, one entry a chunk {offset, compressed bytes, checksum}; then a footer {magic,
// generation, size, chunk, chunks, checksum of the index and the fields before it}. The
// generation's checksum (what a checkpoint records) is the footer's.
//
// Files: begin() creates the generation's file (O_EXCL after removing a stale one, so a
// planted symlink is never followed); end() writes the index and footer and syncs. The
// store keeps the generation read and the pinned one, and removes the others it wrote;
// resume() removes every other generation file of the level; remove_all() all of them.
#pragma once

#include "retro/scan_store.hpp"

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
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
    void read(uint64_t index, std::span<int8_t> out) const override;
    void pin() override;
    bool resume(uint64_t generation, uint64_t size, uint64_t chunk, uint64_t checksum) override;

    /// Removes every generation file of the level (once its file is written).
    void remove_all();
    /// Bytes of the generation read (its file), for reports.
    uint64_t generation_bytes() const;

    struct Generation;

  private:
    std::filesystem::path path_of(uint64_t generation) const;
    /// Lets go of `g`: its file goes unless the store still reads, pins or writes it.
    void release(std::shared_ptr<Generation> g);
    void remove_others(uint64_t keep) const;

    std::filesystem::path level_file_;
    std::shared_ptr<Generation> writing_, reading_, pinned_;
    struct Compressors;
    std::unique_ptr<Compressors> compressors_;
};

} // namespace owaredb
