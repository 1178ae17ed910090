// The thread count of the file layer's parallel work (writing, reading whole levels,
// histograms, verification, order conversion). A library function never picks one: the
// program resolved --threads once (tools/cli/run_settings.hpp) and every call is given
// that count, so that a run uses, and records, the threads it was asked for.
#pragma once

#include <stdexcept>
#include <string>

namespace owaredb::db {

/// Returns `threads` when it is at least 1; else throws std::invalid_argument naming
/// `who`, the function or option that was given it (a caller that did not pass its count).
inline int require_threads(int threads, const char* who) {
    if (threads < 1)
        throw std::invalid_argument(std::string(who) + ": threads must be at least 1, got " +
                                    std::to_string(threads));
    return threads;
}

} // namespace owaredb::db
