// owaredb probe library: perfect-play values of Oware positions from owaredb databases.
//
// Contract
// - A Tablebase reads one rule set's level files ("<rules>-NN.owdb") from one directory.
//   Opening does no I/O: each level file is opened on first use, validated (header, index,
//   the rules and seed count it records), and read through a bounded cache of decompressed
//   blocks shared by all levels. A level file that opened stays open for the Tablebase's
//   life (a file replaced later is not seen; the one opened stays in use). One that did
//   not (missing, damaged, half copied) is not remembered as such: its path is looked at
//   again, at most every 0.1 s, and opened anew once the file there has changed, so a
//   level generated or copied in after it was first asked for is found without a restart.
// - A directory of Romein & Bal's published awari databases ("scores.0" .. "scores.48",
//   VU Amsterdam 2024: one signed byte per position, no header) is read the same way, in
//   place: rules "awari", each file memory-mapped on first use, no cache of ours. A file
//   of the wrong size, or a byte outside -n..n where a query reads it, is Corrupt naming the
//   file (and the offset); a missing "scores.N" is NotAvailable. Such a directory holds no
//   bound files and no other rule set (NotAvailable). A directory holding both kinds of
//   file answers every query Corrupt, saying so: its answers would come from two sources.
//   As with every memory-mapped file, a "scores.N" must not be truncated or rewritten in
//   place while a Tablebase has it open (reading a page past a truncation raises SIGBUS
//   in the process); replacing it with a new file by rename is safe.
// - Positions are 12 pit counts, pits 0..5 belonging to the side to move (docs/rules.md,
//   Board and pits). Other boards, of P = 1..8 pits a side (files "<rules>-pP-NN.owdb"),
//   are read by a Tablebase made for that board (the constructor taking pits_per_side),
//   through the functions taking a std::span of 2P pit counts (pits 0..P-1 the side to
//   move's); those functions answer on the standard board too. A Tablebase reads one board:
//   a position of another size, or a directory whose files are of another board, is
//   InvalidPosition naming both sizes. Values are for the side to move: (seeds it will still
//   capture) - (seeds the opponent will), -n..n for n seeds on the board, perfect play by both
//   sides, endless play counted 0 (docs/values.md, The value).
// - Positions stored in the databases (the side that just moved has an empty pit) are
//   read directly; any other position (e.g. the start position) is valued by one ply of
//   search over its children, which always are stored.
// - Errors are values: no function throws for a bad position, a missing level or a
//   damaged file (only std::bad_alloc can escape). A missing level gives
//   Status::NotAvailable; a damaged file Status::Corrupt naming the file and block. A
//   value is never returned from a block whose checksum failed.
//   ProbeResult's accessors never throw either (value() has a precondition, ok(); see
//   there).
// - Thread-safe: one Tablebase may be used by any number of threads at once.
#pragma once

#include "owaredb/api.h"

#include <array>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace owaredb {

/// Pit counts, pits 0..5 for the side to move, in sowing order.
using Pits = std::array<uint8_t, 12>;

/// Pit counts of a position on a board of any size, P = 1..8 pits a side: 2P counts in
/// sowing order, pits 0..P-1 for the side to move (on the standard board, a Pits' twelve).
/// What the answers of the functions taking a std::span of pit counts hold.
using BoardPits = std::vector<uint8_t>;

enum class ProbeStatus {
    Ok = 0,
    NotAvailable,    ///< the level file this query needs does not exist
    InvalidPosition, ///< more than 48 seeds, or pit counts not of the Tablebase's board
    InvalidRules,    ///< unknown rule-set name
    Corrupt,         ///< a level file is damaged, truncated, or not the level it claims
    IoError,         ///< the operating system refused to read a file
};

/// The version of the library loaded at run time, "MAJOR.MINOR.PATCH": the project's
/// version in CMake (project(owaredb VERSION ...)), e.g. "0.2.0". A static NUL-terminated
/// string, never null, the same as owaredb_version(). The shared library's soname carries
/// the major version (libowaredb.so.MAJOR), so a program built against one release may run
/// with another of the same major version; this says which one it got.
OWAREDB_API const char* version() noexcept;

