// Damages one byte of a file in place (flips one of its bits), as a bad sector or a stray
// write would: what the suites of the file formats' checksums corrupt their files with.
#pragma once

#include <cstdint>
#include <filesystem>
#include <fstream>

namespace owaredb::test {

inline void flip_byte(const std::filesystem::path& path, uint64_t at) {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekg(std::streamoff(at));
    char c = 0;
    f.read(&c, 1);
    c ^= 0x10;
    f.seekp(std::streamoff(at));
    f.write(&c, 1);
}

} // namespace owaredb::test
