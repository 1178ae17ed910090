// owaredb serve: the oracle in a browser. One page (tools/web/, compiled into the program)
// and a JSON API over both rule sets' databases in one directory:
//   GET  /api/probe?rules=R&position=P[&pv=1]  the answer of `owaredb probe --json [--pv]`
//   POST /api/batch?rules=R[&pv=1]             a body of positions, one per line: JSON
//                                               Lines, as `owaredb probe --batch --json`
//   GET  /api/info                              rule sets, levels present, limits
// HTTP is cpp-httplib's (Debian libcpp-httplib-dev). Every answer is made by the function
// `owaredb probe` answers with (append_answer, tools/probe_format), so the API answers byte
// for byte what `owaredb probe --json` prints.
//
// Safe by default: it listens on 127.0.0.1 unless --host says otherwise; nothing in a
// request names a file (rules come from the fixed presets); bodies are limited to 1 MiB
// and batches to 10,000 lines (1,000 with pv), more is 413; bad input is 400 with a JSON
// message; a missing level is 404 with the `owaredb generate` command that builds it.
// SIGINT and SIGTERM stop the server cleanly.
#include "cli/json.hpp"
#include "cli/options.hpp"
#include "commands.hpp"
#include "database_options.hpp"
#include "oware/position.hpp"
#include "owaredb/probe.hpp"
#include "probe_format.hpp"
#include "serve_assets.hpp"

#include <httplib.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <signal.h>
#include <sys/socket.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

namespace owaredb::cli {

namespace {

constexpr std::size_t kMaxBodyBytes = std::size_t(1) << 20;
constexpr std::size_t kMaxBatchLines = 10000;
constexpr std::size_t kMaxBatchPvLines = 1000; // a line of play costs far more than a value

void send_json(httplib::Response& res, int status, std::string body) {
    res.status = status;
    body += '\n';
    res.set_content(body, "application/json");
    res.set_header("Cache-Control", "no-store");
}

// {"error":"<message>"<extra>}: `extra` is more fields, each starting with a comma.
void send_error(httplib::Response& res, int status, std::string_view message,
                std::string_view extra = {}) {
    std::string body = "{\"error\":\"";
    json::append_escaped(body, message);
    body += '"';
    body += extra;
    body += '}';
    send_json(res, status, std::move(body));
}

// The words for the statuses httplib answers by itself (its own bodies are empty).
std::string_view status_words(int status) {
    switch (status) {
    case 400:
        return "bad request";
    case 404:
        return "not found";
    case 405:
        return "method not allowed";
    case 413:
        return "request too large (at most 1 MiB)";
    case 414:
        return "request URI too long";
    case 416:
        return "range not satisfiable";
    case 431:
        return "request headers too large";
    default:
        return status >= 500 ? "internal server error" : "bad request";
    }
}

// `text` as one word of a shell command line (quoted if it must be).
std::string shell_word(const std::string& text) {
    const bool plain = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || std::strchr("_./-+,:=@", c);
    });
    if (plain) return text;
    std::string quoted = "'";
    for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return quoted + "'";
}

// The rule sets' names, from the presets ("abapa|awari").
std::vector<std::string> preset_names() {
    std::vector<std::string> names;
    const std::string all = Rules::preset_names();
    for (std::size_t start = 0; start <= all.size();) {
        std::size_t bar = std::min(all.find('|', start), all.size());
        names.push_back(all.substr(start, bar - start));
        start = bar + 1;
    }
    return names;
}

// Both rule sets' databases in one directory: one Tablebase per rule set, made once and
// shared by every request (a Tablebase is thread-safe).
class Oracle {
  public:
    Oracle(std::string dir, std::string default_rules, std::size_t cache_bytes)
        : dir_(std::move(dir)), default_rules_(std::move(default_rules)) {
        TablebaseOptions options;
        options.cache_bytes = cache_bytes;
        for (std::string& name : preset_names()) tables_.emplace_back(dir_, name, options);
    }

    // Answers the routes; each leaves a complete response in `res`.
    void probe(const httplib::Request& req, httplib::Response& res) const;
    void batch(const httplib::Request& req, httplib::Response& res) const;
    void info(httplib::Response& res) const;

  private:
    // The tablebase the request's `rules` names (the default one without it), or null
    // after answering 400.
    const Tablebase* tablebase(const httplib::Request& req, httplib::Response& res) const;
    // Answers a query that append_answer (tools/probe_format) could not answer, from its
    // error ("<status>: <message>"): 400 for a bad position, 404 with what to generate for
    // a missing level, 500 for a damaged file.
    void send_query_error(httplib::Response& res, const Tablebase& tb, const Position& position,
                          const std::string& error) const;

