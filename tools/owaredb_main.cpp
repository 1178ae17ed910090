// owaredb: generate, probe and check Oware endgame databases.
#include "command_help.hpp"
#include "commands.hpp"
#include "mpi_job.hpp"

#include <array>
#include <cstdio>
#include <exception>
#include <optional>
#include <string>

int main(int argc, char** argv) {
    using namespace owaredb::cli;
    // In the order the usage lists them.
    static constexpr std::array<Subcommand, 16> commands = {{
        {"bench", cmd_bench, "measure move, un-move and ranking costs", help::kBench},
        {"bench-entropy", cmd_bench_entropy, "bits a level's values need, by context",
         help::kBenchEntropy},
        {"bench-generate", cmd_bench_generate, "measure the analyser against a forward pass",
         help::kBenchGenerate},
        {"bench-probe", cmd_bench_probe, "measure probe throughput and cold latency",
         help::kBenchProbe},
        {"bench-search", cmd_bench_search,
         "measure the search above the levels built: agreement, games, positions/s",
         help::kBenchSearch},
        {"compare", cmd_compare, "compare two directories (either format) value by value",
         help::kCompare},
        {"export", cmd_export, "write awari levels as Romein & Bal's published files (scores.N)",
         help::kExport},
        {"generate", cmd_generate, "build the databases of levels 0..N", help::kGenerate},
        {"import", cmd_import, "read Romein & Bal's published files (scores.N) into level files",
         help::kImport},
        {"info", cmd_info, "describe a level file", help::kInfo},
        {"perft", cmd_perft, "count move sequences from a position (move generator check)",
         help::kPerft},
        {"probe", cmd_probe, "values of a position and its moves from the databases", help::kProbe},
        {"serve", cmd_serve_launch, "the oracle in a browser: a page and a JSON API (HTTP)",
         help::kServe},
        {"show", cmd_show, "print a position, its legal moves and their children", help::kShow},
        {"stats", cmd_stats, "count the positions of each value per level", help::kStats},
        {"verify", cmd_verify, "check every checksum and the consistency of every value",
         help::kVerify},
    }};
    // Under mpirun (docs/distributed.md) the job lives as long as the command; a rank whose
    // command fails ends the job, since the others may be waiting for it in a collective.
    std::optional<MpiJob> job;
    if (MpiJob::launched()) {
        try {
            job.emplace(&argc, &argv);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "owaredb: %s\n", e.what());
            return 1;
        }
        const std::string name = argc > 1 ? argv[1] : "";
        if (job->ranks() > 1 && name != "generate" && name != "verify" && name != "--help") {
            if (job->rank() == 0)
                std::fprintf(stderr,
                             "owaredb: only generate and verify run on several MPI ranks; "
                             "run '%s' without mpirun\n",
                             name.c_str());
            return 2;
        }
    }
    const int status =
        run_subcommand({.name = "owaredb", .about = {}, .commands = commands}, argc, argv);
    if (job && status != 0 && job->ranks() > 1)
        job->abort("the command failed (exit status " + std::to_string(status) + ")");
    return status;
}
