// What `owaredb <command> --help` prints after the options: examples and exit status
// (cli::Subcommand::help). docs/cli.md is made from the programs' --help by
// scripts/cli-docs.sh, and a test fails when the two differ.
#pragma once

#include <string_view>

namespace owaredb::cli::help {

inline constexpr std::string_view kBench = R"(examples:
  owaredb bench                          move, un-move and ranking costs at 24 and 40 seeds
  owaredb bench --rules awari --seeds 12,24 --samples 100000

exit status:
  0  measured;  1  an error;  2  a usage error
)";

inline constexpr std::string_view kBenchEntropy = R"(examples:
  owaredb bench-entropy --dir owaredb-data --level 16

exit status:
  0  measured;  1  an error (a missing or damaged level);  2  a usage error
)";

inline constexpr std::string_view kBenchGenerate = R"(examples:
  owaredb bench-generate --levels 20 26 --dir owaredb-data

exit status:
  0  measured;  1  an error;  2  a usage error
)";

inline constexpr std::string_view kBenchProbe = R"(examples:
  owaredb bench-probe --dir owaredb-data --level 16

exit status:
  0  measured;  1  an error (a missing or damaged level);  2  a usage error
)";

inline constexpr std::string_view kBenchSearch = R"(examples:
  owaredb bench-search --dir awari-data --rules awari --levels 28
                                     search with levels 0..28: agreement at 29 and 30, games
  owaredb bench-search --dir awari-data --levels 20 --openings 0 --positions 500

exit status:
  0  measured;  1  an error (a missing or damaged level);  2  a usage error
)";

inline constexpr std::string_view kCompare = R"(examples:
  owaredb compare awari-a awari-b                 two directories of our files
  owaredb compare scores-dir awari-db --max-seeds 24 --memory 8G
                                                  published scores.N against ours

exit status:
  0  every level there is on both sides and equal
  1  a level differs or is on one side only, or an error
  2  a usage error
)";

inline constexpr std::string_view kExport = R"(examples:
  owaredb export --from awari-db --to scores-dir --max-seeds 24 --memory 4G

exit status:
  0  every level converted (or already there);  1  an error;  2  a usage error
)";

inline constexpr std::string_view kGenerate = R"(examples:
  owaredb generate                                abapa levels 0..20 into ./owaredb-data
  owaredb generate --rules awari --max-seeds 28   a night's levels on 2 cores
  owaredb generate --rules awari --game 3 --memory 18G
                                                  the levels of the 36-seed game
  owaredb generate --pits 4 --game 3 --dir p4     a board of 4 pits a side
  owaredb generate --rules awari --game 4 --plan  what each level needs; writes nothing
  mpirun -np 16 owaredb generate --rules awari --max-seeds 48 --dir /shared/awari-db

exit status:
  0  every level built (or already there); with --plan: every level fits
  1  an error, or with --plan a level that does not fit --memory or --disk
  2  a usage error
  3  stopped by a signal with the level's checkpoint saved: the same command resumes
)";

inline constexpr std::string_view kImport = R"(examples:
  owaredb import --from scores-dir --to awari-db --max-seeds 24 --memory 4G

exit status:
  0  every level converted (or already there);  1  an error;  2  a usage error
)";

inline constexpr std::string_view kInfo = R"(examples:
  owaredb info owaredb-data/abapa-12.owdb

exit status:
  0  the file was read;  1  it cannot be read or is damaged;  2  a usage error
)";

inline constexpr std::string_view kPerft = R"(examples:
  owaredb perft --depth 6
  owaredb perft --pits 4 --depth 8 --position "3 3 3 3 3 3 3 3"

exit status:
  0  counted;  2  a usage error (a bad position)
)";

inline constexpr std::string_view kProbe = R"(examples:
  owaredb probe "1 0 0 1 0 1 0 1 0 0 1 0"              value, moves and best moves
  owaredb probe --pv "1 1 1 1 1 1 1 1 1 1 1 1"         and the line of perfect play
  owaredb probe --json "1 0 0 1 0 1 0 1 0 0 1 0"       the same as one JSON object
  owaredb probe 4 4 4 4 4 4 4 4 4 4 4 4                quotes are optional
  printf '1 0 0 1 0 1 0 1 0 0 1 0\n' | owaredb probe --batch --json
  owaredb probe --scores 13 16 "0 0 0 0 2 1 1 0 0 0 0 0"
                                                       who wins from these captures
                                                       (needs generate --bounds)

exit status:
  0  answered (--batch: every line)
  1  a query failed: a level missing or damaged (--batch: any line)
  2  a usage error, or a bad position
)";

inline constexpr std::string_view kServe = R"(examples:
  owaredb serve                                   the page at http://127.0.0.1:8080/
  owaredb serve --dir awari-db --port 9000
  owaredb serve --host 0.0.0.0 --cors https://example.org

exit status:
  0  stopped by Ctrl-C or SIGTERM;  1  an error (such as a port in use);  2  a usage error
)";

inline constexpr std::string_view kShow = R"(examples:
  owaredb show "4 4 4 4 4 4 4 4 4 4 4 4"
  owaredb show --pits 4 "3 3 3 3 3 3 3 3"

exit status:
  0  shown;  2  a usage error (a bad position)
)";

inline constexpr std::string_view kStats = R"(examples:
  owaredb stats --dir owaredb-data --json
  owaredb stats --dir awari-db --all-configurations --values-up-to 24
  owaredb stats --dir owaredb-data --bounds

exit status:
  0  counted;  1  an error (a missing or damaged level);  2  a usage error
)";

inline constexpr std::string_view kVerify = R"(examples:
  owaredb verify --dir owaredb-data
  owaredb verify --dir awari-db --memory 2G --progress-file awari-db.check
  owaredb verify --dir scores-dir --memory 20G    Romein & Bal's published files
  mpirun -np 16 owaredb verify --rules awari --dir /shared/awari-db

exit status:
  0  every checksum and every value holds
  1  a damaged, unreadable or missing level, or an inconsistent value
  2  a usage error
)";

} // namespace owaredb::cli::help
