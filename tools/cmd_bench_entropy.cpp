// owaredb bench-entropy: how many bits a level's values need, measured on the values.
//
// The file size of a level is bounded below by the entropy of what it stores given what
// the decoder knows. A block of a level file must decode on its own (random access, no
// other level needed), so the contexts a coder can use are the position itself and the
// values decoded before it in the same block. This command prints empirical conditional
// entropies over a whole level for the contexts that matter, next to the file's actual
// size, so a compression target can be checked against what the data allows:
//   H(V)                order 0, what frequency remapping alone could reach;
//   H(V | prev)         the previous value in index order as context;
//   H(R | class, prevR) after the capture transform: R = V - E where the position has a
//                       capture (E = best capture, which a prober recomputes from smaller
//                       levels), R = V where it has none; context = whether it has one
//                       and the previous R. This is about what an ideal adaptive coder
//                       reaches with the capture search and one value of context.
// Empirical entropies with many contexts slightly underestimate (the model is free).
#include "cli/options.hpp"
#include "commands.hpp"
#include "database_options.hpp"
#include "oware/moves.hpp"
#include "oware/ranking.hpp"
#include "tablebase/capture_bound.hpp"
#include "tablebase/database_dir.hpp"

#include <omp.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <vector>

namespace owaredb::cli {

namespace {

// Counts of (context, symbol) pairs for symbols that are bytes.
class ConditionalEntropy {
  public:
    explicit ConditionalEntropy(std::size_t contexts) : counts_(contexts * 256, 0) {}
    void add(std::size_t context, int8_t symbol) {
        ++counts_[context * 256 + static_cast<uint8_t>(symbol)];
    }
    // Bits per symbol: sum over contexts of -sum c log2(c / context total), / total.
    double bits() const {
        double sum = 0;
        uint64_t all = 0;
        for (std::size_t ctx = 0; ctx < counts_.size() / 256; ++ctx) {
            uint64_t in_ctx = 0;
            for (int s = 0; s < 256; ++s) in_ctx += counts_[ctx * 256 + s];
            for (int s = 0; s < 256; ++s)
                if (uint64_t c = counts_[ctx * 256 + s])
                    sum -= double(c) * std::log2(double(c) / double(in_ctx));
            all += in_ctx;
        }
        return all ? sum / double(all) : 0;
    }

  private:
    std::vector<uint64_t> counts_;
};

enum Class : uint8_t { kNoCaptureMove = 0, kHasCapture = 1, kGameOver = 2 };

} // namespace

int cmd_bench_entropy(const Args& args) {
    DatabaseOptions options;
    int level = 0, threads = 0;
    po::options_description opts("options");
    add_database_options(opts, options);
    opts.add_options()("level", po::value(&level)->default_value(16),
                       "level to measure (0..level must exist)");
    add_threads_option(opts, threads);
    po::variables_map vm;
    if (!parse_args(args, "usage: owaredb bench-entropy [--dir DIR] [--rules R] [--level N]", opts,
                    {}, vm))
        return 0;
    if (level < 0 || level > kMaxSeeds) throw UsageError("--level must be 0..48");
    require_directory(options.dir, "(see owaredb generate)");
    const DatabaseDir db(options.dir, resolve_rules(options), false, kPitsPerSide);
    const OwareGame game(db.rules());
    std::vector<ValueArray> levels;
    for (int n = 0; n <= level; ++n) {
        ValueArray values;
        if (db::Status s = db.load(n, values, threads, levels); !s.ok())
            throw std::runtime_error(s.message());
        levels.push_back(std::move(values));
    }
    const ValueArray& v = levels[level];
    const int64_t size = static_cast<int64_t>(v.size());

    // Per position: its class and R (V - E with a capture, V otherwise).
    std::vector<uint8_t> cls(v.size());
    std::vector<int8_t> residual(v.size());
    uint64_t capture_recovers = 0;
#pragma omp parallel for schedule(dynamic, 1 << 14) num_threads(threads) \
    reduction(+ : capture_recovers)
    for (int64_t i = 0; i < size; ++i) {
        const Position p = unrank<6>(level, uint64_t(i));
        const MoveList moves = legal_moves(db.rules(), p);
        int e = best_capture_value(
            game, p, [&](int k, const Position& c) { return int(levels[k][rank(c)]); });
        cls[i] = moves.empty() ? kGameOver : e == kNoMove ? kNoCaptureMove : kHasCapture;
        residual[i] = static_cast<int8_t>(cls[i] == kHasCapture ? v[i] - e : v[i]);
        capture_recovers += cls[i] == kHasCapture && v[i] == e;
    }

    ConditionalEntropy order0(1), by_prev(256), by_class_prev(3 * 256);
    ConditionalEntropy no_capture(256), with_capture(256);
    uint64_t counts[3] = {0, 0, 0};
    for (int64_t i = 0; i < size; ++i) {
        const uint8_t prev = i ? static_cast<uint8_t>(v[i - 1]) : 0;
        const uint8_t prev_r = i ? static_cast<uint8_t>(residual[i - 1]) : 0;
        order0.add(0, v[i]);
        by_prev.add(prev, v[i]);
        by_class_prev.add(cls[i] * 256 + prev_r, residual[i]);
        if (cls[i] == kNoCaptureMove) no_capture.add(prev_r, residual[i]);
        if (cls[i] == kHasCapture) with_capture.add(prev_r, residual[i]);
        ++counts[cls[i]];
    }
    const double total = double(size ? size : 1);
    std::printf("level %d of %s: %lld positions\n", level, db.rules().name.c_str(),
                (long long)size);
    std::printf(
        "  no capture move %.1f %%, a capture move %.1f %% (worth exactly its best capture: "
        "%.1f %% of all), game over %.2f %%\n",
        100 * counts[kNoCaptureMove] / total, 100 * counts[kHasCapture] / total,
        100 * capture_recovers / total, 100 * counts[kGameOver] / total);
    std::printf("  H(V)                %.3f bits/position\n", order0.bits());
    std::printf("  H(V | prev)         %.3f\n", by_prev.bits());
    std::printf("  H(R | class, prevR) %.3f  (no capture move: %.3f bits each, a capture "
                "move: %.3f bits each)\n",
                by_class_prev.bits(), no_capture.bits(), with_capture.bits());
    std::error_code ec;
    const auto bytes = std::filesystem::file_size(db.path(level), ec);
    if (!ec && size)
        std::printf("  file                %.3f bits/position (%s)\n", 8.0 * double(bytes) / total,
                    db.path(level).c_str());
    return 0;
}

} // namespace owaredb::cli
