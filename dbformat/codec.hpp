// Value encoding shared by writer and reader: values are remapped to symbols by frequency,
// packed 1/2/4/8 bits per symbol (LSB first) and each block is one zstd frame.
// Internal to dbformat.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "dbformat/status.hpp"

struct ZSTD_CDict_s;
struct ZSTD_DDict_s;
struct ZSTD_CCtx_s;

namespace owaredb::db::detail {

// Histogram indexed by the value's byte, uint8_t(int8_t value).
using ValueCounts = std::array<uint64_t, 256>;

struct SymbolMap {
    std::vector<int8_t> values;           // symbol -> value
    std::array<uint8_t, 256> symbol_of{}; // uint8_t(value) -> symbol (for present values)
};

// Most frequent value gets symbol 0; ties go to the smaller value so the map is a function
// of the counts alone (deterministic files).
SymbolMap build_symbol_map(const ValueCounts& counts);

// Smallest width in {1, 2, 4, 8} that holds `symbols` distinct symbols.
uint8_t min_symbol_bits(std::size_t symbols);

// Packs count values as symbols of `bits` bits into out[0 .. (count*bits+7)/8).
void pack_symbols(const int8_t* values, std::size_t count, const SymbolMap& map, unsigned bits,
                  uint8_t* out);

inline unsigned symbol_at(const uint8_t* packed, uint64_t i, unsigned bits) {
    uint64_t bit = i * bits;
    return (packed[bit >> 3] >> (bit & 7)) & ((1u << bits) - 1);
}

// Whether each of the `count` symbols of `bits` bits (1, 2, 4 or 8) packed in `packed` is
// below `limit`, as symbol_at() reads them; the bits past the last symbol are not looked
// at. A decoded block is checked this way against its value map every time it is read,
// so 8-bit symbols are checked a byte vector at a time and narrower ones a byte at a time.
bool symbols_below(const uint8_t* packed, uint64_t count, unsigned bits, unsigned limit);

// A zstd dictionary prepared for both directions. Immutable, shareable between threads.
class Dictionary {
  public:
    // Empty bytes: no dictionary. Returns null (and an error) if zstd rejects the bytes.
    static Result<std::shared_ptr<const Dictionary>> create(std::vector<uint8_t> bytes, int level,
                                                            bool for_compression);
    ~Dictionary();
    Dictionary(const Dictionary&) = delete;
    Dictionary& operator=(const Dictionary&) = delete;
    const std::vector<uint8_t>& bytes() const { return bytes_; }
    ZSTD_CDict_s* cdict() const { return cdict_; }
    ZSTD_DDict_s* ddict() const { return ddict_; }

  private:
    Dictionary() = default;
    std::vector<uint8_t> bytes_;
    ZSTD_CDict_s* cdict_ = nullptr;
    ZSTD_DDict_s* ddict_ = nullptr;
};

// One compression context; use one per thread.
class BlockCompressor {
  public:
    BlockCompressor(int level, std::shared_ptr<const Dictionary> dict);
    ~BlockCompressor();
    BlockCompressor(const BlockCompressor&) = delete;
    BlockCompressor& operator=(const BlockCompressor&) = delete;
    // Compresses one block into out (replacing its contents). Throws std::runtime_error if
    // zstd fails, which only happens on allocation failure.
    void compress(std::span<const uint8_t> in, std::vector<uint8_t>& out);

  private:
    ZSTD_CCtx_s* cctx_ = nullptr;
};

// Decompresses one frame into exactly out.size() bytes using a per-thread context. Any
// other outcome (zstd error, wrong size) is a Corrupt status without a file name.
Status decompress_block(std::span<const uint8_t> in, const Dictionary* dict,
                        std::span<uint8_t> out);

// Largest compressed size zstd can produce for `bytes` input bytes.
std::size_t compress_bound(std::size_t bytes);

// Trains a dictionary of at most `capacity` bytes on the samples; empty if zstd cannot.
std::vector<uint8_t> train_dictionary(std::span<const uint8_t> samples,
                                      std::span<const std::size_t> sample_sizes,
                                      std::size_t capacity);

} // namespace owaredb::db::detail