/// Stable lower-case name of a status, e.g. "not available".
OWAREDB_API const char* to_string(ProbeStatus status);
/// Stable code word of a status, e.g. "not_available": the `status` field of the error
/// object that the CLI (--json, batch), the HTTP API and Python give.
OWAREDB_API const char* status_code(ProbeStatus status);

/// A ProbeStatus with a message naming the file or the problem.
struct ProbeError {
    ProbeStatus status = ProbeStatus::Ok;
    std::string message;
};

/// The text form of a position: its pit counts in decimal, one space between two
/// ("4 4 4 4 4 4 4 4 4 4 4 4"), as `owaredb probe` reads and prints positions and the error
/// object's "position" names them (README, Errors).
OWAREDB_API std::string position_text(std::span<const uint8_t> pits);

/// The two kinds of level files: the value files "<rules>-NN.owdb" (what value(),
/// analyse() and principal_variation() read) and the bound files "<rules>-NN.bounds.owdb"
/// (what bounds() and analyse_bounds() read; `owaredb generate --bounds` builds them).
enum class LevelFiles { Values, Bounds };

/// The `owaredb generate` command line that builds the `files` of levels 0..max_seeds:
///   "owaredb generate[ --rules R][ --pits P] --max-seeds N[ --bounds][ --dir D]"
/// "--rules" only when `rules` is not empty, "--pits" only for a board other than the
/// standard one (pits_per_side != 6), "--bounds" only for LevelFiles::Bounds, "--dir" only
/// when `dir` is not empty. `dir` is one word of a POSIX shell: as it is when made only of
/// letters, digits and "_./-+,:=@", else in single quotes (a quote in it written '\'').
/// The one builder of the command that the error object's "generate"
/// (Tablebase::missing_levels) and the messages suggest.
OWAREDB_API std::string generate_command(std::string_view rules, int pits_per_side, int max_seeds,
                                         std::string_view dir,
                                         LevelFiles files = LevelFiles::Values);

/// Why `dir` cannot be read as a database directory, in the words of `owaredb probe`:
/// "no database directory 'D'" followed by " " and `missing_hint` when that is not empty
/// (the CLI's "(see owaredb generate)"), "'D' is not a directory", "cannot use 'D' as the
/// database directory: REASON" or "cannot read the directory 'D': REASON"; empty when it is
/// a directory that can be listed. A Tablebase does not ask (its files, even its directory,
/// may come later); the commands and Python's Tablebase refuse such a directory at the
/// start with this message.
OWAREDB_API std::string directory_problem(const std::filesystem::path& dir,
                                          std::string_view missing_hint = {});

/// What the error object (README, Errors) adds for a query that failed NotAvailable: the
/// levels the position may need whose files are not there, which files those are, and the
/// command that builds them. What `owaredb probe --json`, the HTTP API and Python's
/// exceptions say.
struct MissingLevels {
    int seeds = 0; ///< the position's seeds: the largest level a query of it may need
    LevelFiles files = LevelFiles::Values; ///< the kind of file missing (the query's)
    std::vector<int> levels; ///< every level 0..seeds whose `files` are not there, ascending
    std::string generate;    ///< the command that builds those files of levels 0..seeds
};

namespace detail {
// What ProbeResult's accessors return for the alternative a result does not hold. At
// namespace scope, constant-initialized, rather than function-local statics: those need a
// guarded initialization inside every accessor, which makes GCC 12 report false
// -Wmaybe-uninitialized errors in the std::variant destructors of the callers' results.
// Hidden: each program and library has its own copy, and libowaredb.so exports none
// (builds that do not fold them away, such as ASan's, would otherwise export them).
[[gnu::visibility("hidden")]] inline const ProbeError kNoError{};
template <class T> [[gnu::visibility("hidden")]] inline const T kNoValue{};
} // namespace detail

