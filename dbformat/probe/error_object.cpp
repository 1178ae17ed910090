// The parts of the error object (README, Errors) that every front end says the same way:
// the position's text, the `owaredb generate` command that builds missing levels (with the
// one shell quoter of our code) and which levels are missing.
#include "owaredb/probe.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>

namespace owaredb {

namespace {

// `text` as one word of a shell command line (quoted if it must be).
std::string shell_word(std::string_view text) {
    const bool plain = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || std::strchr("_./-+,:=@", c);
    });
    if (plain) return std::string(text);
    std::string quoted = "'";
    for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return quoted + "'";
}

} // namespace

std::string position_text(std::span<const uint8_t> pits) {
    std::string s;
    for (std::size_t i = 0; i < pits.size(); ++i) {
        if (i) s += ' ';
        s += std::to_string(pits[i]);
    }
    return s;
}

std::string generate_command(std::string_view rules, int pits_per_side, int max_seeds,
                             std::string_view dir, LevelFiles files) {
    std::string command = "owaredb generate";
    if (!rules.empty()) command += " --rules " + std::string(rules);
    if (pits_per_side != 6) command += " --pits " + std::to_string(pits_per_side);
    command += " --max-seeds " + std::to_string(max_seeds);
    if (files == LevelFiles::Bounds) command += " --bounds";
    if (!dir.empty()) command += " --dir " + shell_word(dir);
    return command;
}

MissingLevels Tablebase::missing_levels(int seeds, std::string_view dir, LevelFiles files) const {
    MissingLevels m;
    m.seeds = std::clamp(seeds, 0, 48);
    m.files = files;
    const bool bounds = files == LevelFiles::Bounds;
    for (int n = 0; n <= m.seeds; ++n)
        if (!(bounds ? bounds_available(n) : level_available(n))) m.levels.push_back(n);
    const std::string given = directory().string();
    m.generate = generate_command(rules(), pits_per_side() ? pits_per_side() : 6, m.seeds,
                                  dir.empty() ? std::string_view(given) : dir, files);
    return m;
}

} // namespace owaredb
