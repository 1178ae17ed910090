#include "dbformat/codec.hpp"

#include <algorithm>
#include <cstring>
#include <new>
#include <numeric>
#include <stdexcept>
#include <string>
#include <zdict.h>
#include <zstd.h>

namespace owaredb::db::detail {

SymbolMap build_symbol_map(const ValueCounts& counts) {
    std::vector<int> present;
    for (int b = 0; b < 256; ++b)
        if (counts[b] != 0) present.push_back(b);
    auto value_of = [](int b) { return int(static_cast<int8_t>(static_cast<uint8_t>(b))); };
    std::sort(present.begin(), present.end(), [&](int a, int b) {
        if (counts[a] != counts[b]) return counts[a] > counts[b];
        return value_of(a) < value_of(b);
    });
    SymbolMap map;
    for (std::size_t s = 0; s < present.size(); ++s) {
        map.values.push_back(static_cast<int8_t>(value_of(present[s])));
        map.symbol_of[present[s]] = static_cast<uint8_t>(s);
    }
    return map;
}

uint8_t min_symbol_bits(std::size_t symbols) {
    if (symbols <= 2) return 1;
    if (symbols <= 4) return 2;
    if (symbols <= 16) return 4;
    return 8;
}

void pack_symbols(const int8_t* values, std::size_t count, const SymbolMap& map, unsigned bits,
                  uint8_t* out) {
    std::size_t bytes = (count * bits + 7) / 8;
    if (bits == 8) {
        for (std::size_t i = 0; i < count; ++i) out[i] = map.symbol_of[uint8_t(values[i])];
        return;
    }
    std::memset(out, 0, bytes);
    for (std::size_t i = 0; i < count; ++i) {
        std::size_t bit = i * bits;
        out[bit >> 3] |= uint8_t(map.symbol_of[uint8_t(values[i])] << (bit & 7));
    }
}

bool symbols_below(const uint8_t* packed, uint64_t count, unsigned bits, unsigned limit) {
    if (limit >= (1u << bits)) return true;
    if (bits == 8) {
        // The largest byte, in vectors (a reduction without an early exit).
        uint8_t largest = 0;
        for (uint64_t i = 0; i < count; ++i) largest = std::max(largest, packed[i]);
        return largest < limit;
    }
    // Whole bytes through a table of the bytes whose every field is below the limit.
    std::array<bool, 256> fine{};
    const unsigned per_byte = 8 / bits;
    for (unsigned byte = 0; byte < 256; ++byte) {
        fine[byte] = true;
        for (unsigned k = 0; k < per_byte; ++k)
            if (((byte >> (k * bits)) & ((1u << bits) - 1)) >= limit) fine[byte] = false;
    }
    const uint64_t whole = count / per_byte;
    bool all = true;
    for (uint64_t i = 0; i < whole; ++i) all &= fine[packed[i]];
    for (uint64_t i = whole * per_byte; i < count; ++i) all &= symbol_at(packed, i, bits) < limit;
    return all;
}

Result<std::shared_ptr<const Dictionary>> Dictionary::create(std::vector<uint8_t> bytes, int level,
                                                             bool for_compression) {
    std::shared_ptr<Dictionary> d(new Dictionary());
    d->bytes_ = std::move(bytes);
    if (d->bytes_.empty()) return std::shared_ptr<const Dictionary>(d);
    if (for_compression) {
        d->cdict_ = ZSTD_createCDict(d->bytes_.data(), d->bytes_.size(), level);
        if (!d->cdict_) return Status(ErrorCode::Corrupt, "zstd rejects the dictionary");
    }
    d->ddict_ = ZSTD_createDDict(d->bytes_.data(), d->bytes_.size());
    if (!d->ddict_) return Status(ErrorCode::Corrupt, "zstd rejects the dictionary");
    return std::shared_ptr<const Dictionary>(d);
}

Dictionary::~Dictionary() {
    ZSTD_freeCDict(cdict_);
    ZSTD_freeDDict(ddict_);
}

namespace {

void check_zstd(std::size_t rc, const char* what) {
    if (ZSTD_isError(rc))
        throw std::runtime_error(std::string("zstd ") + what + ": " + ZSTD_getErrorName(rc));
}

} // namespace

BlockCompressor::BlockCompressor(int level, std::shared_ptr<const Dictionary> dict) {
    cctx_ = ZSTD_createCCtx();
    if (!cctx_) throw std::bad_alloc();
    check_zstd(ZSTD_CCtx_setParameter(cctx_, ZSTD_c_compressionLevel, level), "level");
    // Sizes live in the index and the dictionary is the file's own: leave both out of every
    // frame header. Integrity comes from our per-block checksum.
    check_zstd(ZSTD_CCtx_setParameter(cctx_, ZSTD_c_contentSizeFlag, 0), "param");
    check_zstd(ZSTD_CCtx_setParameter(cctx_, ZSTD_c_dictIDFlag, 0), "param");
    check_zstd(ZSTD_CCtx_setParameter(cctx_, ZSTD_c_checksumFlag, 0), "param");
    if (dict && dict->cdict()) check_zstd(ZSTD_CCtx_refCDict(cctx_, dict->cdict()), "dict");
}

BlockCompressor::~BlockCompressor() {
    ZSTD_freeCCtx(cctx_);
}

void BlockCompressor::compress(std::span<const uint8_t> in, std::vector<uint8_t>& out) {
    out.resize(ZSTD_compressBound(in.size()));
    std::size_t rc = ZSTD_compress2(cctx_, out.data(), out.size(), in.data(), in.size());
    check_zstd(rc, "compression");
    out.resize(rc);
}

namespace {

struct DCtxDeleter {
    void operator()(ZSTD_DCtx* d) const { ZSTD_freeDCtx(d); }
};

ZSTD_DCtx* thread_dctx() {
    thread_local std::unique_ptr<ZSTD_DCtx, DCtxDeleter> ctx;
    if (!ctx) {
        ctx.reset(ZSTD_createDCtx());
        if (!ctx) throw std::bad_alloc();
        // Blocks are at most 16 MiB; refuse frames that claim larger windows so a hostile
        // file cannot make us allocate more.
        ZSTD_DCtx_setParameter(ctx.get(), ZSTD_d_windowLogMax, 25);
    }
    return ctx.get();
}

} // namespace

Status decompress_block(std::span<const uint8_t> in, const Dictionary* dict,
                        std::span<uint8_t> out) {
    ZSTD_DCtx* dctx = thread_dctx();
    std::size_t rc;
    if (dict && dict->ddict())
        rc = ZSTD_decompress_usingDDict(dctx, out.data(), out.size(), in.data(), in.size(),
                                        dict->ddict());
    else
        rc = ZSTD_decompressDCtx(dctx, out.data(), out.size(), in.data(), in.size());
    if (ZSTD_isError(rc))
        return Status(ErrorCode::Corrupt,
                      std::string("zstd cannot decompress: ") + ZSTD_getErrorName(rc));
    if (rc != out.size())
        return Status(ErrorCode::Corrupt, "block decompresses to " + std::to_string(rc) +
                                              " bytes, expected " + std::to_string(out.size()));
    return {};
}

std::size_t compress_bound(std::size_t bytes) {
    return ZSTD_compressBound(bytes);
}

std::vector<uint8_t> train_dictionary(std::span<const uint8_t> samples,
                                      std::span<const std::size_t> sample_sizes,
                                      std::size_t capacity) {
    std::vector<uint8_t> dict(capacity);
    std::size_t rc = ZDICT_trainFromBuffer(dict.data(), dict.size(), samples.data(),
                                           sample_sizes.data(), unsigned(sample_sizes.size()));
    if (ZDICT_isError(rc)) return {};
    dict.resize(rc);
    return dict;
}

} // namespace owaredb::db::detail
