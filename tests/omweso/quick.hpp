// OWAREDB_QUICK=1 (sanitizer runs) makes the slow sweeps smaller.
#pragma once

#include <cstdlib>
#include <string_view>

namespace owaredb::omweso::test {

inline bool quick() {
    const char* v = std::getenv("OWAREDB_QUICK");
    return v && std::string_view(v) == "1";
}

} // namespace owaredb::omweso::test
