// What a run may use, resolved once from the command line and handed down as it is: the
// threads (--threads) and the memory budget (--memory). Libraries below the programs take
// these as arguments and never pick their own (dbformat/threads.hpp); a run records the
// threads it was given (generate's build record).
#pragma once

#include <cstdint>
#include <string>

namespace owaredb::cli {

/// The threads of a run for `requested` (--threads; 0: one per core): `requested` when
/// positive, else the machine's hardware threads, at least 1. Always >= 1.
int resolve_threads(int requested);

/// The memory budget of a process: `bytes` (0: unknown, nothing is checked against it),
/// and whether the user set it with --memory (messages then name --memory) or it is the
/// default (they name the available memory).
struct MemoryBudget {
    uint64_t bytes = 0;
    bool given = false;
};

/// The budget for --memory given as `text`: the size it names (parse_bytes: a UsageError
/// naming --memory for anything else), else 90 % of the memory available now
/// (MemAvailable) shared between the `ranks_on_node` processes of an MPI job on this node
/// (>= 1), or 0 bytes when that is unknown. A given size is already per process.
MemoryBudget resolve_memory_budget(const std::string& text, int ranks_on_node);

} // namespace owaredb::cli
