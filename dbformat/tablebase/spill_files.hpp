// The spill space of the scan engines in `owaredb generate` (retro/spill.hpp): each thread's
// area an anonymous file in the level's directory. The disk plan does not count them:
// nothing but the level bounds what a propagation spills (the build record's
// `spilled_peak` says how far it went).
//
// Anonymous: opened with O_TMPFILE, so the file has no name and goes when it is closed,
// or when the process dies, killed or not; nothing is left to clean up, and a resumed level
// starts with empty stacks anyway (its safe points hold none). On a file system without
// O_TMPFILE, the file is created under a name of this process's own
// ("<level file>.spill.<pid>.<k>") and removed at once.
//
// Each block's checksum (XXH3-64 of its bytes) stays in memory, 8 bytes a block, so that a
// block that does not read back as written is named, never used: a wrong parent would
// give a wrong value.
#pragma once

#include "retro/spill.hpp"

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <vector>

namespace owaredb {

/// A spill area over an open file.
class SpillFile final : public SpillArea {
  public:
    /// Over `fd`, which it owns (closed by the destructor); `name` names the file in
    /// messages.
    SpillFile(int fd, std::filesystem::path name);
    ~SpillFile() override;
    SpillFile(const SpillFile&) = delete;
    SpillFile& operator=(const SpillFile&) = delete;

    /// Throws std::runtime_error "<name>: cannot write the spill file: <reason>".
    void write(uint64_t index, std::span<const uint64_t> block) override;
    /// Throws std::runtime_error naming the file and the block if it cannot be read, or if
    /// its checksum is not the one written.
    void read(uint64_t index, std::span<uint64_t> block) override;

  private:
    int fd_;
    std::filesystem::path name_;
    std::vector<uint64_t> checksums_; // of each block written
};

/// The spill space of the level whose file is `level_file`: areas in its directory.
class SpillFiles final : public SpillSpace {
  public:
    explicit SpillFiles(std::filesystem::path level_file);
    /// Throws std::runtime_error "<directory>: cannot create a spill file: <reason>".
    std::unique_ptr<SpillArea> open() override;

  private:
    std::filesystem::path level_file_;
    std::atomic<uint64_t> opened_{0};
};

} // namespace owaredb
