// owaredb probe: the value of a position, of each of its moves, the best moves and
// optionally the line of perfect play; one position from the command line or, with
// --batch, one per line of standard input.
#include "owaredb/probe.hpp"
#include "solver/position.hpp"
#include "tools/command.hpp"
#include "tools/options.hpp"

#include <cstdio>
#include <iostream>
#include <sstream>

namespace owaredb::cli {

namespace {

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

std::string json_result(const std::string& rules, const Pits& pits, const PositionInfo& info,
                        const PrincipalVariation* pv) {
    std::ostringstream o;
    o << "{\"rules\":\"" << rules << "\",\"position\":\"" << pits_text(pits)
      << "\",\"seeds\":" << info.seeds << ",\"value\":" << info.value << ",\"moves\":[";
    for (size_t i = 0; i < info.moves.size(); ++i) {
        const MoveInfo& m = info.moves[i];
        o << (i ? "," : "") << "{\"move\":" << m.pit << ",\"captured\":" << m.captured
          << ",\"value\":" << m.value << "}";
    }
    o << "],\"best\":[";
    for (size_t i = 0; i < info.best.size(); ++i) o << (i ? "," : "") << info.best[i];
    o << "]";
    if (info.terminal) o << ",\"terminal\":true";
    if (pv) {
        o << ",\"pv\":[";
        for (size_t i = 0; i < pv->steps.size(); ++i) {
            const PvStep& s = pv->steps[i];
            o << (i ? "," : "") << "{\"position\":\"" << pits_text(s.position)
              << "\",\"move\":" << s.pit << ",\"captured\":" << s.captured
              << ",\"value\":" << s.value << "}";
        }
        o << "],\"pv_end\":\"" << pv->end << "\",\"final_position\":\""
          << pits_text(pv->final_position) << "\"";
    }
    o << "}";
    return o.str();
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
    std::ios::sync_with_stdio(false);
    std::string line, out;
    uint64_t number = 0, errors = 0;
    while (std::getline(std::cin, line)) {
        ++number;
        if (answer(tb, line, json, want_pv, out)) {
            std::cout << out << "\n";
        } else {
            ++errors;
            if (json)
                std::cout << "{\"line\":" << number << ",\"input\":\"" << json_escape(line)
                          << "\",\"error\":\"" << json_escape(out) << "\"}\n";
            else
                std::cout << "line " << number << ": error: " << out << "\n";
        }
        // Flush whenever no more input is already buffered, so a program that writes one
        // line and waits for its answer gets it, while piped files stream at full speed.
        if (std::cin.rdbuf()->in_avail() <= 0) std::cout.flush();
    }
    std::cout.flush();
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
