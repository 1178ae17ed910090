/* owaredb probe library, C API: perfect-play values of Oware positions.
 *
 * The same contract as owaredb/probe.hpp, for C and for other languages' foreign-function
 * interfaces. Every function returns an owaredb_status; OWAREDB_OK (0) means the output
 * parameters were written. No function aborts or exits; messages for errors are copied
 * into a caller buffer. A handle may be used by many threads at once.
 *
 * Positions are 12 pit counts, pits 0..5 for the side to move. Values are for the side to
 * move: seeds it will still capture minus seeds the opponent will, under perfect play,
 * endless play counted 0.
 *
 * Other boards: a handle from owaredb_open_board reads a board of P = 1..8 pits a side
 * (files "<rules>-pP-NN.owdb"); every function taking a position then reads 2P pit counts
 * where the declarations below say 12 (pits 0..P-1 for the side to move), and
 * owaredb_moves writes up to P moves.
 *
 * Versions: while the major version is 0, a new minor version may change this interface
 * (and the library's soname, libowaredb.so.0.MINOR, changes with it); 0.2 gave
 * owaredb_moves and owaredb_bounds an output struct in place of separate out-parameters.
 */
#ifndef OWAREDB_PROBE_H
#define OWAREDB_PROBE_H

#include "owaredb/api.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum owaredb_status {
    OWAREDB_OK = 0,
    OWAREDB_NOT_AVAILABLE = 1,    /* the level file needed does not exist */
    OWAREDB_INVALID_POSITION = 2, /* more than 48 seeds, a null pointer, or not a board */
    OWAREDB_INVALID_RULES = 3,    /* unknown rule-set name */
    OWAREDB_CORRUPT = 4,          /* a damaged or mismatched level file */
    OWAREDB_IO_ERROR = 5          /* the operating system refused a read */
} owaredb_status;

typedef struct owaredb_tablebase owaredb_tablebase;

typedef struct owaredb_move {
    int pit;      /* 1..6 (1..P) from the mover's left */
    int captured; /* seeds captured by the move */
    int value;    /* what the move is worth to the mover: captured - value of the child */
} owaredb_move;

/* Opens a tablebase over directory `dir` for rule set `rules` ("abapa" or "awari") with a
 * cache of `cache_bytes` for decompressed blocks, 0 meaning the default, 256 MiB (the rule
 * of TablebaseOptions::cache_bytes in probe.hpp, and of Python). No file is read yet.
 * `rules` NULL or "" takes the directory's rule set, as `owaredb probe` does without
 * --rules and C++'s Tablebase(dir, ""): the one rule set whose level files lie in `dir`
 * (listed once here), else awari for Romein & Bal's published files, else abapa
 * (owaredb_rules says which). Writes the handle to *out; OWAREDB_INVALID_RULES, with nothing
 * opened, for an unknown name, or for NULL or "" when `dir` holds level files of several
 * rule sets (or of an unknown one). */
OWAREDB_API owaredb_status owaredb_open(const char* dir, const char* rules, size_t cache_bytes,
                                        owaredb_tablebase** out);

/* Opens a tablebase as owaredb_open does, for a board of `pits_per_side` pits a side:
 * 1..8 (6 the standard board, as owaredb_open), or 0 for the board of the level files in
 * `dir`, which is listed once here (6 when it holds none). OWAREDB_INVALID_POSITION, with
 * nothing opened, for a number outside 0..8 or 0 with files of several boards in `dir`;
 * OWAREDB_INVALID_RULES for an unknown rule set. */
OWAREDB_API owaredb_status owaredb_open_board(const char* dir, const char* rules, int pits_per_side,
                                              size_t cache_bytes, owaredb_tablebase** out);

/* The rule set of the handle, "abapa" or "awari" (for one opened with NULL or "", the
 * directory's): a NUL-terminated string that lives as long as the handle; NULL for a null
 * handle. */
OWAREDB_API const char* owaredb_rules(const owaredb_tablebase* tb);

/* The board of the handle: pits a side, 1..8 (6 for a handle from owaredb_open); 0 for a
 * null handle. Positions given to the handle hold twice as many pit counts. */
OWAREDB_API int owaredb_pits_per_side(const owaredb_tablebase* tb);

/* Releases the handle (null is allowed). */
OWAREDB_API void owaredb_close(owaredb_tablebase* tb);

/* Value of `pits` for the side to move, into *value. On error, when `message` is not
 * null, up to message_size-1 bytes of a description are copied there (NUL-terminated). */
