// What the level directories of one rule set share (DatabaseDir: value files, BoundsDir:
// bound files): the file names, the metadata a level's file must record, reading a whole
// level with its checks, and writing one atomically. And the parallel search for the first
// position of a level that fails a check, used by the consistency checks of
// `owaredb verify` (first_bellman_mismatch, first_bounds_mismatch).
#pragma once

#include "dbformat/reader.hpp"
#include "dbformat/writer.hpp"
#include "oware/oware_game.hpp"
#include "retro/parallel.hpp"
#include "retro/value_array.hpp"

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>

namespace owaredb {

/// The board tag (db::level_file_name) of a board of P pits a side: "" for the standard
/// board (P = 6), "p4" for P = 4.
std::string board_tag(int pits_per_side);
/// The board size a tag names: 6 for "", P for "pP" (P = 1..8), nullopt for anything else.
std::optional<int> pits_of_board_tag(std::string_view tag);

class LevelDir {
  public:
    /// Files of `kind`, `entries_per_position` stored entries per position, for a board of
    /// `pits_per_side` pits a side (1..8; std::invalid_argument otherwise).
    LevelDir(std::filesystem::path dir, Rules rules, db::LevelKind kind,
             uint64_t entries_per_position, int pits_per_side);

    const std::filesystem::path& dir() const { return dir_; }
    const Rules& rules() const { return rules_; }
    /// The board: pits a side (6 the standard).
    int pits() const { return pits_; }
    /// Positions of level n on this board (level_size<P>(n)).
    uint64_t level_size(int n) const;
    /// Calls f(BasicOwareGame<P>(rules())) for this directory's board P and returns what f
    /// returns (with_oware_game): the game its files are of, whatever the board.
    template <class F> auto with_game(F&& f) const {
        return with_oware_game(rules_, pits_, std::forward<F>(f));
    }
    /// The file of level n: "<dir>/<rules>-NN.owdb" (values), "<dir>/<rules>-NN.bounds.owdb"
    /// (bounds); on another board the tag is in the name: "<dir>/<rules>-p4-NN.owdb".
    std::filesystem::path path(int n) const;
    /// What the file of level n must record: rule set, knobs (with the board when it is not
    /// the standard one, Rules::knob_bytes), n, number of entries, kind.
    db::LevelMeta meta(int n) const;
    /// A reader's expectation for level n's file (a file claiming anything else is refused).
    db::Expectation expectation(int n) const { return db::Expectation::exactly(meta(n)); }

    /// Checks every block of level n's file (as loading it does) and counts its stored
    /// bytes, without keeping the level: what a run that does not hold the level in memory
    /// needs of a file that is already there. NotFound for a missing file.
    db::Result<db::Histogram> check(int n, int threads) const;
    /// Checks every block (checksum and decoding) and the whole-file checksum of level n's
    /// file (db::LevelReader::verify), the status's message starting with the file's path.
    db::VerifyReport verify(int n, int threads) const;
    /// The size of level n's file in bytes, 0 when there is none.
    uint64_t file_bytes(int n) const;
    /// Whether level n's file holds capture-bounded values (generate --compact; false also
    /// when it is missing or unreadable). Reads the file's header only.
    bool capture_bounded(int n) const;
    /// The bits an entry of the largest level file below level n that is in the directory,
    /// measured from its size: what estimated_file_bytes() takes for level n. None when no
    /// level below n of at least kMeasuredFileEntries entries has a file here (a small
    /// level's bits say little of a large one's). With `known_bytes`, a level whose file is
    /// not here counts with the size known_bytes(level) gives (a build record's, for
    /// `generate --plan` on a new directory), 0 when it knows none; the largest level
    /// either way is taken. Only files of the kind level n will be written in count:
    /// capture-bounded ones (generate --compact, whose files are about a quarter smaller,
    /// dbformat/README.md) when `capture_bounded`, else exact ones, a file of the other
    /// kind counting as missing (known_bytes gives sizes of exact files: it is not asked
    /// for a capture-bounded level); so a level whose smaller levels are of the other kind
    /// is not underestimated by a quarter.
    std::optional<double> measured_file_bits(int n,
                                             const std::function<uint64_t(int)>& known_bytes = {},
                                             bool capture_bounded = false) const;
    static constexpr uint64_t kMeasuredFileEntries = uint64_t(1) << 20;
    /// The bytes of level n's checkpoint, exit file and scan files that a killed run left
    /// (0 for none there): what a resumed build of the level has on disk already.
    uint64_t scratch_bytes(int n) const;
    /// The bytes of every file of level n in the directory now: its file, a file being
    /// written, its checkpoint, exit files and scan files (every name that starts with the
    /// file's stem and a dot, e.g. "awari-34."); what the level holds on disk.
    uint64_t level_bytes(int n) const;
    /// Io naming the first of level n's files (its file, its checkpoint, its exit file)
    /// that is there but not a regular file (a FIFO, a device, a directory), else ok:
    /// generate refuses those before solving, rather than replace what it did not write
    /// (or wait on a FIFO). Opens nothing.
    db::Status check_file_types(int n) const;
    /// A level whose file is written needs no scratch files: removes those a run killed
    /// after writing it may have left (its checkpoint, the exit files of one process and
    /// of every rank of a distributed run, and the scan files of the 4-bit engine).
    void remove_scratch(int n) const;

