#include "dbformat/reader.hpp"

#include <algorithm>
#include <atomic>
#include <mutex>

#include "dbformat/bytes.hpp"
#include "dbformat/checksum.hpp"
#include "dbformat/codec.hpp"
#include "dbformat/file_io.hpp"
#include "dbformat/layout.hpp"
#include "dbformat/threads.hpp"

namespace owaredb::db {

using namespace detail;

namespace {

std::string describe(const std::string& rules, uint32_t n) {
    return "'" + rules + "' n=" + std::to_string(n);
}

// Each thread keeps the blocks it used last in a small table of its own, in front of the
// shared cache: a lookup that hits it takes no lock, hashes no map and copies no
// shared_ptr, where the shared path does all three. The table is direct-mapped by
// (owner, block) and holds shared_ptrs, so a block in it stays valid whatever other
// threads do. An entry is used only while the cache's generation() is the one at which it
// was taken from the cache, i.e. while no block has left the cache since. Hence
// - the cache's LRU order still sees the first use of a block after every eviction (and
//   under memory pressure, when evictions are frequent, about every lookup);
// - the blocks the table keeps alive are blocks the cache holds anyway, except those of
//   out-of-date entries: at most kLocalBlocks per thread, each released when a later
//   lookup of the thread replaces its entry, when its reader is destroyed on this thread,
//   or when the thread ends.
class LocalBlocks {
  public:
    using BlockPtr = std::shared_ptr<const BlockCache::Block>;

    // The calling thread's table; null during the thread's exit, once it has been
    // destroyed (a reader used by another thread_local's destructor then reads through the
    // shared cache only).
    static LocalBlocks* get();
    // The table if this thread has one, without making one.
    static LocalBlocks* existing() { return current_; }

    // The block, if this thread's entry for it is up to date with `generation`.
    const BlockCache::Block* find(uint64_t owner, uint64_t block, uint64_t generation) const {
        const Entry& e = entries_[slot(owner, block)];
        return e.owner == owner && e.block == block && e.generation == generation ? e.data.get()
                                                                                  : nullptr;
    }
    // Records a block taken from the cache at `generation`. Returns the block the entry
    // held before, which the caller may still be reading.
    BlockPtr put(uint64_t owner, uint64_t block, uint64_t generation, BlockPtr data) {
        Entry& e = entries_[slot(owner, block)];
        BlockPtr old = std::move(e.data);
        e = {owner, block, generation, std::move(data)};
        return old;
    }
    // Forgets every block of one owner (its reader is being destroyed).
    void drop(uint64_t owner) {
        for (Entry& e : entries_)
            if (e.owner == owner) e = {};
    }

  private:
    static constexpr std::size_t kLocalBlocks = 256;
    struct Entry {
        uint64_t owner = 0; // 0: empty (owner ids start at 1)
        uint64_t block = 0;
        uint64_t generation = 0;
        BlockPtr data;
    };
    static std::size_t slot(uint64_t owner, uint64_t block) {
        // Fibonacci hashing: consecutive blocks and owners spread over the table.
        return ((owner * 0xc2b2ae3d27d4eb4fULL + block) * 0x9e3779b97f4a7c15ULL) >> 56;
    }
    static_assert(kLocalBlocks == 256, "slot() returns 8 bits");

    std::array<Entry, kLocalBlocks> entries_;
    // Plain pointer and flag: still readable while thread_local objects are destroyed.
    static thread_local LocalBlocks* current_;
    static thread_local bool gone_;
    friend struct LocalBlocksHolder;
};

thread_local LocalBlocks* LocalBlocks::current_ = nullptr;
thread_local bool LocalBlocks::gone_ = false;

struct LocalBlocksHolder {
    LocalBlocks table;
    LocalBlocksHolder() { LocalBlocks::current_ = &table; }
    ~LocalBlocksHolder() {
        LocalBlocks::current_ = nullptr;
        LocalBlocks::gone_ = true;
    }
};

LocalBlocks* LocalBlocks::get() {
    if (current_) return current_;
    if (gone_) return nullptr;
    thread_local LocalBlocksHolder holder;
    return current_;
}

} // namespace

struct LevelReader::Impl {
    std::filesystem::path path;
    std::string name;
    ReaderOptions opts;
    std::shared_ptr<BlockCache> cache;
    uint64_t owner = BlockCache::new_owner();
    std::vector<uint8_t> memory;
    bool from_memory = false;

