// Value encoding shared by writer and reader: values are remapped to symbols by frequency,
// packed 1/2/4/8 bits per symbol (LSB first), and each block is compressed by the file's
// codec (zstd: one frame a block).
// Internal to dbformat.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "dbformat/status.hpp"

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

// Block codecs: how a block of packed symbols becomes the bytes of the file and back,
// chosen by the header's codec byte (README, Header: 1 = zstd, what every file written so
// far says). A codec keeps whatever state a file gives it (zstd: the file's dictionary,
// prepared for both directions) private behind BlockCodec.
//
// A new codec is one file, codec_<name>.cpp (found by dbformat/CMakeLists.txt), defining
// `const Codec& <name>_codec()` with a byte no other codec has, and one line in
// OWAREDB_CODECS (codec.cpp). The writer takes it by WriterOptions::codec; the reader by the
// byte of the file.

// One thread's compressor for one file's blocks (BlockCodec::compressor).
class BlockCompressor {
  public:
    virtual ~BlockCompressor() = default;
    // Compresses one block into out (replacing its contents), the same bytes for the same
    // block every time (files are deterministic). Throws std::runtime_error only when the
    // codec cannot allocate.
    virtual void compress(std::span<const uint8_t> in, std::vector<uint8_t>& out) = 0;
};

// A codec prepared for one file (Codec::open). Immutable, shareable between threads.
class BlockCodec {
  public:
    virtual ~BlockCodec() = default;
    // The bytes the header keeps for the codec (the dictionary field; empty: none).
    virtual const std::vector<uint8_t>& dictionary() const = 0;
    // A compressor at `level` (the codec's own scale, recorded in the header, informational);
    // one per thread. Only on a codec opened for compression. Throws std::runtime_error or
    // std::bad_alloc if the codec cannot make one.
    virtual std::unique_ptr<BlockCompressor> compressor(int level) const = 0;
    // Decompresses one block into exactly out.size() bytes, from any thread. Any other
    // outcome (a codec error, another size) is a Corrupt status without a file name.
    virtual Status decompress(std::span<const uint8_t> in, std::span<uint8_t> out) const = 0;
};

// A codec as the header's codec byte names it.
struct Codec {
    uint8_t id;       // the header's codec byte
    const char* name; // for messages and `owaredb info`
    // The largest compressed size of a block of `bytes` bytes: the reader refuses an index
    // entry above it before it reads the block.
    std::size_t (*bound)(std::size_t bytes);
    // The codec on a file's dictionary bytes (empty: none); `level` and `for_compression`
    // are the writer's (the reader passes 0, false). An error if the codec rejects them.
    Result<std::shared_ptr<const BlockCodec>> (*open)(std::vector<uint8_t> dictionary, int level,
                                                      bool for_compression);
    // A dictionary of at most `capacity` bytes trained on the samples (consecutive, of
    // `sample_sizes` bytes each); empty if the codec cannot train one or takes none.
    std::vector<uint8_t> (*train)(std::span<const uint8_t> samples,
                                  std::span<const std::size_t> sample_sizes, std::size_t capacity);
};

// The codec of header byte `id`; an Unsupported status naming the byte and the codecs this
// build knows when there is none.
Result<const Codec*> find_codec(uint8_t id);

} // namespace owaredb::db::detail
