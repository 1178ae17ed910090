// The level files of one board's Tablebase: which file a level is (ours or, in a directory
// of Romein & Bal's published files, theirs), opened on first use and kept.
//
// Contract: level() hands out an open level of either kind, or the reason it is not there;
// once a level opened it stays open and is handed out lock-free; a failure is looked at
// again at most every kRecheck. Thread-safe. The reads (reads.hpp) read values only
// through level() and capture_bounded(); they name files by the directories' paths.
#pragma once

#include "dbformat/raw_level.hpp"
#include "dbformat/reader.hpp"
#include "oware/position.hpp"
#include "oware/rules.hpp"
#include "tablebase/bounds_dir.hpp"
#include "tablebase/database_dir.hpp"
#include "tablebase/directory_format.hpp"
#include "tablebase/published_dir.hpp"

#include <array>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

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
};

} // namespace owaredb::probe_engine
