#include "probe_format.hpp"

#include "cli/json.hpp"
#include "oware/moves.hpp"
#include "oware/position.hpp"
#include "oware/ranking.hpp"
#include "oware/rules.hpp"

#include <algorithm>
#include <cstring>
#include <optional>
#include <span>
#include <sstream>

namespace owaredb::cli {

namespace {

using json::kIntChars;
using json::put;
using json::put_int;

// An upper bound of the characters put_pits writes for `pits`.
template <class A> std::size_t pits_chars(const A& pits) {
    return pits.size() * (kIntChars + 1);
}

template <class A> char* put_pits(char* p, const A& pits) {
    for (std::size_t i = 0; i < pits.size(); ++i) {
        if (i) *p++ = ' ';
        p = put_int(p, pits[i]);
    }
    return p;
}

// `"move":M,"captured":C,"value":V`: the fields a move and a line's step share.
char* put_move_fields(char* p, int pit, int captured, int value) {
    p = put(p, "\"move\":");
    p = put_int(p, pit);
    p = put(p, ",\"captured\":");
    p = put_int(p, captured);
    p = put(p, ",\"value\":");
    p = put_int(p, value);
    return p;
}

// `,"gM":X,"gN":Y`.
char* put_bound_fields(char* p, int gm, int gn) {
    p = put(p, ",\"gM\":");
    p = put_int(p, gm);
    p = put(p, ",\"gN\":");
    p = put_int(p, gn);
    return p;
}

std::string bounds_line(const Bounds& b) {
    return "gM " + std::to_string(b.gM) + ", gN " + std::to_string(b.gN) +
           (b.exact ? " (exact: the same under every rule for endless play)"
                    : " (gM + gN < seeds: the rest depends on how endless play is scored)");
}

void append_scores_text(std::string& out, const Bounds& b, const Scores& s) {
    const int total = s.mover + s.opponent + b.seeds;
    const std::string v = verdict(b, s);
    out += "scores so far: side to move " + std::to_string(s.mover) + ", opponent " +
           std::to_string(s.opponent) + " (total " + std::to_string(total) +
           "); sure of: side to move " + std::to_string(s.mover + b.gM) + ", opponent " +
           std::to_string(s.opponent + b.gN) + "\n";
    std::string upper = v == "decided by repetition" ? v : std::string();
    if (upper.empty())
        for (char c : v) upper += static_cast<char>(c - 'a' + 'A');
    out += "under the rules as written: " + upper;
    if (v == "win" || v == "loss" || v == "draw")
        out += " for the side to move, whatever the rule for endless play";
    else if (2 * (s.mover + b.gM) == total)
        out += " (the side to move cannot lose)";
    else if (2 * (s.opponent + b.gN) == total)
        out += " (the side to move cannot win)";
    out += "\n";
}

void append_scores_json(std::string& out, const Bounds& b, const Scores& s) {
    out += ",\"scores\":[" + std::to_string(s.mover) + "," + std::to_string(s.opponent) +
           "],\"verdict\":\"" + verdict(b, s) + "\"";
}

} // namespace

std::string ply_text(std::size_t ply, int pit, int captured) {
    std::string text = (ply % 2 ? "N" : "S") + std::to_string(pit);
    if (captured > 0) text += " \u00d7" + std::to_string(captured);
    return text;
}

const char* verdict(const Bounds& b, const Scores& s) {
    const int total = s.mover + s.opponent + b.seeds;
    if (2 * (s.mover + b.gM) > total) return "win";
    if (2 * (s.opponent + b.gN) > total) return "loss";
    if (2 * (s.mover + b.gM) == total && 2 * (s.opponent + b.gN) == total) return "draw";
    return "decided by repetition";
}

namespace {

// What an answer shows of a position of P pits a side, its answers' positions of type A.
template <int P, class A> struct Shown {
    const BasicPosition<P>& position;
    const BasicPositionInfo<A>& info;
    const BasicPrincipalVariation<A>* pv = nullptr; // asked for and found
    const BasicBoundsInfo<A>* bounds = nullptr;     // the bound files are there
    const Scores* scores = nullptr;                 // --scores (then `bounds` is set)
    std::string pv_error;                           // why the line asked for cannot be given
    bool children = false;                          // each move's "child" (AnswerOptions)
};

// The JSON answer (append_answer) for positions of any board (A: their pit counts, Pits or
// BoardPits), with `extra` (fields a caller adds: the scores, pv_error) before the closing brace.
template <int P, class A>
void answer_json(std::string& out, std::string_view rules, const Shown<P, A>& a,
                 std::string_view extra) {
    const auto& pits = a.position.pits;
    const BasicPositionInfo<A>& info = a.info;
    const BasicPrincipalVariation<A>* pv = a.pv;
    const BasicBoundsInfo<A>* bounds = a.bounds;
    const std::size_t kPitsChars = pits_chars(pits);
    // An upper bound of the answer's length: the keys and punctuation of the answer take
    // at most 96 characters (81), of a move 32 (31), of the line's ends 48 (40), of one of
    // its steps 48 (46); every number at most kIntChars.
    std::size_t bound = 96 + rules.size() + kPitsChars + 2 * kIntChars +
                        info.moves.size() * (32 + 3 * kIntChars) +
                        info.best.size() * (1 + kIntChars);
    if (pv)
        bound += 48 + std::strlen(to_string(pv->end)) + kPitsChars +
                 pv->steps.size() * (48 + kPitsChars + 3 * kIntChars);
    if (bounds) bound += (1 + info.moves.size()) * (16 + 2 * kIntChars) + 16;
    if (a.children) bound += info.moves.size() * (16 + kPitsChars);
    bound += extra.size();
    char* p = json::reserve(out, bound);
    p = put(p, "{\"rules\":\"");
    p = put(p, rules);
    p = put(p, "\",\"position\":\"");
    p = put_pits(p, pits);
    p = put(p, "\",\"seeds\":");
    p = put_int(p, info.seeds);
    p = put(p, ",\"value\":");
    p = put_int(p, info.value);
    if (bounds) {
        p = put_bound_fields(p, bounds->bounds.gM, bounds->bounds.gN);
        p = put(p, bounds->bounds.exact ? ",\"exact\":true" : ",\"exact\":false");
    }
    p = put(p, ",\"moves\":[");
    for (std::size_t i = 0; i < info.moves.size(); ++i) {
        const BasicMoveInfo<A>& m = info.moves[i];
        if (i) *p++ = ',';
        *p++ = '{';
        p = put_move_fields(p, m.pit, m.captured, m.value);
        if (bounds && i < bounds->moves.size())
            p = put_bound_fields(p, bounds->moves[i].gM, bounds->moves[i].gN);
        if (a.children) {
            p = put(p, ",\"child\":\"");
            p = put_pits(p, m.child);
            *p++ = '"';
        }
        *p++ = '}';
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
            const BasicPvStep<A>& s = pv->steps[i];
            if (i) *p++ = ',';
            p = put(p, "{\"position\":\"");
            p = put_pits(p, s.position);
            p = put(p, "\",");
            p = put_move_fields(p, s.pit, s.captured, s.value);
            *p++ = '}';
        }
        p = put(p, "],\"pv_end\":\"");
        p = put(p, std::string_view(to_string(pv->end)));
        p = put(p, "\",\"final_position\":\"");
        p = put_pits(p, pv->final_position);
        *p++ = '"';
    }
    p = put(p, extra);
    *p++ = '}';
    json::commit(out, p);
}

// The line of perfect play as text, in the page's notation (ply_text) and every value South's:
// a reader follows one side through the line, not the side to move of each ply.
template <class A>
void append_line_text(std::string& out, int pits_per_side, const BasicPrincipalVariation<A>& pv) {
    const std::string last = std::to_string(pits_per_side);
    out += "principal variation, South to move (S1..S" + last + " South's pits, N1..N" + last +
           " North's, as the page shows them):\n"
           "  value: South's, the seeds it captures from that ply on minus North's;\n"
           "  [position]: before the ply, its mover's pits first (as probe reads it)\n";
    for (std::size_t i = 0; i < pv.steps.size(); ++i) {
        const BasicPvStep<A>& s = pv.steps[i];
        const int south = i % 2 ? -s.value : s.value;
        std::string number = std::to_string(i + 1) + ".";
        std::string move = ply_text(i, s.pit, s.captured);
        // Columns: "×" is one column in two bytes.
        const std::size_t shown = move.size() - (s.captured ? 1 : 0);
        number.insert(0, number.size() < 4 ? 4 - number.size() : 0, ' ');
        move.append(shown < 8 ? 8 - shown : 0, ' ');
        std::string value = (south < 0 ? "" : "+") + std::to_string(south);
        value.insert(0, value.size() < 3 ? 3 - value.size() : 0, ' ');
        out += "  " + number + " " + move + "value " + value + "  [" +
               owaredb::position_text(s.position) + "]\n";
    }
    out += "  end: " + std::string(to_string(pv.end)) + " at [" +
           owaredb::position_text(pv.final_position) + "], " +
           (pv.steps.size() % 2 ? "North" : "South") + " to move\n";
}

// The text answer (append_answer) for a position of P pits a side, its answers' positions of type
// A.
template <int P, class A>
void answer_text(std::string& out, const BasicPosition<P>& pos, const BasicPositionInfo<A>& info,
                 const BasicPrincipalVariation<A>* pv, const BasicBoundsInfo<A>* bounds) {
    std::ostringstream o;
    o << to_board(pos) << "seeds " << info.seeds << ", value " << std::showpos << info.value
      << std::noshowpos << " for the side to move\n";
    if (bounds) o << "bounds: " << bounds_line(bounds->bounds) << "\n";
    if (info.terminal) {
        o << "no legal move: the game is over\n";
        out += o.str();
        return;
    }
    o << "moves (value for the mover = captured - value of the child):\n";
    for (std::size_t i = 0; i < info.moves.size(); ++i) {
        const BasicMoveInfo<A>& m = info.moves[i];
        o << "  " << m.pit << ": captures " << m.captured << ", value " << std::showpos << m.value
          << std::noshowpos;
        if (bounds && i < bounds->moves.size())
            o << ", gM " << bounds->moves[i].gM << ", gN " << bounds->moves[i].gN;
        o << "\n";
    }
    o << "best:";
    for (int b : info.best) o << " " << b;
    o << "\n";
    out += o.str();
    if (pv) append_line_text(out, P, *pv);
}

// What a query of a position of P pits a side is asked with: its Pits on the standard
// board (whose answers hold Pits, as they always did), its pit counts on any other.
template <int P> auto query_pits(const BasicPosition<P>& p) {
    if constexpr (P == 6)
        return p.pits;
    else
        return std::span<const uint8_t>(p.pits);
}

} // namespace

