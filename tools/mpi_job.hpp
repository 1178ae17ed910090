// The MPI job an owaredb process belongs to when mpirun (or srun) started it
// (docs/distributed.md). `owaredb generate` and `owaredb verify` then split their work
// between the ranks; every other command refuses to run on more than one rank. A build
// without Open MPI (cmake -DOWAREDB_MPI=OFF, or libopenmpi-dev missing) has the same
// interface and refuses to start inside an MPI launch.
#pragma once

#include "retro/rank_link.hpp"

#include <cstdint>
#include <cstdlib>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace owaredb::cli {

class MpiJob {
  public:
    /// Whether an MPI launcher started this process (its environment variables: Open MPI's
    /// OMPI_COMM_WORLD_SIZE, PMIx's PMIX_RANK, Hydra/Slurm's PMI_SIZE). Without one, owaredb
    /// does not initialise MPI at all and runs as one process.
    static bool launched() {
        for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE", "PMI_RANK"})
            if (std::getenv(v)) return true;
        return false;
    }
    /// Whether this program was built with MPI.
    static bool available();

    /// MPI_Init_thread (only the main thread calls MPI). Throws std::runtime_error when the
    /// program was built without MPI or MPI cannot start.
    MpiJob(int* argc, char*** argv);
    ~MpiJob(); // MPI_Finalize
    MpiJob(const MpiJob&) = delete;
    MpiJob& operator=(const MpiJob&) = delete;

    int rank() const { return rank_; }
    int ranks() const { return ranks_; }
    /// The ranks of this job on this node (sharing its memory), this one included.
    int ranks_on_node() const { return ranks_on_node_; }
    /// The engine's view of the ranks (exchange and sum are collective calls).
    RankLink& link();

    /// What a rank hands out from serve(): the out.size() values it holds of positions
    /// [begin, begin + length) of a level, in the level's order.
    using Values = std::function<void(uint64_t begin, uint64_t length, std::span<int8_t> out)>;
    /// Rank 0 reads rank `owner`'s values of positions [begin, begin + length) (out.size() of
    /// them), which that rank hands out from serve(); stop_serving() ends every other rank's
    /// serve().
    void fetch(int owner, uint64_t begin, uint64_t length, std::span<int8_t> out);
    void stop_serving();
    /// Every rank but 0: answers rank 0's fetch() calls with `values` until stop_serving().
    void serve(const Values& values);
    /// Collective: every rank's `value`, in rank order, on rank 0 (empty on the others).
    std::vector<uint64_t> gather(uint64_t value);
    /// Collective: rank 0's `value` on every rank.
    uint64_t broadcast(uint64_t value);
    /// Collective: the sum of `value` over the ranks, on every rank.
    uint64_t sum(uint64_t value);
    /// Ends the whole job at once (MPI_Abort) after printing `why` with this rank's number:
    /// the only safe way out when one rank fails while the others may wait in a collective.
    [[noreturn]] void abort(const std::string& why);

    /// The job of this process (set while an MpiJob lives), or nullptr.
    static MpiJob* current();
    /// This process's rank, 0 without a job.
    static int current_rank() { return current() ? current()->rank() : 0; }
    /// The number of ranks, 1 without a job.
    static int current_ranks() { return current() ? current()->ranks() : 1; }
    /// The ranks of this job on this node, 1 without a job: what shares the node's memory.
    static int current_ranks_on_node() { return current() ? current()->ranks_on_node() : 1; }

  private:
    int rank_ = 0;
    int ranks_ = 1;
    int ranks_on_node_ = 1;
    struct Link;
    Link* link_ = nullptr;
};

} // namespace owaredb::cli
