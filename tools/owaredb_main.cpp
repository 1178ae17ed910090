// owaredb: generate, probe and check Oware endgame databases.
#include "commands.hpp"

#include <cstring>
#include <exception>
#include <iostream>
#include <map>

namespace {

struct Subcommand {
    int (*run)(const owaredb::cli::Args&);
    const char* summary;
};

const std::map<std::string, Subcommand>& subcommands() {
    using namespace owaredb::cli;
    static const std::map<std::string, Subcommand> table = {
        {"generate", {cmd_generate, "build the databases of levels 0..N"}},
        {"stats", {cmd_stats, "count the positions of each value per level"}},
        {"verify", {cmd_verify, "check every checksum and the consistency of every value"}},
        {"probe", {cmd_probe, "values of a position and its moves from the databases"}},
        {"bench-probe", {cmd_bench_probe, "measure probe throughput and cold latency"}},
        {"info", {cmd_info, "describe a level file"}},
        {"perft", {cmd_perft, "count move sequences from a position (move generator check)"}},
        {"show", {cmd_show, "print a position, its legal moves and their children"}},
        {"bench", {cmd_bench, "measure move, un-move and ranking costs"}},
        {"bench-generate", {cmd_bench_generate, "measure the analyser against a forward pass"}},
        {"bench-entropy", {cmd_bench_entropy, "bits a level's values need, by context"}},
    };
    return table;
}

void print_usage(std::ostream& out) {
    out << "usage: owaredb <command> [options]   (owaredb <command> --help for details)\n\n"
           "commands:\n";
    for (const auto& [name, sub] : subcommands())
        out << "  " << name << std::string(16 - name.size(), ' ') << sub.summary << "\n";
}

} // namespace

namespace owaredb::cli {

Rules rules_from_name(const std::string& name) {
    if (auto r = Rules::by_name(name)) return *r;
    throw UsageError("unknown rules '" + name + "' (expected " + Rules::preset_names() + ")");
}

} // namespace owaredb::cli

int main(int argc, char** argv) {
    if (argc < 2) {
        print_usage(std::cerr);
        return 2;
    }
    std::string name = argv[1];
    if (name == "--help" || name == "-h" || name == "help") {
        print_usage(std::cout);
        return 0;
    }
    auto it = subcommands().find(name);
    if (it == subcommands().end()) {
        std::cerr << "owaredb: unknown command '" << name << "' (see owaredb --help)\n";
        return 2;
    }
    owaredb::cli::Args args(argv + 2, argv + argc);
    try {
        return it->second.run(args);
    } catch (const owaredb::cli::UsageError& e) {
        std::cerr << "owaredb " << name << ": " << e.what() << "\n";
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "owaredb " << name << ": " << e.what() << "\n";
        return 1;
    }
}
