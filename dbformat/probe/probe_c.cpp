// The C API (owaredb/probe.h) over the C++ Tablebase.
#include "owaredb/probe.h"

#include "oware/position.hpp"
#include "oware/rules.hpp"
#include "owaredb/probe.hpp"
#include "owaredb/search.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <new>
#include <span>
#include <vector>

struct owaredb_tablebase {
    owaredb::Tablebase tb;
};

namespace {

// The C statuses are the C++ ones, value for value: to_c is a cast.
using owaredb::ProbeStatus;
static_assert(int(ProbeStatus::Ok) == OWAREDB_OK);
static_assert(int(ProbeStatus::NotAvailable) == OWAREDB_NOT_AVAILABLE);
static_assert(int(ProbeStatus::InvalidPosition) == OWAREDB_INVALID_POSITION);
static_assert(int(ProbeStatus::InvalidRules) == OWAREDB_INVALID_RULES);
static_assert(int(ProbeStatus::Corrupt) == OWAREDB_CORRUPT);
static_assert(int(ProbeStatus::IoError) == OWAREDB_IO_ERROR);
// The C endings are the C++ ones, value for value.
using owaredb::PvEnd;
static_assert(int(PvEnd::GameOver) == OWAREDB_PV_GAME_OVER);
static_assert(int(PvEnd::EndlessPlay) == OWAREDB_PV_ENDLESS_PLAY);
static_assert(int(PvEnd::PlyLimit) == OWAREDB_PV_PLY_LIMIT);
static_assert(int(PvEnd::Repetition) == OWAREDB_PV_REPETITION);

// The C search's limits are the C++ ones.
static_assert(OWAREDB_SEARCH_MAX_DEPTH == owaredb::SearchOptions::kMaxDepth);
static_assert(OWAREDB_MAX_MOVES == owaredb::kMaxPitsPerSide);

owaredb_status to_c(owaredb::ProbeStatus s) {
    return static_cast<owaredb_status>(s);
}

void copy_message(const std::string& text, char* out, size_t size) {
    if (!out || size == 0) return;
    size_t n = std::min(text.size(), size - 1);
    std::memcpy(out, text.data(), n);
    out[n] = '\0';
}

owaredb::Pits to_pits(const uint8_t* pits) {
    owaredb::Pits p;
    std::copy(pits, pits + 12, p.begin());
    return p;
}

// A position of the handle's board, 2P pit counts.
std::span<const uint8_t> board_pits(const owaredb_tablebase* tb, const uint8_t* pits) {
    return {pits, 2 * std::size_t(tb->tb.pits_per_side())};
}

// The handle's board: the standard one is asked through the Pits API (its answers as they
// are), any other through the pit-count API.
bool standard(const owaredb_tablebase* tb) {
    return tb->tb.pits_per_side() == 6;
}

// analyse() on the handle's board: the moves (pit, captured, value) into moves[], their
// number into *count, the value into *value.
template <class Info>
owaredb_status write_moves(const owaredb::ProbeResult<Info>& r, owaredb_analysis* out,
                           char* message, size_t message_size) {
    if (!r) {
        copy_message(r.message(), message, message_size);
        return to_c(r.status());
    }
    static_assert(sizeof out->moves / sizeof out->moves[0] >= owaredb::kMaxPitsPerSide);
    out->count = static_cast<int>(r->moves.size());
    for (size_t i = 0; i < r->moves.size(); ++i)
        out->moves[i] = {r->moves[i].pit, r->moves[i].captured, r->moves[i].value};
    out->value = r->value;
    return OWAREDB_OK;
}

// What is wrong with the in fields of a C search (empty: nothing); the C++ search checks
// the rest (a budget, the depth, the position).
std::string search_input_problem(const owaredb_search_result& s) {
    if (!std::isfinite(s.max_seconds) || s.max_seconds < 0) {
        char seconds[32];
        std::snprintf(seconds, sizeof seconds, "%g", s.max_seconds);
        return "max_seconds " + std::string(seconds) + ": must be 0 or more, finite";
    }
    if (s.max_depth < 0 || s.max_depth > OWAREDB_SEARCH_MAX_DEPTH)
        return "max_depth " + std::to_string(s.max_depth) + ": must be 0.." +
               std::to_string(OWAREDB_SEARCH_MAX_DEPTH);
    if (s.max_pv < 0 || (!s.pv && s.max_pv > 0))
        return "max_pv " + std::to_string(s.max_pv) + ": must be 0 or more, with room at pv";
    return {};
}

// The C++ answer into the out fields of `out`.
void write_search(const owaredb::SearchResult& r, owaredb_search_result& out) {
    out.proven = r.proven ? 1 : 0;
    out.best_move = r.best_move;
    out.value = r.value;
    out.depth = r.depth;
    out.nodes = r.nodes;
    out.seconds = r.seconds;
    out.pv_count = static_cast<int>(std::min<std::size_t>(r.pv.size(), std::size_t(out.max_pv)));
    std::copy_n(r.pv.begin(), out.pv_count, out.pv);
    out.move_count = static_cast<int>(r.moves.size());
    for (std::size_t i = 0; i < r.moves.size(); ++i) {
        const owaredb::SearchMove& m = r.moves[i];
        out.moves[i] = {m.pit, m.captured, m.value, m.exact ? 1 : 0, m.proven ? 1 : 0};
    }
}

} // namespace

