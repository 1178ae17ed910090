// The parallel building blocks of every pass over a level: loops over chunks of positions
// on OpenMP threads, with one policy for exceptions (the first one thrown by any thread is
// rethrown once every thread has stopped, since an exception must not leave an OpenMP
// region), and the atomic maximum and minimum that passes fold their answers with.
#pragma once

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>
#include <mutex>

namespace owaredb::parallel {

/// The first exception of the threads of a parallel region, kept to be rethrown after it.
/// Thread-safe.
class FirstFailure {
  public:
    /// Runs f(), keeping what it throws if it is the first failure seen.
    template <class F> void guard(F&& f) noexcept {
        try {
            f();
        } catch (...) {
            std::lock_guard lock(mutex_);
            if (!failure_) failure_ = std::current_exception();
        }
    }
    /// Rethrows the first failure kept, if any (call it after the region).
    void rethrow() const {
        if (failure_) std::rethrow_exception(failure_);
    }

  private:
    std::mutex mutex_;
    std::exception_ptr failure_;
};

/// body(b, e) for every chunk [b, e) of [begin, end): chunks of `chunk` positions aligned
/// on multiples of `chunk` (the first and last may be shorter), on `threads` threads, one
/// chunk at a time per thread (dynamic schedule). Rethrows the first exception of a body
/// once every thread has stopped; the other chunks still run.
template <class Body>
void for_chunks(int threads, uint64_t begin, uint64_t end, uint64_t chunk, Body&& body) {
    FirstFailure failure;
    const uint64_t first = begin / chunk, last = (end + chunk - 1) / chunk;
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
    for (uint64_t c = first; c < last; ++c)
        failure.guard([&] { body(std::max(begin, c * chunk), std::min(end, (c + 1) * chunk)); });
    failure.rethrow();
}

/// slot = max(slot, value), atomically.
template <class T> void atomic_max(T& slot, T value) {
    std::atomic_ref<T> ref(slot);
    T old = ref.load(std::memory_order_relaxed);
    while (value > old && !ref.compare_exchange_weak(old, value, std::memory_order_relaxed)) {
    }
}

/// slot = min(slot, value), atomically (the first failing index of a parallel search).
template <class T> void atomic_min(std::atomic<T>& slot, T value) {
    T old = slot.load(std::memory_order_relaxed);
    while (value < old && !slot.compare_exchange_weak(old, value, std::memory_order_relaxed)) {
    }
}

} // namespace owaredb::parallel
