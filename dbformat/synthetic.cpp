#include "dbformat/synthetic.hpp"

#include <cmath>

#include "dbformat/format.hpp"

namespace owaredb::db {

namespace {

struct SplitMix {
    uint64_t s;
    uint64_t next() {
        uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    double unit() { return double(next() >> 11) * 0x1.0p-53; }
};

// P(v) ~ decay^|v| over -n..n, sampled by inverting the cumulative table.
struct Geometric {
    std::vector<double> cdf;
    int n;
    Geometric(uint32_t seeds, double decay) : n(int(seeds)) {
        double total = 0;
        for (int v = -n; v <= n; ++v) cdf.push_back(total += std::pow(decay, std::abs(v)));
        for (double& c : cdf) c /= total;
    }
    int8_t draw(SplitMix& r) const {
        double u = r.unit();
        for (std::size_t i = 0; i < cdf.size(); ++i)
            if (u < cdf[i]) return int8_t(int(i) - n);
        return int8_t(n);
    }
};

} // namespace

std::vector<int8_t> synthetic_values(const SyntheticSpec& spec) {
    SplitMix rng{spec.seed};
    Geometric geo(spec.n, spec.decay);
    std::vector<int8_t> v(spec.entries);
    const int span = 2 * int(spec.n) + 1;
    std::vector<int8_t> pattern;
    if (spec.shape == SyntheticShape::Periodic)
        for (uint32_t i = 0; i < std::max<uint32_t>(1, spec.period); ++i)
            pattern.push_back(geo.draw(rng));
    int8_t prev = 0;
    for (uint64_t i = 0; i < spec.entries; ++i) {
        switch (spec.shape) {
        case SyntheticShape::Uniform:
            v[i] = int8_t(int(rng.next() % uint64_t(span)) - int(spec.n));
            break;
        case SyntheticShape::Markov:
            if (i == 0 || rng.unit() >= spec.stay) prev = geo.draw(rng);
            v[i] = prev;
            break;
        case SyntheticShape::Periodic:
            v[i] = rng.unit() < spec.stay ? pattern[i % pattern.size()] : geo.draw(rng);
            break;
        }
        if (spec.dont_care > 0 && rng.unit() < spec.dont_care) v[i] = kDontCare;
    }
    return v;
}

} // namespace owaredb::db