bool append_batch_answer(const Tablebase& tb, std::string_view line, std::uint64_t number,
                         const AnswerOptions& options, std::string& out) {
    ProbeError error;
    bool answered = false;
    // Blank lines and comments are not positions: they get no answer (a record's "line"
    // still counts them, so answers can be matched to lines of the input).
    const std::size_t first = line.find_first_not_of(" \t\r");
    if (line.size() <= kMaxBatchLine && (first == std::string_view::npos || line[first] == '#'))
        return true;
    if (line.size() > kMaxBatchLine) {
        line = line.substr(0, kMaxBatchLine);
        error = {ProbeStatus::InvalidPosition,
                 "line too long (more than " + std::to_string(kMaxBatchLine) + " bytes): not read"};
    } else {
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        answered = append_answer(tb, line, options, out, error);
    }
    if (!answered) {
        if (options.format == AnswerFormat::Json)
            append_error_json(out, tb, options, line, error, &number);
        else
            out += "line " + std::to_string(number) +
                   ": error: " + shown_paths(tb, error.message, options.dir);
    }
    out += '\n';
    return answered;
}

std::string shown_paths(const Tablebase& tb, std::string_view text, std::string_view dir) {
    // Without its trailing separators: "/data/" names its files "/data/abapa-13.owdb", which
    // must become "<dir>/abapa-13.owdb".
    std::string given = tb.directory().string();
    while (given.size() > 1 && given.back() == '/') given.pop_back();
    std::string out(text);
    if (dir.empty() || given.empty() || dir == given) return out;
    for (std::size_t at = out.find(given); at != std::string::npos;
         at = out.find(given, at + dir.size()))
        out.replace(at, given.size(), dir);
    return out;
}

