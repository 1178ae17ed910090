// Shared by the dbformat test files: temp directories, file bytes, quick mode.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

#include "dbformat/format.hpp"
#include "dbformat/synthetic.hpp"
#include "quick.hpp"
#include "temp_dir.hpp"

namespace owaredb::db::test {

using owaredb::test::quick;

using owaredb::test::TempDir;

inline std::vector<uint8_t> read_bytes(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void write_bytes(const std::filesystem::path& p, const std::vector<uint8_t>& b) {
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(b.data()), std::streamsize(b.size()));
}

inline LevelMeta meta_for(const std::string& rules, uint32_t n, uint64_t entries,
                          std::vector<uint8_t> knobs = {1, 2, 3}) {
    return LevelMeta{rules, std::move(knobs), n, entries};
}

// Endgame-like values with some kDontCare, reproducible.
inline std::vector<int8_t> sample_values(uint64_t entries, uint32_t n, uint64_t seed = 7,
                                         double dont_care = 0.05) {
    SyntheticSpec s;
    s.entries = entries;
    s.n = n;
    s.seed = seed;
    s.dont_care = dont_care;
    return synthetic_values(s);
}

} // namespace owaredb::db::test
