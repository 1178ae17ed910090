#include "omweso/census.hpp"
#include "retro/binomial.hpp"

#include "omweso/relay.hpp"
#include "omweso/team.hpp"

#include <atomic>
#include <bit>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace owaredb::omweso {

static_assert(std::endian::native == std::endian::little, "Packed boards assume byte k = pit k");

std::uint64_t census_boards(int seeds, int pits) {
    if (seeds < 2) return 0;
    // Two seeds are fixed in pit 0; the rest are spread over the pits in every way.
    return binomial(seeds - 2 + pits - 1, pits - 1);
}

namespace {

// A unit of parallel work: the counts of the first `prefix` pits are fixed; the rest of the
// seeds are spread over the remaining pits in every way.
struct Item {
    std::uint8_t head[3];
    int rest;
};

struct Tally {
    std::uint64_t never_ending = 0, laps = 0;
    std::map<std::uint64_t, std::uint64_t> periods;
};

// Relays every board of one item. The compositions of `rest` seeds over pits
// prefix..N-1 are visited in colexicographic order: find the first non-zero count below
// the last pit, move one seed from it to the next pit and the rest of it back to the first.
void run_item(const RelayCircuit& c, const Item& it, int prefix, Tally& t) {
    const int n = c.pits();
    std::uint8_t b[16] = {};
    for (int k = 0; k < prefix; ++k) b[k] = it.head[k];
    b[0] += 2;
    std::uint8_t* x = b + prefix;
    const int m = n - prefix;
    x[0] = std::uint8_t(it.rest);
    RelayOptions opt;
    opt.full_proof = false;
    for (;;) {
        Packed board;
        std::memcpy(&board, b, sizeof board);
        const RelayResult r = relay(c, board, 0, opt);
        if (r.ends) {
            t.laps += r.laps;
        } else {
            ++t.never_ending;
            ++t.periods[r.cycle->period_laps];
            t.laps += r.cycle->entry_lap;
        }
        int i = 0;
        while (i < m - 1 && x[i] == 0) ++i;
        if (i == m - 1) break;
        const std::uint8_t v = x[i];
        x[i] = 0;
        ++x[i + 1];
        x[0] = std::uint8_t(v - 1);
    }
}

} // namespace

CensusResult census(int seeds, int pits, int threads, const CensusProgress& progress) {
    if (pits < 2 || pits > 16) throw std::invalid_argument("--pits must be in 2..16");
    if (seeds < 2 || seeds > 64) throw std::invalid_argument("--seeds must be in 2..64");
    if (threads < 1)
        throw std::invalid_argument("census: threads must be at least 1, got " +
                                    std::to_string(threads));
    const RelayCircuit circuit(pits);
    const int extra = seeds - 2;
    const int prefix = pits > 3 ? 3 : pits - 1;

    // Work items: every split of the extra seeds between the first `prefix` pits and the rest.
    std::vector<Item> items;
    std::vector<std::uint64_t> item_boards;
    for (int a = 0; a <= extra; ++a)
        for (int b = 0; b <= (prefix > 1 ? extra - a : 0); ++b)
            for (int d = 0; d <= (prefix > 2 ? extra - a - b : 0); ++d) {
                const int rest = extra - a - b - d;
                items.push_back({{std::uint8_t(a), std::uint8_t(b), std::uint8_t(d)}, rest});
                item_boards.push_back(census_boards(rest + 2, pits - prefix));
            }

    const std::uint64_t all = census_boards(seeds, pits);
    std::vector<Tally> tallies(static_cast<std::size_t>(threads));
    std::atomic<std::size_t> next{0};
    std::atomic<std::uint64_t> done{0};
    // Each thread takes the next item, keeps its own tally, and reports progress from thread
    // 0 only (the callback need not be thread-safe).
    run_team(threads, [&](int tid) {
        Tally& mine = tallies[std::size_t(tid)];
        for (std::size_t i; (i = next.fetch_add(1, std::memory_order_relaxed)) < items.size();) {
            run_item(circuit, items[i], prefix, mine);
            const std::uint64_t d =
                done.fetch_add(item_boards[i], std::memory_order_relaxed) + item_boards[i];
            if (tid == 0 && progress) progress(d, all);
        }
    });

    CensusResult res;
    res.seeds = seeds;
    res.pits = pits;
    res.boards = all;
    for (const Tally& t : tallies) {
        res.never_ending += t.never_ending;
        res.laps += t.laps;
        for (const auto& [p, k] : t.periods) res.periods[p] += k;
    }
    if (progress) progress(all, all);
    return res;
}

} // namespace owaredb::omweso
