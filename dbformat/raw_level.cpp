#include "dbformat/raw_level.hpp"

#include "dbformat/file_io.hpp"
#include "dbformat/threads.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

namespace owaredb::db {

struct RawLevelFile::Mapping {
    std::filesystem::path path;
    const int8_t* data = nullptr; // null for an empty file
    uint64_t entries = 0;
    int bound = 0;
    ~Mapping() {
        if (data) ::munmap(const_cast<int8_t*>(data), entries);
    }
};

Result<RawLevelFile> RawLevelFile::open(const std::filesystem::path& path, uint64_t entries,
                                        int bound) {
    if (bound < 0 || bound > 127)
        return Status(ErrorCode::InvalidArgument, "raw level: bound outside 0..127");
    Result<detail::OpenFile> file = detail::open_regular_file(path, O_RDONLY);
    if (!file.ok()) return file.status();
    const int fd = file->fd;
    if (file->size != entries) {
        ::close(fd);
        return Status(ErrorCode::Corrupt, path.string() + ": " + std::to_string(file->size) +
                                              " bytes, but this level has " +
                                              std::to_string(entries) +
                                              " positions (one byte each): not this level's file, "
                                              "or truncated");
    }
    auto m = std::make_unique<Mapping>();
    m->path = path;
    m->entries = entries;
    m->bound = bound;
    if (entries > 0) {
        void* p = ::mmap(nullptr, entries, PROT_READ, MAP_SHARED, fd, 0);
        if (p == MAP_FAILED) {
            const int err = errno;
            ::close(fd);
            return Status(ErrorCode::Io, path.string() + ": cannot map it: " + std::strerror(err));
        }
        m->data = static_cast<const int8_t*>(p);
    }
    ::close(fd); // the mapping keeps the file
    return RawLevelFile(std::move(m));
}

RawLevelFile::RawLevelFile(std::unique_ptr<Mapping> m) : m_(std::move(m)) {}
RawLevelFile::RawLevelFile(RawLevelFile&&) noexcept = default;
RawLevelFile& RawLevelFile::operator=(RawLevelFile&&) noexcept = default;
RawLevelFile::~RawLevelFile() = default;

uint64_t RawLevelFile::entries() const {
    return m_->entries;
}

const std::filesystem::path& RawLevelFile::path() const {
    return m_->path;
}

Status RawLevelFile::out_of_bound(uint64_t offset) const {
    return Status(ErrorCode::Corrupt, m_->path.string() + ": offset " + std::to_string(offset) +
                                          " holds " + std::to_string(int(m_->data[offset])) +
                                          ", outside -" + std::to_string(m_->bound) + ".." +
                                          std::to_string(m_->bound));
}

Status RawLevelFile::read(uint64_t begin, std::span<int8_t> out) const {
    if (begin > m_->entries || out.size() > m_->entries - begin)
        return Status(ErrorCode::OutOfRange, m_->path.string() + ": offsets " +
                                                 std::to_string(begin) + ".." +
                                                 std::to_string(begin + out.size()) + " past its " +
                                                 std::to_string(m_->entries));
    if (out.empty()) return {};
    std::memcpy(out.data(), m_->data + begin, out.size());
    // One pass over what was copied: branch-free, so the check costs about the copy.
    const int bound = m_->bound;
    bool bad = false;
    for (int8_t v : out) bad |= v < -bound || v > bound;
    if (!bad) return {};
    for (size_t i = 0; i < out.size(); ++i)
        if (out[i] < -bound || out[i] > bound) return out_of_bound(begin + i);
    return {};
}

Status RawLevelFile::read_at(std::span<const uint64_t> offsets, std::span<int8_t> values) const {
    if (offsets.size() != values.size())
        return Status(ErrorCode::InvalidArgument, "raw level: offsets and values differ in size");
    const int bound = m_->bound;
    for (size_t i = 0; i < offsets.size(); ++i) {
        const uint64_t at = offsets[i];
        if (at >= m_->entries)
            return Status(ErrorCode::OutOfRange, m_->path.string() + ": offset " +
                                                     std::to_string(at) + " past its " +
                                                     std::to_string(m_->entries));
        const int8_t v = m_->data[at];
        if (v < -bound || v > bound) return out_of_bound(at);
        values[i] = v;
    }
    return {};
}

Result<Histogram> RawLevelFile::histogram(int threads) const {
    require_threads(threads, "RawLevelFile::histogram");
    constexpr uint64_t kChunk = uint64_t(1) << 22;
    const uint64_t chunks = (m_->entries + kChunk - 1) / kChunk;
    std::array<std::atomic<uint64_t>, 256> counts{};
    std::mutex failure_mutex;
    uint64_t failed_at = m_->entries; // the lowest bad offset seen
#pragma omp parallel num_threads(threads)
    {
        std::vector<int8_t> buffer(kChunk);
#pragma omp for schedule(dynamic, 1)
        for (uint64_t c = 0; c < chunks; ++c) {
            const uint64_t begin = c * kChunk, count = std::min(kChunk, m_->entries - begin);
            std::span<int8_t> part(buffer.data(), count);
            will_need(begin, count);
            if (!read(begin, part).ok()) {
                // read() names only its chunk's first bad offset; the lowest over all wins.
                for (uint64_t i = 0; i < count; ++i)
                    if (part[i] < -m_->bound || part[i] > m_->bound) {
                        std::lock_guard lock(failure_mutex);
                        failed_at = std::min(failed_at, begin + i);
                        break;
                    }
            }
            std::array<uint64_t, 256> local{};
            for (int8_t v : part) ++local[uint8_t(v)];
            for (int v = 0; v < 256; ++v)
                if (local[v]) counts[v].fetch_add(local[v], std::memory_order_relaxed);
            done_with(begin, count);
        }
    }
    if (failed_at < m_->entries) return out_of_bound(failed_at);
    Histogram h;
    for (int v = 0; v < 256; ++v) h.counts[v] = counts[v].load();
    return h;
}

namespace {

// The page-aligned range covering [begin, begin + count) of a mapping of `size` bytes.
std::pair<uint64_t, uint64_t> pages(uint64_t begin, uint64_t count, uint64_t size) {
    const uint64_t page = uint64_t(::sysconf(_SC_PAGESIZE));
    const uint64_t end = std::min(size, begin + count);
    const uint64_t from = begin / page * page;
    return {from, end > from ? end - from : 0};
}

} // namespace

void RawLevelFile::will_need(uint64_t begin, uint64_t count) const {
    if (!m_->data) return;
    const auto [from, length] = pages(begin, count, m_->entries);
    if (length) ::madvise(const_cast<int8_t*>(m_->data) + from, length, MADV_WILLNEED);
}

void RawLevelFile::done_with(uint64_t begin, uint64_t count) const {
    if (!m_->data) return;
    const auto [from, length] = pages(begin, count, m_->entries);
    if (length) ::madvise(const_cast<int8_t*>(m_->data) + from, length, MADV_DONTNEED);
}

} // namespace owaredb::db
