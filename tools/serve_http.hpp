// The HTTP/1.1 transport of `owaredb serve` (serve_http.cpp, Boost.Beast on Asio): it owns
// the sockets, reads and frames requests, enforces every limit and timeout, and hands each
// complete request to one handler, which knows nothing of sockets. The routes are in
// cmd_serve.cpp.
//
// What a client can and cannot make it do (docs/guides/serving.md):
//  - connections are bounded (Limits::max_connections); at the cap the connection idle the
//    longest is closed to make room, and with none idle a new one is answered 503 at once;
//  - a connection waiting for a request is closed after Limits::idle; a request's header
//    must arrive within Limits::header of its first byte and its body within Limits::body
//    (408 otherwise); an answer, and each Limits::piece_bytes of a long one, must be taken
//    within Limits::write: a reader slower than that (the minimum read rate, 64 KiB per
//    30 s by default) is closed with a reset, which also drops what the kernel still held
//    for it;
//  - a long answer (Response::more) is made a piece at a time, as the client takes it, so
//    that a connection holds at most about one piece of it however slowly it reads (and
//    the kernel little more: the socket's send buffer is limited to two pieces while it is
//    sent); a slow reader holds no thread either;
//  - bodies are limited to Limits::body_bytes however framed (Content-Length or chunked,
//    413), headers to Limits::header_bytes (431) and the target to Limits::target_bytes (414);
//  - ambiguous framing (conflicting Content-Length, one that is not digits, Transfer-Encoding
//    with Content-Length or other than "chunked", a duplicate or missing Host) is 400 and
//    closes the connection, so that nothing hidden in a body is taken for a request;
//  - pipelined requests are answered in order; a half-closed socket still gets its answer;
//  - SIGINT and SIGTERM stop it at once, whatever the clients are doing.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace owaredb::cli::http {

using Fields = std::vector<std::pair<std::string, std::string>>;

// A complete request as the routes see it.
struct Request {
    std::string method; // as sent ("GET", "HEAD", "POST", ...); HEAD is answered as GET
    std::string path;   // the target before '?', percent-decoded
    Fields params;      // the query, in order: names and values percent-decoded, '+' a space
    std::string content_type;
    std::string body; // the decoded body (chunks joined)

    bool has_param(std::string_view name) const;
    // The first value of `name` ("" when absent).
    std::string param(std::string_view name) const;
};

struct Response {
    int status = 200;
    std::string content_type;
    std::string body;
    Fields headers; // beside Content-Type and Content-Length (or Transfer-Encoding)
    // For an answer too long to hold at once: appends the next piece of the body after
    // `body`, to `out`, and returns false once it appended the last (possibly empty) one.
    // The transport calls it until it has Limits::piece_bytes (or the end) and writes that
    // before it asks for more. An answer that ends within the first piece goes out as any
    // other, with a Content-Length; a longer one is sent chunked (HTTP/1.0: ended by closing
    // the connection). It may refer to the request, which lives until the answer is
    // written. If it throws in the first piece the answer is 500, as for the handler; later
    // the connection is reset, so that the client sees the answer cut off.
    std::function<bool(std::string& out)> more;
};

struct Limits {
    std::size_t max_connections = 512;
    std::size_t body_bytes = std::size_t(1) << 20;
    std::size_t header_bytes = 16 << 10;
    std::size_t target_bytes = 8 << 10;
    std::chrono::milliseconds idle{5000};    // for a request's first byte
    std::chrono::milliseconds header{10000}; // for the rest of its header
    std::chrono::milliseconds body{30000};   // then for its body
    std::chrono::milliseconds write{30000};  // for an answer, or each piece, to be taken
    std::size_t piece_bytes = 64 << 10;      // of a long answer (Response::more) at a time
};

struct ServerOptions {
    std::string host;
    int port = 0;            // 0: any free port
    std::size_t threads = 2; // event loops serving connections (one more accepts)
    Limits limits;
    // Answers every complete request; may throw (500 with the exception's message).
    std::function<void(const Request&, Response&)> handler;
    // The answer to a request refused by the transport itself (status and the reason in
    // words): the routes give it their error format.
    std::function<Response(int status, std::string_view message)> error;
    Fields default_headers; // on every answer
};

// The media type of a Content-Type value, lowercased (media types are case-insensitive, RFC
// 9110), without its parameters or spaces: "Multipart/Form-Data; boundary=b" gives
// "multipart/form-data".
std::string media_type(std::string_view content_type);

class Server {
  public:
    // Binds the address (throws a runtime_error naming it when it cannot) and installs the
    // SIGINT and SIGTERM handlers, so that a signal from then on stops run().
    explicit Server(ServerOptions options);
    ~Server();
    Server(const Server&) = delete;
    Server& operator=(const Server&) = delete;

    int port() const; // the port bound (the free one chosen for port 0)
    // Serves until SIGINT or SIGTERM; returns that signal.
    int run();

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// `text` with %XX sequences decoded (others left as they are) and, if `plus_is_space`, '+'
// as a space: what a URL's path and query mean.
std::string percent_decode(std::string_view text, bool plus_is_space);

} // namespace owaredb::cli::http
