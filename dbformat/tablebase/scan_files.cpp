#include "tablebase/scan_files.hpp"

#include "dbformat/bytes.hpp"
#include "dbformat/checkpoint.hpp"
#include "dbformat/checksum.hpp"
#include "dbformat/codec.hpp"
#include "dbformat/file_io.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>

namespace owaredb {

namespace {

constexpr char kMagic[8] = {'O', 'W', 'S', 'C', 'A', 'N', '0', '1'};
constexpr uint8_t kCodec = 1; // zstd, as the level files
constexpr int kLevel = 1;     // the fastest of zstd's usual levels: a generation lives minutes

struct Entry {
    uint64_t offset = 0;
    uint64_t bytes = 0;
    uint64_t checksum = 0;
};
constexpr std::size_t kEntryBytes = 24; // on disk
static_assert(sizeof(Entry) == ScanFiles::kIndexBytesPerChunk);
constexpr std::size_t kFooterBytes = 8 + 5 * 8;

void pwrite_all(int fd, const std::filesystem::path& path, const uint8_t* bytes, std::size_t size,
                uint64_t at) {
    db::detail::pwrite_all(fd, path, {bytes, size}, at, "cannot write the scan file");
}

bool pread_all(int fd, uint8_t* bytes, std::size_t size, uint64_t at) {
    for (std::size_t done = 0; done < size;) {
        const ssize_t got = ::pread(fd, bytes + done, size - done, off_t(at + done));
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return false;
        done += std::size_t(got);
    }
    return true;
}

std::shared_ptr<const db::detail::BlockCodec> codec(bool for_compression) {
    auto found = db::detail::find_codec(kCodec);
    if (!found.ok()) throw std::runtime_error("scan files: " + found.status().message());
    auto opened = (*found)->open({}, kLevel, for_compression);
    if (!opened.ok()) throw std::runtime_error("scan files: " + opened.status().message());
    return *opened;
}

// Pieces of this many index entries are written, read and checksummed at a time, so that
// an index is never copied whole.
constexpr uint64_t kIndexPiece = 1 << 16;

Entry decode_entry(const uint8_t* bytes) {
    return {db::detail::get_le(bytes, 8), db::detail::get_le(bytes + 8, 8),
            db::detail::get_le(bytes + 16, 8)};
}

} // namespace

struct ScanFiles::Generation {
    uint64_t number = 0, size = 0, chunk = 1;
    std::filesystem::path path;
    int fd = -1;
    std::vector<Entry> index;     // while the generation is written; empty once it is ended
    std::atomic<uint64_t> end{0}; // where the next chunk's bytes go; then the index
    uint64_t checksum = 0;
    bool dropped = false; // dropped while pinned: goes once another is pinned
    ~Generation() {
        if (fd >= 0) ::close(fd);
    }
    uint64_t chunks() const { return (size + chunk - 1) / chunk; }
    uint64_t chunk_size(uint64_t k) const { return std::min(chunk, size - k * chunk); }
    // The footer's fields but its checksum, and the checksum of them and the index.
    std::vector<uint8_t> footer() const {
        std::vector<uint8_t> f(kMagic, kMagic + 8);
        for (const uint64_t v : {number, size, chunk, chunks(), uint64_t(0)})
            db::detail::put_u64(f, v);
        return f;
    }
    // Entries first..first + count of the index, as the file holds them.
    std::vector<uint8_t> index_bytes(uint64_t first, uint64_t count) const {
        std::vector<uint8_t> b;
        b.reserve(count * kEntryBytes);
        for (uint64_t k = first; k < first + count; ++k)
            for (const uint64_t v : {index[k].offset, index[k].bytes, index[k].checksum})
                db::detail::put_u64(b, v);
        return b;
    }
    // The entry of chunk k: from memory while the generation is written, else from its
    // file, checked against the chunks' bytes and the codec's bound before it is used.
    Entry entry(uint64_t k) const {
        if (!index.empty()) return index[k];
        uint8_t bytes[kEntryBytes];
        const uint64_t data = end.load(std::memory_order_relaxed);
        if (!pread_all(fd, bytes, kEntryBytes, data + k * kEntryBytes))
            db::detail::throw_system_error(path, "cannot read the index entry of chunk " +
                                                     std::to_string(k) + " of the scan file");
        const Entry e = decode_entry(bytes);
        if (e.bytes == 0 || e.bytes > codec_bound(chunk_size(k)) || e.offset > data ||
            e.bytes > data - e.offset)
            throw std::runtime_error(path.string() + ": the index entry of chunk " +
                                     std::to_string(k) + " of the scan file is damaged");
        return e;
    }
    static uint64_t codec_bound(uint64_t bytes) {
        static const db::detail::Codec* const codec = *db::detail::find_codec(kCodec);
        return codec->bound(bytes);
    }
};

struct ScanFiles::Compressors {
    std::shared_ptr<const db::detail::BlockCodec> codec = ::owaredb::codec(true);
    std::mutex mutex;
    std::vector<std::unique_ptr<db::detail::BlockCompressor>> idle;
    std::unique_ptr<db::detail::BlockCompressor> take() {
        {
            std::lock_guard lock(mutex);
            if (!idle.empty()) {
                auto c = std::move(idle.back());
                idle.pop_back();
                return c;
            }
        }
        return codec->compressor(kLevel);
    }
    void give(std::unique_ptr<db::detail::BlockCompressor> c) {
        std::lock_guard lock(mutex);
        idle.push_back(std::move(c));
    }
};

ScanFiles::ScanFiles(std::filesystem::path level_file)
    : level_file_(level_file), spill_(std::move(level_file)) {}
ScanFiles::~ScanFiles() = default;

std::filesystem::path ScanFiles::path_of(uint64_t generation) const {
    return db::scan_file_path(level_file_, generation);
}

void ScanFiles::forget(uint64_t generation) {
    const auto it = kept_.find(generation);
    if (it == kept_.end()) return;
    if (it->second == pinned_) pinned_.reset();
    const std::filesystem::path path = it->second->path;
    kept_.erase(it);
    std::error_code ec;
    std::filesystem::remove(path, ec);
}

void ScanFiles::begin(uint64_t generation, uint64_t size, uint64_t chunk) {
    if (writing_) {
        std::error_code ec;
        std::filesystem::remove(std::exchange(writing_, nullptr)->path, ec);
    }
    forget(generation);
    if (!compressors_) compressors_ = std::make_unique<Compressors>();
    auto g = std::make_shared<Generation>();
    g->number = generation;
    g->size = size;
    g->chunk = chunk;
    g->path = path_of(generation);
    g->index.assign(g->chunks(), Entry{});
    std::error_code ec;
    std::filesystem::remove(g->path, ec); // a stale file (or a planted link) goes first
    g->fd = ::open(g->path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (g->fd < 0) db::detail::throw_system_error(g->path, "cannot create the scan file");
    writing_ = std::move(g);
}

void ScanFiles::write(uint64_t index, std::span<const int8_t> bytes) {
    Generation& g = *writing_;
    if (index >= g.index.size() || bytes.size() != g.chunk_size(index))
        throw std::logic_error(g.path.string() + ": a chunk outside the generation");
    thread_local std::vector<uint8_t> packed;
    const std::span<const uint8_t> raw(reinterpret_cast<const uint8_t*>(bytes.data()),
                                       bytes.size());
    auto compressor = compressors_->take();
    compressor->compress(raw, packed);
    compressors_->give(std::move(compressor));
    const uint64_t at = g.end.fetch_add(packed.size(), std::memory_order_relaxed);
    pwrite_all(g.fd, g.path, packed.data(), packed.size(), at);
    g.index[index] = {at, packed.size(), db::detail::checksum(raw)};
}

uint64_t ScanFiles::end() {
    Generation& g = *writing_;
    for (const Entry& e : g.index)
        if (e.bytes == 0) throw std::logic_error(g.path.string() + ": a chunk was not written");
    const uint64_t at = g.end.load(), chunks = g.chunks();
    db::detail::StreamingChecksum sum;
    for (uint64_t k = 0; k < chunks; k += kIndexPiece) {
        const std::vector<uint8_t> piece = g.index_bytes(k, std::min(kIndexPiece, chunks - k));
        pwrite_all(g.fd, g.path, piece.data(), piece.size(), at + k * kEntryBytes);
        sum.update(piece);
    }
    std::vector<uint8_t> footer = g.footer();
    sum.update({footer.data(), kFooterBytes - 8});
    g.checksum = sum.digest();
    footer.resize(kFooterBytes - 8);
    db::detail::put_u64(footer, g.checksum);
    pwrite_all(g.fd, g.path, footer.data(), footer.size(), at + chunks * kEntryBytes);
    if (::fdatasync(g.fd) != 0) db::detail::throw_system_error(g.path, "cannot sync the scan file");
    std::vector<Entry>().swap(g.index); // read from the file from now on
    last_ = writing_;
    kept_[g.number] = std::exchange(writing_, nullptr);
    return last_->checksum;
}

void ScanFiles::read(uint64_t generation, uint64_t index, std::span<int8_t> out) const {
    const auto it = kept_.find(generation);
    if (it == kept_.end())
        throw std::logic_error(path_of(generation).string() + ": reading a generation not kept");
    const Generation& g = *it->second;
    if (index >= g.chunks() || out.size() != g.chunk_size(index))
        throw std::logic_error(g.path.string() + ": reading a chunk outside the generation");
    static const std::shared_ptr<const db::detail::BlockCodec> decoder = codec(false);
    const Entry e = g.entry(index);
    thread_local std::vector<uint8_t> packed;
    packed.resize(e.bytes);
    const std::span<uint8_t> raw(reinterpret_cast<uint8_t*>(out.data()), out.size());
    if (!pread_all(g.fd, packed.data(), packed.size(), e.offset))
        db::detail::throw_system_error(g.path, "cannot read chunk " + std::to_string(index) +
                                                   " of the scan file");
    if (!decoder->decompress(packed, raw).ok() || db::detail::checksum(raw) != e.checksum)
        throw std::runtime_error(g.path.string() + ": chunk " + std::to_string(index) +
                                 " of the scan file is damaged");
}

void ScanFiles::drop(uint64_t generation) {
    const auto it = kept_.find(generation);
    if (it == kept_.end()) return;
    if (it->second == pinned_) {
        it->second->dropped = true; // goes once another is pinned
        return;
    }
    if (it->second == last_) last_.reset();
    forget(generation);
}

void ScanFiles::pin() {
    const std::shared_ptr<Generation> before = std::exchange(pinned_, last_);
    if (before && before != pinned_ && before->dropped) forget(before->number);
}

std::optional<uint64_t> ScanFiles::resume(uint64_t generation, uint64_t size, uint64_t chunk) {
    auto g = std::make_shared<Generation>();
    g->number = generation;
    g->size = size;
    g->chunk = chunk;
    g->path = path_of(generation);
    auto file = db::detail::open_regular_file(g->path, O_RDONLY);
    if (!file.ok()) return std::nullopt;
    g->fd = file->fd;
    const uint64_t chunks = g->chunks();
    const uint64_t tail = chunks * kEntryBytes + kFooterBytes;
    if (file->size < tail) return std::nullopt;
    const uint64_t data = file->size - tail;
    std::vector<uint8_t> footer(kFooterBytes);
    if (!pread_all(g->fd, footer.data(), kFooterBytes, file->size - kFooterBytes))
        return std::nullopt;
    if (!std::equal(footer.begin(), footer.end() - 8, g->footer().begin())) return std::nullopt;
    const uint64_t checksum = db::detail::get_le(footer.data() + kFooterBytes - 8, 8);
    // The index, a piece at a time: its checksum, and each entry within the chunks' bytes.
    db::detail::StreamingChecksum sum;
    std::vector<uint8_t> piece;
    for (uint64_t k = 0; k < chunks; k += kIndexPiece) {
        const uint64_t count = std::min(kIndexPiece, chunks - k);
        piece.resize(count * kEntryBytes);
        if (!pread_all(g->fd, piece.data(), piece.size(), data + k * kEntryBytes))
            return std::nullopt;
        for (uint64_t i = 0; i < count; ++i) {
            const Entry e = decode_entry(piece.data() + i * kEntryBytes);
            if (e.offset + e.bytes > data) return std::nullopt;
        }
        sum.update(piece);
    }
    sum.update({footer.data(), kFooterBytes - 8});
    if (sum.digest() != checksum) return std::nullopt;
    g->checksum = checksum;
    g->end = data;
    kept_[generation] = g;
    last_ = g;
    pinned_ = std::move(g);
    return checksum;
}

void ScanFiles::remove_others(uint64_t keep) const {
    const std::filesystem::path dir =
        level_file_.parent_path().empty() ? std::filesystem::path(".") : level_file_.parent_path();
    const std::string kept = path_of(keep).filename().string();
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
        const std::string name = entry.path().filename().string();
        if (name == kept || !db::is_scan_file(level_file_, name)) continue;
        std::error_code ignored;
        std::filesystem::remove(entry.path(), ignored);
    }
}

void ScanFiles::remove_all() {
    writing_.reset();
    last_.reset();
    pinned_.reset();
    kept_.clear();
    remove_others(UINT64_MAX);
}

uint64_t ScanFiles::kept_bytes() const {
    uint64_t bytes = 0;
    for (const auto& [number, g] : kept_)
        bytes += g->end.load() + g->chunks() * kEntryBytes + kFooterBytes;
    return bytes;
}

uint64_t ScanFiles::index_memory() const {
    return writing_ ? writing_->index.size() * kIndexBytesPerChunk : 0;
}

} // namespace owaredb
