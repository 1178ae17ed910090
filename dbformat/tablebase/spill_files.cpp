#include "tablebase/spill_files.hpp"

#include "dbformat/checksum.hpp"
#include "dbformat/file_io.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <stdexcept>
#include <string>
#include <utility>

namespace owaredb {

namespace {

std::span<const uint8_t> block_bytes(std::span<const uint64_t> block) {
    return {reinterpret_cast<const uint8_t*>(block.data()), block.size_bytes()};
}

} // namespace

SpillFile::SpillFile(int fd, std::filesystem::path name) : fd_(fd), name_(std::move(name)) {}

SpillFile::~SpillFile() {
    ::close(fd_);
}

void SpillFile::write(uint64_t index, std::span<const uint64_t> block) {
    if (index > checksums_.size()) throw std::logic_error(name_.string() + ": a block skipped");
    db::detail::pwrite_all(fd_, name_, block_bytes(block), index * block.size_bytes(),
                           "cannot write the spill file");
    checksums_.resize(index);
    checksums_.push_back(db::detail::checksum(block_bytes(block)));
}

void SpillFile::read(uint64_t index, std::span<uint64_t> block) {
    if (index >= checksums_.size()) throw std::logic_error(name_.string() + ": no such block");
    const std::string what = "block " + std::to_string(index) + " of the spill file";
    const std::span<uint8_t> bytes(reinterpret_cast<uint8_t*>(block.data()), block.size_bytes());
    if (const db::Status read = db::detail::pread_exact(fd_, index * block.size_bytes(), bytes);
        !read.ok())
        throw std::runtime_error(name_.string() + ": cannot read " + what + ": " + read.message());
    if (db::detail::checksum(bytes) != checksums_[index])
        throw std::runtime_error(name_.string() + ": " + what +
                                 " is damaged (its checksum is not the one written)");
}

SpillFiles::SpillFiles(std::filesystem::path level_file) : level_file_(std::move(level_file)) {}

std::unique_ptr<SpillArea> SpillFiles::open() {
    const std::filesystem::path dir =
        level_file_.parent_path().empty() ? std::filesystem::path(".") : level_file_.parent_path();
    const std::filesystem::path name = level_file_.string() + ".spill";
    int fd = ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL)) {
        // No O_TMPFILE here: a name of this process's own, removed at once.
        const std::filesystem::path named =
            name.string() + "." + std::to_string(::getpid()) + "." + std::to_string(opened_++);
        fd = ::open(named.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd >= 0) ::unlink(named.c_str());
    }
    if (fd < 0) db::detail::throw_system_error(dir, "cannot create a spill file");
    return std::make_unique<SpillFile>(fd, name);
}

} // namespace owaredb