namespace {

// A legal move of a position outside the databases, valued when its child's levels are there.
struct OutsideMove {
    int pit = 0; // 1..P
    int captured = 0;
    std::string child; // the position after it (text form)
    std::optional<int> value;
};

// The legal moves of `position`, each valued when its child's levels are there (a capture
// may lead to a level that is): what a front end can show and play without the missing
// levels.
template <int P>
std::vector<OutsideMove> outside_moves(const Tablebase& tb, const BasicPosition<P>& position) {
    std::vector<OutsideMove> out;
    const std::optional<Rules> rules = Rules::by_name(tb.rules());
    if (!rules) return out;
    for (const BasicMove<P>& m : legal_moves(*rules, position)) {
        OutsideMove& o =
            out.emplace_back(OutsideMove{m.pit + 1, m.captured, to_string(m.child), std::nullopt});
        // A stored child of a missing level is not asked for: each failed read costs the
        // library a look at the whole directory, which made a batch of missing positions 40
        // times slower. A child outside the databases may still be valued (by its own
        // moves, when they all capture).
        if (m.child.in_database() && !tb.level_available(m.child.seeds())) continue;
        const ProbeResult<int> child = tb.value(query_pits(m.child));
        if (child) o.value = m.captured - child.value();
    }
    return out;
}

// The files a query asked with `options` needs, whose absence its NotAvailable means: the
// bound files with scores (append_answer then needs no value file), else the value files.
LevelFiles needed_files(const AnswerOptions& options) {
    return options.scores ? LevelFiles::Bounds : LevelFiles::Values;
}

// The fields of a missing level's error object after "rules" (see append_error_json).
template <int P>
void append_missing_fields(std::string& out, const Tablebase& tb, const AnswerOptions& options,
                           const BasicPosition<P>& position) {
    const int seeds = position.seeds();
    const MissingLevels missing = tb.missing_levels(seeds, options.dir, needed_files(options));
    out += ",\"seeds\":" + std::to_string(seeds);
    if (missing.files == LevelFiles::Bounds) out += ",\"files\":\"bounds\"";
    out += ",\"missing_levels\":[";
    for (std::size_t i = 0; i < missing.levels.size(); ++i)
        out += (i ? "," : "") + std::to_string(missing.levels[i]);
    // `owaredb generate` builds every missing level up to its --max-seeds, in memory while
    // it fits and streamed beyond; how big the largest one is tells whether that is minutes
    // or days (docs/results.md, Beyond 28).
    out += "],\"generate\":\"";
    json::append_escaped(out, missing.generate);
    out += "\",\"positions\":" + std::to_string(level_size<P>(seeds)) + ",\"moves\":[";
    bool first = true;
    for (const OutsideMove& m : outside_moves(tb, position)) {
        if (!first) out += ',';
        first = false;
        out += "{\"move\":" + std::to_string(m.pit) + ",\"captured\":" + std::to_string(m.captured);
        if (options.children) out += ",\"child\":\"" + m.child + '"';
        if (m.value) out += ",\"value\":" + std::to_string(*m.value);
        out += '}';
    }
    out += ']';
}

// Levels as people read a list of them: runs of three or more as "a..b".
std::string level_ranges(const std::vector<int>& levels) {
    std::string out;
    for (std::size_t i = 0; i < levels.size();) {
        std::size_t j = i;
        while (j + 1 < levels.size() && levels[j + 1] == levels[j] + 1) ++j;
        if (!out.empty()) out += ", ";
        out += std::to_string(levels[i]);
        if (j >= i + 2)
            out += ".." + std::to_string(levels[j]);
        else if (j == i + 1)
            out += ", " + std::to_string(levels[j]);
        i = j + 1;
    }
    return out;
}

// False, appending nothing, when none of the levels' files needed is missing.
template <int P>
bool missing_text(std::string& out, const Tablebase& tb, const AnswerOptions& options,
                  const BasicPosition<P>& position) {
    const int seeds = position.seeds();
    const MissingLevels missing = tb.missing_levels(seeds, options.dir, needed_files(options));
    if (missing.levels.empty()) return false;
    const bool bounds = missing.files == LevelFiles::Bounds;
    const std::string plural = missing.levels.size() == 1 ? " " : "s ";
    out += to_board(position) + "seeds " + std::to_string(seeds) +
           (bounds ? ": no bounds (the bound files of level"
                   : ": not in the databases (no value: level") +
           plural + level_ranges(missing.levels) + " missing)\n";
    const std::vector<OutsideMove> moves = outside_moves(tb, position);
    if (moves.empty())
        out += "no legal move: the game is over\n";
    else
        out += "moves (a value where the move's levels are there):\n";
    for (const OutsideMove& m : moves) {
        out += "  " + std::to_string(m.pit) + ": captures " + std::to_string(m.captured);
        if (m.value)
            out += ", value " + std::string(*m.value > 0 ? "+" : "") + std::to_string(*m.value);
        out += '\n';
    }
    out += (bounds ? "missing bound files: level" + plural : "missing levels: ") +
           level_ranges(missing.levels) + " (level " + std::to_string(seeds) + ": " +
           std::to_string(level_size<P>(seeds)) + " positions)\n";
    out += "build them with: " + missing.generate + "\n";
    return true;
}

} // namespace

