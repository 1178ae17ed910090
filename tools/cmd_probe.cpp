// owaredb probe: the value of a position, of each of its moves, the best moves and
// optionally the line of perfect play; one position from the command line or, with
// --batch, one per line of standard input.
#include "owaredb/probe.hpp"
#include "oware/position.hpp"
#include "commands.hpp"
#include "cli/options.hpp"

#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <sstream>

namespace owaredb::cli {

namespace {

std::string json_escape(std::string_view s) {
    std::string out;
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        if (static_cast<unsigned char>(c) < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", c);
            out += buf;
            continue;
        }
        out += c;
    }
    return out;
}

std::string pits_text(const Pits& p) {
    Position pos;
    pos.pits = p;
    return to_string(pos);
}

// JSON answers are written through a raw pointer into room reserved in the output string
// beforehand: the batch mode formats hundreds of thousands of answers per second, and
// appending piece by piece (std::to_chars, a capacity check and a length update for each
// of the ~40 numbers of an answer) took 15-20 % of its time.
constexpr std::size_t kIntChars = 11; // "-2147483648"

char* put_int(char* p, int v) {
    // Every number of an answer is a seed count, pit or value: |v| <= 48.
    if (v > -100 && v < 100) {
        if (v < 0) {
            *p++ = '-';
            v = -v;
        }
        if (v >= 10) *p++ = static_cast<char>('0' + v / 10);
        *p++ = static_cast<char>('0' + v % 10);
        return p;
    }
    return std::to_chars(p, p + kIntChars, v).ptr;
}

template <std::size_t N> char* put(char* p, const char (&literal)[N]) {
    std::memcpy(p, literal, N - 1);
    return p + N - 1;
}

char* put(char* p, std::string_view s) {
    std::memcpy(p, s.data(), s.size());
    return p + s.size();
}

constexpr std::size_t kPitsChars = 12 * (kIntChars + 1);

char* put_pits(char* p, const Pits& pits) {
    for (size_t i = 0; i < pits.size(); ++i) {
        if (i) *p++ = ' ';
        p = put_int(p, pits[i]);
    }
    return p;
}

// `"move":M,"captured":C,"value":V}`: the fields a move and a line's step share.
char* put_move_fields(char* p, int pit, int captured, int value) {
    p = put(p, "\"move\":");
    p = put_int(p, pit);
    p = put(p, ",\"captured\":");
    p = put_int(p, captured);
    p = put(p, ",\"value\":");
    p = put_int(p, value);
    *p++ = '}';
    return p;
}

// Appends the JSON answer to `o`.
void append_json(std::string& o, const std::string& rules, const Pits& pits,
                 const PositionInfo& info, const PrincipalVariation* pv) {
    // An upper bound of the answer's length: the keys and punctuation of the answer take
    // at most 96 characters (81), of a move 32 (31), of the line's ends 48 (40), of one of
    // its steps 48 (46); every number at most kIntChars.
    std::size_t bound = 96 + rules.size() + kPitsChars + 2 * kIntChars +
                        info.moves.size() * (32 + 3 * kIntChars) +
                        info.best.size() * (1 + kIntChars);
    if (pv)
        bound +=
            48 + std::strlen(to_string(pv->end)) + kPitsChars + pv->steps.size() * (48 + kPitsChars + 3 * kIntChars);
    const std::size_t start = o.size();
    o.resize(start + bound);
    char* const begin = o.data() + start;
    char* p = begin;
    p = put(p, "{\"rules\":\"");
    p = put(p, rules);
    p = put(p, "\",\"position\":\"");
    p = put_pits(p, pits);
    p = put(p, "\",\"seeds\":");
    p = put_int(p, info.seeds);
    p = put(p, ",\"value\":");
    p = put_int(p, info.value);
    p = put(p, ",\"moves\":[");
    for (size_t i = 0; i < info.moves.size(); ++i) {
        const MoveInfo& m = info.moves[i];
        if (i) *p++ = ',';
        p = put(p, "{");
        p = put_move_fields(p, m.pit, m.captured, m.value);
    }
    p = put(p, "],\"best\":[");
    for (size_t i = 0; i < info.best.size(); ++i) {
        if (i) *p++ = ',';
        p = put_int(p, info.best[i]);
    }
    *p++ = ']';
    if (info.terminal) p = put(p, ",\"terminal\":true");
    if (pv) {
        p = put(p, ",\"pv\":[");
        for (size_t i = 0; i < pv->steps.size(); ++i) {
            const PvStep& s = pv->steps[i];
            if (i) *p++ = ',';
            p = put(p, "{\"position\":\"");
            p = put_pits(p, s.position);
            p = put(p, "\",");
            p = put_move_fields(p, s.pit, s.captured, s.value);
        }
        p = put(p, "],\"pv_end\":\"");
        p = put(p, std::string_view(to_string(pv->end)));
        p = put(p, "\",\"final_position\":\"");
        p = put_pits(p, pv->final_position);
        *p++ = '"';
    }
    *p++ = '}';
    o.resize(start + static_cast<std::size_t>(p - begin));
}

std::string text_result(const Pits& pits, const PositionInfo& info, const PrincipalVariation* pv) {
    Position pos;
    pos.pits = pits;
    std::ostringstream o;
    o << to_board(pos) << "seeds " << info.seeds << ", value " << std::showpos << info.value
      << std::noshowpos << " for the side to move\n";
    if (info.terminal) {
        o << "no legal move: the game is over\n";
        return o.str();
    }
    o << "moves (value for the mover = captured - value of the child):\n";
    for (const MoveInfo& m : info.moves)
        o << "  " << m.pit << ": captures " << m.captured << ", value " << std::showpos << m.value
          << std::noshowpos << "\n";
    o << "best:";
    for (int b : info.best) o << " " << b;
    o << "\n";
    if (pv) {
        o << "principal variation:\n";
        for (size_t i = 0; i < pv->steps.size(); ++i) {
            const PvStep& s = pv->steps[i];
            o << "  " << i + 1 << ". [" << pits_text(s.position) << "] value " << std::showpos
              << s.value << std::noshowpos << ": move " << s.pit;
            if (s.captured) o << " captures " << s.captured;
            o << "\n";
        }
        o << "  end: " << to_string(pv->end) << " at [" << pits_text(pv->final_position) << "]\n";
    }
    return o.str();
}

// One query: appends the result line(s) to `out` and returns true, or sets `error`.
bool answer(const Tablebase& tb, std::string_view text, bool json, bool want_pv, std::string& out,
            std::string& error) {
    ParseResult parsed = parse_position(text);
    if (!parsed.ok) {
        error = "invalid position: " + parsed.error;
        return false;
    }
    const Pits& pits = parsed.position.pits;
    ProbeResult<PositionInfo> info = tb.analyse(pits);
    if (!info) {
        error = std::string(to_string(info.status())) + ": " + info.message();
        return false;
    }
    std::optional<ProbeResult<PrincipalVariation>> pv;
    if (want_pv) {
        pv = tb.principal_variation(pits);
        if (!*pv) {
            error = std::string(to_string(pv->status())) + ": " + pv->message();
            return false;
        }
    }
    const PrincipalVariation* line = pv ? &pv->value() : nullptr;
    if (json)
        append_json(out, tb.rules(), pits, *info, line);
    else
        out += text_result(pits, *info, line);
    return true;
}

int run_batch(const Tablebase& tb, bool json, bool want_pv) {
    // Input is read in chunks with read(2); every complete line of a chunk is answered and
    // the answers are written and flushed before the next read may block. A program that
    // writes one line and waits gets its answer at once; a piped file streams in 64 KiB
    // chunks.
    std::string pending, answers, error;
    std::vector<char> chunk(1 << 16);
    uint64_t number = 0, errors = 0;
    auto handle = [&](std::string_view line) {
        ++number;
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (!answer(tb, line, json, want_pv, answers, error)) {
            ++errors;
            if (json) {
                answers += "{\"line\":" + std::to_string(number) + ",\"input\":\"" +
                           json_escape(line) + "\",\"error\":\"" + json_escape(error) + "\"}";
            } else {
                answers += "line " + std::to_string(number) + ": error: " + error;
            }
        }
        answers += '\n';
    };
    auto flush = [&] {
        if (!answers.empty() &&
            std::fwrite(answers.data(), 1, answers.size(), stdout) != answers.size())
            throw std::runtime_error(std::string("cannot write the answers: ") +
                                     std::strerror(errno));
        std::fflush(stdout);
        answers.clear();
    };
    while (true) {
        ssize_t got = ::read(STDIN_FILENO, chunk.data(), chunk.size());
        if (got < 0 && errno == EINTR) continue;
        if (got < 0)
            throw std::runtime_error(std::string("cannot read standard input: ") +
                                     std::strerror(errno));
        if (got == 0) break;
        pending.append(chunk.data(), static_cast<size_t>(got));
        size_t start = 0;
        for (size_t nl; (nl = pending.find('\n', start)) != std::string::npos; start = nl + 1)
            handle(std::string_view(pending).substr(start, nl - start));
        pending.erase(0, start);
        flush();
    }
    if (!pending.empty()) handle(pending);
    flush();
    return errors ? 1 : 0;
}

} // namespace

