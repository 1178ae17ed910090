// Where the engines over a scan store keep what their words have no room for, in
// generations of bytes read in order, a chunk at a time:
//   - the nibble engine (nibble_retrograde.hpp): generation 1 holds each position's best
//     capture exit (or terminal value), read by every threshold's scan and never rewritten;
//     generation n - t + 2 holds the bitmap of the positions decided at threshold t (a bit
//     for each position not decided before, nibble_word.hpp's ThresholdBits; kChunk / 8
//     bytes a chunk at most), written once by the commit pass after t. The
//     level's values are read from the exits' words and all the bitmaps;
//   - the WLD engine (wld_retrograde.hpp): the same exits and bitmaps (generations 1 and
//     n - t + 2, thresholds n..2), and a map of a bit a position of the positions decided
//     by threshold t (generation 2n - t + 2, thresholds n..3), dropped once the next
//     threshold's commit pass has read it.
// A generation is written once, chunk by chunk, in any order, from several threads, then
// ended (made durable): from then on any chunk of it may be read, from any thread, until it
// is dropped or the level is written (the store's owner removes them all). A checkpoint
// names the generations its words go with by a chain of their checksums
// (chain_checksum()); pin() keeps the generation last ended even if it is dropped, until
// another is pinned, so that a checkpoint saved while it was the last still finds it.
//
// The store also gives the space where the engines' full propagation stacks spill
// (spill.hpp), beside the generations.
//
// `owaredb generate` keeps the generations in compressed scratch files beside the level
// (dbformat/tablebase/scan_files.hpp), and spills to anonymous files there; tests keep
// both in memory (below).
#pragma once

#include "retro/spill.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <stdexcept>
#include <vector>

namespace owaredb {

class ScanStore {
  public:
    virtual ~ScanStore() = default;
    /// Starts writing generation `generation` of `size` bytes, in chunks of `chunk` bytes
    /// (the last one shorter): each chunk is then written exactly once, by write(). A kept
    /// generation of that number, or one being written and not ended, is dropped first.
    virtual void begin(uint64_t generation, uint64_t size, uint64_t chunk) = 0;
    /// Writes chunk `index` of the generation begun (bytes.size() is that chunk's size).
    /// Thread-safe for distinct chunks.
    virtual void write(uint64_t index, std::span<const int8_t> bytes) = 0;
    /// Ends the generation begun: makes it durable and readable, and returns its checksum.
    /// Every other generation kept stays.
    virtual uint64_t end() = 0;
    /// out = chunk `index` of generation `generation`, ended and kept (out.size() is that
    /// chunk's size). Thread-safe, also beside write() of another generation. Throws
    /// std::runtime_error, naming what is wrong, if the chunk cannot be read or is damaged,
    /// and std::logic_error if the generation is not kept.
    virtual void read(uint64_t generation, uint64_t index, std::span<int8_t> out) const = 0;
    /// Lets generation `generation` go (nothing if it is not kept); if it is pinned, once
    /// another is pinned.
    virtual void drop(uint64_t generation) = 0;
    /// Pins the generation last ended (or resumed), and lets the one pinned before go if it
    /// was dropped meanwhile.
    virtual void pin() = 0;
    /// Resuming from a checkpoint: if the store holds generation `generation` whole, of
    /// `size` bytes in chunks of `chunk` (as an earlier process ended it), keeps it, pinned
    /// and readable, and returns its checksum; else returns nothing.
    virtual std::optional<uint64_t> resume(uint64_t generation, uint64_t size, uint64_t chunk) = 0;
    /// Where the threads' full propagation stacks spill, for as long as the store lives.
    virtual SpillSpace& spill_space() = 0;
};

/// The checksum of a list of generations, one at a time: chain_checksum(0, c) == c, so
/// that one generation's chain is its own checksum; the order counts.
constexpr uint64_t chain_checksum(uint64_t chain, uint64_t checksum) {
    return chain * 0x9E3779B97F4A7C15ULL + checksum;
}

/// A scan store in memory (tests): every generation ended is kept (drop() only counts and
/// records, pin() does nothing), so that any may be resumed, until erase(). Its checksum
/// only has to tell the tests' generations apart.
class InMemoryScanStore final : public ScanStore {
  public:
    void begin(uint64_t generation, uint64_t size, uint64_t chunk) override {
        writing_ = generation;
        generations_[generation] = {std::vector<int8_t>(size, 0), chunk};
    }
    void write(uint64_t index, std::span<const int8_t> bytes) override {
        auto& [g, chunk] = generations_.at(writing_);
        if (index * chunk + bytes.size() > g.size())
            throw std::logic_error("scan store: writing past the generation");
        std::copy(bytes.begin(), bytes.end(), g.begin() + std::ptrdiff_t(index * chunk));
    }
    uint64_t end() override {
        ++ended_;
        return sum(generations_.at(writing_).first);
    }
    void read(uint64_t generation, uint64_t index, std::span<int8_t> out) const override {
        const auto it = generations_.find(generation);
        if (it == generations_.end()) throw std::logic_error("scan store: no such generation");
        const auto& [g, chunk] = it->second;
        if (index * chunk + out.size() > g.size())
            throw std::logic_error("scan store: reading past the generation");
        std::copy_n(g.begin() + std::ptrdiff_t(index * chunk), out.size(), out.begin());
    }
    void drop(uint64_t generation) override {
        ++dropped_;
        dropped_generations_.insert(generation);
    }
    void pin() override {}
    std::optional<uint64_t> resume(uint64_t generation, uint64_t size, uint64_t chunk) override {
        const auto it = generations_.find(generation);
        if (it == generations_.end() || it->second.first.size() != size ||
            it->second.second != chunk)
            return std::nullopt;
        return sum(it->second.first);
    }
    SpillSpace& spill_space() override { return spill_; }
    /// The spill space, with its counts (tests).
    const InMemorySpillSpace& spills() const { return spill_; }
    /// The bytes of generation g (tests).
    std::vector<int8_t>& generation(uint64_t g) { return generations_.at(g).first; }
    /// Removes generation g, as if lost (tests).
    void erase(uint64_t g) { generations_.erase(g); }
    /// How many generations were ended, and how many drop() calls were made.
    uint64_t ended() const { return ended_; }
    uint64_t dropped() const { return dropped_; }
    /// Whether generation g was ever dropped.
    bool was_dropped(uint64_t g) const { return dropped_generations_.contains(g); }

  private:
    static uint64_t sum(const std::vector<int8_t>& bytes) {
        uint64_t h = bytes.size();
        for (const int8_t b : bytes) h = h * 1000003 + static_cast<uint8_t>(b);
        return h;
    }
    std::map<uint64_t, std::pair<std::vector<int8_t>, uint64_t>> generations_; // bytes, chunk
    std::set<uint64_t> dropped_generations_;
    InMemorySpillSpace spill_;
    uint64_t writing_ = 0, ended_ = 0, dropped_ = 0;
};

} // namespace owaredb
