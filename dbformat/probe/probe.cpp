// The probe library: owaredb/probe.hpp on top of the level reader and the Oware rules.
#include "owaredb/probe.hpp"

#include "dbformat/reader.hpp"
#include "oware/moves.hpp"
#include "oware/ranking.hpp"
#include "retro/bellman.hpp"
#include "retro/bounds.hpp"
#include "tablebase/bounds_dir.hpp"
#include "tablebase/database_dir.hpp"
#include "tablebase/directory_format.hpp"
#include "tablebase/game_levels.hpp"
#include "tablebase/published_dir.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <type_traits>

// Set by dbformat/probe/CMakeLists.txt from project(owaredb VERSION ...).
#ifndef OWAREDB_VERSION_STRING
#error "OWAREDB_VERSION_STRING must be defined (the project's version, from CMake)"
#endif

namespace owaredb {

const char* version() noexcept {
    return OWAREDB_VERSION_STRING;
}

const char* to_string(ProbeStatus status) {
    switch (status) {
    case ProbeStatus::Ok:
        return "ok";
    case ProbeStatus::NotAvailable:
        return "not available";
    case ProbeStatus::InvalidPosition:
        return "invalid position";
    case ProbeStatus::InvalidRules:
        return "invalid rules";
    case ProbeStatus::Corrupt:
        return "corrupt";
    case ProbeStatus::IoError:
        return "i/o error";
    }
    return "unknown";
}

const char* status_code(ProbeStatus status) {
    switch (status) {
    case ProbeStatus::Ok:
        return "ok";
    case ProbeStatus::NotAvailable:
        return "not_available";
    case ProbeStatus::InvalidPosition:
        return "invalid_position";
    case ProbeStatus::InvalidRules:
        return "invalid_rules";
    case ProbeStatus::Corrupt:
        return "corrupt";
    case ProbeStatus::IoError:
        return "io_error";
    }
    return "unknown";
}

const char* to_string(PvEnd end) {
    switch (end) {
    case PvEnd::GameOver:
        return "game over";
    case PvEnd::EndlessPlay:
        return "endless play";
    case PvEnd::PlyLimit:
        return "ply limit";
    case PvEnd::Repetition:
        return "repetition";
    }
    return "unknown";
}

namespace {

ProbeError from_db(const db::Status& s) {
    switch (s.code()) {
    case db::ErrorCode::NotFound:
        return {ProbeStatus::NotAvailable, s.message()};
    case db::ErrorCode::Io:
        return {ProbeStatus::IoError, s.message()};
    case db::ErrorCode::InvalidArgument: // a level past 48 seeds (Engine::level)
        return {ProbeStatus::InvalidPosition, s.message()};
    default:
        return {ProbeStatus::Corrupt, s.message()};
    }
}

// "4 pits a side (8 pit counts)".
std::string board_words(int pits_per_side) {
    return std::to_string(pits_per_side) + " pits a side (" + std::to_string(2 * pits_per_side) +
           " pit counts)";
}

// "4", "4 and 6", "3, 4 and 6".
std::string list_words(const std::vector<int>& boards) {
    std::string out;
    for (std::size_t i = 0; i < boards.size(); ++i) {
        if (i) out += i + 1 == boards.size() ? " and " : ", ";
        out += std::to_string(boards[i]);
    }
    return out;
}

// The engine of one board, whose positions are BasicPosition<P>: what a Tablebase holds
// for its board (Engine<P> below).
struct BoardEngine {
    virtual ~BoardEngine() = default;
};

// Everything a Tablebase does on a board of P pits a side. The answers hold positions as
// std::array<uint8_t, 2P>: on the standard board that is Pits, and the public functions
// taking Pits return them as they are; the others copy them into BoardPits.
template <int P> struct Engine final : BoardEngine {
    using Pos = BasicPosition<P>;
    using Arr = std::array<uint8_t, 2 * P>;
    using Move = BasicMove<P>;
    using MoveList = BasicMoveList<P>;
    using MoveInfo = BasicMoveInfo<Arr>;
    using PositionInfo = BasicPositionInfo<Arr>;
    using PvStep = BasicPvStep<Arr>;
    using PrincipalVariation = BasicPrincipalVariation<Arr>;
    using BoundsInfo = BasicBoundsInfo<Arr>;

    std::filesystem::path dir;
    std::string rules_name;
    std::optional<DatabaseDir> files; // empty for an unknown rules name
    std::optional<BoundsDir> bound_files;
    std::optional<BasicOwareGame<P>> game;
    std::shared_ptr<db::BlockCache> cache;

    Engine(std::filesystem::path d, std::string rules, std::shared_ptr<db::BlockCache> c)
        : dir(std::move(d)), rules_name(std::move(rules)), cache(std::move(c)) {
        if (std::optional<Rules> r = Rules::by_name(rules_name)) {
            bound_files.emplace(dir, *r, P);
            game.emplace(*r);
            files.emplace(dir, std::move(*r), false, P);
        }
    }
    // A level file of one kind, opened on first use: an owaredb level file, or in a
    // directory of Romein & Bal's published files (tablebase/directory_format.hpp) their
    // "scores.N", memory-mapped. Once it has opened it stays open for good (handed out
    // lock-free); a failure is not kept: the file is looked at again (one stat() for our
    // files, a new open for theirs, which costs no more) at most every kRecheck, so that a
    // level built or copied after it was first asked for is found.
    struct Slot {
        std::atomic<const db::LevelReader*> ready{nullptr};      // set once `reader` opened
        std::atomic<const db::RawLevelFile*> published{nullptr}; // set once `raw` opened
        // steady_clock nanoseconds before which a failure is not looked at again.
        std::atomic<int64_t> recheck_at{0};
        std::mutex mutex; // guards what follows while nothing has opened
        // The reader of the last try at our file; never replaced once ready. A failed
        // reader never leaves the lock, so replacing it frees nothing another thread uses.
        std::unique_ptr<db::LevelReader> reader;
        std::optional<db::RawLevelFile> raw; // set once, when it opened
        bool tried = false;
        db::Status failure; // the last try's outcome, while nothing has opened
        // Whether the file stores capture-bounded values: -1 not known yet, 0 no, 1 yes.
        std::atomic<int8_t> capture_bounded{-1};
    };
    // A level that opened: one of the two is set.
    struct OpenLevel {
        const db::LevelReader* ours = nullptr;
        const db::RawLevelFile* published = nullptr;
        explicit operator bool() const { return ours || published; }
    };
    static constexpr std::chrono::milliseconds kRecheck{100};
    static int64_t now_ns() {
        return std::chrono::duration_cast<std::chrono::nanoseconds>(
                   std::chrono::steady_clock::now().time_since_epoch())
            .count();
    }
    // The two kinds of level file: value files (files) and bound files (bound_files),
    // opened and cached the same way, each kind in its own slots.
    enum class Kind { Values, Bounds };
    std::array<Slot, kMaxSeeds + 1> value_slots;
    std::array<Slot, kMaxSeeds + 1> bound_slots;

    Slot& slot(Kind kind, int n) { return kind == Kind::Values ? value_slots[n] : bound_slots[n]; }
    const LevelDir& dir_of(Kind kind) const {
        return kind == Kind::Values ? static_cast<const LevelDir&>(*files) : *bound_files;
    }

    // The open level n of `kind`, or nothing with the reason in `error`.
    // Precondition: that kind's directory exists (the rules name is known).
    OpenLevel level(Kind kind, int n, db::Status& error) {
        // Checked here, where the level indexes the slots, whatever the caller checked.
        if (n < 0 || n > kMaxSeeds) {
            error = db::Status(db::ErrorCode::InvalidArgument,
                               "level " + std::to_string(n) + " asked for: more than " +
                                   std::to_string(kMaxSeeds) + " seeds");
            return {};
        }
        Slot& s = slot(kind, n);
        if (OpenLevel l = opened(s, std::memory_order_acquire)) return l;
        std::lock_guard lock(s.mutex);
        if (OpenLevel l = opened(s, std::memory_order_relaxed)) return l;
        const int64_t now = now_ns();
        if (s.tried && now < s.recheck_at.load(std::memory_order_relaxed)) {
            error = s.failure;
            return {};
        }
        s.tried = true;
        s.recheck_at.store(now + std::chrono::nanoseconds(kRecheck).count(),
                           std::memory_order_release);
        s.failure = try_open(kind, n, s);
        error = s.failure;
        return opened(s, std::memory_order_relaxed);
    }
    static OpenLevel opened(const Slot& s, std::memory_order order) {
        return {s.ready.load(order), s.published.load(order)};
    }

    // One try at opening level n of `kind` into `s` (under its lock): the file the
    // directory's format says, the directory listed anew on every try.
    db::Status try_open(Kind kind, int n, Slot& s) {
        const DirectoryContents contents = directory_contents(dir);
        if (contents.format == DirectoryFormat::Mixed)
            return db::Status(db::ErrorCode::Corrupt, contents.mixed_message(dir));
        if (contents.format == DirectoryFormat::Published) {
            // Their files are of the standard board (board_error: any other is refused).
            if (P != 6 || kind == Kind::Bounds || files->rules().name != "awari")
                return db::Status(
                    db::ErrorCode::NotFound,
                    std::string(kind == Kind::Bounds ? "no bound files in '"
                                                     : "no " + rules_name + " level files in '") +
                        dir.string() + "': it holds Romein & Bal's published awari values only");
            db::Result<db::RawLevelFile> f = PublishedDir(dir).open(n);
            if (!f.ok()) return f.status();
            s.raw.emplace(std::move(f).value());
            s.published.store(&*s.raw, std::memory_order_release);
            return {};
        }
        if (!s.reader || s.reader->file_changed()) {
            db::ReaderOptions o;
            o.cache = cache;
            o.expect = dir_of(kind).expectation(n);
            s.reader = std::make_unique<db::LevelReader>(dir_of(kind).path(n), std::move(o));
        }
        db::Status status = s.reader->open(); // the first try opens; later ones return its outcome
        if (status.ok()) s.ready.store(s.reader.get(), std::memory_order_release);
        return status;
    }

    // Whether level n's file of `kind` opens; between rechecks of a failure, without a lock.
    bool available(Kind kind, int n) {
        Slot& s = slot(kind, n);
        if (opened(s, std::memory_order_acquire)) return true;
        if (now_ns() < s.recheck_at.load(std::memory_order_acquire)) return false;
        db::Status error;
        return bool(level(kind, n, error));
    }

    // Bounds of `count` (at most six) positions of the databases holding seeds[i] seeds,
    // read together (entries 2 rank and 2 rank + 1 of each bound file).
    std::optional<ProbeError> stored_bounds(const Pos* ps, const int* seeds, int count,
                                            BoundPair* out) {
        std::array<db::ValueQuery, 2 * P> queries;
        std::array<int8_t, 2 * P> values;
        // Positions [0, opened) have their level open; position `opened` (if < count) not.
        int opened = 0;
        db::Status open_error, error;
        for (; opened < count; ++opened) {
            // Bound files are always ours (try_open): `ours` is the one set.
            const db::LevelReader* r = level(Kind::Bounds, seeds[opened], open_error).ours;
            if (!r) break;
            const uint64_t k = rank(ps[opened]);
            queries[2 * opened] = {r, 2 * k};
            queries[2 * opened + 1] = {r, 2 * k + 1};
        }
        const std::size_t read = db::LevelReader::read_values(
            std::span(queries).first(2 * opened), std::span(values).first(2 * opened), error);
        for (int i = 0; i < count; ++i) {
            if (read < std::size_t(2 * i + 2))
                return board_error(from_db(i < opened ? error : open_error));
            const int n = seeds[i], gm = values[2 * i], gn = values[2 * i + 1];
            if (gm < 0 || gn < 0 || gm + gn > n)
                return ProbeError{ProbeStatus::Corrupt,
                                  bound_files->path(n).string() + ": stored bounds out of range"};
            out[i] = {gm, gn};
        }
        return std::nullopt;
    }

    ProbeResult<BoundsInfo> analyse_bounds(const Pos& p, bool with_moves) {
        BoundsInfo info;
        const int n = p.seeds();
        info.bounds.seeds = n;
        auto finish = [&](BoundPair b) {
            info.bounds.gM = b.gm;
            info.bounds.gN = b.gn;
            info.bounds.exact = b.gm + b.gn == n;
            return info;
        };
        const bool stored = p.in_database();
        if (stored && !with_moves) {
            BoundPair b;
            if (auto e = stored_bounds(&p, &n, 1, &b)) return *e;
            return finish(b);
        }
        // The children's bounds are read first, all together (their memory accesses overlap,
        // and a failed read is an error value, which the equation's callback cannot return);
        // the equation then takes them in move order.
        const MoveList moves = legal_moves(files->rules(), p);
        std::array<Pos, P> children;
        std::array<int, P> seeds;
        std::array<BoundPair, P> child_bounds;
        for (int i = 0; i < moves.size(); ++i) {
            children[i] = moves[i].child;
            seeds[i] = n - moves[i].captured;
        }
        if (auto e =
                stored_bounds(children.data(), seeds.data(), moves.size(), child_bounds.data()))
            return *e;
        // The one copy of the equation (retro/bounds.hpp), as the solver, `owaredb verify` and
        // generate's start positions use it. BasicOwareGame::for_each_move visits
        // legal_moves() in order, so its i-th child is children[i].
        int next = 0;
        const BoundPair b =
            bounds_equation(*game, n, p, [&](int, const Pos&) { return child_bounds[next++]; });
        info.terminal = moves.empty(); // then b is the rule set's split
        if (with_moves) {
            info.moves.reserve(moves.size());
            for (int i = 0; i < moves.size(); ++i) {
                const Move& m = moves[i];
                info.moves.push_back({m.pit + 1, m.captured, m.captured + child_bounds[i].gn,
                                      child_bounds[i].gm, m.child.pits});
            }
        }
        // A stored position's own pair is its equation over its children (the files are
        // a fixed point; `owaredb verify` checks it), so one ply gives the same answer.
        return finish(b);
    }

    // Copies the caller's position (2P pit counts) into `out` and checks the copy: a query
    // reads the caller's memory once, so that a buffer another thread changes meanwhile
    // cannot pass the check as one position and be looked up as another (more than 48
    // seeds).
    std::optional<ProbeError> check(const uint8_t* caller, Pos& out) const {
        std::memcpy(out.pits.data(), caller, 2 * P); // a constant size: no call
        if (!files)
            return ProbeError{ProbeStatus::InvalidRules, "unknown rules '" + rules_name +
                                                             "' (expected " +
                                                             Rules::preset_choices() + ")"};
        int seeds = 0;
        for (uint8_t v : out.pits) seeds += v;
        if (seeds > kMaxSeeds)
            return ProbeError{ProbeStatus::InvalidPosition, "the position holds " +
                                                                std::to_string(seeds) +
                                                                " seeds, more than 48"};
        return std::nullopt;
    }

    // A failed read of value level n. A missing level that the directory's levels leave
    // out as a game of k seeds per pit does (GameLevels: generate --game) says so, since
    // no generate of that game will ever build it.
    ProbeError value_read_error(const db::Status& error, int n) const {
        ProbeError e = board_error(from_db(error));
        if (e.status != ProbeStatus::NotAvailable) return e;
        const DirectoryContents contents = directory_contents(dir);
        const bool published = contents.format == DirectoryFormat::Published;
        std::vector<int> present;
        if (published)
            present = contents.published_levels;
        else
            for (int k = 0; k <= kMaxSeeds; ++k)
                if (std::filesystem::exists(files->path(k))) present.push_back(k);
        if (present.empty()) return e;
        const GameLevels game = GameLevels::of_directory(present, P);
        if (game.skipped == n)
            e.message +=
                " (level " + std::to_string(n) + " is " + game.why_not(n) +
                ", whose levels these files hold" +
                (published ? std::string(")")
                           : "; owaredb generate" + (P == 6 ? "" : " --pits " + std::to_string(P)) +
                                 " --max-seeds " + std::to_string(n) + " builds it)");
        return e;
    }

    // A missing level of a directory whose level files are all of other boards: no file of
    // this board will be found there, and the position is of the wrong size for them.
    ProbeError board_error(ProbeError e) const {
        if (e.status != ProbeStatus::NotAvailable) return e;
        const std::vector<int> boards = directory_contents(dir).format == DirectoryFormat::Published
                                            ? std::vector<int>{6}
                                            : board_sizes_in(dir);
        if (boards.empty() || std::find(boards.begin(), boards.end(), P) != boards.end()) return e;
        return ProbeError{ProbeStatus::InvalidPosition,
                          "the level files in '" + dir.string() + "' are for " +
                              (boards.size() == 1 ? board_words(boards[0])
                                                  : list_words(boards) + " pits a side") +
                              ", not " + board_words(P) + " as asked"};
    }

    // Value of a position of D_n straight from its file.
    ProbeResult<int> stored(const Pos& p) {
        const int seeds = p.seeds();
        int v = 0;
        if (auto e = stored_values(&p, &seeds, 1, &v)) return *e;
        return v;
    }

    // Values of `count` positions of the databases (at most six: the children of one
    // position) holding seeds[i] seeds each, looked up together so that their memory
    // accesses overlap (see LevelReader::read_values; a published file's values are read
    // straight from its mapping). The error is that of the first position that fails, as
    // if they were looked up one by one.
    std::optional<ProbeError> stored_values(const Pos* ps, const int* seeds, int count, int* out) {
        std::array<db::ValueQuery, P> queries;
        std::array<int8_t, P> values{}, ours_values;
        std::array<int, P> query_of; // position i's entry in queries, or -1
        std::array<db::Status, P> published_error;
        // Positions [0, opened) have their level open; position `opened` (if < count) not.
        int opened = 0, ours = 0;
        db::Status open_error, error;
        for (; opened < count; ++opened) {
            const OpenLevel l = level(Kind::Values, seeds[opened], open_error);
            if (!l) break;
            query_of[opened] = -1;
            if (l.ours) {
                query_of[opened] = ours;
                queries[ours++] = {l.ours, rank(ps[opened])};
            } else if constexpr (P == 6) { // published files are of the standard board only
                const uint64_t offset = published_rank(ps[opened]);
                published_error[opened] = l.published->read_at({&offset, 1}, {&values[opened], 1});
            }
        }
        const std::size_t read = db::LevelReader::read_values(
            std::span(queries).first(ours), std::span(ours_values).first(ours), error);
        for (int i = 0; i < count; ++i) {
            if (i == opened) return value_read_error(open_error, seeds[i]);
            if (query_of[i] < 0) {
                if (!published_error[i].ok()) return from_db(published_error[i]);
            } else {
                if (std::size_t(query_of[i]) == read) return value_read_error(error, seeds[i]);
                values[i] = ours_values[query_of[i]];
            }
            const int n = seeds[i];
            const bool dont_care = values[i] == db::kDontCare;
            if (!dont_care && (values[i] < -n || values[i] > n))
                return ProbeError{ProbeStatus::Corrupt,
                                  files->path(n).string() + ": stored value out of range"};
            out[i] = values[i];
            if (dont_care || capture_bounded(n)) {
                if (auto e = complete_by_captures(ps[i], n, dont_care, out[i])) return e;
            }
        }
        return std::nullopt;
    }

    // Whether level n's file stores capture-bounded values (dbformat/README.md); asked only
    // after a value was read from it, so the file is open and valid.
    bool capture_bounded(int n) {
        Slot& s = slot(Kind::Values, n);
        int8_t known = s.capture_bounded.load(std::memory_order_acquire);
        if (known < 0) {
            const db::LevelReader* r = s.ready.load(std::memory_order_acquire);
            if (!r) return false; // not open after all: nothing was read from it
            db::Result<db::LevelInfo> info = r->info();
            known = info.ok() && info->meta.capture_bounded ? 1 : 0;
            s.capture_bounded.store(known, std::memory_order_release);
        }
        return known == 1;
    }

    // The children of a position's moves (all, or the capturing ones), in move order, with
    // their values once looked up.
    struct Children {
        std::array<Pos, P> positions;
        std::array<int, P> captured;
        std::array<int, P> values;
        int count = 0;

        BestMove best() const {
            BestMove best;
            for (int i = 0; i < count; ++i) best.add(captured[i], values[i]);
            return best;
        }
    };

    // Looks up the values of the children of a position of n seeds, all together.
    std::optional<ProbeError> look_up(Children& c, int n) {
        std::array<int, P> seeds;
        for (int i = 0; i < c.count; ++i) seeds[i] = n - c.captured[i];
        return stored_values(c.positions.data(), seeds.data(), c.count, c.values.data());
    }
    static Children children_of(const MoveList& moves, bool captures_only) {
        Children c;
        for (const Move& m : moves) {
            if (captures_only && !m.captured) continue;
            c.positions[c.count] = m.child;
            c.captured[c.count++] = m.captured;
        }
        return c;
    }

    // value = max(stored bound, best capture), the best capture searched over the values
    // of the smaller levels (themselves completed the same way). A kDontCare bound is minus
    // infinity: such a position must have a capture.
    std::optional<ProbeError> complete_by_captures(const Pos& p, int n, bool dont_care,
                                                   int& value) {
        if (!dont_care && !may_capture(p)) return std::nullopt; // most positions
        Children c = children_of(legal_moves(files->rules(), p), true);
        if (c.count == 0) {
            if (!dont_care) return std::nullopt;
            return ProbeError{ProbeStatus::Corrupt,
                              files->path(n).string() +
                                  ": a don't-care value where no capture recovers it"};
        }
        if (auto e = look_up(c, n)) return e;
        const int exits = c.best().value();
        value = dont_care ? exits : std::max(value, exits);
        return std::nullopt;
    }

    ProbeResult<int> value(const Pos& p) {
        if (p.in_database()) return stored(p);
        // Not stored: one ply of search; every child is (its origin pit is empty).
        const MoveList moves = legal_moves(files->rules(), p);
        if (moves.empty()) return terminal_value(p);
        Children c = children_of(moves, false);
        if (auto e = look_up(c, p.seeds())) return *e;
        return c.best().value();
    }

    ProbeResult<PositionInfo> analyse(const Pos& p) {
        PositionInfo info;
        info.seeds = p.seeds();
        const MoveList moves = legal_moves(files->rules(), p);
        if (moves.empty()) {
            info.terminal = true;
            info.value = terminal_value(p);
            return info;
        }
        Children c = children_of(moves, false);
        if (auto e = look_up(c, info.seeds)) return *e;
        info.value = c.best().value();
        info.moves.reserve(moves.size());
        for (int i = 0; i < moves.size(); ++i) {
            const Move& m = moves[i];
            info.moves.push_back({m.pit + 1, m.captured, m.captured - c.values[i], m.child.pits});
        }
        info.best.reserve(info.moves.size());
        for (const MoveInfo& m : info.moves)
            if (m.value == info.value) info.best.push_back(m.pit);
        return info;
    }

// GCC 12 with sanitizers reports -Wmaybe-uninitialized inside std::variant's move
// assignment when an int is assigned to a ProbeResult below (the error alternative's string
// is "maybe uninitialized" on a path where the variant holds the int): a false positive.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
    // Values of `count` positions, the i-th at positions(i) (2P pit counts): results[i].
    template <class At> void values(std::size_t count, At&& positions, ProbeResult<int>* results) {
        // Positions of the databases are read P at a time, so that their memory accesses
        // overlap (LevelReader::read_values); the others go through value().
        std::array<Pos, P> group;
        std::array<int, P> seeds, found;
        std::array<std::size_t, P> slot;
        int grouped = 0;
        auto flush = [&] {
            if (stored_values(group.data(), seeds.data(), grouped, found.data())) {
                // Some lookup failed: answer each on its own, so each gets its own error.
                for (int k = 0; k < grouped; ++k) results[slot[k]] = value(group[k]);
            } else {
                for (int k = 0; k < grouped; ++k) results[slot[k]] = found[k];
            }
            grouped = 0;
        };
        for (std::size_t i = 0; i < count; ++i) {
            Pos p;
            if (auto e = check(positions(i), p)) {
                results[i] = *e;
                continue;
            }
            if (!p.in_database()) {
                results[i] = value(p);
                continue;
            }
            group[grouped] = p;
            seeds[grouped] = p.seeds();
            slot[grouped++] = i;
            if (grouped == P) flush();
        }
        if (grouped) flush();
    }
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

    // The move a principal variation plays for the side to move: a best move, capturing if
    // one is, else the lowest pit. The losing side always plays this one.
    static const MoveInfo& default_choice(const PositionInfo& info) {
        const MoveInfo* chosen = nullptr;
        for (const MoveInfo& m : info.moves)
            if (m.value == info.value && (!chosen || (m.captured > 0 && chosen->captured == 0)))
                chosen = &m;
        return *chosen;
    }

    // From a position worth t != 0, a shortest sequence of best moves that reaches a
    // capture (or the end of the game): the side worth +t may pick any of its best moves,
    // the other side plays default_choice. The databases hold values, not distances, so a
    // line of best moves chosen blindly can circle; but the side worth +t wins t by forcing
    // a capture in finite time whatever the other side does, in particular against
    // default_choice, and all its forcing moves are best moves, so a breadth-first search
    // over the positions of this level finds such a sequence. Returns the moves, or an
    // empty list if the search gave up after `budget` positions.
    ProbeResult<std::vector<PvStep>> forcing_line(const Pos& start, std::size_t budget) {
        struct Node {
            Arr parent;
            PvStep step; // the move from parent to this node
        };
        std::map<Arr, Node> seen;
        std::deque<Pos> queue{start};
        seen[start.pits] = {};
        auto line_to = [&](Arr at, std::vector<PvStep> tail) {
            std::vector<PvStep> line;
            while (at != start.pits) {
                const Node& n = seen.at(at);
                line.push_back(n.step);
                at = n.parent;
            }
            std::reverse(line.begin(), line.end());
            line.insert(line.end(), tail.begin(), tail.end());
            return line;
        };
        while (!queue.empty() && seen.size() < budget) {
            Pos q = queue.front();
            queue.pop_front();
            ProbeResult<PositionInfo> info = analyse(q);
            if (!info) return info.error();
            if (info->terminal) return line_to(q.pits, {});
            std::vector<const MoveInfo*> choices;
            if (info->value > 0)
                for (const MoveInfo& m : info->moves) {
                    if (m.value == info->value) choices.push_back(&m);
                }
            else
                choices.push_back(&default_choice(*info));
            for (const MoveInfo* m : choices) {
                PvStep step{q.pits, m->pit, m->captured, info->value};
                if (m->captured > 0) return line_to(q.pits, {step});
                if (seen.count(m->child)) continue;
                seen[m->child] = {q.pits, step};
                queue.push_back(Pos{m->child});
            }
        }
        return std::vector<PvStep>{};
    }

    ProbeResult<PrincipalVariation> principal_variation(Pos p, int max_plies) {
        PrincipalVariation pv;
        std::set<Arr> seen;
        while (static_cast<int>(pv.steps.size()) < max_plies) {
            ProbeResult<PositionInfo> info = analyse(p);
            if (!info) return info.error();
            if (info->terminal) {
                pv.final_position = p.pits;
                pv.end = PvEnd::GameOver;
                pv.final_value = info->value;
                return pv;
            }
            if (info->value != 0) {
                // Play a forcing line up to the next capture so the line makes progress.
                ProbeResult<std::vector<PvStep>> line = forcing_line(p, 1 << 18);
                if (!line) return line.error();
                if (!line->empty()) {
                    // No more than max_plies in all: a line cut short ends at the position
                    // before its first move not played.
                    const std::size_t room = std::size_t(max_plies) - pv.steps.size();
                    if (line->size() > room) {
                        pv.steps.insert(pv.steps.end(), line->begin(), line->begin() + room);
                        pv.final_position = (*line)[room].position;
                        pv.end = PvEnd::PlyLimit;
                        return pv;
                    }
                    for (const PvStep& s : *line) pv.steps.push_back(s);
                    const PvStep& last = line->back();
                    const MoveList moves = legal_moves(files->rules(), Pos{last.position});
                    for (const Move& m : moves)
                        if (m.pit + 1 == last.pit) p = m.child;
                    seen.clear();
                    continue;
                }
            }
            if (!seen.insert(p.pits).second) {
                // Back at a position of this line with no capture in between: with value 0
                // both sides can go round forever, which the value counts 0. ("repetition"
                // only if the forcing-line search above ran out of budget.)
                pv.final_position = p.pits;
                pv.end = info->value == 0 ? PvEnd::EndlessPlay : PvEnd::Repetition;
                return pv;
            }
            const MoveInfo& chosen = default_choice(*info);
            pv.steps.push_back({p.pits, chosen.pit, chosen.captured, info->value});
            if (chosen.captured > 0) seen.clear(); // captures are irreversible
            p.pits = chosen.child;
        }
        pv.final_position = p.pits;
        pv.end = PvEnd::PlyLimit;
        return pv;
    }
};

// The answers of an engine with their positions as BoardPits.
template <class A> BoardPits board_pits(const A& pits) {
    return BoardPits(pits.begin(), pits.end());
}
template <class A> BoardPositionInfo as_board(const BasicPositionInfo<A>& in) {
    BoardPositionInfo out{in.seeds, in.value, in.terminal, {}, in.best};
    out.moves.reserve(in.moves.size());
    for (const auto& m : in.moves)
        out.moves.push_back({m.pit, m.captured, m.value, board_pits(m.child)});
    return out;
}
template <class A> BoardPrincipalVariation as_board(const BasicPrincipalVariation<A>& in) {
    BoardPrincipalVariation out{{}, board_pits(in.final_position), in.end, in.final_value};
    out.steps.reserve(in.steps.size());
    for (const auto& s : in.steps)
        out.steps.push_back({board_pits(s.position), s.pit, s.captured, s.value});
    return out;
}
template <class A> BoardBoundsInfo as_board(const BasicBoundsInfo<A>& in) {
    BoardBoundsInfo out{in.bounds, in.terminal, {}};
    out.moves.reserve(in.moves.size());
    for (const auto& m : in.moves)
        out.moves.push_back({m.pit, m.captured, m.gM, m.gN, board_pits(m.child)});
    return out;
}
inline Bounds as_board(const Bounds& b) {
    return b;
}
inline int as_board(int v) {
    return v;
}
template <class T> auto as_board(const ProbeResult<T>& r) -> ProbeResult<decltype(as_board(*r))> {
    if (!r) return r.error();
    return as_board(*r);
}

} // namespace

struct Tablebase::Impl {
    std::filesystem::path dir;
    std::string rules_name;
    int pits = 0;                          // the board, 1..8; 0 when none (board_error says why)
    std::optional<ProbeError> board_error; // why every query fails: not a board
    std::unique_ptr<BoardEngine> engine;   // Engine<pits>