    std::string dir_;
    std::string default_rules_;
    std::vector<Tablebase> tables_;
};

// The value of the flag parameter `name` (absent, "0", "false": false; "", "1", "true":
// true), or nullopt after answering 400.
std::optional<bool> flag(const httplib::Request& req, const char* name, httplib::Response& res) {
    if (!req.has_param(name)) return false;
    const std::string v = req.get_param_value(name);
    if (v.empty() || v == "1" || v == "true") return true;
    if (v == "0" || v == "false") return false;
    send_error(res, 400, std::string("parameter ") + name + ": expected 1, true, 0 or false");
    return std::nullopt;
}

const Tablebase* Oracle::tablebase(const httplib::Request& req, httplib::Response& res) const {
    const std::string name = req.has_param("rules") ? req.get_param_value("rules") : default_rules_;
    for (const Tablebase& tb : tables_)
        if (tb.rules() == name) return &tb;
    send_error(res, 400, "unknown rules '" + name + "' (expected " + Rules::preset_names() + ")");
    return nullptr;
}

void Oracle::send_query_error(httplib::Response& res, const Tablebase& tb, const Position& position,
                              const std::string& error) const {
    const auto is = [&](ProbeStatus status) { return error.starts_with(to_string(status)); };
    if (is(ProbeStatus::InvalidPosition) || error.starts_with("invalid position"))
        return send_error(res, 400, error);
    if (!is(ProbeStatus::NotAvailable)) return send_error(res, 500, error);
    // Every level the query may need, 0..seeds (captures lead to lower levels), that is not
    // there; `owaredb generate` builds every missing level up to its --max-seeds.
    const int seeds = position.seeds();
    std::string extra = ",\"status\":\"not available\",\"rules\":\"" + tb.rules() +
                        "\",\"seeds\":" + std::to_string(seeds) + ",\"missing_levels\":[";
    bool first = true;
    for (int n = 0; n <= seeds; ++n)
        if (!tb.level_available(n)) {
            if (!first) extra += ',';
            extra += std::to_string(n);
            first = false;
        }
    extra += "],\"generate\":\"";
    json::append_escaped(extra, "owaredb generate --rules " + tb.rules() + " --max-seeds " +
                                    std::to_string(seeds) + " --dir " + shell_word(dir_));
    extra += '"';
    send_error(res, 404, error, extra);
}

void Oracle::probe(const httplib::Request& req, httplib::Response& res) const {
    const Tablebase* tb = tablebase(req, res);
    if (!tb) return;
    const std::optional<bool> pv = flag(req, "pv", res);
    if (!pv) return;
    if (!req.has_param("position"))
        return send_error(res, 400, "missing the position parameter (12 pit counts)");
    const std::string text = req.get_param_value("position");
    const ParseResult parsed = parse_position(text);
    if (!parsed.ok) return send_error(res, 400, "invalid position: " + parsed.error);
    // The very function `owaredb probe --json` answers with.
    std::string body, error;
    if (!append_answer(*tb, text, AnswerFormat::Json, *pv, body, error))
        return send_query_error(res, *tb, parsed.position, error);
    send_json(res, 200, std::move(body));
}

void Oracle::batch(const httplib::Request& req, httplib::Response& res) const {
    const Tablebase* tb = tablebase(req, res);
    if (!tb) return;
    const std::optional<bool> pv = flag(req, "pv", res);
    if (!pv) return;
    const std::string_view body = req.body;
    if (!json::valid_utf8(body))
        return send_error(res, 400, "the body is not UTF-8 text (one position per line)");
    // Lines as `owaredb probe --batch` reads them: a last line without '\n' counts.
    const std::size_t lines = static_cast<std::size_t>(std::count(body.begin(), body.end(), '\n')) +
                              (!body.empty() && body.back() != '\n');
    const std::size_t limit = *pv ? kMaxBatchPvLines : kMaxBatchLines;
    if (lines > limit)
        return send_error(res, 413,
                          "too many lines: " + std::to_string(lines) + " (at most " +
                              std::to_string(kMaxBatchLines) + ", " +
                              std::to_string(kMaxBatchPvLines) + " with pv)");
    std::string out;
    std::uint64_t number = 0;
    for (std::size_t start = 0; start < body.size();) {
        const std::size_t nl = std::min(body.find('\n', start), body.size());
        append_batch_answer(*tb, body.substr(start, nl - start), ++number, AnswerFormat::Json, *pv,
                            out);
        start = nl + 1;
    }
    res.status = 200;
    res.set_content(out, "application/x-ndjson");
    res.set_header("Cache-Control", "no-store");
}

