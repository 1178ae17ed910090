// owaredb serve: the oracle in a browser. One page (tools/web/, compiled into the program)
// and a JSON API over both rule sets' databases in one directory:
//   GET  /api/probe?rules=R&position=P[&pv=1]  the answer of `owaredb probe --json [--pv]`
//   POST /api/batch?rules=R[&pv=1]             a body of positions, one per line: JSON
//                                               Lines, as `owaredb probe --batch --json`
//   (either with &children=1: every move also gives "child", the position after it, so
//   that the page plays moves without a copy of the rules)
//   GET  /api/search?rules=R&position=P[&budget=B]  `owaredb probe --json --search B`: the
//                                               answer (or the error object of a position
//                                               above the levels built) with its "search"
//   GET  /api/info                              rule sets, the board, levels present, limits
// One directory holds one board (P pits a side, 6 unless its files say otherwise, or
// --pits): positions are 2P numbers, and the page draws P pits a side.
// This file holds the routes; HTTP itself (sockets, framing, limits, timeouts) is the
// transport's, serve_http.hpp, on Boost.Beast. Every answer is made by the function
// `owaredb probe` answers with (append_answer, tools/probe_format), so the API answers byte
// for byte what `owaredb probe --json` prints, errors included (the one error object,
// append_error_json), except that the directory is named without its absolute path.
//
// Safe by default: it listens on 127.0.0.1 unless --host says otherwise; nothing in a
// request names a file (rules come from the fixed presets), and no answer names where the
// server's files lie; bodies are limited to 1 MiB and batches to 10,000 lines (1,000 with
// pv), more is 413; bad input is 400 with the error object; a missing level is 404 with the
// `owaredb generate` command that builds it. Pages of other sites may call the API only
// with --cors ORIGIN. SIGINT and SIGTERM stop the server at once. What hostile clients
// cannot do to it is serve_http.hpp's to say.
#include "cli/json.hpp"
#include "cli/options.hpp"
#include "commands.hpp"
#include "database_options.hpp"
#include "oware/position.hpp"
#include "owaredb/probe.hpp"
#include "probe_format.hpp"
#include "search_format.hpp"
#include "serve_assets.hpp"
#include "serve_http.hpp"

#include <signal.h>
#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace owaredb::cli {

namespace {

constexpr std::size_t kMaxBodyBytes = std::size_t(1) << 20;
constexpr std::size_t kMaxBatchLines = 10000;
constexpr std::size_t kMaxBatchPvLines = 1000; // a line of play costs far more than a value

// A search's budget: the default, and the most a request may ask (more is cut to it); and the
// searches running at once, at most one for every two event loops (a search holds its loop
// for up to kMaxSearchSeconds), more answered 503.
constexpr const char* kDefaultSearchBudget = "1s";
constexpr double kMaxSearchSeconds = 2;
constexpr uint64_t kMaxSearchNodes = 5000000;
constexpr std::size_t kSearchTableBytes = std::size_t(16) << 20;

// Form-encoded bodies (curl -d's default type) over this are refused with a hint: `curl -d
// @file` drops a file's newlines, so a batch sent that way is not what its author meant.
constexpr std::size_t kMaxFormBytes = 8 << 10;

using http::Request;
using http::Response;

void send_json(Response& res, int status, std::string body) {
    res.status = status;
    body += '\n';
    res.body = std::move(body);
    res.content_type = "application/json";
    res.headers = {{"Cache-Control", "no-store"}};
}

// The code word of an answer's HTTP status, for error objects that are not a query's
// (those carry the library's status_code).
const char* http_code(int status) {
    switch (status) {
    case 400:
        return "bad_request";
    case 404:
        return "not_found";
    case 405:
        return "method_not_allowed";
    case 408:
        return "timeout";
    case 413:
        return "too_large";
    case 414:
        return "uri_too_long";
    case 415:
        return "unsupported_media_type";
    case 431:
        return "headers_too_large";
    case 503:
        return "unavailable";
    default:
        return status >= 500 ? "server_error" : "bad_request";
    }
}

// {"status":"<code>","error":"<message>"}: the fields every error object starts with
// (README, Errors); `code` null: the HTTP status's word.
void send_error(Response& res, int status, std::string_view message, const char* code = nullptr) {
    std::string body = "{\"status\":\"";
    body += code ? code : http_code(status);
    body += "\",\"error\":\"";
    json::append_escaped(body, message);
    body += "\"}";
    send_json(res, status, std::move(body));
}

// How the answers name the directory: as given when relative, by its own name alone when
// absolute, so that a server reachable from other machines (--host 0.0.0.0) does not tell
// them where its files lie.
std::string shown_dir(const std::string& dir) {
    const std::filesystem::path path(dir);
    if (!path.is_absolute()) return dir;
    std::filesystem::path name = path.lexically_normal();
    if (!name.has_filename()) name = name.parent_path(); // "/data/owaredb/"
    return name.has_filename() ? name.filename().string() : std::string("DIR");
}

// Both rule sets' databases in one directory: one Tablebase per rule set, made once and
// shared by every request (a Tablebase is thread-safe).
class Oracle {
  public:
    Oracle(std::string dir, std::string default_rules, int pits_per_side, std::size_t cache_bytes,
           int max_searches)
        : dir_(std::move(dir)), shown_dir_(shown_dir(dir_)),
          default_rules_(std::move(default_rules)), pits_per_side_(pits_per_side),
          max_searches_(max_searches) {
        TablebaseOptions options;
        options.cache_bytes = cache_bytes;
        for (const std::string& name : Rules::preset_names())
            tables_.emplace_back(dir_, name, pits_per_side_, options);
    }

