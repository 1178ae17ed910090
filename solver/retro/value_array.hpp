// An owned array of signed 8-bit position values, one per index of a level.
//
// Backed by malloc so the retrograde engine can compact its 2-byte working state into
// the same allocation and shrink it with realloc, keeping the peak memory of a level at
// 2 bytes per position.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <new>
#include <span>
#include <utility>
#include <vector>

namespace owaredb {

class ValueArray {
  public:
    ValueArray() = default;
    explicit ValueArray(uint64_t size) : ValueArray(allocate(size), size) {}
    /// Adopts a malloc'ed buffer of at least `size` bytes.
    ValueArray(void* adopted, uint64_t size) : data_(static_cast<int8_t*>(adopted)), size_(size) {}
    ValueArray(ValueArray&& o) noexcept
        : data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)) {}
    ValueArray& operator=(ValueArray&& o) noexcept {
        std::swap(data_, o.data_);
        std::swap(size_, o.size_);
        return *this;
    }
    ValueArray(const ValueArray&) = delete;
    ValueArray& operator=(const ValueArray&) = delete;
    ~ValueArray() { std::free(data_); }

    uint64_t size() const { return size_; }
    int8_t* data() { return data_; }
    const int8_t* data() const { return data_; }
    int8_t operator[](uint64_t i) const { return data_[i]; }
    int8_t& operator[](uint64_t i) { return data_[i]; }
    std::span<const int8_t> span() const { return {data_, size_}; }
    std::span<int8_t> span() { return {data_, size_}; }

    /// Keeps the first `new_size` values and returns the rest of the allocation to the
    /// system (realloc shrinks in place).
    void shrink(uint64_t new_size) {
        if (new_size >= size_) return;
        if (void* p = std::realloc(data_, new_size ? new_size : 1)) data_ = static_cast<int8_t*>(p);
        size_ = new_size;
    }

    /// malloc that throws std::bad_alloc (never returns null for size > 0).
    static void* allocate(uint64_t bytes) {
        void* p = std::malloc(bytes ? bytes : 1);
        if (!p) throw std::bad_alloc();
        return p;
    }

  private:
    int8_t* data_ = nullptr;
    uint64_t size_ = 0;
};

/// Pointers to the values of levels 0..n-1, the form the solver takes smaller levels in.
inline std::vector<const int8_t*> level_pointers(const std::vector<ValueArray>& levels, int n) {
    std::vector<const int8_t*> out;
    for (int k = 0; k < n; ++k) out.push_back(levels[k].data());
    return out;
}

} // namespace owaredb
