// Writes small valid level files covering the format's variants (empty, one entry,
// partial last block, every symbol width, with a dictionary) into the directory given as
// the only argument: the seed corpus of the level-reader fuzzers.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "dbformat/synthetic.hpp"
#include "dbformat/writer.hpp"

using namespace owaredb::db;

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: owaredb_fuzz_seeds DIR\n");
        return 2;
    }
    std::filesystem::path dir = argv[1];
    std::filesystem::create_directories(dir);
    struct Seed {
        const char* name;
        uint64_t entries;
        uint32_t n;
        uint8_t bits;
        DictionaryMode dict;
    };
    const Seed seeds[] = {
        {"empty", 0, 0, 0, DictionaryMode::Off},   {"one", 1, 3, 0, DictionaryMode::Off},
        {"w1", 300, 0, 1, DictionaryMode::Off},    {"w2", 300, 1, 2, DictionaryMode::Off},
        {"w4", 1000, 5, 4, DictionaryMode::Off},   {"w8", 1000, 20, 8, DictionaryMode::Off},
        {"dict", 20000, 6, 0, DictionaryMode::On},
    };
    for (const Seed& s : seeds) {
        SyntheticSpec spec;
        spec.entries = s.entries;
        spec.n = s.n;
        spec.dont_care = 0.05;
        auto values = synthetic_values(spec);
        WriterOptions o;
        o.threads = 1;
        o.block_entries = 64;
        o.symbol_bits = s.bits;
        o.dictionary = s.dict;
        o.dictionary_bytes = 1024;
        o.level = 3;
        WriteReport rep;
        auto bytes = encode_level(LevelMeta{"seed", {1, 2}, s.n, s.entries}, values, o, &rep);
        std::ofstream out(dir / (std::string("level-") + s.name), std::ios::binary);
        out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
        std::printf("seed %-6s %6zu bytes, %u-bit symbols, dictionary %zu bytes\n", s.name,
                    bytes.size(), rep.symbol_bits, rep.dictionary_bytes);
    }
    return 0;
}
