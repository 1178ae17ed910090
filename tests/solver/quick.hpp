// Sanitizer runs set OWAREDB_QUICK=1; exhaustive sweeps then use smaller bounds.
#pragma once
#include <cstdlib>
#include <cstring>

namespace owaredb::test {
inline bool quick() {
    const char* q = std::getenv("OWAREDB_QUICK");
    return q != nullptr && std::strcmp(q, "0") != 0;
}
} // namespace owaredb::test
