#include "stored_levels.hpp"

#include "oware/ranking.hpp"

namespace owaredb::cli {

std::string position_text(int pits, int n, uint64_t index) {
    return with_pits_per_side(
        pits, [&](auto p) { return to_string(unrank<decltype(p)::value>(n, index)); });
}

} // namespace owaredb::cli
