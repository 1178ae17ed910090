#include "tablebase/streamed_files.hpp"

#include "dbformat/bytes.hpp"
#include "dbformat/checksum.hpp"
#include "dbformat/codec.hpp"
#include "dbformat/file_io.hpp"
#include "tablebase/database_dir.hpp"

#include <fcntl.h>
#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
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

constexpr char kExitMagic[8] = {'O', 'W', 'E', 'X', 'I', 'T', '0', '1'};
constexpr uint64_t kRecordBytes = 16;
constexpr uint8_t kExitCodec = 1; // zstd, as the level files
constexpr int kExitLevel = 1;     // its fastest usual level: the file lives while a level is solved

bool read_at(int fd, uint8_t* bytes, std::size_t size, uint64_t at) {
    return db::detail::pread_exact(fd, at, {bytes, size}).ok();
}

std::shared_ptr<const db::detail::BlockCodec> exit_codec(bool for_compression) {
    db::Result<const db::detail::Codec*> found = db::detail::find_codec(kExitCodec);
    db::Result<std::shared_ptr<const db::detail::BlockCodec>> opened =
        found.ok() ? (*found)->open({}, kExitLevel, for_compression)
                   : db::Result<std::shared_ptr<const db::detail::BlockCodec>>(found.status());
    if (!opened.ok()) throw std::runtime_error("exit file: " + opened.status().message());
    return *opened;
}

uint64_t next_exit_file_id() {
    static std::atomic<uint64_t> next{1};
    return next.fetch_add(1, std::memory_order_relaxed);
}

std::span<const uint8_t> as_bytes(std::span<const int8_t> exits) {
    return {reinterpret_cast<const uint8_t*>(exits.data()), exits.size()};
}

} // namespace

struct ExitFile::Compressor {
    std::unique_ptr<db::detail::BlockCompressor> compressor =
        exit_codec(true)->compressor(kExitLevel);
    std::vector<uint8_t> packed, record;
};

ExitFile::ExitFile(std::filesystem::path path) : path_(std::move(path)), id_(next_exit_file_id()) {}

ExitFile::~ExitFile() {
    if (fd_ >= 0) ::close(fd_);
}

