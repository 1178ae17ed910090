#include "dbformat/file_io.hpp"

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <stdexcept>
#include <sys/stat.h>
#include <unistd.h>

namespace owaredb::db::detail {

namespace {

[[noreturn]] void fail(const std::string& what, const std::filesystem::path& p, int err) {
    throw std::runtime_error("cannot " + what + " " + p.string() + ": " + std::strerror(err));
}

} // namespace

void throw_system_error(const std::filesystem::path& path, const std::string& what) {
    throw std::runtime_error(path.string() + ": " + what + ": " + std::strerror(errno));
}

void pwrite_all(int fd, const std::filesystem::path& path, std::span<const uint8_t> bytes,
                uint64_t at, const std::string& what) {
    for (std::size_t done = 0; done < bytes.size();) {
        const ssize_t put =
            ::pwrite(fd, bytes.data() + done, bytes.size() - done, off_t(at + done));
        if (put < 0 && errno == EINTR) continue;
        if (put == 0) errno = EIO; // no progress and no reason given
        if (put <= 0) throw_system_error(path, what);
        done += std::size_t(put);
    }
}

AtomicFileSink::AtomicFileSink(std::filesystem::path path) : path_(std::move(path)) {}

void AtomicFileSink::create() {
    // A name of this process's own; O_EXCL | O_NOFOLLOW refuses anything already there
    // (a planted link, a file of another writer), and the next number is tried instead.
    static std::atomic<uint64_t> counter{0};
    for (int attempt = 0;; ++attempt) {
        tmp_ = path_.string() + ".tmp." + std::to_string(::getpid()) + "." +
               std::to_string(counter.fetch_add(1));
        fd_ = ::open(tmp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (fd_ >= 0) return;
        if (errno != EEXIST || attempt == 100) fail("create", tmp_, errno);
    }
}

bool is_temp_file_name(const std::string& name) {
    // Level files and their checkpoints (dbformat/checkpoint.hpp).
    std::size_t at = name.rfind(".owdb.tmp"), tail = 9;
    if (at == std::string::npos) at = name.rfind(".checkpoint.tmp"), tail = 15;
    // Headerless level files in the published naming (raw_level.hpp): "scores.<N>.tmp.".
    if (at == std::string::npos && name.starts_with("scores.")) {
        const std::size_t digits_end = name.find_first_not_of("0123456789", 7);
        if (digits_end > 7 && digits_end != std::string::npos &&
            name.compare(digits_end, 5, ".tmp.") == 0)
            at = digits_end, tail = 4;
    }
    if (at == std::string::npos) return false;
    const std::string rest = name.substr(at + tail);
    if (rest.empty()) return true; // "<name>.tmp", written by versions before 0.2
    return rest[0] == '.' && rest.find_first_not_of("0123456789.") == std::string::npos;
}

AtomicFileSink::~AtomicFileSink() {
    if (fd_ >= 0) {
        ::close(fd_);
        ::unlink(tmp_.c_str());
    }
}

void AtomicFileSink::write(std::span<const uint8_t> bytes) {
    if (fd_ < 0) create();
    while (!bytes.empty()) {
        ssize_t n = ::write(fd_, bytes.data(), bytes.size());
        if (n < 0) {
            if (errno == EINTR) continue;
            fail("write", tmp_, errno);
        }
        bytes = bytes.subspan(std::size_t(n));
    }
}

void AtomicFileSink::commit() {
    if (fd_ < 0) create();
    if (::fsync(fd_) != 0) fail("fsync", tmp_, errno);
    int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) {
        int err = errno;
        ::unlink(tmp_.c_str());
        fail("close", tmp_, err);
    }
    if (::rename(tmp_.c_str(), path_.c_str()) != 0) {
        int err = errno;
        ::unlink(tmp_.c_str());
        fail("rename temp file to", path_, err);
    }
    // The rename is durable only once the directory entry is on disk.
    auto dir = path_.parent_path();
    if (dir.empty()) dir = ".";
    int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0) fail("open directory", dir, errno);
    int rc = ::fsync(dfd);
    int err = errno;
    ::close(dfd);
    if (rc != 0 && err != EINVAL) fail("fsync directory", dir, err);
}

