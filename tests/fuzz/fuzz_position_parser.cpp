// libFuzzer target: the position parser never crashes, accepts only valid positions, and
// what it accepts round-trips and survives move, un-move and rank generation.
#include "oware/moves.hpp"
#include "oware/position.hpp"
#include "oware/ranking.hpp"
#include "oware/unmoves.hpp"

#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string_view text(reinterpret_cast<const char*>(data), size);
    owaredb::ParseResult r = owaredb::parse_position(text);
    if (!r.ok) {
        if (r.error.empty()) std::abort(); // every rejection says why
        return 0;
    }
    const owaredb::Position& p = r.position;
    if (p.seeds() > owaredb::kMaxSeeds) std::abort();
    owaredb::ParseResult again = owaredb::parse_position(owaredb::to_string(p));
    if (!again.ok || again.position != p) std::abort();
    for (const owaredb::Rules& rules : {owaredb::Rules::abapa(), owaredb::Rules::awari()}) {
        for (const owaredb::Move& m : owaredb::legal_moves(rules, p))
            if (m.child.seeds() + m.captured != p.seeds()) std::abort();
        owaredb::ParentList parents;
        owaredb::parents(rules, p, parents);
    }
    if (p.in_database() && owaredb::unrank(p.seeds(), owaredb::rank(p)) != p) std::abort();
    return 0;
}