void Oracle::info(httplib::Response& res) const {
    Json doc;
    doc["rules"] = preset_names();
    doc["default"] = default_rules_;
    doc["dir"] = dir_;
    Json levels = Json::object();
    for (const Tablebase& tb : tables_) {
        Json present = Json::array();
        for (int n = 0; n <= kMaxSeeds; ++n)
            if (tb.level_available(n)) present.push_back(n);
        levels[tb.rules()] = std::move(present);
    }
    doc["levels"] = std::move(levels);
    doc["limits"] = {{"body_bytes", kMaxBodyBytes},
                     {"batch_lines", kMaxBatchLines},
                     {"batch_pv_lines", kMaxBatchPvLines},
                     {"batch_line_bytes", kMaxBatchLine}};
    send_json(res, 200, doc.dump(-1, ' ', false, Json::error_handler_t::replace));
}

void serve_asset(const httplib::Request& req, httplib::Response& res) {
    const std::string_view path = req.path == "/" ? std::string_view("/index.html") : req.path;
    for (const web::Asset& asset : web::assets()) {
        if (asset.path != path) continue;
        res.status = 200;
        res.set_content(reinterpret_cast<const char*>(asset.bytes.data()), asset.bytes.size(),
                        std::string(asset.content_type));
        res.set_header("Cache-Control", "no-cache");
        if (asset.content_type.starts_with("text/html")) {
            res.set_header("Content-Security-Policy",
                           "default-src 'none'; script-src 'self'; style-src 'self'; "
                           "connect-src 'self'; img-src 'self' data:; base-uri 'none'; "
                           "form-action 'self'; frame-ancestors 'none'");
            res.set_header("X-Frame-Options", "DENY");
        }
        return;
    }
    send_error(res, 404, "not found");
}

// The address as it goes into a URL.
std::string url_host(const std::string& host) {
    return host.find(':') != std::string::npos ? "[" + host + "]" : host;
}

} // namespace

