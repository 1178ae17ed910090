// Runs a function on a team of threads: OpenMP in normal builds, std::thread under
// ThreadSanitizer. libgomp is not instrumented: when it reuses its pooled threads for a
// second parallel region, TSan cannot see the hand-over of the region's shared-variable
// block and reports false races. Plain std::threads make every hand-over visible, so the
// TSan run still checks our own sharing (the worker body is the same code).
#pragma once

#include <omp.h>
#include <thread>
#include <vector>

#if defined(__SANITIZE_THREAD__)
#define OWAREDB_OMWESO_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define OWAREDB_OMWESO_TSAN 1
#endif
#endif

namespace owaredb::omweso {

// Calls work(tid) for tid = 0..threads-1, each on its own thread, and waits for all.
template <class Work> void run_team(int threads, const Work& work) {
#ifdef OWAREDB_OMWESO_TSAN
    std::vector<std::thread> team;
    for (int t = 1; t < threads; ++t) team.emplace_back([&work, t] { work(t); });
    work(0);
    for (std::thread& th : team) th.join();
#else
#pragma omp parallel num_threads(threads)
    work(omp_get_thread_num());
#endif
}

} // namespace owaredb::omweso
