#include "search_format.hpp"

#include "cli/json.hpp"
#include "oware/position.hpp"

#include <charconv>
#include <cstdio>
#include <vector>

namespace owaredb::cli {

namespace {

// One part of a budget into `options` (which holds none of either kind), or false.
bool parse_part(std::string_view part, SearchOptions& options) {
    options.max_nodes = 0;
    options.max_seconds = 0;
    const auto number_end = part.find_first_not_of("0123456789.");
    if (number_end == 0 || number_end == std::string_view::npos) return false;
    const std::string_view number = part.substr(0, number_end), unit = part.substr(number_end);
    const char* end = number.data() + number.size();
    if (unit == "n") {
        uint64_t nodes = 0;
        const auto r = std::from_chars(number.data(), end, nodes);
        if (r.ec != std::errc() || r.ptr != end || nodes == 0) return false;
        options.max_nodes = nodes;
        return true;
    }
    if (unit != "s" && unit != "ms") return false;
    double seconds = 0;
    const auto r = std::from_chars(number.data(), end, seconds);
    if (r.ec != std::errc() || r.ptr != end || !(seconds > 0)) return false;
    options.max_seconds = unit == "s" ? seconds : seconds / 1000;
    return true;
}

std::string seconds_text(double seconds) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3f", seconds);
    return text;
}

std::string signed_text(int v) {
    return (v > 0 ? "+" : "") + std::to_string(v);
}

} // namespace

std::string parse_search_budget(std::string_view text, SearchOptions& options) {
    // Each kind at most once: "2s,3s" says two things.
    SearchOptions first, second;
    const std::size_t comma = text.find(',');
    bool ok = parse_part(text.substr(0, comma), first);
    if (ok && comma != std::string_view::npos) {
        ok = parse_part(text.substr(comma + 1), second) &&
             (first.max_nodes == 0) != (second.max_nodes == 0);
        first.max_nodes += second.max_nodes;
        first.max_seconds += second.max_seconds;
    }
    if (!ok)
        return "a search budget is <seconds>s, <milliseconds>ms or <positions>n, or two of "
               "them joined by ',' (2s, 500ms, 100000n, 2s,1000000n), not '" +
               std::string(text) + "'";
    options.max_nodes = first.max_nodes;
    options.max_seconds = first.max_seconds;
    return {};
}

void append_search_json(std::string& out, const SearchResult& r, const SearchOptions& budget) {
    out += ",\"search\":{\"kind\":\"";
    out += r.proven ? "proven" : "estimate";
    out += "\",\"move\":" + (r.best_move ? std::to_string(r.best_move) : std::string("null"));
    out += ",\"value\":" + std::to_string(r.value) + ",\"depth\":" + std::to_string(r.depth) +
           ",\"nodes\":" + std::to_string(r.nodes) + ",\"seconds\":" + seconds_text(r.seconds) +
           ",\"pv\":[";
    for (std::size_t i = 0; i < r.pv.size(); ++i) out += (i ? "," : "") + std::to_string(r.pv[i]);
    out += "],\"moves\":[";
    for (std::size_t i = 0; i < r.moves.size(); ++i) {
        const SearchMove& m = r.moves[i];
        out += std::string(i ? "," : "") + "{\"move\":" + std::to_string(m.pit) +
               ",\"captured\":" + std::to_string(m.captured) +
               ",\"value\":" + std::to_string(m.value) + ",\"bound\":\"" +
               (m.exact ? "exact" : "at_most") + "\",\"proven\":" + (m.proven ? "true" : "false") +
               "}";
    }
    out += "],\"budget\":{\"nodes\":" +
           (budget.max_nodes ? std::to_string(budget.max_nodes) : std::string("null")) +
           ",\"seconds\":" +
           (budget.max_seconds > 0 ? seconds_text(budget.max_seconds) : std::string("null")) + "}}";
}

void append_search_text(std::string& out, const SearchResult& r) {
    out += r.proven ? "proven (search): " : "search estimate (not a database value): ";
    if (!r.best_move) {
        out += "the game is over, value " + signed_text(r.value) + " for the side to move\n";
        return;
    }
    out += "best move " + std::to_string(r.best_move) + ", value " + signed_text(r.value) +
           " for the side to move" +
           (r.proven ? ", as a database would give it (every line ends in the databases or at "
                       "the game's end)\n"
                     : " (captures within the horizon; the seeds left counted as split evenly)\n");
    out += "  searched " + std::to_string(r.depth) + (r.depth == 1 ? " ply, " : " plies, ") +
           std::to_string(r.nodes) + " positions in " + seconds_text(r.seconds) +
           " s; expected line (South to move, as the page writes it):";
    for (std::size_t i = 0; i < r.pv.size(); ++i) out += " " + ply_text(i, r.pv[i]);
    out += "\n  moves (value for the mover; at most: not the best, no more is known):\n";
    for (const SearchMove& m : r.moves)
        out += "    " + std::to_string(m.pit) + ": captures " + std::to_string(m.captured) +
               (m.exact ? ", value " : ", at most ") + signed_text(m.value) +
               (m.proven ? " (proven)\n" : "\n");
}

namespace {

// The pit counts `text` gives on the Tablebase's board; empty when it is not a position.
std::vector<uint8_t> position_pits(const Tablebase& tb, std::string_view text) {
    const int pits = tb.pits_per_side() ? tb.pits_per_side() : 6;
    return with_pits_per_side(pits, [&](auto board) {
        constexpr int P = decltype(board)::value;
        const BasicParseResult<P> parsed = parse_position<P>(text);
        if (!parsed.ok) return std::vector<uint8_t>();
        return std::vector<uint8_t>(parsed.position.pits.begin(), parsed.position.pits.end());
    });
}

} // namespace

bool append_searched_answer(const Tablebase& tb, std::string_view position,
                            const AnswerOptions& options, const SearchOptions& search,
                            std::string& out, ProbeError& error) {
    std::string answer;
    const bool stored = append_answer(tb, position, options, answer, error);
    if (!stored && error.status != ProbeStatus::NotAvailable) return false;
    const std::vector<uint8_t> pits = position_pits(tb, position);
    const ProbeResult<SearchResult> found = owaredb::search(tb, pits, search);
    if (!found) {
        error = {found.status(), std::string(to_string(found.status())) + ": " +
                                     shown_paths(tb, found.message(), options.dir)};
        return false;
    }
    const bool json = options.format == AnswerFormat::Json;
    if (!stored && json) append_error_json(answer, tb, options, position, error);
    if (!stored && !json) append_missing_text(answer, tb, options, position);
    if (json) {
        answer.pop_back(); // the object's closing brace: the search is one more member
        append_search_json(answer, *found, search);
        answer += '}';
    } else {
        append_search_text(answer, *found);
    }
    out += answer;
    return true;
}

} // namespace owaredb::cli
