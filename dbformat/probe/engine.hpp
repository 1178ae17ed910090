// Everything a Tablebase does on a board of P pits a side, one layer a concept: the level
// files (level_slots.hpp), the reads of stored positions (reads.hpp), the answers a
// position's moves decide (analysis.hpp) and the principal variation
// (principal_variation.hpp). Each layer knows only the one below it.
//
// The answers hold positions as std::array<uint8_t, 2P>: on the standard board that is Pits,
// and the public functions taking Pits return them as they are; the others copy them into
// BoardPits.
#pragma once

#include "analysis.hpp"
#include "level_slots.hpp"
#include "principal_variation.hpp"
#include "reads.hpp"

#include <filesystem>
#include <memory>
#include <string>

namespace owaredb::probe_engine {

// The engine of one board, whose positions are BasicPosition<P>: what a Tablebase holds
// for its board (Engine<P> below).
struct BoardEngine {
    virtual ~BoardEngine() = default;
};

template <int P> struct Engine final : BoardEngine {
    using Kind = typename LevelSlots<P>::Kind;
    using PrincipalVariation = typename PvSearch<P>::PrincipalVariation;
    using BoundsInfo = typename Analysis<P>::BoundsInfo;

    LevelSlots<P> slots;
    StoredReads<P> reads{slots};
    Analysis<P> analysis{reads};
    PvSearch<P> pv{analysis};

    Engine(std::filesystem::path dir, std::string rules, std::shared_ptr<db::BlockCache> cache)
        : slots(std::move(dir), std::move(rules), std::move(cache)) {}
    Engine(const Engine&) = delete; // the layers hold references to each other
    Engine& operator=(const Engine&) = delete;
};

} // namespace owaredb::probe_engine
