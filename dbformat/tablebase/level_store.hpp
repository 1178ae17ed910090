// A directory's stored levels behind one interface, whatever their file format: owaredb's
// level files ("<rules>-NN.owdb", database_dir.hpp) or Romein & Bal's published awari
// files ("scores.N", published_dir.hpp). open_level_store() lists the directory, finds
// which format its files are of (a directory with files of two formats is refused: its
// answers would come from two sources), and hands out a LevelStore of that format; every
// reader of stored levels (the probe library, verify, stats, compare) goes through it, so
// that a new format is one file (its LevelStore class and its StoreFormat,
// level_store_formats.hpp) and one entry in level_store.cpp's list.
#pragma once

#include "dbformat/reader.hpp"
#include "dbformat/writer.hpp"
#include "oware/rules.hpp"
#include "retro/streamed_sources.hpp"
#include "retro/value_array.hpp"
#include "tablebase/order_conversion.hpp"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace owaredb {

/// The two kinds of level a directory may store: values, or the bounds gM, gN (two
/// entries a position).
enum class StoredKind { Values, Bounds };

/// One stored level opened for random reads (the probe library's lookups). Its entries are
/// addressed in our order: a value level's entry of a position is its rank (ranking.hpp),
/// a bound level's are 2 rank and 2 rank + 1, whatever order the file keeps them in.
class LevelSource {
  public:
    virtual ~LevelSource() = default;
    /// Opens the file (the first call; later calls return its outcome). NotFound for a
    /// missing file, Corrupt, Io, Mismatch... naming the file.
    virtual db::Status open() const = 0;
    /// Whether a new LevelSource of the same level could open where this one failed, or
    /// read where this open one fails: the file at its path is no longer as this one found
    /// it. Cheap (one stat() at most).
    virtual bool stale() const = 0;
    /// out[i] = the entry at indices[i] (the spans of one size). Precondition: open() ok.
    virtual db::Status read(std::span<const uint64_t> indices, std::span<int8_t> out) const = 0;
    /// Whether the file stores capture-bounded values (dbformat/README.md). Precondition:
    /// open() ok.
    virtual bool capture_bounded() const = 0;
    /// The owaredb level reader behind it, if any: reads of several such levels are made
    /// together, so that their memory accesses overlap (read_entries).
    virtual const db::LevelReader* level_reader() const { return nullptr; }
};

/// One lookup for read_entries: the entry at `index` of an open `source`.
struct EntryQuery {
    const LevelSource* source = nullptr;
    uint64_t index = 0;
};
/// The most queries read_entries takes at once (the children of one position, twice).
inline constexpr std::size_t kMaxEntryQueries = 16;

/// Fills values[i] for queries[i] (spans of one size, at most kMaxEntryQueries: else
/// std::invalid_argument) as if they were read one by one, but those of owaredb level files
/// all together (db::LevelReader::read_values). Returns queries.size(), or the index of the
/// first query that fails with its error in `error` (values from there on unspecified).
std::size_t read_entries(std::span<const EntryQuery> queries, std::span<int8_t> values,
                         db::Status& error);

/// A value level read in one order a run at a time, from any number of threads at once
/// (compare): read() throws std::runtime_error naming the file and what is wrong.
class LevelRuns : public db::ValueSource {
  public:
    /// Positions a run should hold so that a read decodes each block once.
    virtual uint64_t chunk() const { return uint64_t(1) << 16; }
};

/// A directory's levels of one format, as a reader of stored levels sees them. Value
/// levels are read with the thread count the store was opened with.
class LevelStore {
  public:
    virtual ~LevelStore() = default;

    /// The format: "owaredb" or "published" (what a verify record keeps).
    virtual std::string_view format() const = 0;
    /// The directory.
    virtual const std::filesystem::path& dir() const = 0;
    /// The rule set of the levels (as asked for when the store was opened).
    virtual const Rules& rules() const = 0;
    /// The board: pits a side (as asked for when the store was opened).
    virtual int pits() const = 0;
    /// The one rule set and board this format can hold, if it is limited to one (Romein &
    /// Bal's files: awari, 6); nullopt for each that is free.
    virtual std::optional<std::string> only_rules() const { return std::nullopt; }
    virtual std::optional<int> only_pits() const { return std::nullopt; }
    /// What messages call this format's files and its values, e.g. "Romein & Bal's
    /// published files", "Romein & Bal's published values".
    virtual std::string files_words() const = 0;
    virtual std::string values_words() const = 0;
    /// Whether `owaredb generate` builds this format's missing levels (a message naming a
    /// missing level then says how); false for files only published elsewhere.
    virtual bool built_by_generate() const { return true; }
    /// Whether the format has bound levels (StoredKind::Bounds) besides value levels.
    virtual bool stores_bounds() const { return true; }
    /// The directory's name with its format, as compare names a side:
    /// "DIR (awari-NN.owdb)", "DIR (published scores.N, awari)".
    virtual std::string label() const = 0;