namespace {

// The position `text` gives on a board of P pits a side; the parser's message, or on a
// board other than the standard one, when the count is not the board's, one naming both.
template <int P> BasicParseResult<P> parse_on_board(std::string_view text) {
    BasicParseResult<P> parsed = parse_position<P>(text);
    if (parsed.ok || P == 6) return parsed;
    int count = 0;
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t start = text.find_first_not_of(" ,\t\n\r", i);
        if (start == std::string_view::npos) break;
        ++count;
        i = std::min(text.find_first_of(" ,\t\n\r", start), text.size());
    }
    if (count != 2 * P)
        parsed.error = "expected " + std::to_string(2 * P) + " pit counts (a board of " +
                       std::to_string(P) + " pits a side, as the databases), got " +
                       std::to_string(count);
    return parsed;
}

template <int P>
void error_json(std::string& out, const Tablebase& tb, const AnswerOptions& options,
                std::string_view input, const ProbeError& error, const std::uint64_t* line) {
    out += '{';
    if (line) {
        out += "\"line\":";
        out += std::to_string(*line);
        out += ",\"input\":\"";
        // The input is echoed to help find the line, not to copy it: its first 100 bytes.
        constexpr std::size_t kEcho = 100;
        json::append_escaped(out, input.substr(0, kEcho));
        if (input.size() > kEcho) out += "...";
        out += "\",";
    }
    out += "\"status\":\"";
    out += status_code(error.status);
    out += "\",\"error\":\"";
    json::append_escaped(out, shown_paths(tb, error.message, options.dir));
    out += "\",\"position\":";
    // A line too long is not read, so not parsed either.
    const bool read = input.size() <= kMaxBatchLine;
    const BasicParseResult<P> parsed = read ? parse_on_board<P>(input) : BasicParseResult<P>{};
    if (read && parsed.ok)
        out += "\"" + to_string(parsed.position) + "\"";
    else
        out += "null";
    out += ",\"rules\":\"";
    json::append_escaped(out, tb.rules());
    out += '"';
    if (error.status == ProbeStatus::NotAvailable && read && parsed.ok)
        append_missing_fields(out, tb, options, parsed.position);
    out += '}';
}

