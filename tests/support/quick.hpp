// The one switch every suite reads: OWAREDB_QUICK set to anything but "0" (the sanitizer
// runs of scripts/test.sh set it to 1) makes exhaustive sweeps use smaller bounds.
#pragma once

#include <cstdlib>
#include <cstring>

namespace owaredb::test {

inline bool quick() {
    const char* q = std::getenv("OWAREDB_QUICK");
    return q != nullptr && std::strcmp(q, "0") != 0;
}

} // namespace owaredb::test
