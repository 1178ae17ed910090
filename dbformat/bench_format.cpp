// owaredb_format_bench: bits per position of a level under several encodings.
//
//   owaredb_format_bench --raw FILE --n N [grid]       FILE: one int8 value per entry
//   owaredb_format_bench --synthetic markov|periodic|uniform [--entries E] [--n N]
//                        [--stay P] [--dont-care F] [grid]
//   owaredb_format_bench --profile FILE.owdb[,FILE.owdb...] [--levels L,..] [--blocks L,..]
//                        [--threads T]
//   grid: --blocks 14,16,18 (log2 entries per block)  --levels 3,19  --dict off,on
//         --bits 0,8 (0 = narrowest)  --threads T
//
// For each combination it prints the file size, bits/position, encode time, single-thread
// decode rate (all blocks) and warm-cache random probe rate, so encodings can be tuned on
// real levels as soon as they exist.
//
// --levels takes zstd levels or "auto" (the default: the level and block size the writer
// gives a level of that size, WriterOptions::size_tiers).
//
// --profile reads level files (any valid .owdb) and, for each zstd level, splits the cost of
// writing each one with the default options into its parts, by encoding it several times
// with parts switched off: "compress" (symbol width and block size fixed to what the
// default run chose, no dictionary, no self-check: counting, packing, compressing every
// block), "measure" (choosing width and block size on the sample), "dict" (training and
// judging the dictionary), "check" (decompressing every block again). With --blocks, each
// zstd level is profiled on each of those block sizes instead of the writer's choice. CPU seconds
// are the process's, so they stay meaningful on a loaded machine; "MB" is the file size.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "dbformat/reader.hpp"
#include "dbformat/synthetic.hpp"
#include "dbformat/writer.hpp"

using namespace owaredb::db;