/// Either a T (the answer) or a ProbeError.
///
/// No member throws: every accessor is noexcept, whichever alternative the result holds.
/// T is one of the library's result types (int, PositionInfo, PrincipalVariation, Bounds,
/// BoundsInfo, and their Board... versions), all default-constructible.
template <class T> class [[nodiscard]] ProbeResult {
  public:
    /// An ok() result holding a value-initialized T (0 for int, empty lists, every field
    /// at its default), as std::expected does: a placeholder for Tablebase::values() to
    /// overwrite, not an answer.
    ProbeResult() = default;
    ProbeResult(T value) : v_(std::move(value)) {}
    ProbeResult(ProbeError error) : v_(std::move(error)) {}

    /// Whether the result holds an answer (else it holds an error).
    bool ok() const noexcept { return v_.index() == 0; }
    explicit operator bool() const noexcept { return ok(); }

    /// The answer. Precondition: ok(). A violation fails an assert() in builds without
    /// NDEBUG (the check is compiled into the caller, so the caller's NDEBUG decides); with
    /// NDEBUG it returns a value-initialized T (the default state's), never throws and is
    /// never undefined behaviour. Check ok() first: that T is not an answer.
    const T& value() const noexcept {
        assert(ok() && "owaredb::ProbeResult::value() on an error; check ok() first");
        if (const T* v = std::get_if<0>(&v_)) return *v;
        return detail::kNoValue<T>;
    }
    /// value(), with the same precondition.
    const T& operator*() const noexcept { return value(); }
    /// &value(), with the same precondition.
    const T* operator->() const noexcept { return &value(); }

    /// The error's status; ProbeStatus::Ok when ok().
    ProbeStatus status() const noexcept { return error().status; }
    /// The error's message; empty when ok().
    const std::string& message() const noexcept { return error().message; }
    /// The error. When ok(), a ProbeError with status ProbeStatus::Ok and an empty message
    /// (no precondition: status() and message() are its fields).
    const ProbeError& error() const noexcept {
        if (const ProbeError* e = std::get_if<1>(&v_)) return *e;
        return detail::kNoError;
    }

  private:
    std::variant<T, ProbeError> v_;
};

// The answers are the same on every board but for the type of the positions they hold:
// Pits for the standard board (MoveInfo, PositionInfo, ...), BoardPits for any board
// (BoardMoveInfo, BoardPositionInfo, ...). Moves are numbered 1..P, 1..6 on the standard
// board.

/// One legal move and what it is worth to the side playing it.
template <class PitCounts> struct BasicMoveInfo {
    int pit = 0;       ///< 1..P, from the mover's left
    int captured = 0;  ///< seeds this move captures
    int value = 0;     ///< captured - value of the child for its mover
    PitCounts child{}; ///< the position after the move, opponent to move (rotated)
};
using MoveInfo = BasicMoveInfo<Pits>;
using BoardMoveInfo = BasicMoveInfo<BoardPits>;

/// The full answer for one position.
template <class PitCounts> struct BasicPositionInfo {
    int seeds = 0;
    int value = 0;                               ///< value for the side to move
    bool terminal = false;                       ///< no legal move: the game is over
    std::vector<BasicMoveInfo<PitCounts>> moves; ///< every legal move, in pit order
    std::vector<int> best;                       ///< pits (1..P) of the moves worth `value`
};
using PositionInfo = BasicPositionInfo<Pits>;
using BoardPositionInfo = BasicPositionInfo<BoardPits>;

/// One ply of a principal variation.
template <class PitCounts> struct BasicPvStep {
    PitCounts position{}; ///< before the move, side to move first
    int pit = 0;          ///< 1..P
    int captured = 0;
    int value = 0; ///< value of `position` for its mover
};
using PvStep = BasicPvStep<Pits>;
using BoardPvStep = BasicPvStep<BoardPits>;

/// How a principal variation ends.
enum class PvEnd {
    GameOver,    ///< no legal move
    EndlessPlay, ///< a position of value 0 repeated: both sides can keep going round (0)
    PlyLimit,    ///< max_plies reached
    Repetition,  ///< only if the search for a forcing line ran out of its budget (2^18
                 ///< positions), which no test has seen
};

/// Stable lower-case name of an ending: "game over", "endless play", "ply limit",
/// "repetition".
OWAREDB_API const char* to_string(PvEnd end);

/// A line of perfect play from a position to the end of the game.
template <class PitCounts> struct BasicPrincipalVariation {
    std::vector<BasicPvStep<PitCounts>> steps;
    PitCounts final_position{};
    PvEnd end = PvEnd::PlyLimit;
    int final_value = 0; ///< terminal value of final_position for its mover ("game over")
};
using PrincipalVariation = BasicPrincipalVariation<Pits>;
using BoardPrincipalVariation = BasicPrincipalVariation<BoardPits>;

