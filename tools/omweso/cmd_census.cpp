// omweso census --seeds S: never-ending pure relays over every board of S seeds.
#include "commands.hpp"

#include "cli/json.hpp"
#include "omweso/census.hpp"

#include <chrono>
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <omp.h>
#include <sstream>
#include <unistd.h>

namespace owaredb::omweso::cli {

using owaredb::cli::Json;
using owaredb::cli::print_json_line;

namespace {

// Progress on stderr for runs longer than a second: a self-overwriting line on a terminal,
// otherwise one line every 10 seconds (so logs stay short).
class Progress {
  public:
    explicit Progress(int seeds) : seeds_(seeds), tty_(isatty(STDERR_FILENO) != 0) {}
    void operator()(std::uint64_t done, std::uint64_t all) {
        const double t = seconds();
        if (t < 1.0 || (done < all && t - last_ < (tty_ ? 0.5 : 10.0))) return;
        if (done == all && (!shown_ || closed_)) return; // short runs stay silent
        closed_ = done == all;
        last_ = t;
        shown_ = true;
        std::fprintf(stderr, "%scensus S=%d: %5.1f%% (%llu of %llu boards, %.0f boards/s)%s",
                     tty_ ? "\r" : "", seeds_, 100.0 * double(done) / double(all),
                     (unsigned long long)done, (unsigned long long)all, double(done) / t,
                     tty_ && done < all ? "" : "\n");
        std::fflush(stderr);
    }
    double seconds() const {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    }

  private:
    int seeds_;
    bool tty_;
    bool shown_ = false;
    bool closed_ = false; // the 100% line is out
    double last_ = 0;
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

// A conservative census rate, below what `omweso bench` and the census runs measure per
// thread (docs/results.md, Omweso): used only to say what a job will cost before it starts.
constexpr double kBoardsPerSecondPerThread = 5e6;

// "1.1e+16", "3.2", "250": three significant digits.
std::string approx(double x) {
    std::ostringstream o;
    o << std::setprecision(3) << x;
    return o.str();
}

} // namespace

int cmd_census(const Args& args) {
    std::string seeds_arg;
    int pits = 16, threads = 0;
    bool json = false;
    po::options_description opts("options");
    opts.add_options()("seeds", po::value(&seeds_arg), "seeds S (2..64) or a range A..B")(
        "pits", po::value(&pits)->default_value(16), "pits of the circuit (2..16)")(
        "json", po::bool_switch(&json), "one JSON object per line on stdout");
    owaredb::cli::add_threads_option(opts, threads, "OpenMP threads (0: all)");
    po::variables_map vm;
    if (!parse_args(
            args,
            "usage: omweso census --seeds S [--pits N] [--threads T] [--json]\n\n"
            "Relay-sows every distribution of S seeds on an N-pit circuit with at least 2 seeds\n"
            "in pit 0, from pit 0 with no captures, and counts the never-ending ones (exactly:\n"
            "each is proven by a repeated state) with the distribution of their periods in laps.\n"
            "--seeds also takes a range A..B (one result per S).\n",
            opts, {}, vm))
        return 0;
    if (seeds_arg.empty()) throw UsageError("census needs --seeds S");
    int lo = 0, hi = 0;
    {
        const auto dots = seeds_arg.find("..");
        try {
            std::size_t used = 0;
            const std::string a = seeds_arg.substr(0, dots);
            lo = std::stoi(a, &used);
            if (used != a.size()) throw std::invalid_argument("");
            hi = lo;
            if (dots != std::string::npos) {
                const std::string b = seeds_arg.substr(dots + 2);
                hi = std::stoi(b, &used);
                if (used != b.size()) throw std::invalid_argument("");
            }
        } catch (const std::exception&) {
            throw UsageError("--seeds must be a number or a range A..B, got '" + seeds_arg + "'");
        }
    }
    if (lo > hi)
        throw UsageError("--seeds " + seeds_arg + " is reversed: the range is A..B with A <= B");
    if (lo < 2 || hi > 64) throw UsageError("--seeds must lie in 2..64");
    if (pits < 2 || pits > 16) throw UsageError("--pits must be in 2..16");
    // What the job costs, said before it starts; a job of more than a month is refused.
    double boards = 0;
    for (int s = lo; s <= hi; ++s) boards += double(census_boards(s, pits));
    const double seconds = boards / (kBoardsPerSecondPerThread * threads);
    if (seconds > 30 * 86400.0)
        throw UsageError("--seeds " + seeds_arg + " means " + approx(boards) + " boards, about " +
                         approx(seconds / (365.25 * 86400)) + " years on " +
                         std::to_string(threads) + " threads: choose fewer seeds or pits");
    if (seconds > 600)
        std::cerr << "census: " << approx(boards) << " boards, roughly " << approx(seconds / 3600)
                  << " hours on " << threads << " threads\n";
    if (!json)
        std::cout << "seeds  pits        boards  never-ending  seconds  periods (laps: boards)\n";
    for (int s = lo; s <= hi; ++s) {
        Progress progress(s);
        const CensusResult r =
            census(s, pits, threads, [&](std::uint64_t d, std::uint64_t a) { progress(d, a); });
        const double secs = progress.seconds();
        if (json) {
            Json periods = Json::object();
            for (const auto& [p, k] : r.periods) periods[std::to_string(p)] = k;
            print_json_line({{"seeds", r.seeds},
                             {"pits", r.pits},
                             {"boards", r.boards},
                             {"never_ending", r.never_ending},
                             {"periods", std::move(periods)}});
        } else {
            std::cout << std::setw(5) << r.seeds << std::setw(6) << r.pits << std::setw(14)
                      << r.boards << std::setw(14) << r.never_ending << std::setw(9) << std::fixed
                      << std::setprecision(2) << secs << " ";
            for (const auto& [p, k] : r.periods) std::cout << ' ' << p << ':' << k;
            std::cout << std::endl;
        }
    }
    return 0;
}

} // namespace owaredb::omweso::cli
