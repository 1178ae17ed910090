// Little-endian fixed-width encoding, written byte by byte so the file layout never depends
// on the host's endianness, padding or struct layout. Internal to dbformat.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

namespace owaredb::db::detail {

inline void put_le(std::vector<uint8_t>& out, uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}
inline void put_u8(std::vector<uint8_t>& out, uint8_t v) {
    out.push_back(v);
}
inline void put_u16(std::vector<uint8_t>& out, uint16_t v) {
    put_le(out, v, 2);
}
inline void put_u32(std::vector<uint8_t>& out, uint32_t v) {
    put_le(out, v, 4);
}
inline void put_u64(std::vector<uint8_t>& out, uint64_t v) {
    put_le(out, v, 8);
}
inline void put_bytes(std::vector<uint8_t>& out, std::span<const uint8_t> b) {
    // resize + memcpy rather than insert(): GCC 12 warns falsely (stringop-overflow) on
    // inserting a span into a vector.
    if (b.empty()) return;
    std::size_t at = out.size();
    out.resize(at + b.size());
    std::memcpy(out.data() + at, b.data(), b.size());
}

inline uint64_t get_le(const uint8_t* p, int bytes) {
    uint64_t v = 0;
    for (int i = 0; i < bytes; ++i) v |= uint64_t(p[i]) << (8 * i);
    return v;
}

// Bounds-checked sequential reader: a read past the end sets failed() and yields zeros, so
// parsers can read a whole record and check once.
class ByteCursor {
  public:
    explicit ByteCursor(std::span<const uint8_t> data) : data_(data) {}
    uint8_t u8() { return static_cast<uint8_t>(take(1)); }
    uint16_t u16() { return static_cast<uint16_t>(take(2)); }
    uint32_t u32() { return static_cast<uint32_t>(take(4)); }
    uint64_t u64() { return take(8); }
    std::span<const uint8_t> bytes(std::size_t n) {
        if (failed_ || n > data_.size() - pos_) {
            failed_ = true;
            return {};
        }
        auto s = data_.subspan(pos_, n);
        pos_ += n;
        return s;
    }
    std::size_t position() const { return pos_; }
    bool failed() const { return failed_; }

  private:
    uint64_t take(int n) {
        if (failed_ || std::size_t(n) > data_.size() - pos_) {
            failed_ = true;
            return 0;
        }
        uint64_t v = get_le(data_.data() + pos_, n);
        pos_ += std::size_t(n);
        return v;
    }
    std::span<const uint8_t> data_;
    std::size_t pos_ = 0;
    bool failed_ = false;
};

} // namespace owaredb::db::detail
