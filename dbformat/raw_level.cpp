#include "dbformat/raw_level.hpp"

#include "dbformat/file_io.hpp"
#include "dbformat/threads.hpp"

#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
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

namespace {

// A file truncated while mapped turns a read of the pages past its new end into SIGBUS.
// Every read of a mapping goes through guarded(), which makes that fault a failed read:
// the SIGBUS handler jumps back to the read's thread's guard, and a fault anywhere else is
// left to the handler (or the default action) that was there before.
thread_local sigjmp_buf* volatile t_guard = nullptr; // set while this thread reads a mapping
thread_local bool t_chaining = false;                // in the handler that was there before
struct sigaction g_previous_bus;
std::mutex g_bus_mutex; // guards installing

// Sends `sig` with its default action (a fault ignored would only come back).
void default_action(int sig) {
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    ::sigaction(sig, &dfl, nullptr);
    ::raise(sig);
}

extern "C" void on_sigbus(int sig, siginfo_t* info, void* context) {
    if (sigjmp_buf* guard = t_guard) {
        t_guard = nullptr;
        siglongjmp(*guard, 1);
    }
    // A fault of someone else's: the handler that was there before, once (if it comes back
    // here, two handlers chain to each other: the default action ends it).
    const struct sigaction previous = g_previous_bus;
    if (t_chaining || (!(previous.sa_flags & SA_SIGINFO) &&
                       (previous.sa_handler == SIG_DFL || previous.sa_handler == SIG_IGN))) {
        default_action(sig);
        return;
    }
    t_chaining = true;
    if (previous.sa_flags & SA_SIGINFO)
        previous.sa_sigaction(sig, info, context);
    else
        previous.sa_handler(sig);
    t_chaining = false;
}

// Makes on_sigbus the process's SIGBUS handler, chaining to the one there now, unless it is
// already: at each mapping, so that a handler installed since (a test framework's, a
// runtime's) does not leave the reads unguarded.
void install_sigbus_handler() {
    std::lock_guard lock(g_bus_mutex);
    struct sigaction current {};
    if (::sigaction(SIGBUS, nullptr, &current) != 0) return;
    if ((current.sa_flags & SA_SIGINFO) && current.sa_sigaction == on_sigbus) return;
    struct sigaction action {};
    action.sa_sigaction = on_sigbus;
    // SA_NODEFER: SIGBUS is not blocked in the handler, so the jump out of it (which does
    // not restore the signal mask) leaves the thread's mask as it was.
    action.sa_flags = SA_SIGINFO | SA_NODEFER | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    g_previous_bus = current;
    ::sigaction(SIGBUS, &action, nullptr);
}

// Runs copy(context), which reads a mapping and holds nothing to destroy; false if the read
// faulted (the file is shorter than when it was mapped).
[[gnu::noinline]] bool guarded(void (*copy)(void*), void* context) {
    sigjmp_buf guard;
    if (sigsetjmp(guard, 0) != 0) return false;
    // The fences keep the compiler from moving the copy out from between the two stores, or
    // from dropping the first one: the handler reads it, which the compiler cannot see.
    t_guard = &guard;
    std::atomic_signal_fence(std::memory_order_seq_cst);
    copy(context);
    std::atomic_signal_fence(std::memory_order_seq_cst);
    t_guard = nullptr;
    return true;
}

Status shorter(const std::filesystem::path& path) {
    return Status(ErrorCode::Corrupt, path.string() + ": file shorter than when opened");
}

} // namespace

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
        install_sigbus_handler();
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

Status RawLevelFile::out_of_bound(uint64_t offset, int8_t value) const {
    return Status(ErrorCode::Corrupt, m_->path.string() + ": offset " + std::to_string(offset) +
                                          " holds " + std::to_string(int(value)) + ", outside -" +
                                          std::to_string(m_->bound) + ".." +
                                          std::to_string(m_->bound));
}

bool RawLevelFile::copy(uint64_t begin, std::span<int8_t> out) const {
    struct Copy {
        int8_t* to;
        const int8_t* from;
        std::size_t size;
    } copy{out.data(), m_->data + begin, out.size()};
    return guarded(
        [](void* c) {
            const Copy& k = *static_cast<Copy*>(c);
            std::memcpy(k.to, k.from, k.size);
        },
        &copy);
}