Status pread_exact(int fd, uint64_t offset, std::span<uint8_t> out) {
    for (std::size_t done = 0; done < out.size();) {
        const ssize_t n = ::pread(fd, out.data() + done, out.size() - done, off_t(offset + done));
        if (n < 0) {
            if (errno == EINTR) continue;
            return Status(ErrorCode::Io, std::string("read error: ") + std::strerror(errno));
        }
        if (n == 0) return Status(ErrorCode::Corrupt, "file shorter than when opened");
        done += std::size_t(n);
    }
    return {};
}

namespace {

class FileSource final : public Source {
  public:
    FileSource(int fd, uint64_t size) : fd_(fd), size_(size) {}
    ~FileSource() override { ::close(fd_); }
    uint64_t size() const override { return size_; }
    Status read(uint64_t offset, std::span<uint8_t> out) const override {
        return pread_exact(fd_, offset, out);
    }

  private:
    int fd_;
    uint64_t size_;
};

class MemorySource final : public Source {
  public:
    explicit MemorySource(std::vector<uint8_t> bytes) : bytes_(std::move(bytes)) {}
    uint64_t size() const override { return bytes_.size(); }
    Status read(uint64_t offset, std::span<uint8_t> out) const override {
        if (offset > bytes_.size() || out.size() > bytes_.size() - offset)
            return Status(ErrorCode::Corrupt, "read past the end");
        std::memcpy(out.data(), bytes_.data() + offset, out.size());
        return {};
    }

  private:
    std::vector<uint8_t> bytes_;
};

} // namespace

FileStamp file_stamp(const std::filesystem::path& path) {
    struct stat st;
    FileStamp stamp;
    if (::stat(path.c_str(), &st) != 0) {
        stamp.error = errno;
        return stamp;
    }
    auto ns = [](const struct timespec& t) { return int64_t(t.tv_sec) * 1000000000 + t.tv_nsec; };
    stamp.device = uint64_t(st.st_dev);
    stamp.inode = uint64_t(st.st_ino);
    stamp.mode = uint64_t(st.st_mode);
    stamp.size = uint64_t(st.st_size);
    stamp.modified_ns = ns(st.st_mtim);
    stamp.changed_ns = ns(st.st_ctim);
    return stamp;
}

namespace {

Status not_regular(const std::filesystem::path& path, mode_t mode) {
    const char* what = S_ISDIR(mode) ? "is a directory" : "is not a regular file";
    return Status(ErrorCode::Io, path.string() + ": " + what);
}

} // namespace

Status regular_or_missing(const std::filesystem::path& path) {
    struct stat st;
    if (::stat(path.c_str(), &st) != 0 || S_ISREG(st.st_mode)) return {};
    return not_regular(path, st.st_mode);
}

Result<OpenFile> open_regular_file(const std::filesystem::path& path, int flags, unsigned mode) {
    const int fd = ::open(path.c_str(), flags | O_NONBLOCK | O_CLOEXEC, mode);
    if (fd < 0) {
        int err = errno;
        auto code = err == ENOENT ? ErrorCode::NotFound : ErrorCode::Io;
        return Status(code, path.string() + ": " + std::strerror(err));
    }
    struct stat st;
    if (::fstat(fd, &st) != 0) {
        int err = errno;
        ::close(fd);
        return Status(ErrorCode::Io, path.string() + ": " + std::strerror(err));
    }
    if (!S_ISREG(st.st_mode)) {
        ::close(fd);
        return not_regular(path, st.st_mode);
    }
    // Reads and writes block as usual from here (O_NONBLOCK only kept the open from waiting).
    const int fl = ::fcntl(fd, F_GETFL);
    if (fl < 0 || ::fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) != 0) {
        int err = errno;
        ::close(fd);
        return Status(ErrorCode::Io, path.string() + ": " + std::strerror(err));
    }
    return OpenFile{fd, uint64_t(st.st_size)};
}

Result<std::unique_ptr<Source>> open_file_source(const std::filesystem::path& path) {
    Result<OpenFile> file = open_regular_file(path, O_RDONLY);
    if (!file.ok()) return file.status();
    return std::unique_ptr<Source>(new FileSource(file->fd, file->size));
}

std::unique_ptr<Source> memory_source(std::vector<uint8_t> bytes) {
    return std::make_unique<MemorySource>(std::move(bytes));
}

} // namespace owaredb::db::detail