    // Answers the routes; each leaves a complete response in `res`.
    void probe(const Request& req, Response& res) const;
    void batch(const Request& req, Response& res) const;
    void search(const Request& req, Response& res) const;
    void info(Response& res) const;

  private:
    // The tablebase the request's `rules` names (the default one without it), or null
    // after answering 400.
    const Tablebase* tablebase(const Request& req, Response& res) const;
    // Whether the request names a position, after answering 400 when it does not.
    bool has_position(const Request& req, Response& res) const {
        if (req.has_param("position")) return true;
        send_error(res, 400,
                   "missing the position parameter (" + std::to_string(2 * pits_per_side_) +
                       " pit counts)",
                   "invalid_position");
        return false;
    }
    // Answers a query that append_answer (tools/probe_format) could not answer with the
    // one error object (append_error_json): 400 for a bad position, 404 for a missing
    // level (with what to generate), 500 for a damaged file.
    void send_query_error(Response& res, const Tablebase& tb, const AnswerOptions& options,
                          std::string_view input, const ProbeError& error) const;
    // The options of a query's answer from its parameters pv and children, or nullopt
    // after answering 400.
    std::optional<AnswerOptions> answer_options(const Request& req, Response& res) const;

    std::string dir_;
    std::string shown_dir_; // what the answers say instead of dir_ (shown_dir)
    std::string default_rules_;
    int pits_per_side_; // the board: one a directory
    std::vector<Tablebase> tables_;
    int max_searches_;                      // searches at once
    mutable std::atomic<int> searching_{0}; // searches running
};

// The value of the flag parameter `name` (absent, "0", "false": false; "1", "true": true),
// or nullopt after answering 400. An empty value (`pv=`, or `pv` alone) is refused, as any
// other: whether it meant yes or no is a guess.
std::optional<bool> flag(const Request& req, const char* name, Response& res) {
    if (!req.has_param(name)) return false;
    const std::string v = req.param(name);
    if (v == "1" || v == "true") return true;
    if (v == "0" || v == "false") return false;
    send_error(res, 400,
               std::string("parameter ") + name + ": expected 1, true, 0 or false, got '" + v +
                   "'");
    return std::nullopt;
}

// Whether a parameter the API reads is given more than once, after answering 400 naming it:
// which one counts would be a guess, and a client that sent two meant something.
bool repeated_parameter(const Request& req, Response& res) {
    for (const char* name : {"rules", "position", "pv", "children", "budget"}) {
        const auto times = std::count_if(req.params.begin(), req.params.end(),
                                         [name](const auto& p) { return p.first == name; });
        if (times < 2) continue;
        send_error(res, 400,
                   std::string("parameter ") + name + " given " + std::to_string(times) +
                       " times (at most once)");
        return true;
    }
    return false;
}

// The lines of a batch body as `owaredb probe --batch` reads them (a last line without an
// end counts), and a lone '\r' (old Mac text) also ends one, rather than joining the whole
// body into one line. A "\r\n" leaves its '\r' in the line, where append_batch_answer
// drops it, so that such lines are answered as the command line answers them.
class BatchLines {
  public:
    explicit BatchLines(std::string_view body) : body_(body) {}