int cmd_probe(const Args& args) {
    std::string rules_name, dir, position_text;
    bool json = false, pv = false, batch = false;
    size_t cache_mb = 256;
    po::options_description opts("options");
    opts.add_options()("dir", po::value(&dir)->default_value("owaredb-data"), "database directory")(
        "rules", po::value(&rules_name)->default_value("abapa"), "rule set: abapa|awari")(
        "json", po::bool_switch(&json), "print JSON (JSON Lines with --batch)")(
        "pv", po::bool_switch(&pv), "also print the line of perfect play to the end")(
        "batch", po::bool_switch(&batch), "read positions from standard input, one per line")(
        "cache-mb", po::value(&cache_mb)->default_value(256), "block cache size in MiB")(
        "position", po::value(&position_text), "12 pit counts, side to move first");
    po::positional_options_description pos;
    pos.add("position", 1);
    po::variables_map vm;
    if (!parse_args(args,
                    "usage: owaredb probe [--dir DIR] [--rules R] [--json] [--pv] \"<position>\"\n"
                    "       owaredb probe --batch [--json] < positions.txt",
                    opts, pos, vm))
        return 0;
    rules_from_name(rules_name); // validates the name with a clear message
    if (!std::filesystem::is_directory(dir))
        throw UsageError("no database directory '" + dir + "' (see owaredb generate)");
    TablebaseOptions options;
    options.cache_bytes = cache_mb << 20;
    Tablebase tb(dir, rules_name, options);
    if (batch) {
        if (vm.count("position")) throw UsageError("--batch reads positions from standard input");
        return run_batch(tb, json, pv);
    }
    if (!vm.count("position")) throw UsageError("missing the position (12 pit counts)");
    std::string out, error;
    if (!answer(tb, position_text, json, pv, out, error)) throw std::runtime_error(error);
    std::cout << out << (json ? "\n" : "");
    return 0;
}

} // namespace owaredb::cli