namespace {

std::vector<std::string> split(const std::string& s) {
    std::vector<std::string> out;
    std::stringstream ss(s);
    for (std::string item; std::getline(ss, item, ',');) out.push_back(item);
    return out;
}

// "auto" stands for WriterOptions::kLevelBySize (the default: zstd level by level size).
std::vector<int> ints(const std::string& s) {
    std::vector<int> out;
    for (auto& x : split(s))
        out.push_back(x == "auto" ? WriterOptions::kLevelBySize : std::stoi(x));
    return out;
}

double seconds_since(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

double cpu_seconds() {
    timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

struct Timed {
    double wall = 0, cpu = 0;
    WriteReport report;
};

Timed timed_encode(const LevelMeta& meta, const std::vector<int8_t>& values,
                   const WriterOptions& o) {
    Timed t;
    const double c0 = cpu_seconds();
    const auto t0 = std::chrono::steady_clock::now();
    encode_level(meta, values, o, &t.report);
    t.wall = seconds_since(t0);
    t.cpu = cpu_seconds() - c0;
    return t;
}

int profile(const std::vector<std::string>& files, const std::vector<int>& levels,
            const std::vector<int>& blocks, int threads) {
    std::printf("%-22s %9s %5s %6s %5s %9s %9s %8s %8s | %8s %8s %8s %8s (CPU s)\n", "file",
                "Mentries", "zstd", "block", "dictB", "MB", "MB nodict", "wall s", "CPU s",
                "compress", "measure", "dict", "check");
    for (const auto& file : files) {
        LevelReader r(file);
        auto info = r.info();
        if (!info.ok()) {
            std::cerr << info.status().message() << "\n";
            return 1;
        }
        LevelMeta meta = info->meta;
        std::vector<int8_t> values(meta.entries);
        if (auto s = r.read_all(values, threads); !s.ok()) {
            std::cerr << s.message() << "\n";
            return 1;
        }
        // 0: the block size the writer chooses.
        const std::vector<int> block_logs = blocks.empty() ? std::vector<int>{0} : blocks;
        for (int level : levels)
            for (int block_log : block_logs) {
                WriterOptions o;
                o.level = level;
                o.block_entries = block_log ? 1u << block_log : 0;
                o.threads = threads;
                Timed full = timed_encode(meta, values, o);
                WriterOptions fixed = o;
                fixed.level = full.report.level;
                fixed.block_entries = full.report.block_entries;
                fixed.symbol_bits = full.report.symbol_bits;
                fixed.dictionary = DictionaryMode::Off;
                fixed.self_check = false;
                Timed plain = timed_encode(meta, values, fixed);
                fixed.self_check = true;
                Timed checked = timed_encode(meta, values, fixed);
                WriterOptions measured = o;
                measured.dictionary = DictionaryMode::Off;
                measured.self_check = false;
                Timed plan = timed_encode(meta, values, measured);
                const double check = checked.cpu - plain.cpu;
                std::printf(
                    "%-22s %9.2f %5d %6u %5zu %9.3f %9.3f %8.2f %8.2f | %8.2f %8.2f %8.2f %8.2f\n",
                    std::filesystem::path(file).filename().c_str(), double(meta.entries) / 1e6,
                    full.report.level, full.report.block_entries, full.report.dictionary_bytes,
                    double(full.report.file_bytes) / 1e6, double(plan.report.file_bytes) / 1e6,
                    full.wall, full.cpu, plain.cpu, plan.cpu - plain.cpu,
                    full.cpu - plan.cpu - check, check);
                std::fflush(stdout);
            }
    }
    return 0;
}

int usage() {
    std::cerr << "usage: owaredb_format_bench (--raw FILE --n N | --synthetic SHAPE [--entries E]"
                 " [--n N] [--stay P] [--dont-care F]) [--blocks L,..] [--levels L,..]"
                 " [--dict off,on,auto] [--bits 0,8] [--threads T]\n"
                 "       owaredb_format_bench --profile FILE.owdb[,...] [--levels L,..]"
                 " [--threads T]\n";
    return 2;
}

// The command line: what to encode and which settings to measure.
struct BenchArgs {
    std::string raw, shape;
    SyntheticSpec spec;
    std::vector<int> blocks = {12, 14, 16, 18}, levels = {3, 19}, bits = {0, 8};
    bool blocks_given = false;
    std::vector<std::string> dicts = {"off", "on"};
    int threads = 0;
    bool have_n = false;
    std::vector<std::string> profile_files;
};

// Parses argv into `a`; false on a usage error.
bool parse_bench_args(int argc, char** argv, BenchArgs& a) {
    a.spec.entries = 1u << 24;
    for (int i = 1; i < argc; ++i) {
        const std::string k = argv[i];
        if (i + 1 >= argc) return false;
        const std::string v = argv[++i];
        if (k == "--raw")
            a.raw = v;
        else if (k == "--synthetic")
            a.shape = v;
        else if (k == "--entries")
            a.spec.entries = std::stoull(v);
        else if (k == "--n")
            a.spec.n = uint32_t(std::stoul(v)), a.have_n = true;
        else if (k == "--stay")
            a.spec.stay = std::stod(v);
        else if (k == "--dont-care")
            a.spec.dont_care = std::stod(v);
        else if (k == "--blocks")
            a.blocks = ints(v), a.blocks_given = true;
        else if (k == "--levels")
            a.levels = ints(v);
        else if (k == "--bits")
            a.bits = ints(v);
        else if (k == "--dict")
            a.dicts = split(v);
        else if (k == "--threads")
            a.threads = std::stoi(v);
        else if (k == "--profile")
            a.profile_files = split(v);
        else
            return false;
    }
    if (a.threads <= 0) a.threads = std::max(1, int(std::thread::hardware_concurrency()));
    return true;
}

// The values to encode: a raw file or a synthetic level; false (with a message for a file
// that cannot be read) when there are none.
bool bench_values(BenchArgs& a, std::vector<int8_t>& values) {
    if (!a.raw.empty()) {
        if (!a.have_n) return false;
        std::ifstream in(a.raw, std::ios::binary);
        if (!in) {
            std::cerr << "cannot read " << a.raw << "\n";
            return false;
        }
        values.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
        return true;
    }
    if (a.shape != "markov" && a.shape != "periodic" && a.shape != "uniform") return false;
    a.spec.shape = a.shape == "markov"     ? SyntheticShape::Markov
                   : a.shape == "periodic" ? SyntheticShape::Periodic
                                           : SyntheticShape::Uniform;
    values = synthetic_values(a.spec);
    return true;
}

// Encodes `values` with one setting and prints its line: size, encoding time, decoding
// rate, warm-cache random probes on one thread (the cache holds the whole level). False
// when the file does not decode.
bool bench_one(const LevelMeta& meta, const std::vector<int8_t>& values, const WriterOptions& o,
               int b, const std::string& dict) {
    WriteReport rep;
    auto t0 = std::chrono::steady_clock::now();
    std::vector<uint8_t> file;
    try {
        file = encode_level(meta, values, o, &rep);
    } catch (const std::exception& e) {
        std::printf("%6d %5d %4d %5s  skipped: %s\n", b, o.level, int(o.symbol_bits), dict.c_str(),
                    e.what());
        return true;
    }
    const double enc = seconds_since(t0);
    LevelReader r = LevelReader::from_memory(file, "bench");
    t0 = std::chrono::steady_clock::now();
    auto h = r.histogram(1);
    const double dec = seconds_since(t0);
    if (!h.ok()) {
        std::printf("decode failed: %s\n", h.status().message().c_str());
        return false;
    }
    uint64_t x = 88172645463325252ULL, sink = 0;
    const int probes = values.empty() ? 0 : 2000000;
    t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < probes; ++i) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        sink += uint8_t(*r.value(x % values.size()));
    }
    const double probe = seconds_since(t0);
    std::printf("%6d %5d %4d %5s %8zu %12llu %9.4f %8.2f %10.1f %10.2f%s\n", 1 << b, rep.level,
                rep.symbol_bits, dict.c_str(), rep.dictionary_bytes,
                (unsigned long long)rep.file_bytes, rep.bits_per_position, enc,
                double(values.size()) / dec / 1e6, probes / probe / 1e6, sink == 1 ? " " : "");
    return true;
}

} // namespace

int main(int argc, char** argv) {
    BenchArgs a;
    if (!parse_bench_args(argc, argv, a)) return usage();
    if (!a.profile_files.empty())
        return profile(a.profile_files, a.levels, a.blocks_given ? a.blocks : std::vector<int>{},
                       a.threads);
    std::vector<int8_t> values;
    if (!bench_values(a, values)) return a.raw.empty() || !a.have_n ? usage() : 1;
    LevelMeta meta{"bench", {}, a.spec.n, values.size()};
    std::printf("%llu entries, n=%u\n", (unsigned long long)values.size(), a.spec.n);
    std::printf("%6s %5s %4s %5s %8s %12s %9s %8s %10s %10s\n", "block", "level", "bits", "dict",
                "dictB", "file bytes", "bits/pos", "enc s", "dec Mpos/s", "probe M/s");
    for (int b : a.blocks)
        for (int level : a.levels)
            for (int w : a.bits)
                for (auto& d : a.dicts) {
                    WriterOptions o;
                    o.block_entries = 1u << b;
                    o.level = level;
                    o.symbol_bits = uint8_t(w);
                    o.dictionary = d == "on"     ? DictionaryMode::On
                                   : d == "auto" ? DictionaryMode::Auto
                                                 : DictionaryMode::Off;
                    o.threads = a.threads;
                    if (!bench_one(meta, values, o, b, d)) return 1;
                }
    return 0;
}
