#include "dbformat/checksum.hpp"

#include <new>
#include <xxhash.h>

namespace owaredb::db::detail {

uint64_t checksum(std::span<const uint8_t> bytes) {
    return XXH3_64bits(bytes.data(), bytes.size());
}

struct StreamingChecksum::State {
    XXH3_state_t* s = nullptr;
};

StreamingChecksum::StreamingChecksum() : state_(std::make_unique<State>()) {
    state_->s = XXH3_createState();
    if (!state_->s) throw std::bad_alloc();
    XXH3_64bits_reset(state_->s);
}

StreamingChecksum::~StreamingChecksum() {
    XXH3_freeState(state_->s);
}

void StreamingChecksum::update(std::span<const uint8_t> bytes) {
    XXH3_64bits_update(state_->s, bytes.data(), bytes.size());
}

uint64_t StreamingChecksum::digest() const {
    return XXH3_64bits_digest(state_->s);
}

} // namespace owaredb::db::detail
