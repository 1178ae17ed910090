// The owaredb subcommands. Each takes the arguments after its name and returns the
// process exit code; bad input throws UsageError (or any std::exception), which main
// prints as one line.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace owaredb::cli {

struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

using Args = std::vector<std::string>;

int cmd_perft(const Args& args);
int cmd_show(const Args& args);
int cmd_bench(const Args& args);
int cmd_bench_generate(const Args& args);
int cmd_generate(const Args& args);
int cmd_stats(const Args& args);
int cmd_verify(const Args& args);
int cmd_probe(const Args& args);
int cmd_info(const Args& args);
int cmd_bench_probe(const Args& args);
int cmd_bench_entropy(const Args& args);

} // namespace owaredb::cli
