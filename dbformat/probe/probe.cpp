// The probe library: owaredb/probe.hpp on top of the level reader and the Oware rules. A
// Tablebase holds the engine of its board (engine.hpp) and hands each query to it.
#include "owaredb/probe.hpp"

#include "engine.hpp"
#include "engine_errors.hpp"

#include "oware/position.hpp"
#include "tablebase/database_dir.hpp"
#include "tablebase/level_store.hpp"

#include <system_error>
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

using namespace probe_engine;

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
            if (auto error = e.analysis.check(caller.data(), p)) return *error;
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
        if (auto error = e.analysis.check(caller.data(), p)) return *error;
        return f(e, p);
    }
};

namespace {

// The directory's rule set, for a Tablebase made without one, into `rules`: the commands'
// choice (directory_rules); none to choose is an error of every query, as a board that is
// none.
std::optional<ProbeError> choose_rules(const std::filesystem::path& dir, std::string& rules) {
    const DirectoryRules d = directory_rules(dir);
    rules = d.rules;
    if (d.found.size() > 1) {
        std::string names;
        for (const std::string& r : d.found) names += (names.empty() ? "" : " and ") + r;
        return ProbeError{ProbeStatus::InvalidRules, "'" + dir.string() +
                                                         "' holds level files of " + names +
                                                         ": name the rule set to read (rules)"};
    }
    if (Rules::by_name(rules)) return std::nullopt;
    return ProbeError{ProbeStatus::InvalidRules,
                      "'" + dir.string() + "' holds level files of an unknown rule set '" + rules +
                          "' (expected " + Rules::preset_choices() + ")"};
}

} // namespace

std::string directory_problem(const std::filesystem::path& dir, std::string_view missing_hint) {
    namespace fs = std::filesystem;
    const std::string d = dir.string();
    std::error_code ec;
    const fs::file_status st = fs::status(dir, ec);
    if (ec && ec != std::errc::no_such_file_or_directory)
        return "cannot use '" + d + "' as the database directory: " + ec.message();
    if (!fs::exists(st))
        return "no database directory '" + d + "'" +
               (missing_hint.empty() ? "" : " " + std::string(missing_hint));
    if (!fs::is_directory(st)) return "'" + d + "' is not a directory";
    fs::directory_iterator it(dir, ec);
    if (ec) return "cannot read the directory '" + d + "': " + ec.message();
    return {};
}

Tablebase::Tablebase(std::filesystem::path dir, std::string rules, TablebaseOptions options)
    : Tablebase(std::move(dir), std::move(rules), 6, options) {}

Tablebase::Tablebase(std::filesystem::path dir, std::string rules, int pits_per_side,
                     TablebaseOptions options)
    : impl_(std::make_unique<Impl>()) {
    impl_->dir = std::move(dir);
    impl_->rules_name = std::move(rules);
    if (impl_->rules_name.empty()) impl_->board_error = choose_rules(impl_->dir, impl_->rules_name);
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
    return impl_->with_standard(
        position, [](Engine<6>& e, const Position& p) { return e.analysis.value(p); });
}
ProbeResult<int> Tablebase::value(std::span<const uint8_t> position) const {
    return impl_->with_board<ProbeResult<int>>(
        position, [](auto& e, const auto& p) { return e.analysis.value(p); });
}

ProbeResult<PositionInfo> Tablebase::analyse(const Pits& position) const {
    return impl_->with_standard(
        position, [](Engine<6>& e, const Position& p) { return e.analysis.analyse(p); });
}
ProbeResult<BoardPositionInfo> Tablebase::analyse(std::span<const uint8_t> position) const {
    return impl_->with_board<ProbeResult<BoardPositionInfo>>(
        position, [](auto& e, const auto& p) { return e.analysis.analyse(p); });
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
        return e.pv.principal_variation(p, max_plies);
    });
}
ProbeResult<BoardPrincipalVariation>
Tablebase::principal_variation(std::span<const uint8_t> position, int max_plies) const {
    return impl_->with_board<ProbeResult<BoardPrincipalVariation>>(
        position, [&](auto& e, const auto& p) {
            using Line = typename std::remove_reference_t<decltype(e)>::PrincipalVariation;
            if (auto error = check_plies(max_plies)) return ProbeResult<Line>(*error);
            return e.pv.principal_variation(p, max_plies);
        });
}

// See Analysis::values for this false positive.
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
    impl_->on<6>().analysis.values(
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
        impl_->on<P>().analysis.values(
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
        return e.slots.files && e.slots.available(Engine<P>::Kind::Values, seeds);
    });
}

ProbeResult<Bounds> Tablebase::bounds(const Pits& position) const {
    return impl_->with_standard(position, [](Engine<6>& e, const Position& p) {
        ProbeResult<BoundsInfo> info = e.analysis.analyse_bounds(p, false);
        if (!info) return ProbeResult<Bounds>(info.error());
        return ProbeResult<Bounds>(info->bounds);
    });
}
ProbeResult<Bounds> Tablebase::bounds(std::span<const uint8_t> position) const {
    return impl_->with_board<ProbeResult<Bounds>>(position, [](auto& e, const auto& p) {
        auto info = e.analysis.analyse_bounds(p, false);
        if (!info) return ProbeResult<Bounds>(info.error());
        return ProbeResult<Bounds>(info->bounds);
    });
}

ProbeResult<BoundsInfo> Tablebase::analyse_bounds(const Pits& position) const {
    return impl_->with_standard(position, [](Engine<6>& e, const Position& p) {
        return e.analysis.analyse_bounds(p, true);
    });
}
ProbeResult<BoardBoundsInfo> Tablebase::analyse_bounds(std::span<const uint8_t> position) const {
    return impl_->with_board<ProbeResult<BoardBoundsInfo>>(
        position, [](auto& e, const auto& p) { return e.analysis.analyse_bounds(p, true); });
}

bool Tablebase::bounds_available(int seeds) const {
    if (impl_->board_error || seeds < 0 || seeds > kMaxSeeds) return false;
    return with_pits_per_side(impl_->pits, [&](auto board) {
        constexpr int P = decltype(board)::value;
        Engine<P>& e = impl_->on<P>();
        return e.slots.bound_files && e.slots.available(Engine<P>::Kind::Bounds, seeds);
    });
}

} // namespace owaredb
