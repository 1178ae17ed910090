// owaredb probe: the value of a position, of each of its moves, the best moves and
// optionally the line of perfect play; one position from the command line or, with
// --batch, one per line of standard input.
#include "cli/options.hpp"
#include "commands.hpp"
#include "database_options.hpp"
#include "owaredb/probe.hpp"
#include "probe_format.hpp"
#include "search_format.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <optional>
#include <stdexcept>

namespace owaredb::cli {

namespace {

int run_batch(const Tablebase& tb, const AnswerOptions& options) {
    // Input is read in chunks with read(2); every complete line of a chunk is answered and
    // the answers are written and flushed before the next read may block. A program that
    // writes one line and waits gets its answer at once; a piped file streams in 64 KiB
    // chunks.
    // Of a line longer than kMaxBatchLine only its first kMaxBatchLine + 1 bytes are kept,
    // enough for append_batch_answer to refuse it; the rest is skipped unread, so memory
    // stays bounded whatever the input.
    bool skipping = false;
    std::string pending, answers;
    std::vector<char> chunk(1 << 16);
    uint64_t number = 0, errors = 0;
    auto handle = [&](std::string_view line) {
        if (!append_batch_answer(tb, line, ++number, options, answers)) ++errors;
    };
    auto flush = [&] {
        if (!answers.empty()) std::fwrite(answers.data(), 1, answers.size(), stdout);
        check_output(); // flushes; stops at the first answer that cannot be written
        answers.clear();
    };
    while (true) {
        ssize_t got = ::read(STDIN_FILENO, chunk.data(), chunk.size());
        if (got < 0 && errno == EINTR) continue;
        if (got < 0)
            throw std::runtime_error(std::string("cannot read standard input: ") +
                                     std::strerror(errno));
        if (got == 0) break;
        std::string_view data(chunk.data(), static_cast<size_t>(got));
        while (!data.empty()) {
            const size_t nl = data.find('\n');
            const std::string_view piece = data.substr(0, nl);
            if (skipping) {
                // The rest of a line that was too long: dropped unread.
            } else if (pending.size() + piece.size() > kMaxBatchLine) {
                pending.append(piece.substr(0, kMaxBatchLine + 1 - pending.size()));
                handle(pending);
                pending.clear();
                skipping = true;
            } else {
                pending.append(piece);
            }
            if (nl == std::string_view::npos) break;
            if (!skipping) handle(pending);
            pending.clear();
            skipping = false;
            data.remove_prefix(nl + 1);
        }
        flush();
    }
    if (!pending.empty() && !skipping) handle(pending);
    flush();
    return errors ? 1 : 0;
}

// `--scores A B` takes two numbers; boost's multitoken would also swallow the position, so
// the pair is taken out here: the scores, and `args` the other arguments.
std::optional<Scores> take_scores(const Args& given, Args& args) {
    std::optional<Scores> scores;
    for (std::size_t i = 0; i < given.size(); ++i) {
        if (given[i] != "--scores") {
            args.push_back(given[i]);
            continue;
        }
        if (i + 2 >= given.size())
            throw UsageError("--scores takes two numbers: seeds captured so far by the side to "
                             "move and by its opponent");
        // Written as pit counts are: digits, no '+' or spaces. A minus sign gives a negative
        // score, refused with the range later; "-0" is refused here, as in a position.
        const auto score = [](const std::string& text) {
            const std::size_t minus = text.starts_with('-') ? 1 : 0;
            if (text.size() == minus ||
                !std::all_of(text.begin() + static_cast<std::ptrdiff_t>(minus), text.end(),
                             [](char c) { return c >= '0' && c <= '9'; }))
                throw std::invalid_argument("not a number");
            const int value = std::stoi(text);
            if (minus && value == 0) throw std::invalid_argument("negative zero");
            return value;
        };
        try {
            scores = Scores{score(given[i + 1]), score(given[i + 2])};
        } catch (const std::exception&) {
            throw UsageError("--scores takes two numbers, got '" + given[i + 1] + "' '" +
                             given[i + 2] + "'");
        }
        i += 2;
    }
    return scores;
}

// Answers one position (with the search when `search` is not null) on standard output, or throws
// the error: a bad position a usage error (status 2) as in show and perft, a missing level
// status 1.
int answer_one(const Tablebase& tb, const std::string& position, const AnswerOptions& answer,
               const SearchOptions* search) {
    std::string out;
    ProbeError error;
    const bool json = answer.format == AnswerFormat::Json;
    if (search ? append_searched_answer(tb, position, answer, *search, out, error)
               : append_answer(tb, position, answer, out, error)) {
        std::cout << out << (json ? "\n" : "");
        return 0;
    }
    // JSON callers get the error object on standard output too (the API's: status, missing
    // levels, the generate command). A position outside the databases still has a board,
    // moves and captures, and the levels that would value it: shown before the error says
    // what is missing.
    if (json) {
        append_error_json(out, tb, answer, position, error);
        std::cout << out << "\n";
    } else if (error.status == ProbeStatus::NotAvailable &&
               append_missing_text(out, tb, answer, position)) {
        std::cout << out << std::flush;
    }
    if (error.status == ProbeStatus::InvalidPosition) throw UsageError(error.message);
    throw std::runtime_error(error.message);
}

} // namespace

int cmd_probe(const Args& given) {
    Args args;
    const std::optional<Scores> scores = take_scores(given, args);
    DatabaseOptions db;
    std::string cache_mb = "256";
    std::string search_budget;
    bool json = false, pv = false, batch = false;
    po::options_description opts("options");
    add_database_options(opts, db);
    add_pits_option(opts, db);
    opts.add_options()("json", po::bool_switch(&json), "print JSON (JSON Lines with --batch)")(
        "pv", po::bool_switch(&pv),
        "also print the line of perfect play to the end (text: its moves as the page writes "
        "them, S1 N2 ..., South the side to move; every value South's)")(
        "batch", po::bool_switch(&batch), "read positions from standard input, one per line")(
        "cache-mb", po::value(&cache_mb)->default_value(cache_mb),
        "block cache size in MiB (0: the default)")(
        "search", po::value(&search_budget),
        "also search the position within BUDGET (2s, 500ms, 100000n, or 2s,100000n): a best "
        "move and a score, 'proven (search)' or 'search estimate', beside the databases' answer "
        "(JSON: the member \"search\"); a position above the levels built is then answered "
        "(status 0). A node budget alone gives the same answer on every run");
    std::vector<std::string> position_words;
    po::positional_options_description pos;
    add_position_argument(opts, pos, position_words);
    po::variables_map vm;
    if (!parse_args(args,
                    "usage: owaredb probe [--dir DIR] [--rules R] [--pits P] [--json] [--pv] "
                    "\"<position>\"\n"
                    "       owaredb probe --scores A B [--json] \"<position>\"   (A, B: seeds "
                    "captured so far by the side to move and by its opponent; needs bound "
                    "files)\n"
                    "       owaredb probe --search BUDGET [--json] \"<position>\"   (BUDGET: 2s, "
                    "500ms, 100000n)\n"
                    "       owaredb probe --batch [--json] < positions.txt",
                    opts, pos, vm))
        return 0;
    TablebaseOptions options;
    options.cache_bytes = parse_cache_mb(cache_mb);
    require_directory(db.dir, "(see owaredb generate)");
    // Positions are of the directory's board (or --pits'): 2P pit counts.
    const int pits = resolve_pits(db);
    Tablebase tb(db.dir, resolve_rules(db).name, pits, options);
    const AnswerOptions answer{json ? AnswerFormat::Json : AnswerFormat::Text, pv, scores, {}};
    if (batch) {
        if (vm.count("position")) throw UsageError("--batch reads positions from standard input");
        if (scores) throw UsageError("--scores answers one position, not --batch");
        if (vm.count("search")) throw UsageError("--search answers one position, not --batch");
        return run_batch(tb, answer);
    }
    if (!vm.count("position"))
        throw UsageError("missing the position (" + std::to_string(2 * pits) + " pit counts)");
    SearchOptions search;
    // A missing bound file would read as a missing level, and the search answer for it.
    if (scores && vm.count("search")) throw UsageError("--scores and --search: one at a time");
    if (vm.count("search")) {
        if (const std::string e = parse_search_budget(search_budget, search); !e.empty())
            throw UsageError("--search: " + e);
    }
    return answer_one(tb, cli::position_text(position_words), answer,
                      vm.count("search") ? &search : nullptr);
}

} // namespace owaredb::cli