Status RawLevelFile::read(uint64_t begin, std::span<int8_t> out) const {
    if (begin > m_->entries || out.size() > m_->entries - begin)
        return Status(ErrorCode::OutOfRange, m_->path.string() + ": offsets " +
                                                 std::to_string(begin) + ".." +
                                                 std::to_string(begin + out.size()) + " past its " +
                                                 std::to_string(m_->entries));
    if (out.empty()) return {};
    if (!copy(begin, out)) return shorter(m_->path);
    // One pass over what was copied: branch-free, so the check costs about the copy.
    const int bound = m_->bound;
    bool bad = false;
    for (int8_t v : out) bad |= v < -bound || v > bound;
    if (!bad) return {};
    for (size_t i = 0; i < out.size(); ++i)
        if (out[i] < -bound || out[i] > bound) return out_of_bound(begin + i, out[i]);
    return {};
}

Status RawLevelFile::read_at(std::span<const uint64_t> offsets, std::span<int8_t> values) const {
    if (offsets.size() != values.size())
        return Status(ErrorCode::InvalidArgument, "raw level: offsets and values differ in size");
    for (const uint64_t at : offsets)
        if (at >= m_->entries)
            return Status(ErrorCode::OutOfRange, m_->path.string() + ": offset " +
                                                     std::to_string(at) + " past its " +
                                                     std::to_string(m_->entries));
    struct Gather {
        std::span<const uint64_t> offsets;
        std::span<int8_t> values;
        const int8_t* data;
    } gather{offsets, values, m_->data};
    if (!offsets.empty() && !guarded(
                                [](void* g) {
                                    const Gather& k = *static_cast<Gather*>(g);
                                    for (std::size_t i = 0; i < k.offsets.size(); ++i)
                                        k.values[i] = k.data[k.offsets[i]];
                                },
                                &gather))
        return shorter(m_->path);
    const int bound = m_->bound;
    for (std::size_t i = 0; i < offsets.size(); ++i)
        if (values[i] < -bound || values[i] > bound) return out_of_bound(offsets[i], values[i]);
    return {};
}

Result<Histogram> RawLevelFile::histogram(int threads) const {
    require_threads(threads, "RawLevelFile::histogram");
    constexpr uint64_t kChunk = uint64_t(1) << 22;
    const uint64_t chunks = (m_->entries + kChunk - 1) / kChunk;
    std::array<std::atomic<uint64_t>, 256> counts{};
    std::mutex failure_mutex;
    uint64_t failed_at = m_->entries; // the lowest bad offset seen
    int8_t failed_value = 0;
    std::atomic<bool> cut{false}; // a read faulted: the file is shorter than when opened
#pragma omp parallel num_threads(threads)
    {
        std::vector<int8_t> buffer(kChunk);
#pragma omp for schedule(dynamic, 1)
        for (uint64_t c = 0; c < chunks; ++c) {
            const uint64_t begin = c * kChunk, count = std::min(kChunk, m_->entries - begin);
            std::span<int8_t> part(buffer.data(), count);
            will_need(begin, count);
            if (!copy(begin, part)) {
                cut.store(true);
                continue;
            }
            // The lowest bad offset over all chunks wins.
            for (uint64_t i = 0; i < count; ++i)
                if (part[i] < -m_->bound || part[i] > m_->bound) {
                    std::lock_guard lock(failure_mutex);
                    if (begin + i < failed_at) failed_at = begin + i, failed_value = part[i];
                    break;
                }
            std::array<uint64_t, 256> local{};
            for (int8_t v : part) ++local[uint8_t(v)];
            for (int v = 0; v < 256; ++v)
                if (local[v]) counts[v].fetch_add(local[v], std::memory_order_relaxed);
            done_with(begin, count);
        }
    }
    if (cut.load()) return shorter(m_->path);
    if (failed_at < m_->entries) return out_of_bound(failed_at, failed_value);
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
