// owaredb probe: the value of a position, of each of its moves, the best moves and
// optionally the line of perfect play; one position from the command line or, with
// --batch, one per line of standard input.
#include "owaredb/probe.hpp"
#include "solver/position.hpp"
#include "tools/command.hpp"
#include "tools/options.hpp"

#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <sstream>

namespace owaredb::cli {

namespace {

using namespace std::string_view_literals;

std::string json_escape(const std::string& s) {
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

// JSON is built by appending to one string: the batch mode formats hundreds of thousands
// of answers per second, where a stringstream per answer dominated the cost.
void append_int(std::string& o, int v) {
    char buf[16];
    auto [p, ec] = std::to_chars(buf, buf + sizeof buf, v);
    o.append(buf, p);
}

void append_pits(std::string& o, const Pits& pits) {
    for (size_t i = 0; i < pits.size(); ++i) {
        if (i) o += ' ';
        append_int(o, pits[i]);
    }
}

std::string json_result(const std::string& rules, const Pits& pits, const PositionInfo& info,
                        const PrincipalVariation* pv) {
    std::string o;
    o.reserve(320);
    o += "{\"rules\":\""sv;
    o += rules;
    o += "\",\"position\":\""sv;
    append_pits(o, pits);
    o += "\",\"seeds\":"sv;
    append_int(o, info.seeds);
    o += ",\"value\":"sv;
    append_int(o, info.value);
    o += ",\"moves\":["sv;
    for (size_t i = 0; i < info.moves.size(); ++i) {
        const MoveInfo& m = info.moves[i];
        o += i ? ",{\"move\":"sv : "{\"move\":"sv;
        append_int(o, m.pit);
        o += ",\"captured\":"sv;
        append_int(o, m.captured);
        o += ",\"value\":"sv;
        append_int(o, m.value);
        o += '}';
    }
    o += "],\"best\":["sv;
    for (size_t i = 0; i < info.best.size(); ++i) {
        if (i) o += ',';
        append_int(o, info.best[i]);
    }
    o += ']';
    if (info.terminal) o += ",\"terminal\":true"sv;
    if (pv) {
        o += ",\"pv\":["sv;
        for (size_t i = 0; i < pv->steps.size(); ++i) {
            const PvStep& s = pv->steps[i];
            o += i ? ",{\"position\":\""sv : "{\"position\":\""sv;
            append_pits(o, s.position);
            o += "\",\"move\":"sv;
            append_int(o, s.pit);
            o += ",\"captured\":"sv;
            append_int(o, s.captured);
            o += ",\"value\":"sv;
            append_int(o, s.value);
            o += '}';
        }
        o += "],\"pv_end\":\""sv;
        o += pv->end;
        o += "\",\"final_position\":\""sv;
        append_pits(o, pv->final_position);
        o += '"';
    }
    o += '}';
    return o;
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
        o << "  end: " << pv->end << " at [" << pits_text(pv->final_position) << "]\n";
    }
    return o.str();
}

// One query: the result line(s), or an error message. Returns false on error.
bool answer(const Tablebase& tb, const std::string& text, bool json, bool want_pv,
            std::string& out) {
    ParseResult parsed = parse_position(text);
    if (!parsed.ok) {
        out = "invalid position: " + parsed.error;
        return false;
    }
    const Pits& pits = parsed.position.pits;
    ProbeResult<PositionInfo> info = tb.analyse(pits);
    if (!info) {
        out = std::string(to_string(info.status())) + ": " + info.message();
        return false;
    }
    std::optional<ProbeResult<PrincipalVariation>> pv;
    if (want_pv) {
        pv = tb.principal_variation(pits);
        if (!*pv) {
            out = std::string(to_string(pv->status())) + ": " + pv->message();
            return false;
        }
    }
    const PrincipalVariation* line = pv ? &pv->value() : nullptr;
    out = json ? json_result(tb.rules(), pits, *info, line) : text_result(pits, *info, line);
    return true;
}

int run_batch(const Tablebase& tb, bool json, bool want_pv) {
    // Input is read in chunks with read(2); every complete line of a chunk is answered and
    // the answers are written and flushed before the next read may block. A program that
    // writes one line and waits gets its answer at once; a piped file streams in 64 KiB
    // chunks.
    std::string pending, answers, out;
    std::vector<char> chunk(1 << 16);
    uint64_t number = 0, errors = 0;
    auto handle = [&](std::string_view line) {
        ++number;
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        const std::string text(line);
        if (answer(tb, text, json, want_pv, out)) {
            answers += out;
        } else {
            ++errors;
            if (json) {
                answers += "{\"line\":" + std::to_string(number) + ",\"input\":\"" +
                           json_escape(text) + "\",\"error\":\"" + json_escape(out) + "\"}";
            } else {
                answers += "line " + std::to_string(number) + ": error: " + out;
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
    std::string out;
    if (!answer(tb, position_text, json, pv, out)) throw std::runtime_error(out);
    std::cout << out << (json ? "\n" : "");
    return 0;
}

} // namespace owaredb::cli