    bool done() const { return at_ >= body_.size(); }
    // The next line, or nullopt at the body's end.
    std::optional<std::string_view> next() {
        if (done()) return std::nullopt;
        std::size_t end = std::min(body_.find_first_of("\r\n", at_), body_.size());
        std::size_t after = end + 1;
        if (end + 1 < body_.size() && body_[end] == '\r' && body_[end + 1] == '\n') {
            ++end; // the '\r' stays
            ++after;
        }
        const std::string_view line = body_.substr(at_, end - at_);
        at_ = after;
        return line;
    }

  private:
    std::string_view body_;
    std::size_t at_ = 0;
};

const Tablebase* Oracle::tablebase(const Request& req, Response& res) const {
    const std::string name = req.has_param("rules") ? req.param("rules") : default_rules_;
    for (const Tablebase& tb : tables_)
        if (tb.rules() == name) return &tb;
    send_error(res, 400, "unknown rules '" + name + "' (expected " + Rules::preset_choices() + ")",
               "invalid_rules");
    return nullptr;
}

void Oracle::send_query_error(Response& res, const Tablebase& tb, const AnswerOptions& options,
                              std::string_view input, const ProbeError& error) const {
    const int status = error.status == ProbeStatus::InvalidPosition ? 400
                       : error.status == ProbeStatus::NotAvailable  ? 404
                                                                    : 500;
    std::string body;
    append_error_json(body, tb, options, input, error);
    send_json(res, status, std::move(body));
}

std::optional<AnswerOptions> Oracle::answer_options(const Request& req, Response& res) const {
    const std::optional<bool> pv = flag(req, "pv", res);
    if (!pv) return std::nullopt;
    const std::optional<bool> children = flag(req, "children", res);
    if (!children) return std::nullopt;
    return AnswerOptions{AnswerFormat::Json, *pv, std::nullopt, shown_dir_, *children};
}

void Oracle::probe(const Request& req, Response& res) const {
    if (repeated_parameter(req, res)) return;
    const Tablebase* tb = tablebase(req, res);
    if (!tb) return;
    const std::optional<AnswerOptions> options = answer_options(req, res);
    if (!options) return;
    if (!has_position(req, res)) return;
    const std::string text = req.param("position");
    // The very function `owaredb probe --json` answers with.
    std::string body;
    ProbeError error;
    if (!append_answer(*tb, text, *options, body, error))
        return send_query_error(res, *tb, *options, text, error);
    send_json(res, 200, std::move(body));
}

void Oracle::batch(const Request& req, Response& res) const {
    if (repeated_parameter(req, res)) return;
    const Tablebase* tb = tablebase(req, res);
    if (!tb) return;
    const std::optional<AnswerOptions> options = answer_options(req, res);
    if (!options) return;
    // Multipart forms and form encoding are not read as positions: a form's parts would be
    // taken for lines, and `curl -d @file` (form-encoded) drops the file's newlines.
    const std::string type = http::media_type(req.content_type);
    if (type.starts_with("multipart/"))
        return send_error(res, 415,
                          "multipart bodies are not read: send the positions as text/plain, one "
                          "per line (curl -H 'Content-Type: text/plain' --data-binary @file)");
    if (type == "application/x-www-form-urlencoded" && req.body.size() > kMaxFormBytes)
        return send_error(res, 413,
                          "form-encoded bodies are limited to 8 KiB: send the positions as "
                          "text/plain (curl -H 'Content-Type: text/plain' --data-binary @file)");
    const std::string_view body = req.body;
    if (!json::valid_utf8(body))
        return send_error(res, 400, "the body is not UTF-8 text (one position per line)");
    std::size_t lines = 0;
    for (BatchLines counted(body); counted.next();) ++lines;
    const std::size_t limit = options->pv ? kMaxBatchPvLines : kMaxBatchLines;
    if (lines > limit)
        return send_error(res, 413,
                          "too many lines: " + std::to_string(lines) + " (at most " +
                              std::to_string(kMaxBatchLines) + ", " +
                              std::to_string(kMaxBatchPvLines) + " with pv)");
    // Answered a line at a time as the client takes the answer (15 MB for 1,000 lines with
    // pv): a connection holds a piece of it, not all of it (serve_http.hpp).
    res.more = [tb, options = *options, lines = BatchLines(body),
                number = std::uint64_t{0}](std::string& out) mutable {
        if (const std::optional<std::string_view> line = lines.next())
            append_batch_answer(*tb, *line, ++number, options, out);
        return !lines.done();
    };
    res.status = 200;
    res.content_type = "application/x-ndjson";
    res.headers = {{"Cache-Control", "no-store"}};
}

// The budget a search request asks (`budget`, the default without it) cut to the server's
// limits, or nullopt after answering 400.
std::optional<SearchOptions> search_budget(const Request& req, Response& res) {
    SearchOptions o;
    const std::string asked = req.has_param("budget") ? req.param("budget") : kDefaultSearchBudget;
    if (const std::string e = parse_search_budget(asked, o); !e.empty()) {
        send_error(res, 400, "parameter budget: " + e);
        return std::nullopt;
    }
    if (!(o.max_seconds > 0) || o.max_seconds > kMaxSearchSeconds)
        o.max_seconds = kMaxSearchSeconds;
    if (o.max_nodes == 0 || o.max_nodes > kMaxSearchNodes) o.max_nodes = kMaxSearchNodes;
    o.tt_bytes = kSearchTableBytes;
    return o;
}

void Oracle::search(const Request& req, Response& res) const {
    if (repeated_parameter(req, res)) return;
    const Tablebase* tb = tablebase(req, res);
    if (!tb) return;
    const std::optional<SearchOptions> budget = search_budget(req, res);
    if (!budget) return;
    if (!has_position(req, res)) return;
    // Counted before it starts, let go of however it ends.
    struct Slot {
        std::atomic<int>& n;
        ~Slot() { --n; }
    } slot{searching_};
    if (++searching_ > max_searches_) {
        send_error(res, 503,
                   "busy: " + std::to_string(max_searches_) +
                       " searches are running, the most at once; try again");
        res.headers.emplace_back("Retry-After", "1");
        return;
    }
    const std::string text = req.param("position");
    std::string body;
    ProbeError error;
    const AnswerOptions options{AnswerFormat::Json, false, std::nullopt, shown_dir_};
    if (!append_searched_answer(*tb, text, options, *budget, body, error))
        return send_query_error(res, *tb, options, text, error);
    send_json(res, 200, std::move(body));
}

void Oracle::info(Response& res) const {
    Json doc;
    doc["rules"] = Rules::preset_names();
    Json descriptions = Json::object();
    for (const std::string& name : Rules::preset_names())
        descriptions[name] = Rules::description(name);
    doc["rules_descriptions"] = std::move(descriptions);
    doc["default"] = default_rules_;
    doc["dir"] = shown_dir_;
    Json levels = Json::object();
    int top = -1; // the largest level present, of either rule set
    for (const Tablebase& tb : tables_) {
        Json present = Json::array();
        for (int n = 0; n <= kMaxSeeds; ++n)
            if (tb.level_available(n)) {
                present.push_back(n);
                top = std::max(top, n);
            }
        levels[tb.rules()] = std::move(present);
    }
    doc["levels"] = std::move(levels);
    // The board, and the seeds a pit of the page's first position holds: 4 on the standard
    // board (the game, 48 seeds, played into the databases); on another board the largest
    // game the levels present cover (k per pit: 2Pk seeds), else 4, at most 48 seeds.
    const int pits = 2 * pits_per_side_;
    const int most = kMaxSeeds / pits;
    doc["pits_per_side"] = pits_per_side_;
    doc["seeds_per_pit"] = pits_per_side_ == 6 ? 4
                           : top >= pits       ? std::min(top / pits, most)
                                               : std::min(4, most);
    doc["limits"] = {{"body_bytes", kMaxBodyBytes},
                     {"batch_lines", kMaxBatchLines},
                     {"batch_pv_lines", kMaxBatchPvLines},
                     {"batch_line_bytes", kMaxBatchLine},
                     {"search_seconds", kMaxSearchSeconds},
                     {"search_nodes", kMaxSearchNodes},
                     {"searches", max_searches_}};
    send_json(res, 200, doc.dump(-1, ' ', false, Json::error_handler_t::replace));
}

// The page's file at `path` ("/" is the page itself), or null.
const web::Asset* find_asset(std::string_view path) {
    if (path == "/") path = "/index.html";
    for (const web::Asset& asset : web::assets())
        if (asset.path == path) return &asset;
    return nullptr;
}

void serve_asset(const Request& req, Response& res) {
    if (const web::Asset* found = find_asset(req.path)) {
        const web::Asset& asset = *found;
        res.status = 200;
        res.body.assign(reinterpret_cast<const char*>(asset.bytes.data()), asset.bytes.size());
        res.content_type = std::string(asset.content_type);
        res.headers = {{"Cache-Control", "no-cache"}};
        if (asset.content_type.starts_with("text/html")) {
            res.headers.emplace_back("Content-Security-Policy",
                                     "default-src 'none'; script-src 'self'; style-src 'self'; "
                                     "connect-src 'self'; img-src 'self' data:; base-uri 'none'; "
                                     "form-action 'self'; frame-ancestors 'none'");
            res.headers.emplace_back("X-Frame-Options", "DENY");
        }
        return;
    }
    send_error(res, 404, "not found");
}

// The address as it goes into a URL.
std::string url_host(const std::string& host) {
    return host.find(':') != std::string::npos ? "[" + host + "]" : host;
}

// Every request to its route: GET (and HEAD) for the page and the queries, POST for
// batches; OPTIONS on the API with --cors (a browser's preflight for a page of another
// site); a path that is neither is 404 whatever the method, any other method 405 with the
// methods the path takes.
void route(const Oracle& oracle, bool cors, const Request& req, Response& res) {
    const bool get = req.method == "GET" || req.method == "HEAD";
    if (get && req.path == "/api/probe") return oracle.probe(req, res);
    if (get && req.path == "/api/info") return oracle.info(res);
    if (get && req.path == "/api/search") return oracle.search(req, res);
    if (req.method == "POST" && req.path == "/api/batch") return oracle.batch(req, res);
    const bool api = req.path == "/api/probe" || req.path == "/api/info" ||
                     req.path == "/api/batch" || req.path == "/api/search";
    const char* allow = req.path == "/api/batch" ? "POST" : "GET, HEAD";
    if (cors && api && req.method == "OPTIONS") {
        // The origin header is on every answer (default_headers); a preflight also says
        // what the path takes and that a text/plain batch may name its Content-Type.
        res.status = 204;
        res.headers = {{"Access-Control-Allow-Methods", allow},
                       {"Access-Control-Allow-Headers", "Content-Type"},
                       {"Access-Control-Max-Age", "600"},
                       {"Allow", std::string(allow) + ", OPTIONS"}};
        return;
    }
    if (!api && !find_asset(req.path)) return send_error(res, 404, "not found");
    if (req.path == "/api/batch" || !get) {
        send_error(res, 405, "method not allowed");
        res.headers.emplace_back("Allow", allow);
        return;
    }
    serve_asset(req, res);
}

// --cors ORIGIN: "*" or one origin, scheme://host[:port], nothing that could end the header
// line or add another.
bool valid_origin(const std::string& origin) {
    if (origin == "*") return true;
    const std::size_t sep = origin.find("://");
    if (sep == std::string::npos) return false;
    const std::string scheme = origin.substr(0, sep);
    if (scheme != "http" && scheme != "https") return false;
    const std::string rest = origin.substr(sep + 3);
    return !rest.empty() && std::all_of(rest.begin(), rest.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '.' || c == '-' || c == ':' || c == '[' || c == ']';
    });
}

