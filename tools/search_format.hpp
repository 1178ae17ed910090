// The search's answer (owaredb/search.hpp) as owaredb prints it, beside the databases'
// answer and never mixed with it: `owaredb probe --search` and GET /api/search answer with
// the same functions, as probe_format.hpp's answers are shared.
#pragma once

#include "probe_format.hpp"

#include "owaredb/probe.hpp"
#include "owaredb/search.hpp"

#include <string>
#include <string_view>

namespace owaredb::cli {

/// Reads a search budget as `owaredb probe --search` and GET /api/search take it: one part,
/// or two joined by ',', each "<number>s" (seconds, a decimal fraction allowed), "<integer>ms"
/// or "<integer>n" (positions visited): "2s", "500ms", "100000n", "2s,1000000n". Sets
/// `options`' max_seconds and max_nodes (a kind not given: 0, no limit of that kind).
/// Returns why the text is not a budget, empty when it is one.
std::string parse_search_budget(std::string_view text, SearchOptions& options);

/// Appends the search's answer as one JSON member, with its leading comma:
///   ,"search":{"kind":"proven"|"estimate","move":M|null,"value":V,"depth":D,"nodes":N,
///    "seconds":S,"pv":[M,...],"moves":[{"move":1,"captured":0,"value":V,
///    "bound":"exact"|"at_most","proven":true|false},...],
///    "budget":{"nodes":N|null,"seconds":S|null}}
/// "move" null when the game is over; "bound" at_most: the move's value is at most V (the
/// search proved no more of it than that it is not the best); "budget" the limits it ran
/// under (null: none of that kind).
void append_search_json(std::string& out, const SearchResult& result, const SearchOptions& budget);

/// Appends the search's answer as text, lines ending in '\n', its first line starting
/// "proven (search):" or "search estimate (not a database value):"; its expected line in
/// ply_text's notation ("S1 N3 ...", South the side to move).
void append_search_text(std::string& out, const SearchResult& result);

/// The answer of `owaredb probe --search` and GET /api/search: what append_answer gives
/// (the databases' answer) or, for a position a level of which is missing, what the error
/// object (JSON: append_error_json) or the text of a position outside the databases
/// (append_missing_text) gives; then the search's answer, within `search`'s budget: JSON in
/// the object's member "search" (append_search_json), text in a paragraph of its own. False,
/// appending nothing, when neither can be given: a bad position, a damaged file (`error` set
/// as append_answer sets it).
bool append_searched_answer(const Tablebase& tb, std::string_view position,
                            const AnswerOptions& options, const SearchOptions& search,
                            std::string& out, ProbeError& error);

} // namespace owaredb::cli
