#include "cli/options.hpp"

#include "cli/run_settings.hpp"

#include <cctype>
#include <iostream>

namespace owaredb::cli {

namespace {

bool looks_negative(const std::string& arg) {
    return arg.size() >= 2 && arg[0] == '-' &&
           (std::isdigit(static_cast<unsigned char>(arg[1])) || arg[1] == ' ');
}

// Whether `arg` is an option whose value is the next argument ("--threads 2").
bool takes_value(const po::options_description& opts, const std::string& arg) {
    if (arg.size() < 2 || arg[0] != '-' || arg == "--" || looks_negative(arg) ||
        arg.find('=') != arg.npos)
        return false;
    const std::string name = arg.substr(arg.find_first_not_of('-'));
    const po::option_description* o = opts.find_nothrow(name, false);
    return o && o->semantic()->max_tokens() > 0;
}

} // namespace

bool parse_args(const Args& args, const std::string& usage, po::options_description& opts,
                const po::positional_options_description& positional, po::variables_map& vm) {
    opts.add_options()("help,h", "show this help");
    // Options first, then "--" and the positionals that look negative, in their order, then
    // whatever followed a "--" of the user's own.
    Args ordered, tail;
    std::size_t i = 0;
    for (; i < args.size() && args[i] != "--"; ++i) {
        const bool option_value = i > 0 && takes_value(opts, args[i - 1]);
        (looks_negative(args[i]) && !option_value ? tail : ordered).push_back(args[i]);
    }
    if (!tail.empty() || i < args.size()) {
        ordered.push_back("--");
        ordered.insert(ordered.end(), tail.begin(), tail.end());
        if (i < args.size()) ordered.insert(ordered.end(), args.begin() + i + 1, args.end());
    }
    try {
        po::store(po::command_line_parser(ordered).options(opts).positional(positional).run(), vm);
        if (vm.count("help")) {
            std::cout << usage << "\n" << opts << "\n";
            if (const std::string_view more = current_command_help(); !more.empty())
                std::cout << more << (more.ends_with('\n') ? "" : "\n");
            return false;
        }
        po::notify(vm);
    } catch (const po::error& e) {
        throw UsageError(e.what());
    }
    return true;
}

void add_position_argument(po::options_description& opts,
                           po::positional_options_description& positional,
                           std::vector<std::string>& words) {
    opts.add_options()("position", po::value(&words)->multitoken(),
                       "12 pit counts, side to move first (quoted or not)");
    positional.add("position", -1);
}

std::string position_text(const std::vector<std::string>& words) {
    std::string text;
    for (const std::string& w : words) text += (text.empty() ? "" : " ") + w;
    return text;
}

void add_threads_option(po::options_description& opts, int& threads, const char* help) {
    opts.add_options()("threads", po::value(&threads)->default_value(0)->notifier([&](int t) {
        if (t < 0 || t > kMaxThreads)
            throw UsageError("--threads must be 0 (one per core) to " +
                             std::to_string(kMaxThreads) + ", got " + std::to_string(t));
        threads = resolve_threads(t);
    }),
                       help);
}

std::size_t parse_cache_mb(const std::string& text) {
    std::size_t value = 0, used = 0;
    bool ok = !text.empty() && std::isdigit(static_cast<unsigned char>(text[0]));
    if (ok) {
        try {
            value = std::stoull(text, &used);
        } catch (const std::exception&) {
            ok = false;
        }
    }
    if (!ok || used != text.size() || value > kMaxCacheMiB)
        throw UsageError("--cache-mb must be a whole number of MiB, 0.." +
                         std::to_string(kMaxCacheMiB) + " (0: the default, 256), got '" + text +
                         "'");
    return value << 20;
}

uint64_t parse_bytes(const std::string& option, const std::string& text) {
    std::size_t used = 0;
    double number = 0;
    bool ok =
        !text.empty() && (std::isdigit(static_cast<unsigned char>(text[0])) || text[0] == '.');
    if (ok) {
        try {
            number = std::stod(text, &used);
        } catch (const std::exception&) {
            ok = false;
        }
    }
    double unit = 1;
    if (ok && used + 1 == text.size()) {
        switch (std::toupper(static_cast<unsigned char>(text[used]))) {
        case 'K':
            unit = 1ull << 10;
            break;
        case 'M':
            unit = 1ull << 20;
            break;
        case 'G':
            unit = 1ull << 30;
            break;
        case 'T':
            unit = 1ull << 40;
            break;
        default:
            ok = false;
        }
        ++used;
    }
    const double bytes = number * unit;
    if (!ok || used != text.size() || !(bytes >= 1) || bytes > 1e18)
        throw UsageError(option + " must be a size such as 600M, 20G or 1.5T, got '" + text + "'");
    return static_cast<uint64_t>(bytes);
}

} // namespace owaredb::cli