// Each connection holds a file descriptor; the limit is raised to what the cap needs when
// the hard limit allows, and a cap it cannot hold is refused rather than failing later.
void reserve_descriptors(std::size_t connections) {
    constexpr rlim_t kSpare = 64; // the level files, the listening socket, stdio
    rlimit limit{};
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return;
    const rlim_t need = static_cast<rlim_t>(connections) + kSpare;
    if (limit.rlim_cur != RLIM_INFINITY && limit.rlim_cur < need) {
        if (limit.rlim_max == RLIM_INFINITY || limit.rlim_max >= need) {
            limit.rlim_cur = need;
            setrlimit(RLIMIT_NOFILE, &limit);
        } else {
            throw UsageError("--max-connections " + std::to_string(connections) + " needs " +
                             std::to_string(need) + " file descriptors, and the limit is " +
                             std::to_string(limit.rlim_max) + " (ulimit -n)");
        }
    }
}

// What `owaredb serve` was asked.
struct ServeOptions {
    std::string dir, rules_name, host;
    DatabaseOptions db; // --pits (db.pits; the board: db.dir's, else 6)
    int port = 8080;
    // Event loops: a slow request (a 1,000-line batch with pv, 0.17 s) holds up only the
    // connections of its loop; 8 answer about as many requests as 2 or 4 and more than 16
    // (docs/results.md, Oracle and Python).
    std::size_t threads = 8;
    std::size_t max_connections = http::Limits{}.max_connections;
    // Seconds a client has to take an answer, and each piece of a long one: the minimum
    // read rate (64 KiB per 30 s, about 2 KiB/s, by default).
    int write_timeout = 30;
    std::string cache_mb = "128";
    std::string cors;
    bool with_cors = false; ///< --cors given
};

