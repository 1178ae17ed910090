// Values and bounds of stored positions, read from one board's level files (level_slots.hpp),
// several positions at once so that their memory accesses overlap; a capture-bounded value
// (or a don't-care) completed by the captures it stands for; and the error of a read that
// failed, as the public API states it (owaredb/probe.hpp: a missing level, one of another
// board, a level a game's directory leaves out).
//
// Contract: a read answers the position it is given, which must be stored (in_database())
// and of at most kMaxSeeds seeds; it never throws but for std::bad_alloc.
#pragma once

#include "engine_errors.hpp"
#include "level_slots.hpp"

#include "owaredb/probe.hpp"

#include "dbformat/reader.hpp"
#include "oware/moves.hpp"
#include "oware/ranking.hpp"
#include "retro/bellman.hpp"
#include "tablebase/game_levels.hpp"

#include <algorithm>
#include <array>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace owaredb::probe_engine {

template <int P> struct StoredReads {
    using Pos = BasicPosition<P>;
    using Move = BasicMove<P>;
    using MoveList = BasicMoveList<P>;
    using Kind = typename LevelSlots<P>::Kind;
    using OpenLevel = typename LevelSlots<P>::OpenLevel;

    LevelSlots<P>& slots;

    explicit StoredReads(LevelSlots<P>& s) : slots(s) {}

    // The rule set. Precondition: the rules name is known (slots.files is set).
    const Rules& rules() const { return slots.files->rules(); }

    // Bounds of `count` (at most six) positions of the databases holding seeds[i] seeds,
    // read together (entries 2 rank and 2 rank + 1 of each bound file).
    std::optional<ProbeError> stored_bounds(const Pos* ps, const int* seeds, int count,
                                            BoundPair* out) {
        std::optional<ProbeError> e = stored_bounds_once(ps, seeds, count, out);
        if (e && changed(Kind::Bounds, *e, seeds, count))
            e = stored_bounds_once(ps, seeds, count, out);
        return e;
    }

    // A read that failed with `e` may have failed because a level's file changed since it
    // opened (a truncation, or a repair after one): such levels are opened anew (LevelSlots::
    // reopen_changed), and then the read is worth trying again, once.
    bool changed(Kind kind, const ProbeError& e, const int* seeds, int count) {
        return (e.status == ProbeStatus::Corrupt || e.status == ProbeStatus::IoError) &&
               slots.reopen_changed(kind, seeds, count);
    }

    std::optional<ProbeError> stored_bounds_once(const Pos* ps, const int* seeds, int count,
                                                 BoundPair* out) {
        std::array<EntryQuery, 2 * P> queries;
        std::array<int8_t, 2 * P> values;
        // Positions [0, opened) have their level open; position `opened` (if < count) not.
        int opened = 0;
        db::Status open_error, error;
        for (; opened < count; ++opened) {
            const OpenLevel r = slots.level(Kind::Bounds, seeds[opened], open_error);
            if (!r) break;
            const uint64_t k = rank(ps[opened]);
            queries[2 * opened] = {r, 2 * k};
            queries[2 * opened + 1] = {r, 2 * k + 1};
        }
        const std::size_t read = read_entries(std::span(queries).first(2 * opened),
                                              std::span(values).first(2 * opened), error);
        for (int i = 0; i < count; ++i) {
            if (read < std::size_t(2 * i + 2))
                return board_error(from_db(i < opened ? error : open_error));
            const int n = seeds[i], gm = values[2 * i], gn = values[2 * i + 1];
            if (gm < 0 || gn < 0 || gm + gn > n)
                return ProbeError{ProbeStatus::Corrupt, slots.bound_files->path(n).string() +
                                                            ": stored bounds out of range"};
            out[i] = {gm, gn};
        }
        return std::nullopt;
    }

    // A failed read of value level n. A missing level that the directory's levels leave
    // out as a game of k seeds per pit does (GameLevels: generate --game) says so, since
    // no generate of that game will ever build it.
    ProbeError value_read_error(const db::Status& error, int n) const {
        ProbeError e = board_error(from_db(error));
        if (e.status != ProbeStatus::NotAvailable || !slots.files) return e;
        const auto store = open_level_store(slots.dir, slots.files->rules(), P, 0);
        if (!store.ok()) return e;
        const std::vector<int> present = (*store)->levels();
        if (present.empty()) return e;
        const GameLevels game = GameLevels::of_directory(present, P);
        if (game.skipped == n)
            e.message += " (level " + std::to_string(n) + " is " + game.why_not(n) +
                         ", whose levels these files hold" +
                         ((*store)->built_by_generate()
                              ? "; " + generate_command({}, P, n, {}) + " builds it)"
                              : std::string(")"));
        return e;
    }

    // A missing level of a directory whose level files are all of other boards: no file of
    // this board will be found there, and the position is of the wrong size for them.
    ProbeError board_error(ProbeError e) const {
        if (e.status != ProbeStatus::NotAvailable) return e;
        const std::vector<int> boards = boards_in_directory();
        if (boards.empty() || std::find(boards.begin(), boards.end(), P) != boards.end()) return e;
        return ProbeError{ProbeStatus::InvalidPosition,
                          "the level files in '" + slots.dir.string() + "' are for " +
                              (boards.size() == 1 ? board_words(boards[0])
                                                  : list_words(boards) + " pits a side") +
                              ", not " + board_words(P) + " as asked"};
    }

    // The boards whose level files the directory holds: the one board of a format limited
    // to one (LevelStore::only_pits), else those of the owaredb level files found there.
    std::vector<int> boards_in_directory() const {
        if (slots.files) {
            const auto store = open_level_store(slots.dir, slots.files->rules(), P, 0);
            if (store.ok())
                if (const std::optional<int> only = (*store)->only_pits()) return {*only};
        }
        return board_sizes_in(slots.dir);
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
    // accesses overlap (see read_entries, tablebase/level_store.hpp). The error is that of the
    // first position that fails, as if they were looked up one by one.
    std::optional<ProbeError> stored_values(const Pos* ps, const int* seeds, int count, int* out) {
        std::optional<ProbeError> e = stored_values_once(ps, seeds, count, out);
        if (e && changed(Kind::Values, *e, seeds, count))
            e = stored_values_once(ps, seeds, count, out);
        return e;
    }

    std::optional<ProbeError> stored_values_once(const Pos* ps, const int* seeds, int count,
                                                 int* out) {
        std::array<EntryQuery, P> queries;
        std::array<int8_t, P> values{};
        // Positions [0, opened) have their level open; position `opened` (if < count) not.
        int opened = 0;
        db::Status open_error, error;
        for (; opened < count; ++opened) {
            const OpenLevel l = slots.level(Kind::Values, seeds[opened], open_error);
            if (!l) break;
            queries[opened] = {l, rank(ps[opened])};
        }
        const std::size_t read =
            read_entries(std::span(queries).first(opened), std::span(values).first(opened), error);
        for (int i = 0; i < count; ++i) {
            if (i == opened) return value_read_error(open_error, seeds[i]);
            if (std::size_t(i) == read) return value_read_error(error, seeds[i]);
            const int n = seeds[i];
            const bool dont_care = values[i] == db::kDontCare;
            if (!dont_care && (values[i] < -n || values[i] > n))
                return ProbeError{ProbeStatus::Corrupt,
                                  slots.files->path(n).string() + ": stored value out of range"};
            out[i] = values[i];
            if (dont_care || slots.capture_bounded(n)) {
                if (auto e = complete_by_captures(ps[i], n, dont_care, out[i])) return e;
            }
        }
        return std::nullopt;
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
        Children c = children_of(legal_moves(slots.files->rules(), p), true);
        if (c.count == 0) {
            if (!dont_care) return std::nullopt;
            return ProbeError{ProbeStatus::Corrupt,
                              slots.files->path(n).string() +
                                  ": a don't-care value where no capture recovers it"};
        }
        if (auto e = look_up(c, n)) return e;
        const int exits = c.best().value();
        value = dont_care ? exits : std::max(value, exits);
        return std::nullopt;
    }
};

} // namespace owaredb::probe_engine
