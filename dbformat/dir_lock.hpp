// The writer's lock on a database directory: one writer at a time, readers never blocked.
#pragma once

#include <filesystem>
#include <string>

namespace owaredb::db {

/// An exclusive advisory lock (flock) on "<dir>/owaredb.lock", which holds the PID of the
/// process that owns it. Held for the lifetime of the object; the kernel drops it when the
/// process dies, so a killed writer never leaves the directory locked. Readers take no lock.
class DirectoryLock {
  public:
    /// Locks `dir` (which must exist). Throws std::runtime_error when another process holds
    /// the lock ("directory D is being written by process N") or the lock file cannot be
    /// created; never follows a symlink planted at the lock file's name.
    explicit DirectoryLock(const std::filesystem::path& dir);
    ~DirectoryLock();
    DirectoryLock(const DirectoryLock&) = delete;
    DirectoryLock& operator=(const DirectoryLock&) = delete;

    /// Removes the temp files of killed writers ("*.owdb.tmp", "*.owdb.tmp.<pid>.<k>") from the
    /// directory: safe only because this process holds the lock. Returns how many.
    int remove_stale_temp_files() const;

    static constexpr const char* kFileName = "owaredb.lock";

  private:
    std::filesystem::path dir_;
    int fd_ = -1;
};

} // namespace owaredb::db
