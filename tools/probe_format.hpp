// One probe answer as owaredb prints it, in JSON or as text: the one formatter of probe
// answers, shared by `owaredb probe` (one position or --batch) and any other front end
// that must answer exactly the same (a web `owaredb serve`).
#pragma once

#include "owaredb/probe.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace owaredb::cli {

enum class AnswerFormat {
    /// the board, its value, every move's value, the best moves, the line (its plies in
    /// ply_text's notation, every value South's: the side to move's)
    Text,
    Json, ///< one JSON object on one line (without the newline), see append_answer
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

/// A ply of a line as the page writes it (tools/web/app.js): "S<pit>" when South plays it,
/// "N<pit>" when North does, South being the side to move at the line's start (as the page
/// puts a position it is given) and `ply` counted from 0 there; then " ×C" (U+00D7, UTF-8)
/// when it captures C > 0 seeds. The one notation of the lines that `owaredb probe --pv`
/// and `--search` print as text.
std::string ply_text(std::size_t ply, int pit, int captured = 0);

/// How a query is answered (append_answer, append_batch_answer).
struct AnswerOptions {
    AnswerFormat format = AnswerFormat::Text;
    bool pv = false;              ///< also the line of perfect play (principal_variation)
    std::optional<Scores> scores; ///< `owaredb probe --scores`: see append_answer
    std::string_view dir;         ///< how answers name the directory (shown_paths); empty: as given
    /// JSON: every move also gives "child", the position after it (the opponent to move),
    /// so that a front end need not know the rules
    bool children = false;
};

/// The JSON answer of append_answer (one line, no newline):
///   {"rules":"abapa","position":"1 1 1 1 1 1 1 1 1 1 1 1","seeds":12,"value":0,
///    "moves":[{"move":1,"captured":0,"value":-1},...],"best":[6]
///    [,"terminal":true]
///    [,"pv":[{"position":"...","move":6,"captured":2,"value":0},...],
///      "pv_end":"...","final_position":"..."]}
/// "terminal" only when the side to move has no move; "pv" ... only with `options.pv`.
/// Written through the fast appender of cli/json.hpp (hundreds of thousands of answers per
/// second in --batch mode).
/// With bound files, "gM", "gN", "exact" follow "value", and every move gets "gM", "gN".
///
/// Answers one query: parses `position` (2P pit counts of the Tablebase's board), analyses
/// it and, with `options.pv`, its line of perfect play, and appends the answer to `out` in
/// `options.format`. When the bound files it needs exist, the answer also holds gM, gN and
/// each move's (JSON keys "gM", "gN", "exact", and "gM", "gN" in every move); without them
/// it is exactly as before. With `options.scores` the bound files are required (the value
/// files are then optional; a missing one fails NotAvailable, whose error object names the
/// bound files) and the answer ends with the scores and the verdict. A line that
/// cannot be given is said after the rest (JSON "pv_error"). With `options.children`, every
/// JSON move also gives "child" (after its other fields). On failure appends nothing,
/// sets `error` (its status, and a message that starts with the status's name: "invalid
/// position: ...", "not available: ...") and returns false.
bool append_answer(const Tablebase& tb, std::string_view position, const AnswerOptions& options,
                   std::string& out, ProbeError& error);

/// The longest line a batch reads, `owaredb probe --batch` and `POST /api/batch` alike: far
/// more than any position takes, few enough that a reader need not keep more of a line.
inline constexpr std::size_t kMaxBatchLine = 4096;

/// Answers line `number` (counted from 1) of a batch and appends '\n': the answer in
/// `format`, or the error record of a line that fails (JSON: append_error_json; text:
/// "line N: error: ..."). A '\r' ending the line is dropped. A line over kMaxBatchLine
/// bytes (a reader may hand over only its first kMaxBatchLine + 1) is not parsed: its
/// record says "line too long (more than 4096 bytes): not read". A blank line (spaces,
/// tabs) or a comment (first non-blank character '#') appends nothing and returns true.
/// Returns false for an error record. The one reading of batch lines, for every front end;
/// each line answered as append_answer answers it with `options`.
bool append_batch_answer(const Tablebase& tb, std::string_view line, std::uint64_t number,
                         const AnswerOptions& options, std::string& out);

/// `text` with the Tablebase's directory, as it was given, replaced by `dir` (nothing to do
/// when `dir` is empty or the same): a server names its directory without the absolute path
/// it was started with.
std::string shown_paths(const Tablebase& tb, std::string_view text, std::string_view dir);

/// Appends the one error object of a query that failed (no newline), the same for
/// `owaredb probe --json`, each error record of a batch, the HTTP API and (as exception
/// attributes) Python, answered with `options` (its dir and children); README, "Errors":
///   {["line":N,"input":"<the line, its first 100 bytes>",]
///    "status":"not_available","error":"<message>","position":"<pits>"|null,"rules":"abapa"
///    [,"seeds":S[,"files":"bounds"],"missing_levels":[...],"generate":"owaredb generate ...",
///     "positions":P,"moves":[{"move":1,"captured":0[,"child":"<pits>"][,"value":V]},...]]}
/// "line" and "input" in batch records only (`line` not null). "position" is the parsed
/// position, null when the input is not one. The fields in brackets only when a level is
/// missing: every level 0..S whose files are not there (a query may need any of them:
/// captures lead to lower levels), the command that builds those files into `options.dir`
/// (empty: the directory as given), how many positions the largest of them (level S)
/// holds, and the legal moves with their captures, their children with `options.children`
/// and, where the child's value levels are there, their values: what a front end can show
/// and play without the missing levels. The files missing are the value files, or with
/// `options.scores` (whose answer needs the bound files alone) the bound files: then
/// "files":"bounds", and "generate" builds them ("--bounds").
void append_error_json(std::string& out, const Tablebase& tb, const AnswerOptions& options,
                       std::string_view input, const ProbeError& error,
                       const std::uint64_t* line = nullptr);

/// The text counterpart of a missing level's error object, for `owaredb probe` on a
/// position outside the databases: the board, "seeds S: not in the databases (no value:
/// levels ... missing)", the legal moves with their captures and, where the child's levels
/// are there, their values, "missing levels: ..." (runs written "a..b") with the size of
/// level S, and "build them with: owaredb generate ..." (the error object's "generate", the
/// directory named `options.dir`, empty: as given). With `options.scores` the files missing
/// are the bound files, as in the error object: "seeds S: no bounds (the bound files of
/// levels ... missing)", "missing bound files: levels ...", and the command with
/// "--bounds". Lines end in '\n'. False, appending nothing, when `input` is not a position
/// of the Tablebase's board or none of those files is missing.
bool append_missing_text(std::string& out, const Tablebase& tb, const AnswerOptions& options,
                         std::string_view input);

} // namespace owaredb::cli
