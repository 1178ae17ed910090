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

/// Seeds captured so far (`owaredb probe --scores A B`): by the side to move, by its opponent.
struct Scores {
    int mover = 0;
    int opponent = 0;
};

/// Who wins under the rules as written (docs/values.md, Convention-free bounds), given the
/// bounds of the position and the scores so far; total = mover + opponent + seeds. The side
/// to move is sure of mover + gM seeds and the opponent of opponent + gN, whatever happens
/// when play goes round, so: "win" when 2 (mover + gM) > total, "loss" when
/// 2 (opponent + gN) > total, "draw" when both are sure of exactly half (then gM + gN =
/// seeds), else "decided by repetition" (neither can force a majority: the outcome
/// depends on when and how play repeats).
const char* verdict(const Bounds& bounds, const Scores& scores);

/// Answers one query: parses `position` (12 pit counts), analyses it and, when `pv`, its
/// line of perfect play, and appends the answer to `out` in `format`. When the bound files
/// it needs exist, the answer also holds gM, gN and each move's (JSON keys "gM", "gN",
/// "exact", and "gM", "gN" in every move); without them it is exactly as before. With
/// `scores` the bound files are required (the value files are then optional) and the
/// answer ends with the scores and the verdict. On failure appends nothing, sets `error`
/// ("invalid position: ...", "not available: ...") and returns false.
bool append_answer(const Tablebase& tb, std::string_view position, AnswerFormat format, bool pv,
                   std::string& out, std::string& error, const Scores* scores = nullptr);

/// Appends the JSON answer for `pits` (no newline):
///   {"rules":"abapa","position":"1 1 1 1 1 1 1 1 1 1 1 1","seeds":12,"value":0,
///    "moves":[{"move":1,"captured":0,"value":-1},...],"best":[6]
///    [,"terminal":true]
///    [,"pv":[{"position":"...","move":6,"captured":2,"value":0},...],
///      "pv_end":"...","final_position":"..."]}
/// "terminal" only when the side to move has no move; "pv" ... only when `pv` is not null.
/// Written through the fast appender of cli/json.hpp (hundreds of thousands of answers per
/// second in --batch mode).
/// With `bounds`, "gM", "gN", "exact" follow "value", and every move gets "gM", "gN".
void append_answer_json(std::string& out, std::string_view rules, const Pits& pits,
                        const PositionInfo& info, const PrincipalVariation* pv,
                        const BoundsInfo* bounds = nullptr);

/// Appends the text answer for `pits`: lines ending in '\n'.
void append_answer_text(std::string& out, const Pits& pits, const PositionInfo& info,
                        const PrincipalVariation* pv, const BoundsInfo* bounds = nullptr);

/// The longest line a batch reads, `owaredb probe --batch` and `POST /api/batch` alike: far
/// more than any position takes, few enough that a reader need not keep more of a line.
inline constexpr std::size_t kMaxBatchLine = 4096;

/// Answers line `number` (counted from 1) of a batch and appends '\n': the answer in
/// `format`, or the error record of a line that fails (JSON: append_error_json; text:
/// "line N: error: ..."). A '\r' ending the line is dropped. A line over kMaxBatchLine
/// bytes (a reader may hand over only its first kMaxBatchLine + 1) is not parsed: its
/// record says "line too long (more than 4096 bytes): not read". A blank line (spaces,
/// tabs) or a comment (first non-blank character '#') appends nothing and returns true.
/// Returns false for an error record. The one reading of batch lines, for every front end.
bool append_batch_answer(const Tablebase& tb, std::string_view line, std::uint64_t number,
                         AnswerFormat format, bool pv, std::string& out);

/// Appends the JSON record of a query that failed (no newline):
///   {"line":N,"input":"<the line, escaped>","error":"<error, escaped>"}
void append_error_json(std::string& out, std::uint64_t line, std::string_view input,
                       std::string_view error);

} // namespace owaredb::cli
