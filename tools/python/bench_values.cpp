// The C++ side of bench_values.py: batch Tablebase::values on the positions of a file (raw
// bytes, 12 per position), warm cache, one thread, as `owaredb bench-probe` times it.
//   owaredb_bench_values DIR RULES POSITIONS_FILE
// Warms the cache, prints "ready", then times one pass per line read from standard input:
// "whole" is one call on every position (as bench-probe makes it), "chunked" calls of 4096
// positions with a reused result buffer (as the Python module makes them). Each pass prints
// "<mode> <values per second> <sum of the values>". Driven pass by pass, the Python script
// alternates C++ and Python passes so that both see the same machine load.
#include "owaredb/probe.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

int main(int argc, char** argv) {
    using namespace owaredb;
    if (argc != 4) {
        std::fprintf(stderr, "usage: owaredb_bench_values DIR RULES POSITIONS_FILE\n");
        return 2;
    }
    std::ifstream in(argv[3], std::ios::binary);
    std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (!in.eof() && !in) {
        std::fprintf(stderr, "cannot read %s\n", argv[3]);
        return 1;
    }
    std::vector<Pits> positions(bytes.size() / sizeof(Pits));
    for (std::size_t i = 0; i < positions.size(); ++i)
        for (std::size_t k = 0; k < 12; ++k)
            positions[i][k] = static_cast<uint8_t>(bytes[i * 12 + k]);

    TablebaseOptions big; // a cache big enough for the level, as bench-probe uses
    big.cache_bytes = std::size_t(2) << 30;
    Tablebase tb(argv[1], argv[2], big);
    std::vector<ProbeResult<int>> results(positions.size(), ProbeResult<int>(0));
    tb.values(positions, results); // warm the cache
    for (const auto& r : results)
        if (!r) {
            std::fprintf(stderr, "%s\n", r.message().c_str());
            return 1;
        }
    std::printf("ready\n");
    std::fflush(stdout);

    const std::size_t chunk = 4096;
    std::vector<ProbeResult<int>> small(chunk, ProbeResult<int>(0));
    std::vector<int8_t> values(positions.size());
    for (std::string mode; std::getline(std::cin, mode);) {
        long long sum = 0;
        auto t0 = std::chrono::steady_clock::now();
        if (mode == "whole") {
            tb.values(positions, results);
        } else {
            for (std::size_t at = 0; at < positions.size(); at += chunk) {
                const std::size_t n = std::min(chunk, positions.size() - at);
                std::span<ProbeResult<int>> out(small.data(), n);
                tb.values(std::span<const Pits>(positions).subspan(at, n), out);
                for (std::size_t i = 0; i < n; ++i)
                    values[at + i] = static_cast<int8_t>(out[i].ok() ? out[i].value() : 0);
            }
        }
        const double s =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (mode == "whole")
            for (const auto& r : results) sum += r.ok() ? r.value() : 0;
        else
            for (int8_t v : values) sum += v;
        std::printf("%s %.0f %lld\n", mode.c_str(), positions.size() / s, sum);
        std::fflush(stdout);
    }
    return 0;
}
