// The most disk a level's build held at once (owaredb-build.jsonl's "disk_peak"): its file
// and the one being written, its checkpoint, exit and scan files, sampled while it is built.
#pragma once

#include "tablebase/level_dir.hpp"

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>

namespace owaredb::cli {

/// Samples LevelDir::level_bytes(n) when constructed, every second from a thread of its
/// own, and once more at stop(); keeps the largest. Files that appear and go within one
/// second between two samples are not seen: the peak is a lower bound, exact for the
/// files that live longer (checkpoints, exit and scan files, the level's file).
class DiskPeak {
  public:
    DiskPeak(const LevelDir& dir, int n);
    ~DiskPeak();
    DiskPeak(const DiskPeak&) = delete;
    DiskPeak& operator=(const DiskPeak&) = delete;

    /// Takes the last sample, ends the thread and returns the peak in bytes (the same on a
    /// second call).
    uint64_t stop();

  private:
    void sample();

    const LevelDir& dir_;
    const int n_;
    uint64_t peak_ = 0; ///< guarded by mutex_
    bool stopping_ = false;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::thread thread_;
};

} // namespace owaredb::cli