// Reads the command line into `o`; false after printing the help it asked for.
bool parse_serve_options(const Args& args, ServeOptions& o) {
    po::options_description opts("options");
    opts.add_options()("dir", po::value(&o.dir)->default_value(kDefaultDatabaseDir),
                       "database directory")(
        "rules", po::value(&o.rules_name),
        ("rule set the page starts with: " + Rules::preset_choices() + " (" +
         (Rules::presets().size() == 2 ? "both" : "all") +
         " are served; default: the one the directory holds, awari for published files, else "
         "abapa)")
            .c_str())(
        "host", po::value(&o.host)->default_value("127.0.0.1"),
        "address to listen on (0.0.0.0: every interface, reachable from other machines)")(
        "port", po::value(&o.port)->default_value(8080), "port (0: any free port, printed)")(
        "threads", po::value(&o.threads)->default_value(o.threads),
        "threads answering requests, each an event loop over its share of the connections")(
        "max-connections", po::value(&o.max_connections)->default_value(o.max_connections),
        "connections served at once; at the cap the longest idle one is closed for a new one, "
        "and with none idle the new one is answered 503")(
        "write-timeout", po::value(&o.write_timeout)->default_value(o.write_timeout),
        "seconds a client has to take an answer, and each 64 KiB of a long one: a slower reader "
        "is disconnected")("cache-mb", po::value(&o.cache_mb)->default_value(o.cache_mb),
                           "block cache per rule set, MiB (0: the library's default, 256)")(
        "cors", po::value(&o.cors),
        "let pages of this origin (https://example.org, or * for any) call the API from a "
        "browser: Access-Control-Allow-Origin on every answer, preflight OPTIONS answered");
    add_pits_option(opts, o.db);
    po::variables_map vm;
    if (!parse_args(
            args,
            "usage: owaredb serve [--dir DIR] [--rules R] [--pits P] [--host 127.0.0.1] "
            "[--port 8080] [--cors ORIGIN]\n"
            "Serves a page showing every move's value (http://HOST:PORT/) and a JSON API:\n"
            "  GET  /api/probe?rules=R&position=P[&pv=1]  as owaredb probe --json [--pv]\n"
            "  POST /api/batch?rules=R[&pv=1]             a text/plain body, a position a\n"
            "       line: JSON Lines as owaredb probe --batch --json [--pv]\n"
            "       (either with &children=1: every move also gives the position after it)\n"
            "  GET  /api/search?rules=R&position=P[&budget=1s]  as owaredb probe --json --search\n"
            "       (budget at most 2s and 5000000n)\n"
            "  GET  /api/info                             rule sets, the board, levels present,\n"
            "       limits",
            opts, {}, vm))
        return false;
    o.with_cors = vm.count("cors") > 0;
    return true;
}