    std::mutex open_mu;
    std::atomic<bool> opened{false};
    Status open_status;
    FileStamp stamp; // of the path, taken just before opening it

    // Valid once opened with an ok status; immutable afterwards.
    std::unique_ptr<Source> src;
    Header h;
    std::shared_ptr<const BlockCodec> codec; // the file's, with its dictionary
    std::vector<uint64_t> offsets;           // block b occupies [offsets[b], offsets[b+1])
    std::vector<uint64_t> block_sums;
    std::array<int8_t, 256> value_of{};
    unsigned block_shift = 0;
    uint64_t header_bytes = 0, index_offset = 0;

    Status err(ErrorCode code, const std::string& what, std::optional<uint64_t> block = {}) const {
        return Status(code, name + ": " + what, block);
    }
    Status wrap(const Status& s) const { return err(s.code(), s.message(), s.block()); }

    const Status& ensure_open() {
        if (opened.load(std::memory_order_acquire)) return open_status;
        std::lock_guard lock(open_mu);
        if (!opened.load(std::memory_order_relaxed)) {
            // Before the open: a change made while opening shows as a changed file.
            if (!from_memory) stamp = file_stamp(path);
            open_status = do_open();
            if (!open_status.ok()) src.reset();
            opened.store(true, std::memory_order_release);
        }
        return open_status;
    }

    Status do_open() {
        if (from_memory) {
            src = memory_source(std::move(memory));
        } else {
            auto s = open_file_source(path);
            if (!s.ok()) return s.status(); // already names the file
            src = std::move(s.value());
        }
        const uint64_t size = src->size();
        if (size == 0) return err(ErrorCode::Corrupt, "empty file");
        // A file that does not start with the signature is something else (a text file, a
        // file of another program), whatever its length: say so rather than "truncated".
        std::vector<uint8_t> start(std::min<uint64_t>(size, kMagic.size()));
        if (auto s = src->read(0, start); !s.ok()) return wrap(s);
        if (!std::equal(start.begin(), start.end(), kMagic.begin()))
            return err(ErrorCode::Corrupt, "not an owaredb level file (no owaredb signature)");
        const uint64_t min_size = kPrefixBytes + kChecksumBytes * 2 + kTrailerBytes;
        if (size < min_size)
            return err(ErrorCode::Corrupt, "truncated: " + std::to_string(size) + " bytes");

        std::vector<uint8_t> prefix(kPrefixBytes);
        if (auto s = src->read(0, prefix); !s.ok()) return wrap(s);
        auto header_size = parse_prefix(prefix);
        if (!header_size.ok()) return wrap(header_size.status());
        if (uint64_t(*header_size) + min_size - kPrefixBytes > size)
            return err(ErrorCode::Corrupt, "truncated: the header alone needs " +
                                               std::to_string(*header_size) + " bytes, file has " +
                                               std::to_string(size));
        std::vector<uint8_t> head(std::size_t(*header_size) + kChecksumBytes);
        if (auto s = src->read(0, head); !s.ok()) return wrap(s);
        auto header = parse_header(head);
        if (!header.ok()) return wrap(header.status());
        h = std::move(header.value());
        header_bytes = head.size();

        uint8_t trailer[kTrailerBytes];
        if (auto s = src->read(size - kTrailerBytes, trailer); !s.ok()) return wrap(s);
        if (!std::equal(kEndMagic.begin(), kEndMagic.end(), trailer + 16))
            return err(ErrorCode::Corrupt, "truncated or damaged: no end marker");
        index_offset = get_le(trailer, 8);
        const uint64_t room = size - header_bytes - kChecksumBytes - kTrailerBytes;
        if (h.block_count > room / kIndexEntryBytes)
            return err(ErrorCode::Corrupt,
                       "truncated: too short for " + std::to_string(h.block_count) + " blocks");
        const uint64_t index_bytes = h.block_count * kIndexEntryBytes;
        if (index_offset != size - kTrailerBytes - kChecksumBytes - index_bytes)
            return err(ErrorCode::Corrupt,
                       "file size does not match its trailer (truncated or damaged)");

        std::vector<uint8_t> index(index_bytes + kChecksumBytes);
        if (auto s = src->read(index_offset, index); !s.ok()) return wrap(s);
        auto index_body = std::span<const uint8_t>(index).first(index_bytes);
        if (!checksum_matches(get_le(index.data() + index_bytes, 8), checksum(index_body)))
            return err(ErrorCode::Corrupt, "index checksum mismatch");
        offsets.resize(h.block_count + 1);
        block_sums.resize(h.block_count);
        offsets[0] = header_bytes;
        Result<const Codec*> kind = find_codec(h.codec); // known: parse_header checked
        if (!kind.ok()) return wrap(kind.status());
        const uint64_t bound = (*kind)->bound(h.max_block_bytes());
        for (uint64_t b = 0; b < h.block_count; ++b) {
            const uint8_t* e = index.data() + b * kIndexEntryBytes;
            uint64_t csize = get_le(e, 4);
            if (csize == 0 || csize > bound)
                return err(ErrorCode::Corrupt, "impossible size of block " + std::to_string(b), b);
            offsets[b + 1] = offsets[b] + csize;
            block_sums[b] = get_le(e + 4, 8);
        }
        if (offsets.back() != index_offset)
            return err(ErrorCode::Corrupt, "block sizes do not add up to the data length");

        auto opened = (*kind)->open(h.dictionary, 0, false);
        if (!opened.ok()) return wrap(opened.status());
        codec = std::move(opened.value());

        if (auto s = check_expectation(); !s.ok()) return s;
        value_of.fill(kDontCare);
        for (std::size_t s = 0; s < h.value_map.size(); ++s) value_of[s] = h.value_map[s];
        while ((1ull << block_shift) < h.block_entries) ++block_shift;
        return {};
    }

