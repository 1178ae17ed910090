#include "cli/options.hpp"

#include <iostream>

namespace owaredb::cli {

bool parse_args(const Args& args, const std::string& usage, po::options_description& opts,
                const po::positional_options_description& positional, po::variables_map& vm) {
    opts.add_options()("help,h", "show this help");
    try {
        po::store(po::command_line_parser(args).options(opts).positional(positional).run(), vm);
        if (vm.count("help")) {
            std::cout << usage << "\n" << opts << "\n";
            return false;
        }
        po::notify(vm);
    } catch (const po::error& e) {
        throw UsageError(e.what());
    }
    return true;
}

} // namespace owaredb::cli