// UsageError for what the server could not serve as asked; reserves the file descriptors
// the connections need. The block cache's size in bytes.
std::size_t validate(const ServeOptions& o) {
    if (!o.rules_name.empty()) rules_from_name(o.rules_name); // validates the name
    if (o.port < 0 || o.port > 65535) throw UsageError("--port must be 0..65535");
    if (o.threads < 1 || o.threads > 1024) throw UsageError("--threads must be 1..1024");
    if (o.max_connections < 1 || o.max_connections > 1000000)
        throw UsageError("--max-connections must be 1..1000000");
    if (o.write_timeout < 1 || o.write_timeout > 3600)
        throw UsageError("--write-timeout must be 1..3600 seconds");
    const std::size_t cache_bytes = parse_cache_mb(o.cache_mb);
    if (o.with_cors && !valid_origin(o.cors))
        throw UsageError("--cors takes * or one origin, scheme://host[:port] (http or https), "
                         "not '" +
                         o.cors + "'");
    if (!std::filesystem::is_directory(o.dir))
        throw UsageError("no database directory '" + o.dir + "' (see owaredb generate)");
    reserve_descriptors(o.max_connections);
    return cache_bytes;
}

// The HTTP server's settings: where it listens, its limits, its headers, and the routes
// over `oracle` (which must outlive the server).
http::ServerOptions server_options(const ServeOptions& o, const Oracle& oracle) {
    http::ServerOptions options;
    options.host = o.host;
    options.port = o.port;
    options.threads = o.threads;
    options.limits.max_connections = o.max_connections;
    options.limits.body_bytes = kMaxBodyBytes;
    options.limits.write = std::chrono::seconds(o.write_timeout);
    options.handler = [&oracle, with_cors = o.with_cors](const Request& req, Response& res) {
        route(oracle, with_cors, req, res);
    };
    options.error = [](int status, std::string_view message) {
        Response res;
        send_error(res, status, message);
        return res;
    };
    options.default_headers = {{"X-Content-Type-Options", "nosniff"},
                               {"Referrer-Policy", "no-referrer"}};
    if (o.with_cors) {
        options.default_headers.emplace_back("Access-Control-Allow-Origin", o.cors);
        // One origin named: caches must keep answers apart by the asking origin.
        if (o.cors != "*") options.default_headers.emplace_back("Vary", "Origin");
    }
    return options;
}

} // namespace