    Status check_expectation() const {
        const auto& e = opts.expect;
        const auto& m = h.meta;
        if ((e.rules && *e.rules != m.rules) || (e.n && *e.n != m.n))
            return err(ErrorCode::Mismatch,
                       "holds level " + describe(m.rules, m.n) + ", expected " +
                           describe(e.rules.value_or(m.rules), e.n.value_or(m.n)));
        if (e.kind && *e.kind != m.kind)
            return err(ErrorCode::Mismatch, std::string("holds ") + to_string(m.kind) +
                                                ", expected " + to_string(*e.kind));
        if (e.knobs && *e.knobs != m.knobs)
            return err(ErrorCode::Mismatch, "rule-set knobs differ from the expected ones");
        if (e.entries && *e.entries != m.entries)
            return err(ErrorCode::Mismatch, "holds " + std::to_string(m.entries) +
                                                " entries, expected " + std::to_string(*e.entries));
        return {};
    }

    // Reads, checks and decodes one block, bypassing the cache.
    Result<std::shared_ptr<const BlockCache::Block>> load_block(uint64_t b) const {
        thread_local std::vector<uint8_t> compressed;
        compressed.resize(offsets[b + 1] - offsets[b]);
        if (auto s = src->read(offsets[b], compressed); !s.ok())
            return err(s.code(), "block " + std::to_string(b) + ": " + s.message(), b);
        if (!checksum_matches(block_sums[b], checksum(compressed)))
            return err(ErrorCode::Corrupt, "block " + std::to_string(b) + " checksum mismatch", b);
        auto out = std::make_shared<BlockCache::Block>(h.block_bytes(b));
        if (auto s = codec->decompress(compressed, *out); !s.ok())
            return err(ErrorCode::Corrupt, "block " + std::to_string(b) + ": " + s.message(), b);
        // Only reachable with a hostile file whose checksums were forged, but a symbol
        // outside the value map must never turn into a value.
        if (!symbols_below(out->data(), h.block_symbols(b), h.symbol_bits,
                           unsigned(h.value_map.size())))
            return err(ErrorCode::Corrupt,
                       "block " + std::to_string(b) + " holds an unknown symbol", b);
        return std::shared_ptr<const BlockCache::Block>(std::move(out));
    }

    // Drops this reader's blocks from the cache (and from this thread's table).
    void release();

    // Finds the block holding entry `index` (through this thread's table `local` if not
    // null, else the shared cache, else the file) and prefetches the entry's byte. `keep`
    // receives a block the caller must hold while it reads `block`: one that came from
    // the cache, or one that `local` dropped meanwhile. On failure sets `error`.
    bool locate(uint64_t index, LocalBlocks* local, const BlockCache::Block*& block,
                std::shared_ptr<const BlockCache::Block>& keep, Status& error) {
        if (const Status& s = ensure_open(); !s.ok()) {
            error = s;
            return false;
        }
        if (index >= h.meta.entries) {
            error = err(ErrorCode::OutOfRange, "index " + std::to_string(index) + " >= " +
                                                   std::to_string(h.meta.entries) + " entries");
            return false;
        }
        const uint64_t b = index >> block_shift;
        const uint64_t generation = cache->generation(); // before the shared lookup
        block = local ? local->find(owner, b, generation) : nullptr;
        if (!block) {
            auto blk = this->block(b);
            if (!blk.ok()) {
                error = blk.status();
                return false;
            }
            block = blk->get();
            if (local && cache->capacity_bytes() > 0)
                keep = local->put(owner, b, generation, std::move(*blk));
            else
                keep = std::move(*blk);
        }
        const uint64_t bit = (index & (uint64_t(h.block_entries) - 1)) * h.symbol_bits;
        __builtin_prefetch(block->data() + (bit >> 3));
        return true;
    }