void ExitFile::open(bool truncate) {
    if (fd_ < 0) {
        // Made anew, never through what is at the path: a planted link (to a file the exits
        // would overwrite) or an earlier run's file is removed first, and O_EXCL |
        // O_NOFOLLOW refuse anything that appears in between.
        if (::unlink(path_.c_str()) != 0 && errno != ENOENT)
            db::detail::throw_system_error(path_, "cannot remove the old exit file");
        fd_ = ::open(path_.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (fd_ < 0) db::detail::throw_system_error(path_, "cannot create the exit file");
    } else if (truncate && ::ftruncate(fd_, 0) != 0) {
        db::detail::throw_system_error(path_, "cannot truncate the exit file");
    }
    if (truncate) {
        if (::pwrite(fd_, kExitMagic, sizeof kExitMagic, 0) != ssize_t(sizeof kExitMagic))
            db::detail::throw_system_error(path_, "cannot write the exit file");
        end_ = sizeof kExitMagic;
    }
}

void ExitFile::reset() {
    open(true);
    size_ = 0;
    chunks_.clear();
    pending_.clear();
    id_ = next_exit_file_id();
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
    if (!load(size, checksum)) {
        // Not ours to keep: the next reset() starts a new file.
        chunks_.clear();
        pending_.clear();
        size_ = 0;
        hash_.reset();
        id_ = next_exit_file_id();
        return false;
    }
    if (::ftruncate(fd_, off_t(end_)) != 0)
        db::detail::throw_system_error(path_, "cannot truncate the exit file");
    return true;
}

bool ExitFile::load(uint64_t size, uint64_t checksum) {
    // Reads every chunk of the `size` exits the checkpoint was saved with, checking each
    // and their sum; the hash state then goes on from there.
    char magic[sizeof kExitMagic];
    if (!read_at(fd_, reinterpret_cast<uint8_t*>(magic), sizeof magic, 0) ||
        !std::equal(magic, magic + sizeof magic, kExitMagic))
        return false;
    chunks_.clear();
    pending_.clear();
    id_ = next_exit_file_id();
    auto hash = std::make_unique<Hash>();
    std::vector<int8_t> exits;
    // A record's size is checked before anything is allocated for it.
    const std::size_t bound = (*db::detail::find_codec(kExitCodec))->bound(kChunkPositions);
    uint64_t at = sizeof kExitMagic, positions = 0;
    while (positions < size) {
        uint8_t record[kRecordBytes];
        if (!read_at(fd_, record, sizeof record, at)) return false;
        Chunk c{positions, at + kRecordBytes, uint32_t(db::detail::get_le(record, 4)),
                uint32_t(db::detail::get_le(record + 4, 4)), db::detail::get_le(record + 8, 8)};
        if (c.positions == 0 || c.positions > kChunkPositions || positions + c.positions > size ||
            c.bytes > bound)
            return false;
        exits.resize(c.positions);
        try {
            decode(c, exits);
        } catch (const std::runtime_error&) {
            return false; // damaged or cut short: the level starts afresh
        }
        hash->sum.update(as_bytes(exits));
        chunks_.push_back(c);
        positions += c.positions;
        at = c.offset + c.bytes;
    }
    if (hash->sum.digest() != checksum) return false;
    size_ = size;
    end_ = at;
    hash_ = std::move(hash);
    return true;
}

void ExitFile::write_chunk(std::span<const int8_t> exits) {
    if (!compressor_) compressor_ = std::make_unique<Compressor>();
    std::vector<uint8_t>& packed = compressor_->packed;
    compressor_->compressor->compress(as_bytes(exits), packed);
    const Chunk c{chunks_.empty() ? 0 : chunks_.back().first + chunks_.back().positions,
                  end_ + kRecordBytes, uint32_t(exits.size()), uint32_t(packed.size()),
                  db::detail::checksum(as_bytes(exits))};
    std::vector<uint8_t>& record = compressor_->record;
    record.clear();
    db::detail::put_le(record, c.positions, 4);
    db::detail::put_le(record, c.bytes, 4);
    db::detail::put_u64(record, c.checksum);
    record.insert(record.end(), packed.begin(), packed.end());
    for (std::size_t done = 0; done < record.size();) {
        const ssize_t put =
            ::pwrite(fd_, record.data() + done, record.size() - done, off_t(end_ + done));
        if (put < 0 && errno == EINTR) continue;
        if (put <= 0) db::detail::throw_system_error(path_, "cannot write the exit file");
        done += std::size_t(put);
    }
    end_ += record.size();
    chunks_.push_back(c);
}

void ExitFile::append(std::span<const int8_t> exits) {
    if (!hash_) reset();
    hash_->sum.update(as_bytes(exits));
    size_ += exits.size();
    while (!exits.empty()) {
        if (pending_.empty() && exits.size() >= kChunkPositions) {
            write_chunk(exits.first(kChunkPositions));
            exits = exits.subspan(kChunkPositions);
            continue;
        }
        const std::size_t take = std::min(kChunkPositions - pending_.size(), exits.size());
        pending_.insert(pending_.end(), exits.begin(), exits.begin() + std::ptrdiff_t(take));
        exits = exits.subspan(take);
        if (pending_.size() == kChunkPositions) {
            write_chunk(pending_);
            pending_.clear();
        }
    }
}

uint64_t ExitFile::sync() {
    if (!hash_) reset();
    if (!pending_.empty()) {
        write_chunk(pending_);
        pending_.clear();
    }
    if (::fdatasync(fd_) != 0) db::detail::throw_system_error(path_, "cannot sync the exit file");
    return hash_->sum.digest();
}

void ExitFile::decode(const Chunk& c, std::span<int8_t> out) const {
    static const std::shared_ptr<const db::detail::BlockCodec> decoder = exit_codec(false);
    thread_local std::vector<uint8_t> packed;
    packed.resize(c.bytes);
    const std::span<uint8_t> raw(reinterpret_cast<uint8_t*>(out.data()), out.size());
    auto refuse = [&](const char* what) {
        throw std::runtime_error(
            path_.string() + ": the chunk of positions " + std::to_string(c.first) + ".." +
            std::to_string(c.first + c.positions - 1) + " of the exit file " + what);
    };
    if (!read_at(fd_, packed.data(), packed.size(), c.offset))
        refuse("cannot be read (the file is cut short)");
    if (!decoder->decompress(packed, raw).ok() || db::detail::checksum(raw) != c.checksum)
        refuse("is damaged");
}

void ExitFile::read(uint64_t begin, std::span<int8_t> out) const {
    if (begin + out.size() > size_)
        throw std::logic_error(path_.string() + ": reading past the exits written");
    // What the last chunk this thread decompressed held (a read within a chunk).
    thread_local struct {
        uint64_t file = 0, chunk = 0;
        std::vector<int8_t> exits;
    } cache;
    const uint64_t written = size_ - pending_.size();
    while (!out.empty()) {
        if (begin >= written) { // not compressed yet
            std::copy_n(pending_.begin() + std::ptrdiff_t(begin - written), out.size(),
                        out.begin());
            return;
        }
        const auto at = std::upper_bound(chunks_.begin(), chunks_.end(), begin,
                                         [](uint64_t i, const Chunk& c) { return i < c.first; }) -
                        1;
        const Chunk& c = *at;
        const uint64_t from = begin - c.first;
        const std::size_t take = std::size_t(std::min<uint64_t>(out.size(), c.positions - from));
        if (take == c.positions) {
            decode(c, out.first(take));
        } else {
            const uint64_t k = uint64_t(at - chunks_.begin());
            if (cache.file != id_ || cache.chunk != k) {
                cache.file = 0; // nothing valid while it is decoded
                cache.exits.resize(c.positions);
                decode(c, cache.exits);
                cache.file = id_;
                cache.chunk = k;
            }
            std::copy_n(cache.exits.begin() + std::ptrdiff_t(from), take, out.begin());
        }
        begin += take;
        out = out.subspan(take);
    }
}

void ExitFile::remove() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    hash_.reset();
    size_ = end_ = 0;
    chunks_.clear();
    pending_.clear();
    id_ = next_exit_file_id();
    std::error_code ec;
    std::filesystem::remove(path_, ec);
}

} // namespace owaredb