/// Convention-free bounds of a position (docs/values.md, Convention-free bounds), from the
/// bound files ("<rules>-NN.bounds.owdb", `owaredb generate --bounds`). The rules of the
/// seeds give each side the seeds on its own side when play goes round for ever, which
/// depends on history; what holds under every rule for endless play is:
/// - gM: the seeds the side to move can force by play that ends by itself (captures and
///   the final sweep) along a line that never repeats a position;
/// - gN: the same for its opponent.
/// gM and gN are the least fixed point of gM(p) = max over moves (captured + gN(child)),
/// gN(p) = min over moves gM(child), terminal positions split by the rule set. Always
/// gM + gN <= seeds; the even-split value lies in [2 gM - seeds, seeds - 2 gN].
struct Bounds {
    int seeds = 0;
    int gM = 0;         ///< seeds the side to move can force, 0..seeds
    int gN = 0;         ///< seeds the opponent can force, 0..seeds - gM
    bool exact = false; ///< gM + gN == seeds: the division is the same under every cycle rule
};

/// One legal move and the bounds it guarantees.
template <class PitCounts> struct BasicMoveBounds {
    int pit = 0;       ///< 1..P, from the mover's left
    int captured = 0;  ///< seeds this move captures
    int gM = 0;        ///< what the mover can force after it: captured + gN(child)
    int gN = 0;        ///< what the opponent can force after it: gM(child)
    PitCounts child{}; ///< the position after the move, opponent to move (rotated)
};
using MoveBounds = BasicMoveBounds<Pits>;
using BoardMoveBounds = BasicMoveBounds<BoardPits>;

/// The bounds of a position with every legal move's.
template <class PitCounts> struct BasicBoundsInfo {
    Bounds bounds;
    bool terminal = false;                         ///< no legal move: the split is the rule set's
    std::vector<BasicMoveBounds<PitCounts>> moves; ///< every legal move, in pit order
};
using BoundsInfo = BasicBoundsInfo<Pits>;
using BoardBoundsInfo = BasicBoundsInfo<BoardPits>;

struct TablebaseOptions {
    static constexpr std::size_t kDefaultCacheBytes = std::size_t(256) << 20;
    /// Memory for decompressed blocks, shared by every level and thread. One rule in every
    /// API (C++, C's owaredb_open, Python's cache_bytes, the --cache-mb of `owaredb probe`
    /// and `owaredb serve`): 0 means the default, kDefaultCacheBytes (256 MiB); any other
    /// size is used as given (one smaller than a block keeps none, and every lookup then
    /// decompresses its block).
    std::size_t cache_bytes = kDefaultCacheBytes;
};

class OWAREDB_API Tablebase {
  public:
    /// A tablebase over `dir` for rule set `rules` ("abapa" or "awari") on the standard
    /// board (6 pits a side). No I/O happens here; an unknown rules name makes every query
    /// return InvalidRules. An empty `rules` reads the directory's rule set, chosen here as
    /// the commands choose it without --rules (listing `dir` once): the one rule set whose
    /// level files lie there, else awari for Romein & Bal's published files, else abapa;
    /// files of several rule sets (or of an unknown one) make every query return
    /// InvalidRules saying so, as a board that is none does below.
    Tablebase(std::filesystem::path dir, std::string rules, TablebaseOptions options = {});
    /// The same for a board of `pits_per_side` pits a side, 1..8 (files
    /// "<rules>-pP-NN.owdb"; 6: the standard board, "<rules>-NN.owdb", as above), or 0 for
    /// the board of the level files in `dir`, found here by listing it once (6 when it holds
    /// none). A number outside 0..8, or 0 for a directory holding files of several boards,
    /// makes every query return InvalidPosition saying so.
    Tablebase(std::filesystem::path dir, std::string rules, int pits_per_side,
              TablebaseOptions options = {});
    ~Tablebase();
    Tablebase(Tablebase&&) noexcept;
    Tablebase& operator=(Tablebase&&) noexcept;

    /// The board: pits a side, 1..8 (6 for the standard board; 0 when the constructor's
    /// number was not a board's, or no rule set could be chosen).
    [[nodiscard]] int pits_per_side() const;

