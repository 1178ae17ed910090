#include "dbformat/dir_lock.hpp"

#include "dbformat/file_io.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <stdexcept>
#include <sys/file.h>
#include <unistd.h>

namespace owaredb::db {

namespace {

std::string reason(int err) {
    return std::strerror(err);
}

} // namespace

DirectoryLock::DirectoryLock(const std::filesystem::path& dir) : dir_(dir) {
    const std::filesystem::path file = dir / kFileName;
    fd_ = ::open(file.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd_ < 0)
        throw std::runtime_error("cannot create the lock file " + file.string() + ": " +
                                 reason(errno));
    if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
        const int err = errno;
        char pid[32] = {};
        const ssize_t n = ::pread(fd_, pid, sizeof pid - 1, 0);
        ::close(fd_);
        fd_ = -1;
        if (err == EWOULDBLOCK) {
            std::string who = n > 0 ? std::string(pid, std::size_t(n)) : std::string("?");
            while (!who.empty() && (who.back() == '\n' || who.back() == ' ')) who.pop_back();
            throw std::runtime_error("directory " + dir.string() + " is being written by process " +
                                     who + " (lock file " + file.string() +
                                     "); try again when it ends");
        }
        throw std::runtime_error("cannot lock " + file.string() + ": " + reason(err));
    }
    const std::string me = std::to_string(::getpid()) + "\n";
    if (::ftruncate(fd_, 0) != 0 || ::pwrite(fd_, me.data(), me.size(), 0) != ssize_t(me.size())) {
        const int err = errno;
        ::close(fd_);
        fd_ = -1;
        throw std::runtime_error("cannot write the lock file " + file.string() + ": " +
                                 reason(err));
    }
}

DirectoryLock::~DirectoryLock() {
    if (fd_ >= 0) ::close(fd_); // releases the flock
}

int DirectoryLock::remove_stale_temp_files() const {
    int removed = 0;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(dir_, ec)) {
        const std::string name = entry.path().filename().string();
        if (!detail::is_temp_file_name(name)) continue;
        // symlink_status: a planted link is removed itself, never what it points to.
        if (std::filesystem::remove(entry.path(), ec)) ++removed;
    }
    return removed;
}

} // namespace owaredb::db
