// owaredb bench: the unit costs of database generation.
//
// For each seed count n it draws a sample of uniformly random positions of D_n (random
// indices, unranked) and times, one pass over the whole sample each, with one thread:
//   unrank   index -> position, for random indices and for a run of consecutive ones (the
//            order a generation pass scans a level in)
//   next     the same run of consecutive positions by next_in_level (what the first passes
//            use since 2026-12)
//   rank     position -> index
//   moves    legal move generation with move application (children and captures)
//   parents  un-move generation (all quiet parents in D_n)
// and prints nanoseconds per call. Every result feeds a checksum that is printed, so the
// compiler cannot drop the work; the sample is drawn from a fixed seed so runs compare.
#include "cli/options.hpp"
#include "commands.hpp"
#include "database_options.hpp"
#include "oware/moves.hpp"
#include "oware/ranking.hpp"
#include "oware/unmoves.hpp"

#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace owaredb::cli {
namespace {

std::vector<int> parse_seed_list(const std::string& text) {
    std::vector<int> out;
    std::string cur;
    auto flush = [&] {
        if (cur.empty()) return;
        size_t used = 0;
        int v = -1;
        try {
            v = std::stoi(cur, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used != cur.size() || v < 0 || v > kMaxSeeds)
            throw UsageError("--seeds: '" + cur + "' is not a seed count 0..48");
        out.push_back(v);
        cur.clear();
    };
    for (char c : text) {
        if (c == ',' || c == ' ')
            flush();
        else
            cur += c;
    }
    flush();
    if (out.empty()) throw UsageError("--seeds: no seed count given");
    return out;
}

using Clock = std::chrono::steady_clock;

double ns_per(Clock::time_point start, Clock::time_point stop, uint64_t count) {
    return std::chrono::duration<double, std::nano>(stop - start).count() /
           static_cast<double>(count);
}

struct LevelResult {
    int n = 0;
    uint64_t size = 0;
    double unrank_ns = 0, unrank_seq_ns = 0, next_ns = 0, rank_ns = 0, moves_ns = 0, parents_ns = 0;
    double avg_moves = 0, avg_parents = 0;
};

LevelResult bench_level(const Rules& rules, int n, uint64_t samples, uint64_t seed,
                        uint64_t& checksum) {
    LevelResult r;
    r.n = n;
    r.size = level_size<6>(n);
    std::mt19937_64 rng(seed ^ (0x9e3779b97f4a7c15ULL * static_cast<uint64_t>(n + 1)));
    std::vector<uint64_t> indices(samples);
    for (uint64_t& i : indices) i = rng() % r.size; // bias negligible: |D_n| << 2^64
    std::vector<Position> positions(samples);

    auto t0 = Clock::now();
    for (uint64_t k = 0; k < samples; ++k) positions[k] = unrank<6>(n, indices[k]);
    auto t1 = Clock::now();
    for (const Position& p : positions) checksum += p.pits[0] ^ (p.pits[11] << 8);
    r.unrank_ns = ns_per(t0, t1, samples);

    // Consecutive indices from a random start (wrapping at the end of the level).
    const uint64_t first = rng() % r.size;
    uint64_t seq_sum = 0;
    t0 = Clock::now();
    for (uint64_t k = 0, i = first; k < samples; ++k, i = i + 1 == r.size ? 0 : i + 1) {
        const Position p = unrank<6>(n, i);
        seq_sum += p.pits[k % kPits];
    }
    t1 = Clock::now();
    checksum = checksum * 31 + seq_sum;
    r.unrank_seq_ns = ns_per(t0, t1, samples);

    // The same run of positions by next_in_level, as the generator's first passes walk it.
    uint64_t next_sum = 0;
    t0 = Clock::now();
    Position p = unrank<6>(n, first);
    for (uint64_t k = 0, i = first; k < samples; ++k) {
        next_sum += p.pits[k % kPits];
        if (++i == r.size) {
            i = 0;
            p = unrank<6>(n, 0);
        } else {
            p = next_in_level(p);
        }
    }
    t1 = Clock::now();
    checksum = checksum * 31 + next_sum;
    r.next_ns = ns_per(t0, t1, samples);

    uint64_t rank_sum = 0;
    t0 = Clock::now();
    for (const Position& p : positions) rank_sum += rank(p);
    t1 = Clock::now();
    checksum = checksum * 31 + rank_sum;
    r.rank_ns = ns_per(t0, t1, samples);

    uint64_t move_count = 0, move_sum = 0;
    t0 = Clock::now();
    for (const Position& p : positions) {
        const MoveList list = legal_moves(rules, p);
        move_count += static_cast<uint64_t>(list.size());
        for (const Move& m : list) move_sum += m.captured + m.child.pits[m.pit];
    }
    t1 = Clock::now();
    checksum = checksum * 31 + move_count + move_sum;
    r.moves_ns = ns_per(t0, t1, samples);
    r.avg_moves = static_cast<double>(move_count) / static_cast<double>(samples);

    auto list = std::make_unique<ParentList>(); // ~3.5 KB, reused
    uint64_t parent_count = 0, parent_sum = 0;
    t0 = Clock::now();
    for (const Position& p : positions) {
        parents(rules, p, *list);
        parent_count += static_cast<uint64_t>(list->size());
        if (list->size() > 0) parent_sum += list->parents[0].pits[0];
    }
    t1 = Clock::now();
    checksum = checksum * 31 + parent_count + parent_sum;
    r.parents_ns = ns_per(t0, t1, samples);
    r.avg_parents = static_cast<double>(parent_count) / static_cast<double>(samples);
    return r;
}

} // namespace

int cmd_bench(const Args& args) {
    std::string rules_name, seeds_text;
    uint64_t samples = 0, seed = 0;
    po::options_description opts("options");
    opts.add_options()("rules", po::value(&rules_name)->default_value("abapa"),
                       rules_help().c_str())(
        "seeds", po::value(&seeds_text)->default_value("24,40"),
        "seed counts n to measure, comma separated (positions of D_n)")(
        "samples", po::value(&samples)->default_value(1000000), "random positions per seed count")(
        "rng-seed", po::value(&seed)->default_value(1), "seed of the random sample");
    po::variables_map vm;
    if (!parse_args(
            args,
            "usage: owaredb bench [--rules R] [--seeds 24,40] [--samples N]\n"
            "Times unrank, next_in_level, rank, legal move generation and un-move generation\n"
            "(parents) on random positions of D_n, one thread, ns per call.",
            opts, {}, vm))
        return 0;
    const Rules rules = rules_from_name(rules_name);
    const std::vector<int> levels = parse_seed_list(seeds_text);
    if (samples < 1 || samples > 100'000'000)
        throw UsageError("--samples must be between 1 and 100000000");

    std::printf("owaredb bench: rules %s, %" PRIu64 " random positions per level, 1 thread\n",
                rules.name.c_str(), samples);
    std::printf("%4s %16s %10s %10s %10s %10s %10s %10s %8s %8s\n", "n", "|D_n|", "unrank ns",
                "(seq) ns", "next ns", "rank ns", "moves ns", "parents ns", "moves", "parents");
    uint64_t checksum = 0;
    for (int n : levels) {
        const LevelResult r = bench_level(rules, n, samples, seed, checksum);
        std::printf("%4d %16" PRIu64 " %10.1f %10.1f %10.1f %10.1f %10.1f %10.1f %8.2f %8.2f\n",
                    r.n, r.size, r.unrank_ns, r.unrank_seq_ns, r.next_ns, r.rank_ns, r.moves_ns,
                    r.parents_ns, r.avg_moves, r.avg_parents);
        std::fflush(stdout);
    }
    std::printf("unrank: random indices; (seq): consecutive indices; next: the same consecutive\n"
                "positions by next_in_level. moves, parents: average\n"
                "count per position. checksum %016" PRIx64 "\n",
                checksum);
    return 0;
}

} // namespace owaredb::cli