// f(std::integral_constant<int, P>) for the Tablebase's board (the standard one for a
// Tablebase whose board is none: its queries say why).
template <class F> decltype(auto) on_board(const Tablebase& tb, F&& f) {
    return with_pits_per_side(tb.pits_per_side() ? tb.pits_per_side() : 6, std::forward<F>(f));
}

} // namespace

void append_error_json(std::string& out, const Tablebase& tb, const AnswerOptions& options,
                       std::string_view input, const ProbeError& error, const std::uint64_t* line) {
    on_board(tb, [&](auto board) {
        error_json<decltype(board)::value>(out, tb, options, input, error, line);
    });
}

bool append_missing_text(std::string& out, const Tablebase& tb, const AnswerOptions& options,
                         std::string_view input) {
    return on_board(tb, [&](auto board) {
        constexpr int P = decltype(board)::value;
        const BasicParseResult<P> parsed = parse_on_board<P>(input);
        return parsed.ok && missing_text(out, tb, options, parsed.position);
    });
}

namespace {

// The answer from the bound files alone (--scores without value files).
template <int P, class A>
void append_bounds_only(std::string& out, AnswerFormat format, std::string_view rules,
                        const BasicPosition<P>& pos, const BasicBoundsInfo<A>& b, const Scores& s) {
    if (format == AnswerFormat::Json) {
        out += "{\"rules\":\"";
        out += rules;
        out += "\",\"position\":\"" + to_string(pos) +
               "\",\"seeds\":" + std::to_string(b.bounds.seeds) +
               ",\"gM\":" + std::to_string(b.bounds.gM) + ",\"gN\":" + std::to_string(b.bounds.gN) +
               ",\"exact\":" + (b.bounds.exact ? "true" : "false") + ",\"moves\":[";
        for (std::size_t i = 0; i < b.moves.size(); ++i) {
            const BasicMoveBounds<A>& m = b.moves[i];
            out += (i ? ",{" : "{") + std::string("\"move\":") + std::to_string(m.pit) +
                   ",\"captured\":" + std::to_string(m.captured) +
                   ",\"gM\":" + std::to_string(m.gM) + ",\"gN\":" + std::to_string(m.gN) + "}";
        }
        out += "]";
        if (b.terminal) out += ",\"terminal\":true";
        append_scores_json(out, b.bounds, s);
        out += "}";
        return;
    }
    out += to_board(pos) + "seeds " + std::to_string(b.bounds.seeds) + ", bounds " +
           bounds_line(b.bounds) + "\n";
    if (b.terminal) out += "no legal move: the game is over\n";
    for (const BasicMoveBounds<A>& m : b.moves)
        out += "  " + std::to_string(m.pit) + ": captures " + std::to_string(m.captured) + ", gM " +
               std::to_string(m.gM) + ", gN " + std::to_string(m.gN) + "\n";
    append_scores_text(out, b.bounds, s);
}

// The answer type T of a ProbeResult<T>.
template <class R> struct AnswerType;
template <class T> struct AnswerType<ProbeResult<T>> { using type = T; };
template <class R> using AnswerOf = typename AnswerType<R>::type;
// The pit counts A of the positions in a BasicPositionInfo<A>.
template <class I> struct PitCountsType;
template <class A> struct PitCountsType<BasicPositionInfo<A>> { using type = A; };

// A failed query's error as append_answer gives it: the message starts with the status's name.
ProbeError query_error(const ProbeError& e) {
    return {e.status, std::string(to_string(e.status)) + ": " + e.message};
}

// The bounds of `pits` (of `seeds` seeds) when the bound files are there or `required`
// (with scores); else NotAvailable with no message. Without a bound file of this level
// nothing is asked, so answers without bound files cost the same.
template <class Q>
auto answer_bounds(const Tablebase& tb, const Q& pits, int seeds, bool required) {
    using BoundsInfo = AnswerOf<decltype(tb.analyse_bounds(pits))>;
    if (required || tb.bounds_available(seeds)) return tb.analyse_bounds(pits);
    return ProbeResult<BoundsInfo>(ProbeError{ProbeStatus::NotAvailable, ""});
}

// Why `s` cannot be the scores of a game with `seeds` seeds on the board, or nothing.
std::optional<ProbeError> scores_error(const Scores& s, int seeds) {
    // Each in range before they are added: two large ints would overflow the sum.
    auto in_range = [](int v) { return v >= 0 && v <= kMaxSeeds; };
    if (in_range(s.mover) && in_range(s.opponent) && s.mover + s.opponent + seeds <= kMaxSeeds)
        return std::nullopt;
    return ProbeError{ProbeStatus::InvalidPosition,
                      "invalid scores " + std::to_string(s.mover) + " and " +
                          std::to_string(s.opponent) + ": each is 0.." + std::to_string(kMaxSeeds) +
                          ", and with the " + std::to_string(seeds) +
                          " seeds on the board at most " + std::to_string(kMaxSeeds)};
}

template <int P, class A>
void append_shown(std::string& out, const Tablebase& tb, AnswerFormat format,
                  const Shown<P, A>& a) {
    // What is known is written; then where the line stops and why (a missing level).
    if (format == AnswerFormat::Json) {
        std::string extra; // rare: built apart, so that the common answer is written in one go
        if (a.scores) append_scores_json(extra, a.bounds->bounds, *a.scores);
        if (!a.pv_error.empty()) {
            extra += ",\"pv_error\":\"";
            json::append_escaped(extra, a.pv_error);
            extra += '"';
        }
        answer_json(out, tb.rules(), a, extra);
        return;
    }
    answer_text(out, a.position, a.info, a.pv, a.bounds);
    if (a.scores) append_scores_text(out, a.bounds->bounds, *a.scores);
    if (!a.pv_error.empty()) out += "principal variation: cannot be given: " + a.pv_error + "\n";
}

// append_answer on a board of P pits a side.
template <int P>
bool answer(const Tablebase& tb, std::string_view position, const AnswerOptions& options,
            std::string& out, ProbeError& error) {
    const BasicParseResult<P> parsed = parse_on_board<P>(position);
    if (!parsed.ok) {
        error = {ProbeStatus::InvalidPosition, "invalid position: " + parsed.error};
        return false;
    }
    const auto pits = query_pits(parsed.position);
    const int seeds = parsed.position.seeds();
    const Scores* scores = options.scores ? &*options.scores : nullptr;
    const auto bounds = answer_bounds(tb, pits, seeds, scores != nullptr);
    if (!bounds && (scores || bounds.status() != ProbeStatus::NotAvailable)) {
        // A missing bound file: the error object and append_missing_text name the levels
        // and the command that builds them (needed_files).
        error = query_error(bounds.error());
        return false;
    }
    if (auto e = scores ? scores_error(*scores, seeds) : std::nullopt) {
        error = *e;
        return false;
    }
    const auto info = tb.analyse(pits);
    if (!info && scores && info.status() == ProbeStatus::NotAvailable) {
        append_bounds_only(out, options.format, tb.rules(), parsed.position, *bounds, *scores);
        return true;
    }
    if (!info) {
        error = query_error(info.error());
        return false;
    }
    using Line = decltype(tb.principal_variation(pits));
    const std::optional<Line> line =
        options.pv ? std::optional(tb.principal_variation(pits)) : std::nullopt;
    using A = typename PitCountsType<AnswerOf<decltype(tb.analyse(pits))>>::type;
    Shown<P, A> shown{parsed.position,
                      *info,
                      line && *line ? &line->value() : nullptr,
                      bounds ? &bounds.value() : nullptr,
                      scores,
                      {},
                      options.children};
    if (line && !*line)
        shown.pv_error = shown_paths(tb, query_error(line->error()).message, options.dir);
    append_shown(out, tb, options.format, shown);
    return true;
}

} // namespace

bool append_answer(const Tablebase& tb, std::string_view position, const AnswerOptions& options,
                   std::string& out, ProbeError& error) {
    return on_board(tb, [&](auto board) {
        return answer<decltype(board)::value>(tb, position, options, out, error);
    });
}

} // namespace owaredb::cli
