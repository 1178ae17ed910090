// What the streamed engine (streamed_retrograde.hpp) reads and writes outside its working
// bytes: the values of smaller levels, asked for in sorted batches, and the exit store,
// where the first pass leaves every position's best capture exit and every threshold scan
// reads it back in order. `owaredb generate` gives it level files and a scratch file
// (dbformat/tablebase/streamed_files.hpp); tests give it the in-memory versions below.
#pragma once

#include "retro/parallel.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <numeric>
#include <span>
#include <stdexcept>
#include <vector>

namespace owaredb {

/// The values of the finished smaller levels.
class SmallerLevelValues {
  public:
    virtual ~SmallerLevelValues() = default;
    /// values[i] = the value of position indices[i] of `level`; `indices` are ascending (so
    /// a file is read in order). Called from several threads at once. Throws
    /// std::runtime_error, naming the file, when a value cannot be read.
    virtual void read(int level, std::span<const uint64_t> indices,
                      std::span<int8_t> values) const = 0;
    /// values[i] = the value of position begin + i of `level`: a run in index order, as
    /// the streamed engine's exit gathering reads every level it needs from its start to
    /// its end. Thread-safe, throws as read().
    virtual void read_range(int level, uint64_t begin, std::span<int8_t> values) const {
        thread_local std::vector<uint64_t> indices;
        indices.resize(values.size());
        std::iota(indices.begin(), indices.end(), begin);
        read(level, indices, values);
    }
};

/// A request for a child's value, as the streamed engine's first pass makes them: `key` =
/// child level << kRequestLevelShift | child index (so sorting by key reads each level
/// file in order), `slot` = where the answer goes. (Verify's streamed check packs its
/// requests in 8 bytes: tablebase/streamed_bellman.hpp.)
inline constexpr int kRequestLevelShift = 40;

/// A request for a child's value as fold_child_values() reads it: the child's level and
/// index, and the slot of the position that asked (its place in `best`).
struct ChildRequest {
    int level;
    uint64_t index;
    uint64_t slot;
};

/// For `requests` sorted so that (level, index) ascend, each read through
/// `decode(request) -> ChildRequest` in order: best[slot] = max(best[slot], (n - level) -
/// value of the child), the Bellman term of the move to that child (it captured n -
/// level). Reads `files` in runs of one level of at most 4096 indices, through the
/// caller's buffers (each run's indices, slots and values). The update is atomic, so
/// several threads may fold into the same `best`.
template <class Request, class Decode>
void fold_child_values(const SmallerLevelValues& files, int n, std::span<const Request> requests,
                       Decode&& decode, std::span<int8_t> best, std::vector<uint64_t>& indices,
                       std::vector<uint64_t>& slots, std::vector<int8_t>& values) {
    constexpr size_t kRun = 4096;
    for (size_t i = 0; i < requests.size();) {
        const ChildRequest first = decode(requests[i]);
        indices.assign(1, first.index);
        slots.assign(1, first.slot);
        size_t j = i + 1;
        for (; j < requests.size() && indices.size() < kRun; ++j) {
            const ChildRequest r = decode(requests[j]);
            if (r.level != first.level) break;
            indices.push_back(r.index);
            slots.push_back(r.slot);
        }
        values.resize(indices.size());
        files.read(first.level, indices, values);
        for (size_t k = 0; k < indices.size(); ++k)
            parallel::atomic_max(best[slots[k]],
                                 static_cast<int8_t>((n - first.level) - values[k]));
        i = j;
    }
}

/// The same for requests with a `key` (child level << kRequestLevelShift | child index)
/// and a `slot`, sorted by key.
template <class Request>
void fold_child_values(const SmallerLevelValues& files, int n, std::span<const Request> requests,
                       std::span<int8_t> best, std::vector<uint64_t>& indices,
                       std::vector<int8_t>& values) {
    constexpr uint64_t kIndexMask = (uint64_t(1) << kRequestLevelShift) - 1;
    std::vector<uint64_t> slots;
    fold_child_values(
        files, n, requests,
        [](const Request& r) {
            return ChildRequest{static_cast<int>(r.key >> kRequestLevelShift), r.key & kIndexMask,
                                uint64_t(r.slot)};
        },
        best, indices, slots, values);
}

/// The best capture exit of every position of the level being solved (kNoExit: none):
/// appended in index order by the first pass, read by the scans.
class ExitStore {
  public:
    static constexpr int8_t kNoExit = INT8_MIN;
    virtual ~ExitStore() = default;
    /// Empties the store (the level starts from its beginning).
    virtual void reset() = 0;
    /// Resuming from a checkpoint: keeps the first `size` exits and returns true if the store
    /// holds at least that many and their checksum is `checksum` (what sync() said then);
    /// returns false, changing nothing, otherwise.
    virtual bool resume(uint64_t size, uint64_t checksum) = 0;
    /// Appends the exits of the next positions (one thread).
    virtual void append(std::span<const int8_t> exits) = 0;
    /// Makes everything appended durable and returns the checksum of all of it.
    virtual uint64_t sync() = 0;
    /// out[k] = the exit of position begin + k, for appended positions. Thread-safe.
    virtual void read(uint64_t begin, std::span<int8_t> out) const = 0;
};

/// Smaller levels held in memory (tests, and the in-memory engine's comparisons).
class InMemorySmallerLevels final : public SmallerLevelValues {
  public:
    explicit InMemorySmallerLevels(std::vector<const int8_t*> levels)
        : levels_(std::move(levels)) {}
    void read(int level, std::span<const uint64_t> indices,
              std::span<int8_t> values) const override {
        for (size_t i = 0; i < indices.size(); ++i) values[i] = levels_.at(level)[indices[i]];
    }

  private:
    std::vector<const int8_t*> levels_;
};

/// An exit store in memory (tests). Its checksum is a simple position-weighted sum: it only
/// has to tell tests' stores apart, not to catch damage on disk.
class InMemoryExitStore final : public ExitStore {
  public:
    void reset() override { exits_.clear(); }
    bool resume(uint64_t size, uint64_t checksum) override {
        if (size > exits_.size() || sum(size) != checksum) return false;
        exits_.resize(size);
        return true;
    }
    void append(std::span<const int8_t> exits) override {
        exits_.insert(exits_.end(), exits.begin(), exits.end());
    }
    uint64_t sync() override { return sum(exits_.size()); }
    void read(uint64_t begin, std::span<int8_t> out) const override {
        if (begin + out.size() > exits_.size())
            throw std::logic_error("exit store: reading past what was appended");
        std::copy_n(exits_.begin() + static_cast<std::ptrdiff_t>(begin), out.size(), out.begin());
    }
    std::vector<int8_t>& exits() { return exits_; }

  private:
    uint64_t sum(uint64_t size) const {
        uint64_t h = size;
        for (uint64_t i = 0; i < size; ++i) h = h * 1000003 + static_cast<uint8_t>(exits_[i]);
        return h;
    }
    std::vector<int8_t> exits_;
};

} // namespace owaredb
