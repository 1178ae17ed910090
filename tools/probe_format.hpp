// One probe answer as owaredb prints it, in JSON or as text: the one formatter of probe
// answers, shared by `owaredb probe` (one position or --batch) and any other front end
// that must answer exactly the same (a web `owaredb serve`).
#pragma once

#include "owaredb/probe.hpp"

#include <cstdint>
#include <string>
#include <string_view>

namespace owaredb::cli {

enum class AnswerFormat {
    Text, ///< the board, its value, every move's value, the best moves, the line
    Json, ///< one JSON object on one line (without the newline), see append_answer_json
};

/// Answers one query: parses `position` (12 pit counts), analyses it and, when `pv`, its
/// line of perfect play, and appends the answer to `out` in `format`. On failure appends
/// nothing, sets `error` ("invalid position: ...", "not available: ...") and returns
/// false.
bool append_answer(const Tablebase& tb, std::string_view position, AnswerFormat format, bool pv,
                   std::string& out, std::string& error);

/// Appends the JSON answer for `pits` (no newline):
///   {"rules":"abapa","position":"1 1 1 1 1 1 1 1 1 1 1 1","seeds":12,"value":0,
///    "moves":[{"move":1,"captured":0,"value":-1},...],"best":[6]
///    [,"terminal":true]
///    [,"pv":[{"position":"...","move":6,"captured":2,"value":0},...],
///      "pv_end":"...","final_position":"..."]}
/// "terminal" only when the side to move has no move; "pv" ... only when `pv` is not null.
/// Written through the fast appender of cli/json.hpp (hundreds of thousands of answers per
/// second in --batch mode).
void append_answer_json(std::string& out, std::string_view rules, const Pits& pits,
                        const PositionInfo& info, const PrincipalVariation* pv);

/// Appends the text answer for `pits`: lines ending in '\n'.
void append_answer_text(std::string& out, const Pits& pits, const PositionInfo& info,
                        const PrincipalVariation* pv);

/// Appends the JSON record of a query that failed (no newline):
///   {"line":N,"input":"<the line, escaped>","error":"<error, escaped>"}
void append_error_json(std::string& out, std::uint64_t line, std::string_view input,
                       std::string_view error);

} // namespace owaredb::cli
