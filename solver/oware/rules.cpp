#include "oware/rules.hpp"

namespace owaredb {

namespace {

// The presets and what each is: a new rule set is one more line here.
struct Preset {
    Rules rules;
    const char* description;
};

const std::vector<Preset>& preset_list() {
    static const std::vector<Preset> list = {
        {{"abapa", GrandSlam::CapturesNothing, AllMovesStarve::GameEnds},
         "Oware, the rules of the seeds"},
        {{"awari", GrandSlam::CapturesAll, AllMovesStarve::MovesAreLegal},
         "computer Awari (Romein & Bal)"},
    };
    return list;
}

} // namespace

Rules Rules::abapa() {
    return *by_name("abapa");
}

Rules Rules::awari() {
    return *by_name("awari");
}

const std::vector<Rules>& Rules::presets() {
    static const std::vector<Rules> rules = [] {
        std::vector<Rules> all;
        for (const Preset& p : preset_list()) all.push_back(p.rules);
        return all;
    }();
    return rules;
}

std::optional<Rules> Rules::by_name(std::string_view name) {
    for (const Rules& r : presets())
        if (r.name == name) return r;
    return std::nullopt;
}

std::vector<std::string> Rules::preset_names() {
    std::vector<std::string> names;
    for (const Rules& r : presets()) names.push_back(r.name);
    return names;
}

std::string Rules::preset_choices() {
    std::string text;
    for (const Rules& r : presets()) text += (text.empty() ? "" : "|") + r.name;
    return text;
}

std::string Rules::description(std::string_view name) {
    for (const Preset& p : preset_list())
        if (p.rules.name == name) return p.description;
    return {};
}

std::vector<uint8_t> Rules::knob_bytes(int pits_per_side) const {
    std::vector<uint8_t> bytes{static_cast<uint8_t>(grand_slam),
                               static_cast<uint8_t>(all_moves_starve)};
    if (pits_per_side != 6) bytes.push_back(static_cast<uint8_t>(pits_per_side));
    return bytes;
}

} // namespace owaredb
