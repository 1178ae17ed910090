// Where a sweep keeps its working words: one word a position, of any width. The sweep
// (retro/sweep.hpp: propagate, drain, claim, value_visit, the checkpoints' bytes) reaches a
// word only through a store, so the same code runs over
//   - WholeWords<W>: words of whole bytes (uint8_t, uint16_t), an array of W; a word is
//     updated by std::atomic_ref<W> on the word itself, exactly as if the sweep were
//     written for W alone (the store adds no instruction: its functions are inlined to the
//     same loads, compare-exchanges and prefetches);
//   - PackedWords<Bits>: words of Bits = 1, 2 or 4 bits, 64 / Bits of them packed in each
//     uint64_t (word k is bits (k % (64 / Bits)) * Bits onwards of container k / (64 /
//     Bits), the containers in the machine's byte order, as checkpoints keep words); a word
//     is updated by a compare-exchange loop on its container.
//
// Contract of a store (what BasicState<Store> in sweep.hpp and the engines use):
//   - `Store::Word`: the type a word is loaded as (W; uint8_t for packed words, whose
//     values are 0 .. 2^Bits - 1: a larger value given to a packed store is a bug, which
//     store and compare_exchange_* mask to Bits in release builds);
//   - `Store::bytes_for(size)`: the bytes that hold `size` words (what a checkpoint saves;
//     packed words round up to whole containers);
//   - `bind(bytes, size)`: the store's `size` words are at `bytes` (aligned for its
//     containers, as malloc aligns), which the caller owns; their values are the caller's
//     to set, but the bits past the last word (packed words) are cleared, so that the
//     bytes a checkpoint saves depend on the words alone;
//   - `ref(k)`: a reference to word k (0-based) with load(order), store(word, order),
//     compare_exchange_weak / compare_exchange_strong(expected&, desired, order) of
//     std::atomic_ref's meaning: atomic for that word, whatever other threads do to the
//     words that share its container. A failed compare-exchange sets `expected` to the
//     word found. A weak one may fail spuriously, also when only a neighbour changed;
//   - `address(k)`: the address to prefetch for word k;
//   - `as_bytes(size)`: the words of a store bound to `size` words, as bytes.
// Memory order: a packed word's operations are those of its container with the order
// given, so a word's updates are ordered as a whole-byte word's would be; two words of one
// container are two independent variables for the caller (an update of one never changes
// the other: each compare-exchange replaces only its word's bits of the container value it
// read, and succeeds only if the container still holds that value).
#pragma once

#include <atomic>
#include <cstdint>
#include <span>

namespace owaredb::sweep {

/// Words of whole bytes, W a position (see the file's comment).
template <class W> struct WholeWords {
    using Word = W;
    static constexpr uint64_t bytes_for(uint64_t size) { return size * sizeof(W); }
    W* words = nullptr; ///< words[k] is word k; engines may read and write it directly
    void bind(void* bytes, uint64_t) { words = static_cast<W*>(bytes); }
    std::atomic_ref<W> ref(uint64_t k) const { return std::atomic_ref<W>(words[k]); }
    const void* address(uint64_t k) const { return words + k; }
    std::span<uint8_t> as_bytes(uint64_t size) const {
        return {reinterpret_cast<uint8_t*>(words), bytes_for(size)};
    }
};

/// The failure order of a compare-exchange whose success order is `order` (the strongest
/// that a failure, which only loads, may have).
constexpr std::memory_order failure_order(std::memory_order order) {
    if (order == std::memory_order_acq_rel) return std::memory_order_acquire;
    if (order == std::memory_order_release) return std::memory_order_relaxed;
    return order;
}

/// Word `shift / Bits` of a container of packed words, as an atomic reference.
template <unsigned Bits> class PackedWordRef {
  public:
    using Word = uint8_t;
    static constexpr uint64_t kMask = (uint64_t(1) << Bits) - 1;

    PackedWordRef(uint64_t& container, unsigned shift) : container_(container), shift_(shift) {}

    Word load(std::memory_order order = std::memory_order_seq_cst) const {
        return field(container_.load(order));
    }
    void store(Word word, std::memory_order order = std::memory_order_seq_cst) const {
        uint64_t old = container_.load(std::memory_order_relaxed);
        while (!container_.compare_exchange_weak(old, with(old, word), order,
                                                 std::memory_order_relaxed)) {
        }
    }
    /// Fails, setting `expected`, when the word is not `expected`; may fail spuriously.
    bool compare_exchange_weak(Word& expected, Word desired,
                               std::memory_order order = std::memory_order_seq_cst) const {
        uint64_t old = container_.load(failure_order(order));
        if (field(old) != expected) {
            expected = field(old);
            return false;
        }
        if (container_.compare_exchange_weak(old, with(old, desired), order, failure_order(order)))
            return true;
        expected = field(old);
        return false;
    }
    /// Fails, setting `expected`, only when the word is not `expected` (a neighbour's
    /// change in the same container makes it try again).
    bool compare_exchange_strong(Word& expected, Word desired,
                                 std::memory_order order = std::memory_order_seq_cst) const {
        uint64_t old = container_.load(failure_order(order));
        while (field(old) == expected)
            if (container_.compare_exchange_weak(old, with(old, desired), order,
                                                 failure_order(order)))
                return true;
        expected = field(old);
        return false;
    }

  private:
    Word field(uint64_t container) const { return static_cast<Word>(container >> shift_ & kMask); }
    uint64_t with(uint64_t container, Word word) const {
        return (container & ~(kMask << shift_)) | (uint64_t(word) & kMask) << shift_;
    }
    std::atomic_ref<uint64_t> container_;
    unsigned shift_;
};

/// Words of Bits = 1, 2 or 4 bits packed in uint64_t containers (see the file's comment).
template <unsigned Bits> struct PackedWords {
    static_assert(Bits == 1 || Bits == 2 || Bits == 4, "packed words are 1, 2 or 4 bits");
    using Word = uint8_t;
    static constexpr uint64_t kPerContainer = 64 / Bits;
    static constexpr uint64_t bytes_for(uint64_t size) {
        return (size + kPerContainer - 1) / kPerContainer * sizeof(uint64_t);
    }
    uint64_t* containers = nullptr;
    void bind(void* bytes, uint64_t size) {
        containers = static_cast<uint64_t*>(bytes);
        if (size % kPerContainer) containers[size / kPerContainer] = 0;
    }
    PackedWordRef<Bits> ref(uint64_t k) const {
        return {containers[k / kPerContainer], unsigned(k % kPerContainer) * Bits};
    }
    const void* address(uint64_t k) const { return containers + k / kPerContainer; }
    std::span<uint8_t> as_bytes(uint64_t size) const {
        return {reinterpret_cast<uint8_t*>(containers), bytes_for(size)};
    }
};

} // namespace owaredb::sweep
