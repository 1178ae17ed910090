#include "oware/rules.hpp"

namespace owaredb {

Rules Rules::abapa() {
    return {"abapa", GrandSlam::CapturesNothing, AllMovesStarve::GameEnds};
}

Rules Rules::awari() {
    return {"awari", GrandSlam::CapturesAll, AllMovesStarve::MovesAreLegal};
}

std::optional<Rules> Rules::by_name(std::string_view name) {
    for (const Rules& r : {abapa(), awari()})
        if (r.name == name) return r;
    return std::nullopt;
}

std::string Rules::preset_names() {
    return "abapa|awari";
}

std::vector<uint8_t> Rules::knob_bytes(int pits_per_side) const {
    std::vector<uint8_t> bytes{static_cast<uint8_t>(grand_slam),
                               static_cast<uint8_t>(all_moves_starve)};
    if (pits_per_side != 6) bytes.push_back(static_cast<uint8_t>(pits_per_side));
    return bytes;
}

} // namespace owaredb