    template <int P> Engine<P>& on() const { return static_cast<Engine<P>&>(*engine); }

    // Whether a position of `count` pit counts can be asked: the board is one, and the
    // count is its. Inline, on the path of every query; board_problem says why not.
    bool board_ok(std::size_t count) const {
        return count == std::size_t(2 * pits) && !board_error;
    }
    [[gnu::cold]] ProbeError board_problem(std::size_t count) const {
        if (board_error) return *board_error;
        return ProbeError{ProbeStatus::InvalidPosition, "a position of " + std::to_string(count) +
                                                            " pit counts asked of a tablebase of " +
                                                            board_words(pits)};
    }

    // f(engine, position) on this board's engine, the position checked first (its size:
    // board_ok), its answer as what a query of pit counts returns.
    template <class R, class F> R with_board(std::span<const uint8_t> caller, F&& f) const {
        if (!board_ok(caller.size())) return board_problem(caller.size());
        return with_pits_per_side(pits, [&](auto board) -> R {
            constexpr int P = decltype(board)::value;
            Engine<P>& e = on<P>();
            BasicPosition<P> p;
            if (auto error = e.check(caller.data(), p)) return *error;
            return as_board(f(e, p));
        });
    }
    // The same for a standard position, whose answers are given as they are.
    template <class F>
    auto with_standard(const Pits& caller, F&& f) const
        -> decltype(f(std::declval<Engine<6>&>(), std::declval<Position&>())) {
        if (!board_ok(kPits)) return board_problem(kPits);
        Engine<6>& e = on<6>();
        Position p;
        if (auto error = e.check(caller.data(), p)) return *error;
        return f(e, p);
    }
};

Tablebase::Tablebase(std::filesystem::path dir, std::string rules, TablebaseOptions options)
    : Tablebase(std::move(dir), std::move(rules), 6, options) {}

Tablebase::Tablebase(std::filesystem::path dir, std::string rules, int pits_per_side,
                     TablebaseOptions options)
    : impl_(std::make_unique<Impl>()) {
    impl_->dir = std::move(dir);
    impl_->rules_name = std::move(rules);
    if (pits_per_side == 0) {
        // The directory's board: the one the level files there are of (Romein & Bal's
        // published files are of the standard board).
        const std::vector<int> boards = board_sizes_in(impl_->dir);
        if (boards.size() > 1)
            impl_->board_error = ProbeError{
                ProbeStatus::InvalidPosition,
                "'" + impl_->dir.string() + "' holds level files of several boards (" +
                    list_words(boards) + " pits a side): name the board to read (pits_per_side)"};
        pits_per_side = boards.size() == 1 ? boards[0] : 6;
    } else if (pits_per_side < kMinPitsPerSide || pits_per_side > kMaxPitsPerSide) {
        impl_->board_error =
            ProbeError{ProbeStatus::InvalidPosition,
                       "a board has 1..8 pits a side, not " + std::to_string(pits_per_side)};
    }
    if (impl_->board_error) return;
    impl_->pits = pits_per_side;
    auto cache = std::make_shared<db::BlockCache>(
        options.cache_bytes ? options.cache_bytes : TablebaseOptions::kDefaultCacheBytes);
    impl_->engine = with_pits_per_side(pits_per_side, [&](auto board) {
        constexpr int P = decltype(board)::value;
        return std::unique_ptr<BoardEngine>(
            std::make_unique<Engine<P>>(impl_->dir, impl_->rules_name, std::move(cache)));
    });
}

Tablebase::~Tablebase() = default;
Tablebase::Tablebase(Tablebase&&) noexcept = default;
Tablebase& Tablebase::operator=(Tablebase&&) noexcept = default;

const std::filesystem::path& Tablebase::directory() const {
    return impl_->dir;
}
const std::string& Tablebase::rules() const {
    return impl_->rules_name;
}
int Tablebase::pits_per_side() const {
    return impl_->pits;
}

ProbeResult<int> Tablebase::value(const Pits& position) const {
    return impl_->with_standard(position,
                                [](Engine<6>& e, const Position& p) { return e.value(p); });
}
ProbeResult<int> Tablebase::value(std::span<const uint8_t> position) const {
    return impl_->with_board<ProbeResult<int>>(position,
                                               [](auto& e, const auto& p) { return e.value(p); });
}

ProbeResult<PositionInfo> Tablebase::analyse(const Pits& position) const {
    return impl_->with_standard(position,
                                [](Engine<6>& e, const Position& p) { return e.analyse(p); });
}
ProbeResult<BoardPositionInfo> Tablebase::analyse(std::span<const uint8_t> position) const {
    return impl_->with_board<ProbeResult<BoardPositionInfo>>(
        position, [](auto& e, const auto& p) { return e.analyse(p); });
}

namespace {
std::optional<ProbeError> check_plies(int max_plies) {
    if (max_plies >= 0) return std::nullopt;
    return ProbeError{ProbeStatus::InvalidPosition,
                      "max_plies " + std::to_string(max_plies) + ": must be 0 or more"};
}
} // namespace

ProbeResult<PrincipalVariation> Tablebase::principal_variation(const Pits& position,
                                                               int max_plies) const {
    return impl_->with_standard(position, [&](Engine<6>& e, const Position& p) {
        if (auto error = check_plies(max_plies)) return ProbeResult<PrincipalVariation>(*error);
        return e.principal_variation(p, max_plies);
    });
}
ProbeResult<BoardPrincipalVariation>
Tablebase::principal_variation(std::span<const uint8_t> position, int max_plies) const {
    return impl_->with_board<ProbeResult<BoardPrincipalVariation>>(
        position, [&](auto& e, const auto& p) {
            using Line = typename std::remove_reference_t<decltype(e)>::PrincipalVariation;
            if (auto error = check_plies(max_plies)) return ProbeResult<Line>(*error);
            return e.principal_variation(p, max_plies);
        });
}

// See Engine::values for this false positive.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
void Tablebase::values(std::span<const Pits> positions, std::span<ProbeResult<int>> results) const {
    if (positions.size() != results.size()) {
        for (auto& r : results)
            r = ProbeError{ProbeStatus::InvalidPosition,
                           "batch: positions and results differ in size"};
        return;
    }
    if (!impl_->board_ok(kPits)) {
        const ProbeError e = impl_->board_problem(kPits);
        for (auto& r : results) r = e;
        return;
    }
    impl_->on<6>().values(
        positions.size(), [&](std::size_t i) { return positions[i].data(); }, results.data());
}

void Tablebase::values(std::span<const uint8_t> pits, std::span<ProbeResult<int>> results) const {
    if (impl_->board_error) {
        for (auto& r : results) r = *impl_->board_error;
        return;
    }
    const std::size_t width = 2 * std::size_t(impl_->pits);
    if (pits.size() != width * results.size()) {
        for (auto& r : results)
            r = ProbeError{ProbeStatus::InvalidPosition,
                           "batch: " + std::to_string(pits.size()) + " pit counts for " +
                               std::to_string(results.size()) + " results of " +
                               std::to_string(width) + " pit counts each"};
        return;
    }
    with_pits_per_side(impl_->pits, [&](auto board) {
        constexpr int P = decltype(board)::value;
        impl_->on<P>().values(
            results.size(), [&](std::size_t i) { return pits.data() + width * i; }, results.data());
    });
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

bool Tablebase::level_available(int seeds) const {
    if (impl_->board_error || seeds < 0 || seeds > kMaxSeeds) return false;
    return with_pits_per_side(impl_->pits, [&](auto board) {
        constexpr int P = decltype(board)::value;
        Engine<P>& e = impl_->on<P>();
        return e.files && e.available(Engine<P>::Kind::Values, seeds);
    });
}

ProbeResult<Bounds> Tablebase::bounds(const Pits& position) const {
    return impl_->with_standard(position, [](Engine<6>& e, const Position& p) {
        ProbeResult<BoundsInfo> info = e.analyse_bounds(p, false);
        if (!info) return ProbeResult<Bounds>(info.error());
        return ProbeResult<Bounds>(info->bounds);
    });
}
ProbeResult<Bounds> Tablebase::bounds(std::span<const uint8_t> position) const {
    return impl_->with_board<ProbeResult<Bounds>>(position, [](auto& e, const auto& p) {
        auto info = e.analyse_bounds(p, false);
        if (!info) return ProbeResult<Bounds>(info.error());
        return ProbeResult<Bounds>(info->bounds);
    });
}

ProbeResult<BoundsInfo> Tablebase::analyse_bounds(const Pits& position) const {
    return impl_->with_standard(
        position, [](Engine<6>& e, const Position& p) { return e.analyse_bounds(p, true); });
}
ProbeResult<BoardBoundsInfo> Tablebase::analyse_bounds(std::span<const uint8_t> position) const {
    return impl_->with_board<ProbeResult<BoardBoundsInfo>>(
        position, [](auto& e, const auto& p) { return e.analyse_bounds(p, true); });
}

bool Tablebase::bounds_available(int seeds) const {
    if (impl_->board_error || seeds < 0 || seeds > kMaxSeeds) return false;
    return with_pits_per_side(impl_->pits, [&](auto board) {
        constexpr int P = decltype(board)::value;
        Engine<P>& e = impl_->on<P>();
        return e.bound_files && e.available(Engine<P>::Kind::Bounds, seeds);
    });
}

} // namespace owaredb