OWAREDB_API owaredb_status owaredb_value(const owaredb_tablebase* tb, const uint8_t pits[12],
                                         int* value, char* message, size_t message_size);

/* A position's value and every legal move's (owaredb_moves' output). */
typedef struct owaredb_analysis {
    owaredb_move moves[8]; /* the legal moves, in pit order: moves[0..count-1] */
    int count;             /* legal moves, 0..P (0: the game is over) */
    int value;             /* the position's value for its mover */
} owaredb_analysis;

/* Every legal move of `pits` with its value, and the position's value, into *out
 * (Tablebase::analyse in probe.hpp); nothing is written to *out on error. On error, when
 * `message` is not null, a description is copied there as by owaredb_value. */
OWAREDB_API owaredb_status owaredb_moves(const owaredb_tablebase* tb, const uint8_t pits[12],
                                         owaredb_analysis* out, char* message, size_t message_size);

/* Values of `n` positions (12 bytes each, 2P on a board of P pits a side, consecutive) into
 * values[] and each one's status into statuses[]. Returns OWAREDB_OK when every position succeeded,
 * else the first failure's status. */
OWAREDB_API owaredb_status owaredb_values(const owaredb_tablebase* tb, const uint8_t* positions,
                                          size_t n, int* values, owaredb_status* statuses);

/* Convention-free bounds of a position (owaredb_bounds' output; docs/values.md,
 * Convention-free bounds). */
typedef struct owaredb_bounds_result {
    int gm;    /* seeds the side to move can force by play that ends by itself */
    int gn;    /* the same for the opponent */
    int exact; /* 1 when gm + gn equals the seeds on the board (the division is then the
                  same under every rule for endless play), else 0 */
} owaredb_bounds_result;

/* The bounds of `pits` from the bound files (`owaredb generate --bounds`) into *out;
 * nothing is written to *out on error. OWAREDB_NOT_AVAILABLE when a bound file needed is
 * missing; a message as by owaredb_value. */
OWAREDB_API owaredb_status owaredb_bounds(const owaredb_tablebase* tb, const uint8_t pits[12],
                                          owaredb_bounds_result* out, char* message,
                                          size_t message_size);

/* How a principal variation ends (owaredb::PvEnd in probe.hpp). */
typedef enum owaredb_pv_end {
    OWAREDB_PV_GAME_OVER = 0,    /* no legal move: final_value is the final split */
    OWAREDB_PV_ENDLESS_PLAY = 1, /* a position of value 0 repeated: play goes round (0) */
    OWAREDB_PV_PLY_LIMIT = 2,    /* max_plies written before the end */
    OWAREDB_PV_REPETITION = 3    /* the search for a forcing line ran out of its budget */
} owaredb_pv_end;

/* One ply of a principal variation. */
typedef struct owaredb_pv_step {
    uint8_t position[16]; /* before the move, side to move first: 12 (2P) pit counts used */
    int pit;              /* 1..6 (1..P) */
    int captured;         /* seeds the move captures */
    int value;            /* value of `position` for its mover */
} owaredb_pv_step;

/* A principal variation: the caller's buffer in, the line out (as ZSTD_outBuffer). */
typedef struct owaredb_pv {
    owaredb_pv_step* steps;     /* in: room for max_plies steps (null allowed when 0) */
    int max_plies;              /* in: the most plies written, >= 0 */
    int count;                  /* out: plies written to steps[], 0..max_plies */
    owaredb_pv_end end;         /* out: how the line ends */
    uint8_t final_position[16]; /* out: the position after the last ply (2P counts used) */
    int final_value;            /* out: its terminal value for its mover (game over), else 0 */
} owaredb_pv;

/* A line of perfect play from `pits` until the game ends or provably goes on forever, cut
 * after pv->max_plies plies (then pv->end is OWAREDB_PV_PLY_LIMIT and final_position the
 * position the next ply would be played from): Tablebase::principal_variation in
 * probe.hpp, which says how the line is chosen. The captures along it (signed for the side
 * making them) plus the seeds taken at the end add up to the position's value. Writes
 * pv->count steps, pv->end, pv->final_position and pv->final_value; nothing on error.
 * OWAREDB_INVALID_POSITION for a null pointer, max_plies < 0, or steps null with
 * max_plies > 0. Thread-safe as every call; allocates only inside the library. */