    Result<std::shared_ptr<const BlockCache::Block>> block(uint64_t b) const {
        if (auto p = cache->find(owner, b)) return p;
        auto loaded = load_block(b);
        if (loaded.ok()) cache->insert(owner, b, *loaded);
        return loaded;
    }
};

LevelReader::LevelReader(std::filesystem::path path, ReaderOptions options)
    : impl_(std::make_unique<Impl>()) {
    impl_->path = std::move(path);
    impl_->name = impl_->path.string();
    impl_->opts = std::move(options);
    impl_->cache = impl_->opts.cache ? impl_->opts.cache
                                     : std::make_shared<BlockCache>(impl_->opts.cache_bytes);
}

LevelReader::LevelReader(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

LevelReader LevelReader::from_memory(std::vector<uint8_t> bytes, std::string name,
                                     ReaderOptions options) {
    LevelReader r(std::filesystem::path(name), std::move(options));
    r.impl_->name = std::move(name);
    r.impl_->memory = std::move(bytes);
    r.impl_->from_memory = true;
    return r;
}

void LevelReader::Impl::release() {
    cache->erase_owner(owner);
    // Other threads' tables drop this owner's blocks as they replace their entries.
    if (LocalBlocks* local = LocalBlocks::existing()) local->drop(owner);
}

LevelReader::~LevelReader() {
    if (impl_) impl_->release();
}
LevelReader::LevelReader(LevelReader&&) noexcept = default;
LevelReader& LevelReader::operator=(LevelReader&& other) noexcept {
    if (this != &other) {
        if (impl_) impl_->release();
        impl_ = std::move(other.impl_);
    }
    return *this;
}

const std::filesystem::path& LevelReader::path() const {
    return impl_->path;
}
const std::shared_ptr<BlockCache>& LevelReader::cache() const {
    return impl_->cache;
}

Status LevelReader::open() const {
    return impl_->ensure_open();
}

bool LevelReader::file_changed() const {
    if (impl_->from_memory) return false;
    if (!impl_->opened.load(std::memory_order_acquire)) return true;
    return file_stamp(impl_->path) != impl_->stamp;
}

Result<int8_t> LevelReader::value(uint64_t index) const {
    const ValueQuery query{this, index};
    int8_t v = 0;
    Status error;
    if (read_values({&query, 1}, {&v, 1}, error) == 0) return error;
    return v;
}

std::size_t LevelReader::read_values(std::span<const ValueQuery> queries, std::span<int8_t> values,
                                     Status& error) {
    if (values.size() != queries.size()) {
        error = Status(ErrorCode::InvalidArgument,
                       "read_values: " + std::to_string(queries.size()) + " queries, " +
                           std::to_string(values.size()) + " values");
        return 0;
    }
    // A chunk of queries at a time: first each block is found and the byte of each value
    // prefetched, then the values are read. A warm random lookup costs little more than
    // one cache miss on the block's bytes; done one after the other, the misses add up.
    constexpr std::size_t kChunk = 8;
    LocalBlocks* local = LocalBlocks::get();
    std::array<const BlockCache::Block*, kChunk> blocks;
    // Blocks of this chunk held by nothing else: from the shared cache, or dropped from the
    // local table by a later query of the chunk.
    std::array<LocalBlocks::BlockPtr, kChunk> keep;
    for (std::size_t start = 0; start < queries.size(); start += kChunk) {
        const std::size_t n = std::min(kChunk, queries.size() - start);
        std::size_t located = 0;
        for (; located < n; ++located) {
            const ValueQuery& q = queries[start + located];
            if (!q.reader->impl_->locate(q.index, local, blocks[located], keep[located], error))
                break;
        }
        for (std::size_t i = 0; i < located; ++i) {
            const ValueQuery& q = queries[start + i];
            const Impl& m = *q.reader->impl_;
            const uint64_t j = q.index & (uint64_t(m.h.block_entries) - 1);
            values[start + i] = m.value_of[symbol_at(blocks[i]->data(), j, m.h.symbol_bits)];
        }
        if (located < n) return start + located;
    }
    return queries.size();
}

Status LevelReader::read_sorted(std::span<const uint64_t> indices, std::span<int8_t> values,
                                SortedCursor& cursor) const {
    const Impl& m = *impl_;
    if (const Status& s = impl_->ensure_open(); !s.ok()) return s;
    if (values.size() != indices.size())
        return Status(ErrorCode::InvalidArgument, "read_sorted: sizes differ");
    const uint64_t mask = uint64_t(m.h.block_entries) - 1;
    for (std::size_t i = 0; i < indices.size(); ++i) {
        const uint64_t index = indices[i];
        if (index >= m.h.meta.entries)
            return m.err(ErrorCode::OutOfRange, "index " + std::to_string(index) + " >= " +
                                                    std::to_string(m.h.meta.entries) + " entries");
        const uint64_t b = index >> m.block_shift;
        if (b != cursor.block || !cursor.data) {
            auto loaded = m.load_block(b);
            if (!loaded.ok()) return loaded.status();
            cursor.data = std::move(*loaded);
            cursor.block = b;
        }
        values[i] = m.value_of[symbol_at(cursor.data->data(), index & mask, m.h.symbol_bits)];
    }
    return {};
}

Result<LevelInfo> LevelReader::info() const {
    const Impl& m = *impl_;
    if (const Status& s = impl_->ensure_open(); !s.ok()) return s;
    LevelInfo i;
    i.meta = m.h.meta;
    i.format_version = kFormatVersion;
    i.codec = m.h.codec;
    i.symbol_bits = m.h.symbol_bits;
    i.codec_name = (*find_codec(m.h.codec))->name;
    i.codec_level = m.h.codec_level;
    i.block_entries = m.h.block_entries;
    i.block_count = m.h.block_count;
    i.value_map = m.h.value_map;
    i.header_bytes = m.header_bytes;
    i.dictionary_bytes = m.h.dictionary.size();
    i.data_bytes = m.index_offset - m.header_bytes;
    i.index_bytes = m.h.block_count * kIndexEntryBytes + kChecksumBytes;
    i.file_bytes = m.src->size();
    return i;
}

namespace {

// Loads and checks every block (in parallel for 16 blocks or more) and calls
// visit(block, decoded symbols) for each intact one, from any thread. Returns the status
// of the first damaged block, or ok.
template <class Impl, class Visit>
Status for_each_block(const Impl& m, int threads, Visit&& visit) {
    const int64_t blocks = int64_t(m.h.block_count);
    uint64_t first_bad = UINT64_MAX;
    Status bad;
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads) if (blocks >= 16)
    for (int64_t b = 0; b < blocks; ++b) {
        auto blk = m.load_block(uint64_t(b));
        if (!blk.ok()) {
#pragma omp critical(owaredb_db_for_each_block)
            if (uint64_t(b) < first_bad) {
                first_bad = uint64_t(b);
                bad = blk.status();
            }
            continue;
        }
        visit(uint64_t(b), (*blk)->data());
    }
    return bad;
}

} // namespace

Result<Histogram> LevelReader::histogram(int threads) const {
    require_threads(threads, "LevelReader::histogram");
    const Impl& m = *impl_;
    if (const Status& s = impl_->ensure_open(); !s.ok()) return s;
    std::array<std::atomic<uint64_t>, 256> symbols{};
    Status bad = for_each_block(m, threads, [&](uint64_t b, const uint8_t* p) {
        std::array<uint64_t, 256> local{};
        const uint64_t n = m.h.block_symbols(b);
        if (m.h.symbol_bits == 8)
            for (uint64_t i = 0; i < n; ++i) ++local[p[i]];
        else
            for (uint64_t i = 0; i < n; ++i) ++local[symbol_at(p, i, m.h.symbol_bits)];
        for (int s = 0; s < 256; ++s)
            if (local[s]) symbols[s].fetch_add(local[s], std::memory_order_relaxed);
    });
    if (!bad.ok()) return bad;
    Histogram hist;
    for (std::size_t s = 0; s < m.h.value_map.size(); ++s)
        hist.counts[uint8_t(m.h.value_map[s])] = symbols[s].load();
    return hist;
}

VerifyReport LevelReader::verify(int threads) const {
    require_threads(threads, "LevelReader::verify");
    const Impl& m = *impl_;
    VerifyReport r;
    if (const Status& s = impl_->ensure_open(); !s.ok()) {
        r.status = s;
        return r;
    }
    const int64_t blocks = int64_t(m.h.block_count);
    std::vector<Status> status(std::size_t(m.h.block_count));
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads) if (blocks >= 16)
    for (int64_t b = 0; b < blocks; ++b) {
        auto blk = m.load_block(uint64_t(b));
        if (!blk.ok()) status[std::size_t(b)] = blk.status();
    }
    for (uint64_t b = 0; b < m.h.block_count; ++b) {
        if (status[b].ok()) continue;
        r.damaged_blocks.push_back(b);
        if (r.status.ok()) r.status = status[b];
    }

