// An owned array of signed 8-bit position values, one per index of a level.
//
// Backed by malloc so the retrograde engine can compact its 2-byte working state into
// the same allocation and shrink it with realloc, keeping the peak memory of a level at
// 2 bytes per position.
//
// Large arrays ask for transparent huge pages. The engines read them at random (a capture
// child's value, a parent's word): with 4 KiB pages every such read also misses the TLB,
// and once the arrays reach gigabytes the page tables (2 MB of them per GB) no longer fit
// the caches either, so a read costs two trips to memory. 2 MiB pages cut the page tables
// 512-fold (abapa level 26 from files, bench-generate: solving 1.18x faster, 333 s against
// 283 s; docs/results.md).
#pragma once

#include <sys/mman.h>

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

    /// malloc that throws std::bad_alloc (never returns null for size > 0); from 8 MiB on,
    /// with a request for huge pages (advise_huge_pages).
    static void* allocate(uint64_t bytes) {
        void* p = std::malloc(bytes ? bytes : 1);
        if (!p) throw std::bad_alloc();
        advise_huge_pages(p, bytes);
        return p;
    }

    /// Asks the kernel to back the 2 MiB-aligned part of [p, p + bytes) with transparent
    /// huge pages (where the system leaves them to madvise, Debian's default). A hint only:
    /// where huge pages are off or refused, nothing changes but speed. Arrays under 8 MiB
    /// are left alone (their page tables fit the caches, and the pages would round them up).
    static void advise_huge_pages(void* p, uint64_t bytes) {
#ifdef MADV_HUGEPAGE
        constexpr uintptr_t kHuge = uintptr_t(2) << 20;
        if (bytes < 4 * kHuge) return;
        const uintptr_t first = (reinterpret_cast<uintptr_t>(p) + kHuge - 1) & ~(kHuge - 1);
        const uintptr_t last = (reinterpret_cast<uintptr_t>(p) + bytes) & ~(kHuge - 1);
        if (last > first) madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
#else
        (void)p;
        (void)bytes;
#endif
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
