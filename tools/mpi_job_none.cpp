// MpiJob in a build without MPI (mpi_job.hpp): it exists so that the commands need no
// #ifdef, and refuses to start, so that `mpirun -np K` of such a build does not silently
// run K copies of a one-process job writing the same files.
#include "mpi_job.hpp"

#include <cstdlib>
#include <stdexcept>

namespace owaredb::cli {

struct MpiJob::Link {};

bool MpiJob::available() {
    return false;
}

MpiJob::MpiJob(int*, char***) {
    throw std::runtime_error("this owaredb was built without MPI, so it cannot run under "
                             "mpirun; install libopenmpi-dev and rebuild (docs/distributed.md)");
}

MpiJob::~MpiJob() = default;
MpiJob* MpiJob::current() {
    return nullptr;
}
RankLink& MpiJob::link() {
    throw std::logic_error("no MPI");
}
void MpiJob::fetch(int, uint64_t, uint64_t, std::span<int8_t>) {
    throw std::logic_error("no MPI");
}
void MpiJob::stop_serving() {
    throw std::logic_error("no MPI");
}
void MpiJob::serve(const Values&) {
    throw std::logic_error("no MPI");
}
std::vector<uint64_t> MpiJob::gather(uint64_t) {
    throw std::logic_error("no MPI");
}
uint64_t MpiJob::broadcast(uint64_t) {
    throw std::logic_error("no MPI");
}
uint64_t MpiJob::sum(uint64_t) {
    throw std::logic_error("no MPI");
}
void MpiJob::abort(const std::string&) {
    std::abort();
}

} // namespace owaredb::cli