    // Whole-file checksum over everything before the stored checksum itself.
    const uint64_t size = m.src->size();
    const uint64_t covered = size - kTrailerBytes + 8;
    StreamingChecksum sum;
    std::vector<uint8_t> buf(std::size_t(1) << 22);
    for (uint64_t off = 0; off < covered;) {
        auto n = std::size_t(std::min<uint64_t>(buf.size(), covered - off));
        if (auto s = m.src->read(off, std::span(buf).first(n)); !s.ok()) {
            if (r.status.ok()) r.status = m.wrap(s);
            return r;
        }
        sum.update(std::span(buf).first(n));
        off += n;
    }
    uint8_t stored[8];
    if (auto s = m.src->read(covered, stored); !s.ok()) {
        if (r.status.ok()) r.status = m.wrap(s);
        return r;
    }
    r.file_checksum_ok = checksum_matches(get_le(stored, 8), sum.digest());
    if (!r.file_checksum_ok && r.status.ok())
        r.status = m.err(ErrorCode::Corrupt, "whole-file checksum mismatch");
    return r;
}

Status LevelReader::read_all(std::span<int8_t> out, int threads) const {
    require_threads(threads, "LevelReader::read_all");
    const Impl& m = *impl_;
    if (const Status& s = impl_->ensure_open(); !s.ok()) return s;
    if (out.size() != m.h.meta.entries)
        return m.err(ErrorCode::InvalidArgument, "read_all: buffer of " +
                                                     std::to_string(out.size()) + " values for " +
                                                     std::to_string(m.h.meta.entries) + " entries");
    return for_each_block(m, threads, [&](uint64_t b, const uint8_t* p) {
        const uint64_t n = m.h.block_symbols(b);
        int8_t* dst = out.data() + b * m.h.block_entries;
        for (uint64_t i = 0; i < n; ++i)
            dst[i] = m.h.value_map[m.h.symbol_bits == 8 ? p[i] : symbol_at(p, i, m.h.symbol_bits)];
    });
}

