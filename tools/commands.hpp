// The owaredb subcommands. Each takes the arguments after its name and returns the
// process exit code; bad input throws UsageError (or any std::exception), which main
// prints as one line.
#pragma once

#include "cli/command.hpp"

namespace owaredb::cli {

int cmd_perft(const Args& args);
int cmd_show(const Args& args);
int cmd_bench(const Args& args);
int cmd_bench_generate(const Args& args);
int cmd_generate(const Args& args);
int cmd_stats(const Args& args);
int cmd_verify(const Args& args);
int cmd_probe(const Args& args);
int cmd_info(const Args& args);
int cmd_compare(const Args& args);
int cmd_import(const Args& args); // cmd_convert.cpp
int cmd_export(const Args& args); // cmd_convert.cpp
int cmd_bench_probe(const Args& args);
int cmd_bench_entropy(const Args& args);
int cmd_bench_search(const Args& args);
int cmd_serve(const Args& args); // in the program owaredb-serve (cmd_serve.cpp)
/// `owaredb serve`: replaces this process by owaredb-serve, installed next to owaredb,
/// which alone holds the HTTP server (serve_launch.cpp says why).
int cmd_serve_launch(const Args& args);

} // namespace owaredb::cli
