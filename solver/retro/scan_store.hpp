// Where the nibble engine (nibble_retrograde.hpp) keeps the byte of every position that its
// 4-bit word has no room for: the position's best capture exit while it is undecided, its
// value once decided (nibble_word.hpp has the codes). Every pass of the engine reads the
// bytes in order, a chunk at a time, and writes them back changed, so the store holds them
// in generations: pass g reads generation g - 1 and writes generation g, chunk by chunk, in
// any order, from several threads; the generation is then ended (made durable) and becomes
// the one read. A checkpoint names the generation its words go with (and its checksum),
// which the store keeps until a later checkpoint no longer needs it (pin()).
//
// `owaredb generate` keeps the generations in compressed scratch files beside the level
// (dbformat/tablebase/streamed_files.hpp); tests keep them in memory (below).
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <span>
#include <stdexcept>
#include <vector>

namespace owaredb {

class ScanStore {
  public:
    virtual ~ScanStore() = default;
    /// Starts writing generation `generation` of `size` bytes, in chunks of `chunk` bytes
    /// (the last one shorter): each chunk is then written exactly once, by write(). The
    /// generation being written before, if any, is dropped.
    virtual void begin(uint64_t generation, uint64_t size, uint64_t chunk) = 0;
    /// Writes chunk `index` of the generation begun (bytes.size() is that chunk's size).
    /// Thread-safe for distinct chunks.
    virtual void write(uint64_t index, std::span<const int8_t> bytes) = 0;
    /// Ends the generation begun: makes it durable and the one read(), drops the older
    /// generations except the pinned one, and returns its checksum.
    virtual uint64_t end() = 0;
    /// out = chunk `index` of the generation read. Thread-safe. Throws std::runtime_error,
    /// naming what is wrong, if the chunk cannot be read or is damaged.
    virtual void read(uint64_t index, std::span<int8_t> out) const = 0;
    /// Keeps the generation read (the one a checkpoint just saved goes with) until another
    /// is pinned.
    virtual void pin() = 0;
    /// Resuming from a checkpoint: makes generation `generation` (of `size` bytes in chunks
    /// of `chunk`) the one read and returns true if the store holds it whole with checksum
    /// `checksum`; returns false, changing nothing, otherwise.
    virtual bool resume(uint64_t generation, uint64_t size, uint64_t chunk, uint64_t checksum) = 0;
};

/// A scan store in memory (tests): every generation is kept, so that any may be resumed.
/// Its checksum only has to tell the tests' generations apart.
class InMemoryScanStore final : public ScanStore {
  public:
    void begin(uint64_t generation, uint64_t size, uint64_t chunk) override {
        writing_ = generation;
        chunk_ = chunk;
        generations_[generation].assign(size, 0);
    }
    void write(uint64_t index, std::span<const int8_t> bytes) override {
        auto& g = generations_.at(writing_);
        if (index * chunk_ + bytes.size() > g.size())
            throw std::logic_error("scan store: writing past the generation");
        std::copy(bytes.begin(), bytes.end(), g.begin() + std::ptrdiff_t(index * chunk_));
    }
    uint64_t end() override {
        reading_ = writing_;
        ++ended_;
        return sum(generations_.at(reading_));
    }
    void read(uint64_t index, std::span<int8_t> out) const override {
        const auto& g = generations_.at(reading_);
        if (index * chunk_ + out.size() > g.size())
            throw std::logic_error("scan store: reading past the generation");
        std::copy_n(g.begin() + std::ptrdiff_t(index * chunk_), out.size(), out.begin());
    }
    void pin() override {}
    bool resume(uint64_t generation, uint64_t size, uint64_t chunk, uint64_t checksum) override {
        const auto it = generations_.find(generation);
        if (it == generations_.end() || it->second.size() != size || sum(it->second) != checksum)
            return false;
        reading_ = generation;
        chunk_ = chunk;
        return true;
    }
    /// The bytes of generation g (tests).
    std::vector<int8_t>& generation(uint64_t g) { return generations_.at(g); }
    /// How many generations were ended.
    uint64_t ended() const { return ended_; }

  private:
    static uint64_t sum(const std::vector<int8_t>& bytes) {
        uint64_t h = bytes.size();
        for (const int8_t b : bytes) h = h * 1000003 + static_cast<uint8_t>(b);
        return h;
    }
    std::map<uint64_t, std::vector<int8_t>> generations_;
    uint64_t writing_ = 0, reading_ = 0, chunk_ = 1, ended_ = 0;
};

} // namespace owaredb
