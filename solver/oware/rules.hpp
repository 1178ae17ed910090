// Oware rule sets: a few knobs and the named presets built from them.
//
// The knobs describe only what differs between the published rule sets; everything
// else (sowing with origin skip, backward capture chains of 2s and 3s that stop at the
// opponent's first pit, mandatory feeding) is common to all of them. A new variant is
// one more entry in the list of presets in rules.cpp.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace owaredb {

/// What happens to a capture that would take every seed the opponent has.
enum class GrandSlam : uint8_t {
    /// The move is legal and captures nothing (abapa, the seeds' rules).
    CapturesNothing = 0,
    /// The move captures everything, which leaves the opponent without seeds; such a
    /// "starving" move is only legal when every legal move starves (awari).
    CapturesAll = 1,
};

/// What happens when every move of the side to move would leave the opponent without
/// seeds (the opponent is empty and no move reaches it, or every move is a grand slam
/// under GrandSlam::CapturesAll).
enum class AllMovesStarve : uint8_t {
    /// No move is played: the game ends and the mover takes all seeds left (abapa).
    GameEnds = 0,
    /// Every such move is legal; the opponent then cannot move and the mover takes the
    /// rest (awari). The value is +n in both cases, but the move exists (perft counts it).
    MovesAreLegal = 1,
};

/// A complete rule set. Moves that leave the opponent without seeds are always illegal
/// while another move exists (mandatory feeding), in every rule set.
struct Rules {
    std::string name;
    GrandSlam grand_slam = GrandSlam::CapturesNothing;
    AllMovesStarve all_moves_starve = AllMovesStarve::GameEnds;

    /// The seeds' rules (Oware Abapa): grand slam captures nothing; no feeding move ends
    /// the game.
    static Rules abapa();
    /// Computer Awari of Allis, van der Meulen & van den Herik (1991), as solved by
    /// Romein & Bal (2002).
    static Rules awari();
    /// Every preset, the default (abapa) first: the one list that by_name, help texts,
    /// error messages and `owaredb serve` (its /api/info, so its page) read.
    static const std::vector<Rules>& presets();
    /// The preset with this name, or nullopt.
    static std::optional<Rules> by_name(std::string_view name);
    /// The presets' names, in the order of presets(): {"abapa", "awari"}.
    static std::vector<std::string> preset_names();
    /// The same as help texts and error messages write a choice: "abapa|awari".
    static std::string preset_choices();
    /// What the preset `name` is, in a few words, for a menu ("Oware, the rules of the
    /// seeds"); empty for a name that is no preset.
    static std::string description(std::string_view name);

    /// The knobs as bytes, stored in database headers so a file records its rules: grand
    /// slam, all-moves-starve, and on a board of P != 6 pits a side a third byte, P (so that
    /// a standard board's files are what they were before other boards existed, and files
    /// of two boards never pass for each other).
    std::vector<uint8_t> knob_bytes(int pits_per_side) const;

    friend bool operator==(const Rules&, const Rules&) = default;
};

} // namespace owaredb
