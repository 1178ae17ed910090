// libFuzzer target: any byte string given to the level reader yields either an error or
// values that respect the format's invariants, never a crash, hang or sanitizer report.
// Built twice (see dbformat/CMakeLists.txt): with checksums checked, and with checksums
// ignored so that mutations reach the header parser, the index and the decompressor.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "dbformat/reader.hpp"

using namespace owaredb::db;

namespace {

void require(bool ok) {
    if (!ok) __builtin_trap();
}

void check_value(const Result<int8_t>& v, uint32_t n) {
    if (!v.ok()) {
        require(!v.status().message().empty());
        return;
    }
    require(*v == kDontCare || (*v >= -int(n) && *v <= int(n)));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    ReaderOptions options;
    options.cache_bytes = 1 << 20;
    auto reader =
        LevelReader::from_memory(std::vector<uint8_t>(data, data + size), "fuzz", options);
    Status open = reader.open();
    if (!open.ok()) {
        require(!open.message().empty());
        require(!reader.value(0).ok());
        return 0;
    }
    auto info = reader.info();
    require(info.ok());
    const uint64_t entries = info->meta.entries;
    const uint32_t n = info->meta.n;
    require(info->file_bytes == size);
    for (uint64_t i : {uint64_t(0), entries / 3, entries / 2, entries - 1})
        if (i < entries) check_value(reader.value(i), n);
    require(reader.value(entries).status().code() == ErrorCode::OutOfRange);
    // Whole-level passes only on small levels, to keep each input fast.
    if (info->block_count <= 64 && entries <= (uint64_t(1) << 20)) {
        auto hist = reader.histogram(1);
        if (hist.ok()) require(hist->total() == entries);
        auto report = reader.verify(1);
        require(report.ok() == (report.damaged_blocks.empty() && report.file_checksum_ok));
        std::vector<int8_t> all(entries);
        if (reader.read_all(all, 1).ok())
            for (int8_t v : all) require(v == kDontCare || (v >= -int(n) && v <= int(n)));
    }
    return 0;
}
