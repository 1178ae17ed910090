// Codec byte 1: each block one zstd frame, with the file's zstd dictionary if it has one
// (README, Blocks). Every level file written so far is this codec.
#include "dbformat/codec.hpp"
#include "dbformat/layout.hpp"

#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <zdict.h>
#include <zstd.h>

namespace owaredb::db::detail {

namespace {

void check_zstd(std::size_t rc, const char* what) {
    if (ZSTD_isError(rc))
        throw std::runtime_error(std::string("zstd ") + what + ": " + ZSTD_getErrorName(rc));
}

class ZstdCompressor final : public BlockCompressor {
  public:
    ZstdCompressor(int level, ZSTD_CDict* dict) : cctx_(ZSTD_createCCtx()) {
        if (!cctx_) throw std::bad_alloc();
        check_zstd(ZSTD_CCtx_setParameter(cctx_.get(), ZSTD_c_compressionLevel, level), "level");
        // Sizes live in the index and the dictionary is the file's own: leave both out of
        // every frame header. Integrity comes from our per-block checksum.
        check_zstd(ZSTD_CCtx_setParameter(cctx_.get(), ZSTD_c_contentSizeFlag, 0), "param");
        check_zstd(ZSTD_CCtx_setParameter(cctx_.get(), ZSTD_c_dictIDFlag, 0), "param");
        check_zstd(ZSTD_CCtx_setParameter(cctx_.get(), ZSTD_c_checksumFlag, 0), "param");
        if (dict) check_zstd(ZSTD_CCtx_refCDict(cctx_.get(), dict), "dict");
    }
    void compress(std::span<const uint8_t> in, std::vector<uint8_t>& out) override {
        out.resize(ZSTD_compressBound(in.size()));
        std::size_t rc = ZSTD_compress2(cctx_.get(), out.data(), out.size(), in.data(), in.size());
        check_zstd(rc, "compression");
        out.resize(rc);
    }

  private:
    struct Free {
        void operator()(ZSTD_CCtx* c) const { ZSTD_freeCCtx(c); }
    };
    std::unique_ptr<ZSTD_CCtx, Free> cctx_;
};

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

// The file's dictionary, prepared for both directions (or for reading only).
class ZstdCodec final : public BlockCodec {
  public:
    explicit ZstdCodec(std::vector<uint8_t> bytes) : bytes_(std::move(bytes)) {}
    ~ZstdCodec() override {
        ZSTD_freeCDict(cdict_);
        ZSTD_freeDDict(ddict_);
    }
    ZstdCodec(const ZstdCodec&) = delete;
    ZstdCodec& operator=(const ZstdCodec&) = delete;

    Status prepare(int level, bool for_compression) {
        if (bytes_.empty()) return {};
        if (for_compression) {
            cdict_ = ZSTD_createCDict(bytes_.data(), bytes_.size(), level);
            if (!cdict_) return Status(ErrorCode::Corrupt, "zstd rejects the dictionary");
        }
        ddict_ = ZSTD_createDDict(bytes_.data(), bytes_.size());
        if (!ddict_) return Status(ErrorCode::Corrupt, "zstd rejects the dictionary");
        return {};
    }
    const std::vector<uint8_t>& dictionary() const override { return bytes_; }
    std::unique_ptr<BlockCompressor> compressor(int level) const override {
        return std::make_unique<ZstdCompressor>(level, cdict_);
    }
    Status decompress(std::span<const uint8_t> in, std::span<uint8_t> out) const override {
        ZSTD_DCtx* dctx = thread_dctx();
        std::size_t rc;
        if (ddict_)
            rc = ZSTD_decompress_usingDDict(dctx, out.data(), out.size(), in.data(), in.size(),
                                            ddict_);
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

  private:
    std::vector<uint8_t> bytes_;
    ZSTD_CDict* cdict_ = nullptr;
    ZSTD_DDict* ddict_ = nullptr;
};

Result<std::shared_ptr<const BlockCodec>> open(std::vector<uint8_t> dictionary, int level,
                                               bool for_compression) {
    auto codec = std::make_shared<ZstdCodec>(std::move(dictionary));
    if (Status s = codec->prepare(level, for_compression); !s.ok()) return s;
    return std::shared_ptr<const BlockCodec>(std::move(codec));
}

std::size_t bound(std::size_t bytes) {
    return ZSTD_compressBound(bytes);
}

std::vector<uint8_t> train(std::span<const uint8_t> samples,
                           std::span<const std::size_t> sample_sizes, std::size_t capacity) {
    std::vector<uint8_t> dict(capacity);
    std::size_t rc = ZDICT_trainFromBuffer(dict.data(), dict.size(), samples.data(),
                                           sample_sizes.data(), unsigned(sample_sizes.size()));
    if (ZDICT_isError(rc)) return {};
    dict.resize(rc);
    return dict;
}

} // namespace

const Codec& zstd_codec() {
    static const Codec codec{kCodecZstd, "zstd", bound, open, train};
    return codec;
}

} // namespace owaredb::db::detail
