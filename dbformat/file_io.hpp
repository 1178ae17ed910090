// File access for level files: an atomic writer and random-access byte sources.
// Internal to dbformat.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "dbformat/status.hpp"

namespace owaredb::db::detail {

// Destination of an encoded level.
class Sink {
  public:
    virtual ~Sink() = default;
    virtual void write(std::span<const uint8_t> bytes) = 0;
};

class VectorSink final : public Sink {
  public:
    void write(std::span<const uint8_t> bytes) override {
        data.insert(data.end(), bytes.begin(), bytes.end());
    }
    std::vector<uint8_t> data;
};

// Writes a temp file "<path>.tmp.<pid>.<k>" beside <path>, then commit() renames it to
// <path> durably (fsync of the file and of the directory). Destroying an uncommitted writer
// removes the temp file. The temp file is created on the first write, so an encoder that
// rejects its arguments first leaves no trace. It is created with O_EXCL | O_NOFOLLOW under
// a name no other writer uses, so a planted symlink or another process's temp file is
// never followed, truncated or overwritten. Errors throw std::runtime_error naming the file
// and the system's reason (e.g. "No space left on device").
class AtomicFileSink final : public Sink {
  public:
    explicit AtomicFileSink(std::filesystem::path path);
    ~AtomicFileSink() override;
    AtomicFileSink(const AtomicFileSink&) = delete;
    AtomicFileSink& operator=(const AtomicFileSink&) = delete;
    void write(std::span<const uint8_t> bytes) override;
    void commit();

  private:
    void create();
    std::filesystem::path path_, tmp_;
    int fd_ = -1;
};

// True for the names AtomicFileSink gives the temp files of level files
// ("<name>.owdb.tmp.<pid>.<k>", and "<name>.owdb.tmp" from older versions) and of
// checkpoints ("<name>.checkpoint.tmp.<pid>.<k>") and of headerless levels in the published
// naming ("scores.<N>.tmp.<pid>.<k>", written by `owaredb export`): what a writer
// holding the directory lock may remove as stale.
bool is_temp_file_name(const std::string& file_name);

// Random-access bytes. Implementations are thread-safe.
class Source {
  public:
    virtual ~Source() = default;
    virtual uint64_t size() const = 0;
    // Reads exactly out.size() bytes at offset; messages carry no file name.
    virtual Status read(uint64_t offset, std::span<uint8_t> out) const = 0;
};

// The state of a path as stat() sees it: which file is there (or the errno of a failed
// stat) and its size and modification and status-change times. Two equal stamps mean the
// same file, unmodified in between (to the file system's time resolution); the reader
// takes one before opening, so that a failure can be retried once the file changes.
struct FileStamp {
    int error = 0; ///< errno of stat(), 0 when it succeeded (then the rest is set)
    uint64_t device = 0, inode = 0, mode = 0, size = 0;
    int64_t modified_ns = 0, changed_ns = 0;
    bool operator==(const FileStamp&) const = default;
};
FileStamp file_stamp(const std::filesystem::path& path);

// A file opened by open_regular_file: its descriptor (the caller closes it) and size then.
struct OpenFile {
    int fd = -1;
    uint64_t size = 0;
};

// Opens `path` with `flags` (O_RDONLY or O_RDWR, maybe O_CREAT with `mode`) if it is a
// regular file (close-on-exec, blocking I/O), else NotFound for a missing file or Io
// naming it ("is not a regular file", "is a directory", the system's reason). Never
// waits: the open itself is non-blocking, as opening a FIFO would wait for a writer.
Result<OpenFile> open_regular_file(const std::filesystem::path& path, int flags,
                                   unsigned mode = 0644);

// Ok when `path` is a regular file or nothing (or cannot be looked at: opening it will
// say why), else Io naming it as open_regular_file does. Opens nothing.
Status regular_or_missing(const std::filesystem::path& path);

// Reads exactly out.size() bytes of `fd` at `offset` (pread, again after EINTR): an Io
// status with the system's reason, or Corrupt when the file ends first; no file name.
Status pread_exact(int fd, uint64_t offset, std::span<uint8_t> out);

// Throws std::runtime_error "<path>: <what>: <the system's reason for errno>": the error of
// a failed system call on a work file (scan files, exit files), where the caller cannot go on.
[[noreturn]] void throw_system_error(const std::filesystem::path& path, const std::string& what);

// Writes all of `bytes` to `fd` at offset `at` (pwrite, again after EINTR and short
// writes), else throws as throw_system_error(path, what) does (a full disk: ENOSPC).
void pwrite_all(int fd, const std::filesystem::path& path, std::span<const uint8_t> bytes,
                uint64_t at, const std::string& what);

// Opens a regular file (open_regular_file) as a Source.
Result<std::unique_ptr<Source>> open_file_source(const std::filesystem::path& path);

std::unique_ptr<Source> memory_source(std::vector<uint8_t> bytes);

} // namespace owaredb::db::detail
