// Where a full propagation stack puts the parents that join (sweep::BasicState::spill),
// in the engines whose words have no room for a pending mark (the nibble and WLD engines):
// each thread's SpillStack holds up to a fixed number of entries in memory, and when they
// fill, it moves the older half to its SpillArea, a stack of equal blocks on disk, from
// which they come back a block at a time once the entries in memory are taken. So what a
// thread holds in memory is bounded whatever a propagation spills; the disk takes the rest.
//
// The order in which spilled parents propagate does not change the values (the sets are
// fixed points: retrograde.hpp), so last in, first out by blocks serves as well as any
// order, and keeping the newer half in memory means that a stack taking and giving entries
// around the limit writes and reads a block at most every half limit of them.
//
// `owaredb generate` spills to anonymous files in the level's directory
// (dbformat/tablebase/spill_files.hpp); tests spill to memory (InMemorySpillSpace, below).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <vector>

namespace owaredb {

/// One thread's blocks of spilled entries, all of one size, numbered from 0.
class SpillArea {
  public:
    virtual ~SpillArea() = default;
    /// Writes block `index`: the blocks below it are written, those from it on are free.
    /// Throws std::runtime_error naming what is wrong if it cannot (a full disk).
    virtual void write(uint64_t index, std::span<const uint64_t> block) = 0;
    /// Reads block `index` as last written (block.size() as written). Throws
    /// std::runtime_error naming what is wrong if it cannot be read or is not what was
    /// written.
    virtual void read(uint64_t index, std::span<uint64_t> block) = 0;
};

/// Where the threads' spill areas come from.
class SpillSpace {
  public:
    virtual ~SpillSpace() = default;
    /// A new, empty area for one thread (thread-safe); it goes with its owner. Throws
    /// std::runtime_error naming what is wrong if none can be made.
    virtual std::unique_ptr<SpillArea> open() = 0;
};

/// Entries a SpillStack holds in memory at most (8 bytes each): 512 KiB a thread.
inline constexpr size_t kSpillMemoryEntries = 1 << 16;

/// A thread's spilled entries: up to `memory_limit` in memory, the rest in blocks of
/// memory_limit / 2 (at least 1) in an area of `space`, opened the first time it is needed.
class SpillStack {
  public:
    /// Adds `entry`. Throws what the area throws (then the entry is held, but an area's
    /// failure ends the level: the caller does not go on).
    void push(uint64_t entry, SpillSpace& space, size_t memory_limit) {
        memory_.push_back(entry);
        if (memory_.size() < std::max<size_t>(memory_limit, 1)) return;
        if (!area_) {
            area_ = space.open();
            block_ = std::max<size_t>(memory_limit / 2, 1);
        }
        area_->write(blocks_, std::span<const uint64_t>(memory_.data(), block_));
        ++blocks_;
        memory_.erase(memory_.begin(), memory_.begin() + std::ptrdiff_t(block_));
    }
    /// Takes an entry (the last added of those in memory, else of the last block written)
    /// into `entry`; false when none is left.
    bool pop(uint64_t& entry) {
        if (memory_.empty()) {
            if (blocks_ == 0) return false;
            memory_.resize(block_);
            area_->read(--blocks_, memory_);
        }
        entry = memory_.back();
        memory_.pop_back();
        return true;
    }
    bool empty() const { return memory_.empty() && blocks_ == 0; }
    /// Entries held, in memory and on disk.
    uint64_t size() const { return memory_.size() + blocks_ * block_; }
    /// Entries held on disk.
    uint64_t on_disk() const { return blocks_ * block_; }

  private:
    std::vector<uint64_t> memory_;
    std::unique_ptr<SpillArea> area_;
    uint64_t blocks_ = 0; // blocks written to area_ and not read back
    size_t block_ = 0;    // entries a block
};

/// A spill space in memory (tests): each area a list of blocks; counts the areas opened and
/// the blocks written.
class InMemorySpillSpace final : public SpillSpace {
  public:
    std::unique_ptr<SpillArea> open() override {
        opened_.fetch_add(1, std::memory_order_relaxed);
        return std::make_unique<Area>(*this);
    }
    uint64_t opened() const { return opened_.load(); }
    uint64_t blocks_written() const { return written_.load(); }

  private:
    class Area final : public SpillArea {
      public:
        explicit Area(InMemorySpillSpace& space) : space_(space) {}
        void write(uint64_t index, std::span<const uint64_t> block) override {
            if (index > blocks_.size()) throw std::logic_error("spill area: a block skipped");
            blocks_.resize(index);
            blocks_.emplace_back(block.begin(), block.end());
            space_.written_.fetch_add(1, std::memory_order_relaxed);
        }
        void read(uint64_t index, std::span<uint64_t> block) override {
            if (index >= blocks_.size() || blocks_[index].size() != block.size())
                throw std::logic_error("spill area: no such block");
            std::copy(blocks_[index].begin(), blocks_[index].end(), block.begin());
        }

      private:
        InMemorySpillSpace& space_;
        std::vector<std::vector<uint64_t>> blocks_;
    };
    std::atomic<uint64_t> opened_{0}, written_{0};
};

} // namespace owaredb
