#include "probe_format.hpp"

#include "cli/json.hpp"
#include "oware/position.hpp"

#include <cstring>
#include <optional>
#include <sstream>

namespace owaredb::cli {

namespace {

using json::kIntChars;
using json::put;
using json::put_int;

std::string pits_text(const Pits& p) {
    Position pos;
    pos.pits = p;
    return to_string(pos);
}

constexpr std::size_t kPitsChars = 12 * (kIntChars + 1);

char* put_pits(char* p, const Pits& pits) {
    for (std::size_t i = 0; i < pits.size(); ++i) {
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

} // namespace

void append_answer_json(std::string& out, std::string_view rules, const Pits& pits,
                        const PositionInfo& info, const PrincipalVariation* pv) {
    // An upper bound of the answer's length: the keys and punctuation of the answer take
    // at most 96 characters (81), of a move 32 (31), of the line's ends 48 (40), of one of
    // its steps 48 (46); every number at most kIntChars.
    std::size_t bound = 96 + rules.size() + kPitsChars + 2 * kIntChars +
                        info.moves.size() * (32 + 3 * kIntChars) +
                        info.best.size() * (1 + kIntChars);
    if (pv)
        bound += 48 + std::strlen(to_string(pv->end)) + kPitsChars +
                 pv->steps.size() * (48 + kPitsChars + 3 * kIntChars);
    char* p = json::reserve(out, bound);
    p = put(p, "{\"rules\":\"");
    p = put(p, rules);
    p = put(p, "\",\"position\":\"");
    p = put_pits(p, pits);
    p = put(p, "\",\"seeds\":");
    p = put_int(p, info.seeds);
    p = put(p, ",\"value\":");
    p = put_int(p, info.value);
    p = put(p, ",\"moves\":[");
    for (std::size_t i = 0; i < info.moves.size(); ++i) {
        const MoveInfo& m = info.moves[i];
        if (i) *p++ = ',';
        *p++ = '{';
        p = put_move_fields(p, m.pit, m.captured, m.value);
    }
    p = put(p, "],\"best\":[");
    for (std::size_t i = 0; i < info.best.size(); ++i) {
        if (i) *p++ = ',';
        p = put_int(p, info.best[i]);
    }
    *p++ = ']';
    if (info.terminal) p = put(p, ",\"terminal\":true");
    if (pv) {
        p = put(p, ",\"pv\":[");
        for (std::size_t i = 0; i < pv->steps.size(); ++i) {
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
    json::commit(out, p);
}

void append_answer_text(std::string& out, const Pits& pits, const PositionInfo& info,
                        const PrincipalVariation* pv) {
    Position pos;
    pos.pits = pits;
    std::ostringstream o;
    o << to_board(pos) << "seeds " << info.seeds << ", value " << std::showpos << info.value
      << std::noshowpos << " for the side to move\n";
    if (info.terminal) {
        o << "no legal move: the game is over\n";
        out += o.str();
        return;
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
        for (std::size_t i = 0; i < pv->steps.size(); ++i) {
            const PvStep& s = pv->steps[i];
            o << "  " << i + 1 << ". [" << pits_text(s.position) << "] value " << std::showpos
              << s.value << std::noshowpos << ": move " << s.pit;
            if (s.captured) o << " captures " << s.captured;
            o << "\n";
        }
        o << "  end: " << to_string(pv->end) << " at [" << pits_text(pv->final_position) << "]\n";
    }
    out += o.str();
}

void append_error_json(std::string& out, std::uint64_t line, std::string_view input,
                       std::string_view error) {
    out += "{\"line\":";
    out += std::to_string(line);
    out += ",\"input\":\"";
    json::append_escaped(out, input);
    out += "\",\"error\":\"";
    json::append_escaped(out, error);
    out += "\"}";
}

bool append_answer(const Tablebase& tb, std::string_view position, AnswerFormat format, bool pv,
                   std::string& out, std::string& error) {
    ParseResult parsed = parse_position(position);
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
    std::optional<ProbeResult<PrincipalVariation>> line;
    if (pv) {
        line = tb.principal_variation(pits);
        if (!*line) {
            error = std::string(to_string(line->status())) + ": " + line->message();
            return false;
        }
    }
    const PrincipalVariation* steps = line ? &line->value() : nullptr;
    if (format == AnswerFormat::Json)
        append_answer_json(out, tb.rules(), pits, *info, steps);
    else
        append_answer_text(out, pits, *info, steps);
    return true;
}

} // namespace owaredb::cli
