#include "oware/position.hpp"

#include <charconv>
#include <cstdio>
#include <stdexcept>

namespace owaredb {

template <int P> int BasicPosition<P>::mover_seeds() const {
    int s = 0;
    for (int i = 0; i < kPitsPerSide; ++i) s += pits[i];
    return s;
}

template <int P> int BasicPosition<P>::opponent_seeds() const {
    int s = 0;
    for (int i = kPitsPerSide; i < kPits; ++i) s += pits[i];
    return s;
}

template <int P> int BasicPosition<P>::seeds() const {
    return mover_seeds() + opponent_seeds();
}

template <int P> bool BasicPosition<P>::in_database() const {
    for (int i = kPitsPerSide; i < kPits; ++i)
        if (pits[i] == 0) return true;
    return false;
}

template <int P> BasicPosition<P> BasicPosition<P>::rotated() const {
    BasicPosition r;
    for (int i = 0; i < kPits; ++i) r.pits[i] = pits[(i + kPitsPerSide) % kPits];
    return r;
}

template <int P> BasicPosition<P> BasicPosition<P>::start(int seeds_per_pit) {
    BasicPosition p;
    p.pits.fill(static_cast<uint8_t>(seeds_per_pit));
    return p;
}

namespace {

// "pit 3 (the 4th number)": pits are numbered 0..2P-1 as in the docs; people count the
// numbers they typed from 1.
std::string pit_name(int index) {
    const int k = index + 1;
    const char* suffix = k == 1 ? "st" : k == 2 ? "nd" : k == 3 ? "rd" : "th";
    return "pit " + std::to_string(index) + " (the " + std::to_string(k) + suffix + " number)";
}

// The common form, what to_string writes and batch files hold: 2P counts of one or two
// digits separated by single spaces, at most kMaxSeedsOnBoard<P> seeds. Read in one pass without
// the general parser's token handling (probe --batch parses hundreds of thousands of lines a
// second). Returns false for anything else, valid or not: the general parser then reads
// it, so results and messages do not depend on this function.
template <int P> bool parse_common(std::string_view text, BasicPosition<P>& out) {
    constexpr int kPits = 2 * P;
    const char* p = text.data();
    const char* const end = p + text.size();
    int total = 0;
    for (int k = 0; k < kPits; ++k) {
        if (k > 0) {
            if (p == end || *p != ' ') return false;
            ++p;
        }
        if (p == end) return false;
        unsigned v = static_cast<unsigned char>(*p) - unsigned{'0'};
        if (v > 9) return false;
        ++p;
        if (p != end) {
            const unsigned d = static_cast<unsigned char>(*p) - unsigned{'0'};
            if (d <= 9) {
                v = v * 10 + d;
                ++p;
            }
        }
        if (v > kMaxSeedsOnBoard<P>) return false;
        total += static_cast<int>(v);
        out.pits[k] = static_cast<uint8_t>(v);
    }
    return p == end && total <= kMaxSeedsOnBoard<P>;
}

} // namespace

template <int P> BasicParseResult<P> parse_position(std::string_view text) {
    constexpr int kPits = 2 * P;
    constexpr int kMost = kMaxSeedsOnBoard<P>;
    BasicParseResult<P> res;
    if (BasicPosition<P> p; parse_common(text, p)) {
        res.ok = true;
        res.position = p;
        return res;
    }
    // For messages only (the common form above returns without them).
    const std::string pits = std::to_string(kPits);
    const std::string numbers =
        " (a position is " + pits + " numbers, pits 0.." + std::to_string(kPits - 1) + ")";
    auto fail = [&](std::string msg) {
        res.ok = false;
        res.error = std::move(msg);
        return res;
    };
    int count = 0;
    int total = 0;
    size_t i = 0;
    auto is_sep = [](char c) {
        return c == ' ' || c == ',' || c == '\t' || c == '\n' || c == '\r';
    };
    while (true) {
        while (i < text.size() && is_sep(text[i])) ++i;
        if (i >= text.size()) break;
        size_t j = i;
        while (j < text.size() && !is_sep(text[j])) ++j;
        std::string_view tok = text.substr(i, j - i);
        if (tok[0] == '-')
            return fail(pit_name(count) + " is negative ('" + std::string(tok) + "')");
        unsigned long v = 0;
        auto [ptr, ec] = std::from_chars(tok.data(), tok.data() + tok.size(), v);
        if (ec != std::errc() || ptr != tok.data() + tok.size())
            return fail("'" + std::string(tok) + "' in " + pit_name(count) +
                        " is not a seed count");
        if (count == kPits) return fail("more than " + pits + " pit counts" + numbers);
        if (v > kMost)
            return fail(pit_name(count) + " holds " + std::string(tok) + " seeds, more than the " +
                        std::to_string(kMost) + " in the game");
        total += static_cast<int>(v);
        res.position.pits[count++] = static_cast<uint8_t>(v);
        i = j;
    }
    if (count != kPits)
        return fail("expected " + pits + " pit counts, got " + std::to_string(count) + numbers);
    if (total > kMost)
        return fail("the position holds " + std::to_string(total) + " seeds, more than " +
                    std::to_string(kMost));
    res.ok = true;
    return res;
}

template <int P> BasicPosition<P> parse_position_or_throw(std::string_view text) {
    BasicParseResult<P> r = parse_position<P>(text);
    if (!r.ok) throw std::invalid_argument("invalid position: " + r.error);
    return r.position;
}

template <int P> std::string to_string(const BasicPosition<P>& p) {
    std::string s;
    for (int i = 0; i < BasicPosition<P>::kPits; ++i) {
        if (i) s += ' ';
        s += std::to_string(p.pits[i]);
    }
    return s;
}

template <int P> std::string to_board(const BasicPosition<P>& p) {
    char buf[128];
    std::string s = "  opponent  ";
    for (int i = 2 * P - 1; i >= P; --i) {
        std::snprintf(buf, sizeof buf, "%3d", p.pits[i]);
        s += buf;
    }
    s += "\n  to move   ";
    for (int i = 0; i < P; ++i) {
        std::snprintf(buf, sizeof buf, "%3d", p.pits[i]);
        s += buf;
    }
    s += "\n  move      ";
    for (int i = 1; i <= P; ++i) {
        std::snprintf(buf, sizeof buf, "%3d", i);
        s += buf;
    }
    return s + "\n";
}

#define OWAREDB_INSTANTIATE(P)                                                                     \
    template struct BasicPosition<P>;                                                              \
    template std::string to_string(const BasicPosition<P>&);                                       \
    template BasicParseResult<P> parse_position<P>(std::string_view);                              \
    template BasicPosition<P> parse_position_or_throw<P>(std::string_view);                        \
    template std::string to_board(const BasicPosition<P>&);
OWAREDB_FOR_EACH_PITS_PER_SIDE(OWAREDB_INSTANTIATE)
#undef OWAREDB_INSTANTIATE

} // namespace owaredb
