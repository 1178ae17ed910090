// The level files of one board's Tablebase, in whatever format the directory holds
// (tablebase/level_store.hpp), opened on first use and kept.
//
// Contract: level() hands out an open level of either kind, or the reason it is not there;
// once a level opened it is handed out lock-free until a read from it fails and its file
// is found changed (reopen_changed()), and then opened anew; a failure is looked at again at
// most every kRecheck. A level let go of stays in memory (another thread may still read it)
// until the slots are destroyed: one per change of its file seen after a failed read. Thread-safe.
// The reads (reads.hpp) read values only through level() and capture_bounded(); they name files by
// the directories' paths.
#pragma once

#include "dbformat/reader.hpp"
#include "oware/position.hpp"
#include "oware/rules.hpp"
#include "tablebase/bounds_dir.hpp"
#include "tablebase/database_dir.hpp"
#include "tablebase/level_store.hpp"

#include <array>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace owaredb::probe_engine {

// The level files of a board of P pits a side, for one rules name.
template <int P> struct LevelSlots {
    std::filesystem::path dir;
    std::string rules_name;
    std::optional<DatabaseDir> files; // empty for an unknown rules name
    std::optional<BoundsDir> bound_files;
    std::shared_ptr<db::BlockCache> cache;

    LevelSlots(std::filesystem::path d, std::string rules, std::shared_ptr<db::BlockCache> c)
        : dir(std::move(d)), rules_name(std::move(rules)), cache(std::move(c)) {
        if (std::optional<Rules> r = Rules::by_name(rules_name)) {
            bound_files.emplace(dir, *r, P);
            files.emplace(dir, std::move(*r), false, P);
        }
    }
    // A level file of one kind, opened on first use, in whatever format the directory
    // holds (tablebase/level_store.hpp). Once it has opened it stays open (handed out
    // lock-free) until reopen_changed() lets go of it; a failure is not kept: the file is looked at
    // again (LevelSource::stale says whether the last try can be kept) at most every kRecheck, so
    // that a level built or copied after it was first asked for is found.
    struct Slot {
        std::atomic<const LevelSource*> ready{nullptr}; // set once `source` opened
        // steady_clock nanoseconds before which a failure is not looked at again.
        std::atomic<int64_t> recheck_at{0};
        std::mutex mutex; // guards what follows while nothing has opened
        // The last try, of the store format `format`; never replaced once ready. A failed
        // source never leaves the lock, so replacing it frees nothing another thread uses.
        std::unique_ptr<LevelSource> source;
        std::string_view format;
        bool tried = false;
        db::Status failure; // the last try's outcome, while nothing has opened
        // Whether the file stores capture-bounded values: -1 not known yet, 0 no, 1 yes.
        std::atomic<int8_t> capture_bounded{-1};
        // Levels that opened and were let go of when their file changed (reopen_changed),
        // kept for the readers that may still hold them.
        std::vector<std::unique_ptr<LevelSource>> retired;
    };
    // A level that opened, or none.
    using OpenLevel = const LevelSource*;
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
    static OpenLevel opened(const Slot& s, std::memory_order order) { return s.ready.load(order); }

    // One try at opening level n of `kind` into `s` (under its lock): the file of the
    // format the directory holds, the directory listed anew on every try.
    db::Status try_open(Kind kind, int n, Slot& s) {
        db::Result<std::unique_ptr<LevelStore>> store = open_level_store(dir, files->rules(), P, 0);
        if (!store.ok()) return store.status();
        if (!s.source || s.format != (*store)->format() || s.source->stale()) {
            s.source = (*store)->source(
                kind == Kind::Values ? StoredKind::Values : StoredKind::Bounds, n, cache);
            s.format = (*store)->format();
        }
        db::Status status = s.source->open(); // the first try opens; later ones return its outcome
        if (status.ok()) s.ready.store(s.source.get(), std::memory_order_release);
        return status;
    }

    // After a read failed: each of levels seeds[0, count) of `kind` that is open but whose
    // file is no longer the one it opened (repaired, replaced, truncated: LevelSource::stale)
    // is let go of, to be opened anew on its next use. Whether any was; one stat() a level.
    bool reopen_changed(Kind kind, const int* seeds, int count) {
        bool any = false;
        for (int i = 0; i < count; ++i) {
            if (seeds[i] < 0 || seeds[i] > kMaxSeeds) continue;
            Slot& s = slot(kind, seeds[i]);
            std::lock_guard lock(s.mutex);
            const LevelSource* l = opened(s, std::memory_order_relaxed);
            if (!l || !l->stale()) continue;
            s.retired.push_back(std::move(s.source));
            s.ready.store(nullptr, std::memory_order_release);
            s.capture_bounded.store(-1, std::memory_order_release);
            s.tried = false;
            any = true;
        }
        return any;
    }

    // Whether level n's file of `kind` opens; between rechecks of a failure, without a lock.
    bool available(Kind kind, int n) {
        Slot& s = slot(kind, n);
        if (opened(s, std::memory_order_acquire)) return true;
        if (now_ns() < s.recheck_at.load(std::memory_order_acquire)) return false;
        db::Status error;
        return bool(level(kind, n, error));
    }

    // Whether level n's file stores capture-bounded values (dbformat/README.md); asked only
    // after a value was read from it, so the file is open and valid.
    bool capture_bounded(int n) {
        Slot& s = slot(Kind::Values, n);
        int8_t known = s.capture_bounded.load(std::memory_order_acquire);
        if (known < 0) {
            const LevelSource* l = s.ready.load(std::memory_order_acquire);
            if (!l) return false; // not open after all: nothing was read from it
            known = l->capture_bounded() ? 1 : 0;
            s.capture_bounded.store(known, std::memory_order_release);
        }
        return known == 1;
    }
};

} // namespace owaredb::probe_engine
