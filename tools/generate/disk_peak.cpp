#include "generate/disk_peak.hpp"

#include <algorithm>
#include <chrono>

namespace owaredb::cli {

DiskPeak::DiskPeak(const LevelDir& dir, int n) : dir_(dir), n_(n) {
    sample();
    thread_ = std::thread([this] {
        std::unique_lock lock(mutex_);
        while (!wake_.wait_for(lock, std::chrono::seconds(1), [this] { return stopping_; })) {
            lock.unlock(); // listing the directory takes a while: not under the lock
            sample();
            lock.lock();
        }
    });
}

DiskPeak::~DiskPeak() {
    stop();
}

uint64_t DiskPeak::stop() {
    {
        const std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
    sample();
    const std::lock_guard lock(mutex_);
    return peak_;
}

void DiskPeak::sample() {
    const uint64_t bytes = dir_.level_bytes(n_);
    const std::lock_guard lock(mutex_);
    peak_ = std::max(peak_, bytes);
}

} // namespace owaredb::cli