    /// Positions of level n on this board.
    uint64_t level_size(int n) const;
    /// The file that holds value level n (it may not exist).
    virtual std::filesystem::path path(int n) const = 0;
    /// Whether value level n's file is there (not whether it is valid).
    bool has(int n) const { return std::filesystem::exists(path(n)); }
    /// The value levels whose files are there, ascending.
    std::vector<int> levels() const;

    /// Value level n whole, as exact values in our rank order; `smaller` = levels 0..n-1
    /// for a capture-bounded file (generate --compact). The reader's status on failure,
    /// naming the file; `out` is then untouched.
    virtual db::Status load(int n, ValueArray& out,
                            const std::vector<ValueArray>& smaller) const = 0;
    /// Value level n and the levels its captures reach, read by rank as the streamed checks
    /// ask (throws std::runtime_error naming a file that is missing or damaged).
    virtual std::unique_ptr<SmallerLevelValues> streamed(int n) const = 0;
    /// How many times each stored value occurs in value level n (order does not matter: no
    /// permutation, no decompression into memory). Throws std::runtime_error naming the file.
    virtual db::Histogram histogram(int n) const = 0;
    /// Whether value level n's file holds capture-bounded values (then its histogram is not
    /// the values'); false for a missing file. Throws std::runtime_error for a damaged one.
    virtual bool capture_bounded(int n) const = 0;
    /// Every check of value level n's file that needs no other level (owaredb's files:
    /// every block and the file checksum; Romein & Bal's, which have none: the size, and
    /// then each value's range as it is read), the status's message naming the file.
    virtual db::VerifyReport check(int n) const = 0;
    /// The line that sums up those checks over the directory, e.g. "checksums: 3 level
    /// files intact, 0 damaged"; and the message for a directory with no value level.
    virtual std::string check_summary(std::size_t intact, std::size_t damaged) const = 0;
    virtual std::string no_levels_message() const = 0;
    /// How a message names the position of level n at our rank `index` besides its rank:
    /// empty for our files, ", offset K of DIR/scores.N" for the published ones.
    virtual std::string where(int n, uint64_t index) const = 0;

    /// Whether the files keep a level's values in our rank order (else in an order of their
    /// own: offsets, not ranks).
    virtual bool in_our_order() const { return true; }
    /// Value level n read in the files' order; throws std::runtime_error naming a missing
    /// or damaged file.
    virtual std::unique_ptr<LevelRuns> file_order(int n) const = 0;
    /// Value level n read in our rank order: file_order(n) where that is ours; else put in
    /// our order out of core first (tablebase/order_conversion.hpp, within the options that
    /// `options()` gives, asked once the level's file has opened; the work files go with
    /// the object). Throws std::runtime_error as file_order.
    virtual std::unique_ptr<LevelRuns>
    our_order(int n, const std::function<ConversionOptions()>& options) const;
    /// The text form of the position at `offset` of level n in the files' order.
    virtual std::string position_in_file(int n, uint64_t offset) const;

    /// Level n of `kind` for random reads, not opened yet (LevelSource::open), its blocks
    /// cached in `cache` where the format has blocks. A kind, rule set or board the
    /// directory cannot hold gives a source whose open() says so (NotFound).
    virtual std::unique_ptr<LevelSource> source(StoredKind kind, int n,
                                                std::shared_ptr<db::BlockCache> cache) const = 0;
};

/// The level store of `dir` for `rules` on a board of `pits` pits a side, reading with
/// `threads` threads: of the format whose files the directory holds (owaredb's for a
/// directory with none, or none yet). A directory with files of two formats is Corrupt,
/// the message naming a file of each, e.g. "directory 'd' holds both Romein & Bal's
/// published files (scores.0, ...) and owaredb level files (awari-NN.owdb): give each
/// kind a directory of its own". Lists the directory once; opens no level file.
db::Result<std::unique_ptr<LevelStore>> open_level_store(const std::filesystem::path& dir,
                                                         const Rules& rules, int pits, int threads);

/// The rule set a reader not told one reads in `dir`: `found` lists the rule sets whose
/// level files lie there (rule_sets_in, sorted), and `rules` is the only one of them; with
/// none, the one rule set of a format limited to one (Romein & Bal's files: "awari"), else
/// "abapa" (the first preset); empty when `found` holds several (the caller must choose).
/// `rules` may be no preset's name (a file named so): the caller says so. The one choice of
/// the commands' default --rules and of a probe Tablebase made without a rule set.
struct DirectoryRules {
    std::vector<std::string> found;
    std::string rules;
};
DirectoryRules directory_rules(const std::filesystem::path& dir);

/// The formats whose files `dir` holds, by name ("published", "owaredb"), in the order of
/// open_level_store's list; empty for a directory with no level files (or none readable).
std::vector<std::string_view> formats_in(const std::filesystem::path& dir);

} // namespace owaredb