  protected:
    /// Reads level n's file whole into `values` (resized to its entries), checking every
    /// block checksum and that the file is the level asked for; `info` receives the file's
    /// description. Returns the reader's status (NotFound for a missing file).
    db::Status read_level(int n, ValueArray& values, db::LevelInfo& info, int threads) const;
    /// Writes `entries` as the file of level n with metadata `m`, atomically, creating the
    /// directory; throws on failure.
    db::WriteReport write_level(int n, const db::LevelMeta& m, std::span<const int8_t> entries,
                                int threads) const;
    /// The same, the entries read piecewise from `entries` (db::ValueSource).
    db::WriteReport write_level(int n, const db::LevelMeta& m, const db::ValueSource& entries,
                                int threads) const;

    std::filesystem::path dir_;
    Rules rules_;
    db::LevelKind kind_;
    uint64_t entries_per_position_;
    int pits_;
};

/// A generous estimate of the size of a level file of `entries` entries, for free-space
/// checks: 6 bits an entry (files measure 1.5-4.5 bits, dbformat/README.md) and for the
/// format's overhead 1/4 bit an entry and 64 KiB, a margin in proportion to the level (a
/// fixed 16 MiB a level refused levels 0..8, 27 KB of files, on a 3 MB disk).
/// With `measured_bits` (LevelDir::measured_file_bits: the largest smaller level's bits an
/// entry), 1.1 times those in place of the 6 bits when that is less: a level's bits grow
/// slowly with its seeds (awari 3.36 at 15, 3.76 at 21, 3.80 at 36: docs/results.md), and
/// 6 bits counted level 38 of awari 18 GB where 11 GB are written, which refused it on a
/// disk where it fits.
uint64_t estimated_file_bytes(uint64_t entries, std::optional<double> measured_bits = {});

/// A generous estimate of the size of the streamed engine's exit file of a level of
/// `positions` positions (tablebase/streamed_files.hpp), for free-space checks: 3 bits a
/// position, about 1.3 times the 2.24 measured at awari level 22 (docs/results.md), and
/// 64 KiB.
uint64_t estimated_exit_file_bytes(uint64_t positions);

/// The smallest i in [begin, end) with differs(i), or `none` when there is none.
/// Parallel over `threads`; the answer does not depend on them.
template <class Differs>
uint64_t first_mismatch(uint64_t begin, uint64_t end, uint64_t none, int threads,
                        Differs&& differs) {
    std::atomic<uint64_t> first{none};
#pragma omp parallel for schedule(dynamic, 4096) num_threads(threads)
    for (uint64_t i = begin; i < end; ++i) {
        if (i >= first.load(std::memory_order_relaxed)) continue;
        if (differs(i)) parallel::atomic_min(first, i);
    }
    return first.load();
}

/// The positions of a level a check covers: all of them, or a rank's slice (verify
/// under mpirun).
struct IndexRange {
    uint64_t begin = 0;
    uint64_t end = UINT64_MAX; ///< clamped to the level's size
};

} // namespace owaredb