OWAREDB_API owaredb_status owaredb_principal_variation(const owaredb_tablebase* tb,
                                                       const uint8_t pits[12], owaredb_pv* pv,
                                                       char* message, size_t message_size);

/* The most plies a search goes (owaredb::SearchOptions::kMaxDepth), and so the most pits of
 * its expected line; the most legal moves of a position (8 pits a side). */
#define OWAREDB_SEARCH_MAX_DEPTH 100
#define OWAREDB_MAX_MOVES 8

/* One legal move of a searched position: what the search's last completed iteration says
 * of it (owaredb::SearchMove in owaredb/search.hpp; `probe --search --json`'s "moves"). */
typedef struct owaredb_search_move {
    int pit;      /* 1..6 (1..P) */
    int captured; /* seeds the move captures */
    int value;    /* captured - the child's score */
    int exact;    /* 1: value is the tree's value of the move ("exact"); 0: an upper bound
                   * ("at_most": not the best, no more is known) */
    int proven;   /* 1: that value, or bound, holds under perfect play */
} owaredb_search_move;

/* A search: the budget and the buffer for its line in, the answer out (as ZSTD_outBuffer).
 * Set the in fields and zero the rest: owaredb_search_result s = {0}; s.max_nodes = ...; */
typedef struct owaredb_search_result {
    uint64_t max_nodes; /* in: positions visited at most (0: no limit) */
    double max_seconds; /* in: wall-clock seconds at most (0: no limit); finite, >= 0 */
    int max_depth;      /* in: plies at most, 1..OWAREDB_SEARCH_MAX_DEPTH; 0: the most */
    int* pv;            /* in: room for max_pv pits (null allowed when 0) */
    int max_pv;         /* in: the most pits of the line written, >= 0 (OWAREDB_SEARCH_MAX_DEPTH:
                         * the whole line, always) */
    int proven;         /* out: 1 proven (search), 0 a search estimate: never a database value */
    int best_move;      /* out: 1..6 (1..P); 0 when the game is over (no legal move) */
    int value;          /* out: for the side to move, on the databases' scale */
    int depth;          /* out: plies of the last completed iteration (0: game over) */
    uint64_t nodes;     /* out: positions visited */
    double seconds;     /* out: wall-clock time taken */
    int pv_count;       /* out: pits written to pv[]: the expected line, best move first, cut at
                         * max_pv */
    int move_count;     /* out: legal moves, 0..P */
    owaredb_search_move moves[OWAREDB_MAX_MOVES]; /* out: the first move_count, in pit order */
} owaredb_search_result;

/* Searches `pits`, a position above the levels built or any other, within the budget in
 * *search: owaredb::search in owaredb/search.hpp, whose contract this is (iterative-deepening
 * alpha-beta whose leaves are database values and the game's end; a proven answer is the
 * position's value under perfect play, anything else a search estimate that a front end must
 * name as such). The same answer as `owaredb probe --search` (its "search" member in JSON);
 * with a node budget and no time budget, the same on every run and machine. Writes the out
 * fields of *search; nothing on error. OWAREDB_INVALID_POSITION for a null pointer, a
 * position of more seeds than the board's start (48 on the standard board), no budget (max_nodes
 * and max_seconds both 0), max_seconds negative or not finite, max_depth outside
 * 0..OWAREDB_SEARCH_MAX_DEPTH, max_pv < 0, or pv null with max_pv > 0; OWAREDB_CORRUPT for a
 * damaged level file; OWAREDB_IO_ERROR for a level file the system refused, or no memory for the
 * table. Single-threaded; any number of searches may run at once on one handle; allocates only
 * inside the library (a transposition table of 16 MiB a call). */
OWAREDB_API owaredb_status owaredb_search(const owaredb_tablebase* tb, const uint8_t pits[12],
                                          owaredb_search_result* search, char* message,
                                          size_t message_size);

/* A static description of a status, e.g. "not available". */
OWAREDB_API const char* owaredb_status_string(owaredb_status status);

/* The version of the library loaded at run time, "MAJOR.MINOR.PATCH" (the project's CMake
 * version, e.g. "0.2.0"): a static NUL-terminated string, never NULL, the same as
 * owaredb::version() in C++. The soname carries the major version (libowaredb.so.MAJOR), so
 * a program may run with another release of the major version it was built against; this
 * says which one it got. Needs no handle and cannot fail. */
OWAREDB_API const char* owaredb_version(void);

#ifdef __cplusplus
}
#endif

#endif /* OWAREDB_PROBE_H */