extern "C" {

owaredb_status owaredb_open(const char* dir, const char* rules, size_t cache_bytes,
                            owaredb_tablebase** out) {
    return owaredb_open_board(dir, rules, 6, cache_bytes, out);
}

owaredb_status owaredb_open_board(const char* dir, const char* rules, int pits_per_side,
                                  size_t cache_bytes, owaredb_tablebase** out) {
    if (!dir || !out) return OWAREDB_INVALID_POSITION;
    owaredb::TablebaseOptions options;
    options.cache_bytes = cache_bytes; // 0: the default, as Tablebase reads it
    try {
        // "" (and NULL): the directory's rule set, which the C++ Tablebase chooses.
        owaredb::Tablebase tb(dir, rules ? rules : "", pits_per_side, options);
        // An unknown name, or a directory of several rule sets or of an unknown one.
        if (!owaredb::Rules::by_name(tb.rules())) return OWAREDB_INVALID_RULES;
        // Not a board (or, for 0, a directory of several): nothing to open.
        if (tb.pits_per_side() == 0) return OWAREDB_INVALID_POSITION;
        *out = new owaredb_tablebase{std::move(tb)};
        return OWAREDB_OK;
    } catch (const std::bad_alloc&) {
        return OWAREDB_IO_ERROR;
    }
}

const char* owaredb_rules(const owaredb_tablebase* tb) {
    return tb ? tb->tb.rules().c_str() : nullptr;
}

int owaredb_pits_per_side(const owaredb_tablebase* tb) {
    return tb ? tb->tb.pits_per_side() : 0;
}

void owaredb_close(owaredb_tablebase* tb) {
    delete tb;
}

owaredb_status owaredb_value(const owaredb_tablebase* tb, const uint8_t pits[12], int* value,
                             char* message, size_t message_size) {
    if (!tb || !pits || !value) return OWAREDB_INVALID_POSITION;
    auto r = standard(tb) ? tb->tb.value(to_pits(pits)) : tb->tb.value(board_pits(tb, pits));
    if (!r) {
        copy_message(r.message(), message, message_size);
        return to_c(r.status());
    }
    *value = *r;
    return OWAREDB_OK;
}

owaredb_status owaredb_moves(const owaredb_tablebase* tb, const uint8_t pits[12],
                             owaredb_analysis* out, char* message, size_t message_size) {
    if (!tb || !pits || !out) return OWAREDB_INVALID_POSITION;
    if (standard(tb)) return write_moves(tb->tb.analyse(to_pits(pits)), out, message, message_size);
    return write_moves(tb->tb.analyse(board_pits(tb, pits)), out, message, message_size);
}

owaredb_status owaredb_values(const owaredb_tablebase* tb, const uint8_t* positions, size_t n,
                              int* values, owaredb_status* statuses) {
    if (!tb || (n && (!positions || !values || !statuses))) return OWAREDB_INVALID_POSITION;
    owaredb_status first = OWAREDB_OK;
    // Through the C++ batch call, a chunk at a time (its lookups overlap).
    constexpr size_t kChunk = 256;
    const size_t width = 2 * size_t(tb->tb.pits_per_side());
    std::vector<owaredb::Pits> chunk;
    std::vector<owaredb::ProbeResult<int>> results;
    for (size_t start = 0; start < n; start += kChunk) {
        const size_t count = std::min(kChunk, n - start);
        results.assign(count, owaredb::ProbeResult<int>(0));
        if (standard(tb)) {
            chunk.clear();
            for (size_t i = 0; i < count; ++i)
                chunk.push_back(to_pits(positions + 12 * (start + i)));
            tb->tb.values(chunk, results);
        } else {
            tb->tb.values(std::span(positions + width * start, width * count), results);
        }
        for (size_t i = 0; i < count; ++i) {
            const auto& r = results[i];
            statuses[start + i] = to_c(r.status());
            values[start + i] = r ? *r : 0;
            if (!r && first == OWAREDB_OK) first = statuses[start + i];
        }
    }
    return first;
}

owaredb_status owaredb_bounds(const owaredb_tablebase* tb, const uint8_t pits[12],
                              owaredb_bounds_result* out, char* message, size_t message_size) {
    if (!tb || !pits || !out) return OWAREDB_INVALID_POSITION;
    auto r = standard(tb) ? tb->tb.bounds(to_pits(pits)) : tb->tb.bounds(board_pits(tb, pits));
    if (!r) {
        copy_message(r.message(), message, message_size);
        return to_c(r.status());
    }
    *out = {r->gM, r->gN, r->exact ? 1 : 0};
    return OWAREDB_OK;
}

owaredb_status owaredb_principal_variation(const owaredb_tablebase* tb, const uint8_t pits[12],
                                           owaredb_pv* pv, char* message, size_t message_size) {
    if (!tb || !pits || !pv || pv->max_plies < 0 || (!pv->steps && pv->max_plies > 0))
        return OWAREDB_INVALID_POSITION;
    // The pit-count API on every board, the standard one included: one path.
    const auto r = tb->tb.principal_variation(board_pits(tb, pits), pv->max_plies);
    if (!r) {
        copy_message(r.message(), message, message_size);
        return to_c(r.status());
    }
    static_assert(sizeof pv->final_position >= 2 * owaredb::kMaxPitsPerSide);
    pv->count = static_cast<int>(r->steps.size());
    for (size_t i = 0; i < r->steps.size(); ++i) {
        const owaredb::BoardPvStep& s = r->steps[i];
        owaredb_pv_step& out = pv->steps[i];
        std::memset(out.position, 0, sizeof out.position);
        std::copy(s.position.begin(), s.position.end(), out.position);
        out.pit = s.pit;
        out.captured = s.captured;
        out.value = s.value;
    }
    pv->end = static_cast<owaredb_pv_end>(r->end);
    std::memset(pv->final_position, 0, sizeof pv->final_position);
    std::copy(r->final_position.begin(), r->final_position.end(), pv->final_position);
    pv->final_value = r->final_value;
    return OWAREDB_OK;
}

owaredb_status owaredb_search(const owaredb_tablebase* tb, const uint8_t pits[12],
                              owaredb_search_result* search, char* message, size_t message_size) {
    if (!tb || !pits || !search) return OWAREDB_INVALID_POSITION;
    const std::string problem = search_input_problem(*search);
    if (!problem.empty()) {
        copy_message(problem, message, message_size);
        return OWAREDB_INVALID_POSITION;
    }
    owaredb::SearchOptions options;
    options.max_nodes = search->max_nodes;
    options.max_seconds = search->max_seconds;
    if (search->max_depth) options.max_depth = search->max_depth;
    try {
        const auto r = owaredb::search(tb->tb, board_pits(tb, pits), options);
        if (!r) {
            copy_message(r.message(), message, message_size);
            return to_c(r.status());
        }
        write_search(*r, *search);
        return OWAREDB_OK;
    } catch (const std::bad_alloc&) { // the transposition table
        copy_message("out of memory for the search's table", message, message_size);
        return OWAREDB_IO_ERROR;
    }
}

const char* owaredb_status_string(owaredb_status status) {
    return owaredb::to_string(static_cast<owaredb::ProbeStatus>(status));
}

const char* owaredb_version(void) {
    return owaredb::version(); // one string for both APIs
}

} // extern "C"
