// The probe library: owaredb/probe.hpp on top of the level reader and the Oware rules.
#include "owaredb/probe.hpp"

#include "dbformat/reader.hpp"
#include "solver/moves.hpp"
#include "solver/ranking.hpp"
#include "solver/rules.hpp"

#include <algorithm>
#include <mutex>
#include <optional>
#include <set>

namespace owaredb {

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

namespace {

ProbeError from_db(const db::Status& s) {
    switch (s.code()) {
    case db::ErrorCode::NotFound:
        return {ProbeStatus::NotAvailable, s.message()};
    case db::ErrorCode::Io:
        return {ProbeStatus::IoError, s.message()};
    default:
        return {ProbeStatus::Corrupt, s.message()};
    }
}

Position to_position(const Pits& pits) {
    Position p;
    p.pits = pits;
    return p;
}

} // namespace

struct Tablebase::Impl {
    std::filesystem::path dir;
    std::string rules_name;
    std::optional<Rules> rules;
    std::shared_ptr<db::BlockCache> cache;
    struct Slot {
        std::once_flag once;
        std::unique_ptr<db::LevelReader> reader;
    };
    std::array<Slot, kMaxSeeds + 1> levels;

    const db::LevelReader& level(int n) {
        Slot& slot = levels[n];
        std::call_once(slot.once, [&] {
            db::ReaderOptions o;
            o.cache = cache;
            o.expect = db::Expectation{rules->name, rules->knob_bytes(), static_cast<uint32_t>(n),
                                       level_size(n)};
            slot.reader = std::make_unique<db::LevelReader>(
                db::level_path(dir, rules->name, static_cast<uint32_t>(n)), std::move(o));
        });
        return *slot.reader;
    }

    std::optional<ProbeError> check(const Pits& pits) const {
        if (!rules)
            return ProbeError{ProbeStatus::InvalidRules, "unknown rules '" + rules_name +
                                                             "' (expected " +
                                                             Rules::preset_names() + ")"};
        int seeds = 0;
        for (uint8_t v : pits) seeds += v;
        if (seeds > kMaxSeeds)
            return ProbeError{ProbeStatus::InvalidPosition, "the position holds " +
                                                                std::to_string(seeds) +
                                                                " seeds, more than 48"};
        return std::nullopt;
    }

    // Value of a position of D_n straight from its file.
    ProbeResult<int> stored(const Position& p) {
        const int n = p.seeds();
        db::Result<int8_t> v = level(n).value(rank(p));
        if (!v.ok()) return from_db(v.status());
        if (*v < -n || *v > n)
            return ProbeError{ProbeStatus::Corrupt,
                              level(n).path().string() + ": stored value out of range"};
        return static_cast<int>(*v);
    }

    ProbeResult<int> value(const Position& p) {
        if (p.in_database()) return stored(p);
        // Not stored: one ply of search; every child is (its origin pit is empty).
        MoveList moves = legal_moves(*rules, p);
        if (moves.empty()) return terminal_value(p);
        int best = -1000;
        for (const Move& m : moves) {
            ProbeResult<int> c = stored(m.child);
            if (!c) return c.error();
            best = std::max(best, m.captured - *c);
        }
        return best;
    }

    ProbeResult<PositionInfo> analyse(const Position& p) {
        PositionInfo info;
        info.seeds = p.seeds();
        MoveList moves = legal_moves(*rules, p);
        if (moves.empty()) {
            info.terminal = true;
            info.value = terminal_value(p);
            return info;
        }
        info.value = -1000;
        for (const Move& m : moves) {
            ProbeResult<int> c = stored(m.child);
            if (!c) return c.error();
            MoveInfo mi{m.pit + 1, m.captured, m.captured - *c, m.child.pits};
            info.value = std::max(info.value, mi.value);
            info.moves.push_back(mi);
        }
        for (const MoveInfo& m : info.moves)
            if (m.value == info.value) info.best.push_back(m.pit);
        return info;
    }
};

Tablebase::Tablebase(std::filesystem::path dir, std::string rules, TablebaseOptions options)
    : impl_(std::make_unique<Impl>()) {
    impl_->dir = std::move(dir);
    impl_->rules_name = std::move(rules);
    impl_->rules = Rules::by_name(impl_->rules_name);
    impl_->cache = std::make_shared<db::BlockCache>(options.cache_bytes);
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

ProbeResult<int> Tablebase::value(const Pits& position) const {
    if (auto e = impl_->check(position)) return *e;
    return impl_->value(to_position(position));
}

ProbeResult<PositionInfo> Tablebase::analyse(const Pits& position) const {
    if (auto e = impl_->check(position)) return *e;
    return impl_->analyse(to_position(position));
}

void Tablebase::values(std::span<const Pits> positions, std::span<ProbeResult<int>> results) const {
    if (positions.size() != results.size()) {
        for (auto& r : results)
            r = ProbeError{ProbeStatus::InvalidPosition,
                           "batch: positions and results differ in size"};
        return;
    }
    for (size_t i = 0; i < positions.size(); ++i) results[i] = value(positions[i]);
}

bool Tablebase::level_available(int seeds) const {
    if (!impl_->rules || seeds < 0 || seeds > kMaxSeeds) return false;
    return impl_->level(seeds).open().ok();
}

ProbeResult<PrincipalVariation> Tablebase::principal_variation(const Pits& position,
                                                               int max_plies) const {
    if (auto e = impl_->check(position)) return *e;
    PrincipalVariation pv;
    Position p = to_position(position);
    std::set<Pits> seen;
    for (int ply = 0; ply < max_plies; ++ply) {
        ProbeResult<PositionInfo> info = impl_->analyse(p);
        if (!info) return info.error();
        if (info->terminal) {
            pv.final_position = p.pits;
            pv.end = "game over";
            pv.final_value = info->value;
            return pv;
        }
        if (!seen.insert(p.pits).second) {
            // Back at a position of this line with no capture in between. With value 0
            // that is endless play, which the value counts 0. With another value the
            // winning side can force a capture, but the databases hold values, not
            // distances, so this line of best moves went round instead: say so.
            pv.final_position = p.pits;
            pv.end = info->value == 0 ? "endless play" : "repetition";
            return pv;
        }
        // Best moves; a capturing one first (it makes progress), then the lowest pit.
        const MoveInfo* chosen = nullptr;
        for (const MoveInfo& m : info->moves)
            if (m.value == info->value && (!chosen || (m.captured > 0 && chosen->captured == 0)))
                chosen = &m;
        pv.steps.push_back({p.pits, chosen->pit, chosen->captured, info->value});
        if (chosen->captured > 0) seen.clear(); // captures are irreversible
        p.pits = chosen->child;
    }
    pv.final_position = p.pits;
    pv.end = "ply limit";
    return pv;
}

} // namespace owaredb