    /// Value of the position for the side to move.
    [[nodiscard]] ProbeResult<int> value(const Pits& position) const;
    /// The same for a position of 2P pit counts on this Tablebase's board of P pits a side
    /// (any P, 6 included); another number of pit counts is InvalidPosition, naming both.
    [[nodiscard]] ProbeResult<int> value(std::span<const uint8_t> position) const;

    /// Value, every legal move with its value, and the best moves.
    [[nodiscard]] ProbeResult<PositionInfo> analyse(const Pits& position) const;
    /// The same for 2P pit counts (as value(std::span)).
    [[nodiscard]] ProbeResult<BoardPositionInfo> analyse(std::span<const uint8_t> position) const;

    /// Perfect play from the position until the game ends or play provably goes on
    /// forever, at most max_plies plies. The databases hold values, not distances, so from
    /// a position worth t != 0 the line is a shortest sequence of best moves to the next
    /// capture (breadth-first search; the side worth -t plays its default best move), which
    /// always exists; elsewhere a capturing best move is preferred, then the lowest pit.
    /// The captures along the line (signed for the side making them) plus the seeds taken
    /// at the end add up to the position's value. Never more than max_plies steps (a line
    /// cut there ends PlyLimit at the position its next move would be played from);
    /// max_plies < 0 is an error (InvalidPosition, naming it).
    [[nodiscard]] ProbeResult<PrincipalVariation> principal_variation(const Pits& position,
                                                                      int max_plies = 1000) const;
    /// The same for 2P pit counts (as value(std::span)).
    [[nodiscard]] ProbeResult<BoardPrincipalVariation>
    principal_variation(std::span<const uint8_t> position, int max_plies = 1000) const;

    /// Values of many positions: results[i] answers positions[i]. Same contract as
    /// value(); sizes must match (else every result is InvalidPosition).
    void values(std::span<const Pits> positions, std::span<ProbeResult<int>> results) const;
    /// The same for positions of 2P pit counts each, one after the other: results[i]
    /// answers pits[2P i .. 2P i + 2P - 1]; pits.size() must be 2P results.size() (else
    /// every result is InvalidPosition).
    void values(std::span<const uint8_t> pits, std::span<ProbeResult<int>> results) const;

    /// Whether the level file for n seeds (of this Tablebase's board) exists and is valid
    /// (opens it). False may turn true once the file is there (see the contract above); true
    /// stays true.
    [[nodiscard]] bool level_available(int seeds) const;

    /// gM, gN of the position from the bound files (a position outside the databases by
    /// one ply over its children, like value()). NotAvailable when a bound file needed is
    /// missing; the value files are not needed. Same error contract as value().
    [[nodiscard]] ProbeResult<Bounds> bounds(const Pits& position) const;
    /// The same for 2P pit counts (as value(std::span)).
    [[nodiscard]] ProbeResult<Bounds> bounds(std::span<const uint8_t> position) const;

    /// Bounds of the position and of every legal move.
    [[nodiscard]] ProbeResult<BoundsInfo> analyse_bounds(const Pits& position) const;
    /// The same for 2P pit counts (as value(std::span)).
    [[nodiscard]] ProbeResult<BoardBoundsInfo>
    analyse_bounds(std::span<const uint8_t> position) const;

    /// Whether the bound file for n seeds exists and is valid (opens it).
    [[nodiscard]] bool bounds_available(int seeds) const;

    /// For a query of a position of `seeds` seeds that failed NotAvailable: every level
    /// 0..seeds whose `files` are not there (level_available(), or bounds_available() for
    /// the bound files that bounds() and analyse_bounds() read; a query may need any of
    /// them: captures lead to lower levels), and the command that builds those files
    /// (generate_command: "--bounds" for the bound files) with this Tablebase's rules and
    /// board into `dir` (empty: directory() as it was given). Opens each level that is
    /// there, as level_available() does. `seeds` outside 0..48 is taken as the nearest of
    /// the two.
    [[nodiscard]] MissingLevels missing_levels(int seeds, std::string_view dir = {},
                                               LevelFiles files = LevelFiles::Values) const;

    const std::filesystem::path& directory() const;
    /// The rule set read: the constructor's, or the directory's when it was given none.
    const std::string& rules() const;

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace owaredb