int cmd_serve(const Args& args) {
    ServeOptions o;
    if (!parse_serve_options(args, o)) return 0;
    const std::size_t cache_bytes = validate(o);
    // The page starts with the rule set the directory holds (awari for Romein & Bal's
    // published files); with both, or none yet, abapa.
    std::string rules_name = o.rules_name;
    if (rules_name.empty()) {
        try {
            rules_name = resolve_rules({o.dir, ""}).name;
        } catch (const UsageError&) {
            rules_name = "abapa"; // several rule sets: all are served
        }
    }
    // The directory's board (one a directory), or --pits when it agrees with the files.
    o.db.dir = o.dir;
    const int pits_per_side = resolve_pits(o.db);
    const Oracle oracle(o.dir, rules_name, pits_per_side, cache_bytes,
                        std::max(1, static_cast<int>(o.threads / 2)));
    http::Server server(server_options(o, oracle)); // throws when it cannot listen
    std::cout << "owaredb serve: http://" << url_host(o.host) << ":" << server.port()
              << "/ (databases in " << o.dir << ", rules " << Rules::preset_choices()
              << (pits_per_side == 6 ? std::string()
                                     : ", " + std::to_string(pits_per_side) + " pits a side")
              << "; Ctrl-C stops)" << std::endl;
    const int signal = server.run();
    std::cout << "owaredb serve: stopped (" << (signal == SIGINT ? "SIGINT" : "SIGTERM") << ")"
              << std::endl;
    return 0;
}

} // namespace owaredb::cli
