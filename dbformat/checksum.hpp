// The one checksum used everywhere in a level file: XXH3-64 (seed 0) from libxxhash.
// Internal to dbformat.
#pragma once

#include <cstdint>
#include <memory>
#include <span>

namespace owaredb::db::detail {

uint64_t checksum(std::span<const uint8_t> bytes);

// Whether a stored checksum matches. Fuzz builds of the reader can define
// OWAREDB_FUZZ_IGNORE_CHECKSUMS so mutated inputs reach the parser and the decompressor
// instead of all stopping at the first checksum; never define it elsewhere.
inline bool checksum_matches(uint64_t stored, uint64_t computed) {
#ifdef OWAREDB_FUZZ_IGNORE_CHECKSUMS
    (void)stored;
    (void)computed;
    return true;
#else
    return stored == computed;
#endif
}

// Streaming form, for the whole-file checksum.
class StreamingChecksum {
  public:
    StreamingChecksum();
    ~StreamingChecksum();
    StreamingChecksum(const StreamingChecksum&) = delete;
    StreamingChecksum& operator=(const StreamingChecksum&) = delete;
    void update(std::span<const uint8_t> bytes);
    uint64_t digest() const;

  private:
    struct State;
    std::unique_ptr<State> state_;
};

} // namespace owaredb::db::detail
