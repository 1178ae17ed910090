#include "tablebase/streamed_files.hpp"

#include "dbformat/checksum.hpp"
#include "dbformat/file_io.hpp"
#include "tablebase/database_dir.hpp"

#include <fcntl.h>
#include <omp.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

namespace owaredb {

// ---------------------------------------------------------------------------------------
// FileSmallerLevels

FileSmallerLevels::FileSmallerLevels(const DatabaseDir& db, int n, int threads, bool and_level_n)
    : threads_(std::max(1, threads)) {
    for (int k = 0; k <= n; ++k) {
        if (!streamed_source_holds(n, k, and_level_n, db.pits())) {
            readers_.emplace_back();
            continue;
        }
        db::ReaderOptions options;
        options.cache_bytes = 0; // read_sorted bypasses the cache
        options.expect = db.expectation(k);
        db::LevelReader reader(db.path(k), options);
        db::Result<db::LevelInfo> info = reader.info();
        if (!info.ok()) throw std::runtime_error(info.status().message());
        if (info->meta.capture_bounded)
            throw std::runtime_error(db.path(k).string() +
                                     ": a capture-bounded (--compact) file holds no value for "
                                     "capture positions; the streamed mode needs exact files");
        readers_.push_back(std::move(reader));
    }
    cursors_.resize(size_t(threads_) * readers_.size());
}

FileSmallerLevels::~FileSmallerLevels() = default;

void FileSmallerLevels::read(int level, std::span<const uint64_t> indices,
                             std::span<int8_t> values) const {
    const int thread = omp_get_thread_num();
    if (thread >= threads_ || level < 0 || level >= int(readers_.size()) || !readers_[level])
        throw std::logic_error("FileSmallerLevels: thread or level out of range");
    const db::LevelReader& reader = *readers_[level];
    db::SortedCursor& cursor = cursors_[size_t(thread) * readers_.size() + size_t(level)];
    if (db::Status s = reader.read_sorted(indices, values, cursor); !s.ok())
        throw std::runtime_error(s.message());
    for (size_t i = 0; i < values.size(); ++i)
        if (values[i] < -level || values[i] > level)
            throw std::runtime_error(reader.path().string() + ": index " +
                                     std::to_string(indices[i]) + " holds no exact value");
}

// ---------------------------------------------------------------------------------------
// ExitFile

struct ExitFile::Hash {
    db::detail::StreamingChecksum sum;
};

namespace {

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& what) {
    throw std::runtime_error(path.string() + ": " + what + ": " + std::strerror(errno));
}

} // namespace

ExitFile::ExitFile(std::filesystem::path path) : path_(std::move(path)) {}

ExitFile::~ExitFile() {
    if (fd_ >= 0) ::close(fd_);
}

void ExitFile::open(bool truncate) {
    if (fd_ < 0) {
        // Made anew, never through what is at the path: a planted link (to a file the exits
        // would overwrite) or an earlier run's file is removed first, and O_EXCL |
        // O_NOFOLLOW refuse anything that appears in between.
        if (::unlink(path_.c_str()) != 0 && errno != ENOENT)
            fail(path_, "cannot remove the old exit file");
        fd_ = ::open(path_.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (fd_ < 0) fail(path_, "cannot create the exit file");
        return;
    }
    if (truncate && ::ftruncate(fd_, 0) != 0) fail(path_, "cannot truncate the exit file");
}

void ExitFile::reset() {
    open(true);
    size_ = 0;
    hash_ = std::make_unique<Hash>();
}

bool ExitFile::resume(uint64_t size, uint64_t checksum) {
    if (fd_ < 0) {
        // Missing, a link (never followed) or not a regular file: the level starts afresh,
        // and reset() makes a file of its own.
        db::Result<db::detail::OpenFile> file =
            db::detail::open_regular_file(path_, O_RDWR | O_NOFOLLOW);
        if (!file.ok()) return false;
        fd_ = file->fd;
    }
    const off_t end = ::lseek(fd_, 0, SEEK_END);
    if (end < 0 || uint64_t(end) < size) return false;
    // Checksum the prefix the checkpoint was saved with; the hash state then goes on from it.
    auto hash = std::make_unique<Hash>();
    std::vector<uint8_t> buffer(std::size_t(1) << 20);
    for (uint64_t at = 0; at < size;) {
        const std::size_t want = std::size_t(std::min<uint64_t>(buffer.size(), size - at));
        const ssize_t got = ::pread(fd_, buffer.data(), want, off_t(at));
        if (got <= 0) return false;
        hash->sum.update({buffer.data(), std::size_t(got)});
        at += uint64_t(got);
    }
    if (hash->sum.digest() != checksum) return false;
    if (::ftruncate(fd_, off_t(size)) != 0) fail(path_, "cannot truncate the exit file");
    size_ = size;
    hash_ = std::move(hash);
    return true;
}

void ExitFile::append(std::span<const int8_t> exits) {
    if (!hash_) reset();
    const auto* bytes = reinterpret_cast<const uint8_t*>(exits.data());
    for (std::size_t done = 0; done < exits.size();) {
        const ssize_t put = ::pwrite(fd_, bytes + done, exits.size() - done, off_t(size_ + done));
        if (put < 0) {
            if (errno == EINTR) continue;
            fail(path_, "cannot write the exit file");
        }
        done += std::size_t(put);
    }
    hash_->sum.update({bytes, exits.size()});
    size_ += exits.size();
}

uint64_t ExitFile::sync() {
    if (!hash_) reset();
    if (::fdatasync(fd_) != 0) fail(path_, "cannot sync the exit file");
    return hash_->sum.digest();
}

void ExitFile::read(uint64_t begin, std::span<int8_t> out) const {
    if (begin + out.size() > size_)
        throw std::logic_error(path_.string() + ": reading past the exits written");
    auto* bytes = reinterpret_cast<uint8_t*>(out.data());
    for (std::size_t done = 0; done < out.size();) {
        const ssize_t got = ::pread(fd_, bytes + done, out.size() - done, off_t(begin + done));
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) fail(path_, "cannot read the exit file");
        done += std::size_t(got);
    }
}

void ExitFile::remove() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    hash_.reset();
    size_ = 0;
    std::error_code ec;
    std::filesystem::remove(path_, ec);
}

} // namespace owaredb
