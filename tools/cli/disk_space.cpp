#include "cli/disk_space.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <sys/statvfs.h>

namespace owaredb::cli {

std::string gigabytes(uint64_t bytes) {
    char buf[32];
    // Under a megabyte, the bytes themselves: "0 MB" would say nothing.
    if (bytes < (uint64_t(1) << 20))
        return std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes");
    if (bytes >= (uint64_t(1) << 30))
        std::snprintf(buf, sizeof buf, "%.1f GB", double(bytes) / double(uint64_t(1) << 30));
    else
        std::snprintf(buf, sizeof buf, "%.0f MB", double(bytes) / double(1 << 20));
    return buf;
}

std::optional<uint64_t> free_bytes(const std::string& dir) {
    struct statvfs fs;
    if (::statvfs(dir.c_str(), &fs) != 0) return std::nullopt;
    return uint64_t(fs.f_bavail) * fs.f_frsize;
}

void check_disk(int n, uint64_t bytes, const std::string& dir) {
    const std::optional<uint64_t> free = free_bytes(dir);
    if (free && bytes > *free)
        throw std::runtime_error("level " + std::to_string(n) + " needs about " + gigabytes(bytes) +
                                 " of disk in '" + dir + "'; " + gigabytes(*free) +
                                 " are free: " + std::strerror(ENOSPC));
}

} // namespace owaredb::cli