int cmd_serve(const Args& args) {
    std::string dir, rules_name, host;
    int port = 8080;
    std::size_t threads = 16;
    std::string cache_mb = "128";
    po::options_description opts("options");
    opts.add_options()("dir", po::value(&dir)->default_value(kDefaultDatabaseDir),
                       "database directory")(
        "rules", po::value(&rules_name)->default_value("abapa"),
        "rule set the page starts with: abapa|awari (both are served)")(
        "host", po::value(&host)->default_value("127.0.0.1"),
        "address to listen on (0.0.0.0: every interface, reachable from other machines)")(
        "port", po::value(&port)->default_value(8080), "port (0: any free port, printed)")(
        "threads", po::value(&threads)->default_value(16), "threads answering requests")(
        "cache-mb", po::value(&cache_mb)->default_value(cache_mb),
        "block cache per rule set, MiB (0: the library's default, 256)");
    po::variables_map vm;
    if (!parse_args(
            args,
            "usage: owaredb serve [--dir DIR] [--rules R] [--host 127.0.0.1] [--port 8080]\n"
            "Serves a page showing every move's value (http://HOST:PORT/) and a JSON API:\n"
            "  GET  /api/probe?rules=R&position=P[&pv=1]  as owaredb probe --json [--pv]\n"
            "  POST /api/batch?rules=R[&pv=1]             a text/plain body, a position a\n"
            "       line: JSON Lines as owaredb probe --batch --json [--pv]\n"
            "  GET  /api/info                             rule sets, levels present, limits",
            opts, {}, vm))
        return 0;
    rules_from_name(rules_name); // validates the name with a clear message
    if (port < 0 || port > 65535) throw UsageError("--port must be 0..65535");
    if (threads < 1 || threads > 1024) throw UsageError("--threads must be 1..1024");
    const std::size_t cache_bytes = parse_cache_mb(cache_mb);
    if (!std::filesystem::is_directory(dir))
        throw UsageError("no database directory '" + dir + "' (see owaredb generate)");

    const Oracle oracle(dir, rules_name, cache_bytes);
    httplib::Server server;
    server.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
    // SO_REUSEADDR only: httplib's default also sets SO_REUSEPORT, which lets a second
    // server bind the same port and silently share the connections. TCP_NODELAY (inherited
    // by the accepted sockets): httplib writes the headers and the body separately, and
    // without it every answer on a kept-alive connection waits for the client's delayed ACK
    // (40 ms on Linux).
    server.set_socket_options([](socket_t sock) {
        int yes = 1;
        setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
        setsockopt(sock, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
    });
    server.set_payload_max_length(kMaxBodyBytes);
    server.set_keep_alive_max_count(1000);
    server.set_read_timeout(10);
    server.set_write_timeout(10);
    server.set_default_headers(
        {{"X-Content-Type-Options", "nosniff"}, {"Referrer-Policy", "no-referrer"}});
    using Req = const httplib::Request&;
    using Res = httplib::Response&;
    server.Get("/api/probe", [&](Req req, Res res) { oracle.probe(req, res); });
    server.Post("/api/batch", [&](Req req, Res res) { oracle.batch(req, res); });
    server.Get("/api/info", [&](Req, Res res) { oracle.info(res); });
    server.Get(".*", serve_asset);
    const auto not_allowed = [](Req req, Res res) {
        res.set_header("Allow", req.path == "/api/batch" ? "POST" : "GET, HEAD");
        send_error(res, 405, "method not allowed");
    };
    server.Post(".*", not_allowed);
    server.Put(".*", not_allowed);
    server.Patch(".*", not_allowed);
    server.Delete(".*", not_allowed);
    server.Options(".*", not_allowed);
    // httplib's own answers (unparsable requests, too large, unknown methods) get a JSON body.
    server.set_error_handler(httplib::Server::HandlerWithResponse([](Req req, Res res) {
        if (!res.body.empty()) return httplib::Server::HandlerResponse::Unhandled;
        // httplib limits form-encoded bodies (curl -d's default type) to 8 KiB.
        if (res.status == 413 &&
            req.get_header_value("Content-Type").starts_with("application/x-www-form-urlencoded"))
            send_error(res, 413,
                       "form-encoded bodies are limited to 8 KiB: send the positions as "
                       "text/plain (curl -H 'Content-Type: text/plain' --data-binary @file)");
        else
            send_error(res, res.status, status_words(res.status));
        return httplib::Server::HandlerResponse::Handled;
    }));
    server.set_exception_handler([](Req, Res res, std::exception_ptr thrown) {
        std::string what = "unknown exception";
        try {
            std::rethrow_exception(thrown);
        } catch (const std::exception& e) {
            what = e.what();
        } catch (...) {
        }
        send_error(res, 500, "internal error: " + what);
    });

    // SIGINT and SIGTERM are blocked in every thread (the request threads inherit the mask)
    // and taken by one thread, which stops the server.
    sigset_t stop_signals, old_mask;
    sigemptyset(&stop_signals);
    sigaddset(&stop_signals, SIGINT);
    sigaddset(&stop_signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop_signals, &old_mask);
    struct RestoreMask {
        sigset_t mask;
        ~RestoreMask() { pthread_sigmask(SIG_SETMASK, &mask, nullptr); }
    } restore{old_mask};

    const int bound =
        port == 0 ? server.bind_to_any_port(host) : (server.bind_to_port(host, port) ? port : -1);
    if (bound < 0)
        throw std::runtime_error("cannot listen on " + host + " port " + std::to_string(port) +
                                 " (in use, or not an address of this machine)");
    std::cout << "owaredb serve: http://" << url_host(host) << ":" << bound << "/ (databases in "
              << dir << ", rules " << Rules::preset_names() << "; Ctrl-C stops)" << std::endl;

    std::atomic<bool> listening_done{false};
    std::atomic<int> stopped_by{0};
    std::thread waiter([&] {
        int sig = 0;
        sigwait(&stop_signals, &sig);
        if (listening_done) return;
        stopped_by = sig;
        // stop() does nothing until listen_after_bind() has started: repeat until it ends.
        while (!listening_done) {
            server.stop();
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
    });
    const bool ok = server.listen_after_bind();
    listening_done = true;
    if (!stopped_by) pthread_kill(waiter.native_handle(), SIGTERM); // pending, taken by sigwait
    waiter.join();
    if (stopped_by) {
        std::cout << "owaredb serve: stopped (" << (stopped_by == SIGINT ? "SIGINT" : "SIGTERM")
                  << ")" << std::endl;
        return 0;
    }
    if (!ok) throw std::runtime_error("the server stopped: cannot accept connections");
    return 0;
}

} // namespace owaredb::cli