Status LevelReader::read_range(uint64_t begin, std::span<int8_t> out, int threads) const {
    require_threads(threads, "LevelReader::read_range");
    const Impl& m = *impl_;
    if (const Status& s = impl_->ensure_open(); !s.ok()) return s;
    const uint64_t end = begin + out.size();
    if (end > m.h.meta.entries || end < begin)
        return m.err(ErrorCode::OutOfRange, "read_range: [" + std::to_string(begin) + ", " +
                                                std::to_string(end) + ") past " +
                                                std::to_string(m.h.meta.entries) + " entries");
    if (out.empty()) return {};
    const uint64_t first = begin >> m.block_shift, last = (end - 1) >> m.block_shift;
    const int64_t blocks = int64_t(last - first + 1);
    uint64_t first_bad = UINT64_MAX;
    Status bad;
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads) if (blocks >= 4)
    for (int64_t k = 0; k < blocks; ++k) {
        const uint64_t b = first + uint64_t(k);
        auto blk = m.load_block(b);
        if (!blk.ok()) {
#pragma omp critical(owaredb_db_read_range)
            if (b < first_bad) {
                first_bad = b;
                bad = blk.status();
            }
            continue;
        }
        const uint64_t block_begin = b * m.h.block_entries;
        const uint64_t from = std::max(begin, block_begin);
        const uint64_t to = std::min(end, block_begin + m.h.block_symbols(b));
        const uint8_t* p = (*blk)->data();
        for (uint64_t i = from; i < to; ++i) {
            const uint64_t j = i - block_begin;
            out[i - begin] =
                m.h.value_map[m.h.symbol_bits == 8 ? p[j] : symbol_at(p, j, m.h.symbol_bits)];
        }
    }
    return bad;
}

} // namespace owaredb::db
