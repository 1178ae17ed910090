// `mpirun -np K owaredb generate` (generate_distributed.cpp, docs/distributed.md).
#pragma once

#include "mpi_job.hpp"
#include "oware/rules.hpp"

#include <cstdint>
#include <string>

namespace owaredb::cli {

/// Builds the value files of levels 0..max_seeds in `dir` with every rank of `job` (every
/// rank calls it with the same arguments). `budget`: the memory budget per rank (0: none),
/// `budget_given` whether --memory set it. Returns the exit status; throws on errors (the
/// caller ends the job).
int generate_distributed(MpiJob& job, const Rules& rules, const std::string& dir, int max_seeds,
                         int threads, uint64_t budget, bool budget_given);

} // namespace owaredb::cli
