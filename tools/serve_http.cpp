// The HTTP/1.1 transport of `owaredb serve` on Boost.Beast and Asio (serve_http.hpp says what
// it guarantees). Every connection is a Session on one of the server's event loops (an
// io_context per thread); nothing blocks on a socket, so a slow or idle client holds only
// its own connection, never a thread. cpp-httplib, which this replaces, gave each
// connection a thread for as long as it lived, read chunked bodies without a limit, dropped
// pipelined requests and answers to half-closed sockets, and took ambiguous framing; none of
// it could be configured away (issue #30; docs/results.md, Oracle and Python).
#include "serve_http.hpp"

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <csignal>
#include <exception>
#include <list>
#include <mutex>
#include <stdexcept>
#include <thread>

namespace owaredb::cli::http {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace bhttp = boost::beast::http;
using tcp = asio::ip::tcp;

bool Request::has_param(std::string_view name) const {
    return std::any_of(params.begin(), params.end(),
                       [&](const auto& p) { return p.first == name; });
}

std::string Request::param(std::string_view name) const {
    for (const auto& [key, value] : params)
        if (key == name) return value;
    return {};
}

std::string percent_decode(std::string_view text, bool plus_is_space) {
    const auto hex = [](char c) -> int {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        return -1;
    };
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '%' && i + 2 < text.size() && hex(text[i + 1]) >= 0 && hex(text[i + 2]) >= 0) {
            out += static_cast<char>(hex(text[i + 1]) * 16 + hex(text[i + 2]));
            i += 2;
        } else {
            out += plus_is_space && c == '+' ? ' ' : c;
        }
    }
    return out;
}

namespace {

// Bytes read from a socket at a time.
constexpr std::size_t kReadSize = 16 << 10;
// After an answer that closes the connection, what the client still sends is read and
// dropped for a while before the socket closes: closing a socket with unread input sends
// a reset, and a reset can destroy the answer before the client has read it (a client
// that sent a body too large is still sending it when its 413 goes out).
constexpr std::chrono::milliseconds kLinger{2000};
constexpr std::size_t kLingerBytes = 2 << 20;
// A connection refused at the cap is held only this long.
constexpr std::chrono::milliseconds kRefusedLinger{100};
// After accept() fails (out of file descriptors), the next try waits this long.
constexpr std::chrono::milliseconds kAcceptRetry{50};

bool iequals(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) ==
                      std::tolower(static_cast<unsigned char>(y));
           });
}

// Beast 1.74's string_view is Boost's.
std::string_view view(beast::string_view s) {
    return {s.data(), s.size()};
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

std::string megabytes_text(std::size_t bytes) {
    return bytes % (1 << 20) == 0 ? std::to_string(bytes >> 20) + " MiB"
                                  : std::to_string(bytes >> 10) + " KiB";
}

std::string seconds_text(std::chrono::milliseconds ms) {
    return ms.count() % 1000 == 0 ? std::to_string(ms.count() / 1000) + " s"
                                  : std::to_string(ms.count()) + " ms";
}

class Session;

// The live connections, and those waiting idle for a request, the longest-waiting first:
// what keeps the count bounded without letting idle sockets lock everyone out.
class Connections {
  public:
    using IdleList = std::list<std::weak_ptr<Session>>;

    explicit Connections(std::size_t cap) : cap_(cap) {}

    // Whether a new connection may be served: under the cap, or at the cap when an idle
    // connection could be told to close (Session::evict) to make room.
    bool admit();
    void leave(Session& session);
    void set_idle(const std::shared_ptr<Session>& session);
    void set_busy(Session& session);

  private:
    std::mutex mutex_;
    std::size_t cap_;
    std::size_t live_ = 0;
    IdleList idle_;
};

// What the sessions share: the options, the connections, the event loops. Each thread runs
// an io_context of its own, and a connection lives on one of them: one io_context run by
// many threads served fewer requests the more threads it had (21,900/s with 2 threads,
// 11,500/s with 16, docs/results.md), its queue being shared. The first loop accepts and
// takes the signals, and serves no connection: a long request (a search, up to 2 s) holds
// up its own loop's connections, never the new ones or a stop.
struct Core {
    explicit Core(ServerOptions o)
        : options(std::move(o)), connections(options.limits.max_connections) {
        for (std::size_t i = 0; i <= std::max<std::size_t>(options.threads, 1); ++i) {
            loops.push_back(std::make_unique<asio::io_context>(1));
            keep_running.push_back(asio::make_work_guard(*loops.back()));
        }
    }

    asio::io_context& first() { return *loops.front(); }
    // The loop a new connection goes to, in turn.
    asio::io_context& next() { return *loops[1 + next_loop++ % (loops.size() - 1)]; }

    ServerOptions options;
    Connections connections;
    std::vector<std::unique_ptr<asio::io_context>> loops;
    std::vector<asio::executor_work_guard<asio::io_context::executor_type>> keep_running;
    std::size_t next_loop = 0; // used by the acceptor only
};

class Session : public std::enable_shared_from_this<Session> {
  public:
    Session(tcp::socket socket, Core& core, bool admitted)
        : stream_(std::move(socket)), core_(core), limits_(core.options.limits),
          buffer_(std::max<std::size_t>(limits_.header_bytes, 64 << 10) + kReadSize),
          admitted_(admitted) {}

    ~Session() {
        if (admitted_) core_.connections.leave(*this);
    }

    // Serves the connection's requests, or, when it was not admitted, answers 503.
    void start() {
        if (admitted_) return next_request();
        refuse(503,
               "too many connections (at most " + std::to_string(limits_.max_connections) +
                   "): try again later",
               kRefusedLinger);
    }

    // From any thread: closes the connection if it is still waiting idle for a request.
    void evict() {
        asio::post(stream_.get_executor(), [self = shared_from_this()] {
            if (self->state_ == State::Idle) self->stream_.close();
        });
    }

  private:
    friend class Connections;
    enum class State { Idle, Reading, Writing, Closing };

    void next_request() {
        // Pipelined requests are already in the buffer: no wait, no idle time.
        if (buffer_.size() > 0) return read_header();
        state_ = State::Idle;
        core_.connections.set_idle(shared_from_this());
        stream_.expires_after(limits_.idle);
        stream_.async_read_some(buffer_.prepare(kReadSize),
                                [self = shared_from_this()](beast::error_code ec, std::size_t n) {
                                    self->core_.connections.set_busy(*self);
                                    if (ec) return self->stream_.close(); // gone, idle, evicted
                                    self->buffer_.commit(n);
                                    self->read_header();
                                });
    }

    void read_header() {
        state_ = State::Reading;
        parser_.emplace();
        parser_->header_limit(static_cast<std::uint32_t>(limits_.header_bytes));
        parser_->body_limit(limits_.body_bytes);
        stream_.expires_after(limits_.header);
        bhttp::async_read_header(stream_, buffer_, *parser_,
                                 [self = shared_from_this()](beast::error_code ec, std::size_t) {
                                     if (ec) return self->read_failed(ec, true);
                                     self->read_body();
                                 });
    }

    void read_body() {
        if (const std::optional<std::pair<int, std::string>> refusal = framing_error())
            return refuse(refusal->first, refusal->second, kLinger);
        const auto& req = parser_->get();
        const auto continue_read = [self = shared_from_this()] {
            self->stream_.expires_after(self->limits_.body);
            bhttp::async_read(self->stream_, self->buffer_, *self->parser_,
                              [self](beast::error_code ec, std::size_t) {
                                  if (ec) return self->read_failed(ec, false);
                                  self->answer();
                              });
        };
        if (parser_->is_done()) return answer();
        // A client that asks waits for this before it sends its body (curl does for large
        // bodies); any other expectation is ignored, as RFC 9110 allows.
        if (req.version() == 11 && iequals(trim(view(req[bhttp::field::expect])), "100-continue")) {
            static constexpr std::string_view kContinue = "HTTP/1.1 100 Continue\r\n\r\n";
            stream_.expires_after(limits_.write);
            return asio::async_write(
                stream_, asio::buffer(kContinue.data(), kContinue.size()),
                [self = shared_from_this(), continue_read](beast::error_code ec, std::size_t) {
                    if (ec) return self->stream_.close();
                    continue_read();
                });
        }
        continue_read();
    }

    // What the parser accepts but HTTP/1.1 (RFC 9112) does not, and what is too long: the
    // status and message to refuse the request with, before its body is read.
    std::optional<std::pair<int, std::string>> framing_error() const {
        const auto& req = parser_->get();
        if (req.version() != 10 && req.version() != 11)
            return std::pair{400, std::string("unsupported HTTP version (1.0 and 1.1 are spoken)")};
        const std::size_t hosts = req.count(bhttp::field::host);
        if (hosts > 1 || (req.version() == 11 && hosts == 0))
            return std::pair{400, std::string("an HTTP/1.1 request needs exactly one Host header")};
        // Beast refuses Transfer-Encoding with Content-Length; a coding other than chunked
        // alone would leave the body's end unknown (a request smuggled behind a proxy that
        // reads it otherwise).
        const std::size_t codings = req.count(bhttp::field::transfer_encoding);
        if (codings > 1 ||
            (codings == 1 && !iequals(trim(view(req[bhttp::field::transfer_encoding])), "chunked")))
            return std::pair{400, std::string("Transfer-Encoding other than chunked")};
        const std::string_view target = view(req.target());
        if (target.size() > limits_.target_bytes)
            return std::pair{414, "request target too long (at most " +
                                      megabytes_text(limits_.target_bytes) + ")"};
        if (target.empty() || target.front() != '/')
            return std::pair{400, std::string("the request target must be a path (/...)")};
        return std::nullopt;
    }

    void read_failed(beast::error_code ec, bool in_header) {
        // The client went away, or the server is closing it: nobody to answer.
        if (ec == bhttp::error::end_of_stream || ec == bhttp::error::partial_message ||
            ec == asio::error::operation_aborted || ec == asio::error::connection_reset ||
            ec == asio::error::eof)
            return stream_.close();
        if (ec == beast::error::timeout)
            return refuse(408,
                          in_header ? "request timeout: a request's header must arrive within " +
                                          seconds_text(limits_.header) + " of its first byte"
                                    : "request timeout: a request's body must arrive within " +
                                          seconds_text(limits_.body) + " of its header",
                          kLinger);
        if (ec == bhttp::error::body_limit || (!in_header && ec == bhttp::error::buffer_overflow))
            return refuse(413,
                          "request too large (at most " + megabytes_text(limits_.body_bytes) + ")",
                          kLinger);
        if (ec == bhttp::error::header_limit || ec == bhttp::error::buffer_overflow) {
            // The request line alone over the target limit is a long URI (414), as an
            // HTTP/1.1 client expects; otherwise the header as a whole is too large.
            const auto data = buffer_.cdata();
            const std::string_view seen(static_cast<const char*>(data.data()), data.size());
            if (seen.substr(0, seen.find('\n')).size() > limits_.target_bytes)
                return refuse(414,
                              "request target too long (at most " +
                                  megabytes_text(limits_.target_bytes) + ")",
                              kLinger);
            return refuse(431,
                          "request header too large (at most " +
                              megabytes_text(limits_.header_bytes) + ")",
                          kLinger);
        }
        // Every other parse error (bad_method, bad_content_length, bad_chunk, ...).
        if (ec.category() == bhttp::make_error_code(bhttp::error::bad_method).category())
            return refuse(400, "bad request: " + ec.message(), kLinger);
        stream_.close(); // a socket error
    }

    static Request to_request(bhttp::request<bhttp::string_body>& req) {
        Request request;
        request.method = std::string(view(req.method_string()));
        const std::string_view target = view(req.target());
        const std::size_t question = target.find('?');
        request.path = percent_decode(target.substr(0, question), false);
        if (question != std::string_view::npos) {
            std::string_view query = target.substr(question + 1);
            while (!query.empty()) {
                const std::size_t amp = query.find('&');
                const std::string_view item = query.substr(0, amp);
                if (!item.empty()) {
                    const std::size_t eq = item.find('=');
                    request.params.emplace_back(percent_decode(item.substr(0, eq), true),
                                                eq == std::string_view::npos
                                                    ? std::string()
                                                    : percent_decode(item.substr(eq + 1), true));
                }
                if (amp == std::string_view::npos) break;
                query.remove_prefix(amp + 1);
            }
        }
        request.content_type = std::string(view(req[bhttp::field::content_type]));
        request.body = std::move(req.body());
        return request;
    }

    void answer() {
        auto& req = parser_->get();
        request_ = to_request(req);
        const bool head = req.method() == bhttp::verb::head;
        const bool keep_alive = req.keep_alive();
        const unsigned version = req.version();

        Response response;
        try {
            core_.options.handler(request_, response);
            if (response.more && !fill(response.body, response.more)) response.more = nullptr;
        } catch (const std::exception& e) {
            response = core_.options.error(500, std::string("internal error: ") + e.what());
        } catch (...) {
            response = core_.options.error(500, "internal error: unknown exception");
        }
        // Only a streamed answer may still refer to the request (a batch's body: 1 MiB).
        if (!response.more || head) request_ = Request{};
        send(std::move(response), keep_alive, head, version, kLinger);
    }

    // Asks `more` for the next pieces of an answer until `out` holds a piece's bytes or the
    // answer ended; whether more follows.
    bool fill(std::string& out, const std::function<bool(std::string&)>& more) const {
        bool left = true;
        while (left && out.size() < limits_.piece_bytes) left = more(out);
        return left;
    }

    // Answers `status` and closes the connection (what was sent after is not read).
    void refuse(int status, const std::string& message, std::chrono::milliseconds linger) {
        send(core_.options.error(status, message), false, false, 11, linger);
    }

    // The answer goes out as our header and the body, in one write: building it as a Beast
    // message (a node per field, a serializer over them) answered 1-22 % fewer requests/s
    // (/api/probe, 3 paired runs, docs/results.md). A streamed answer (Response::more left
    // after its first piece) is sent chunked, or in HTTP/1.0 ended by closing.
    void send(Response response, bool keep_alive, bool head, unsigned version,
              std::chrono::milliseconds linger) {
        const bool streamed = static_cast<bool>(response.more);
        if (streamed && version == 10) keep_alive = false;
        const auto status = static_cast<unsigned>(response.status);
        head_.clear();
        head_ += "HTTP/1.1 ";
        head_ += std::to_string(status);
        head_ += ' ';
        head_ += view(bhttp::obsolete_reason(bhttp::int_to_status(status)));
        head_ += "\r\n";
        const auto field = [this](std::string_view name, std::string_view value) {
            head_ += name;
            head_ += ": ";
            head_ += value;
            head_ += "\r\n";
        };
        for (const auto& [name, value] : core_.options.default_headers) field(name, value);
        for (const auto& [name, value] : response.headers) field(name, value);
        if (!response.content_type.empty()) field("Content-Type", response.content_type);
        if (!keep_alive)
            field("Connection", "close");
        else if (version == 10)
            field("Connection", "keep-alive");
        // HEAD: the header GET would send, Content-Length included, without the body.
        if (!streamed)
            field("Content-Length", std::to_string(response.body.size()));
        else if (version == 11)
            field("Transfer-Encoding", "chunked");
        head_ += "\r\n";
        body_ = head ? std::string() : std::move(response.body);
        more_ = nullptr;
        if (!head) more_ = std::move(response.more);
        chunked_ = streamed && !head && version == 11;
        if (more_) {
            // The kernel's buffer (autotuned up to 4 MiB on Linux) would otherwise take
            // megabytes of the answer at once, held for a client that reads nothing, and
            // hide a slow reader from the write timeout.
            beast::error_code ignored;
            stream_.socket().set_option(
                asio::socket_base::send_buffer_size(static_cast<int>(2 * limits_.piece_bytes)),
                ignored);
            abort_on_close(true);
        }
        write_piece(keep_alive, linger);
    }

    // Writes head_ and body_ (as a chunk when chunked_); then, while more_ is left, makes
    // the next piece and writes it, so that only one piece is held at a time and only once
    // the client has taken the previous one. Each write has Limits::write: the minimum read
    // rate.
    void write_piece(bool keep_alive, std::chrono::milliseconds linger) {
        const bool last = !more_;
        if (last) request_ = Request{}; // nothing refers to it any more
        tail_.clear();
        if (chunked_ && !body_.empty()) {
            std::array<char, 20> size{};
            const auto end =
                std::to_chars(size.data(), size.data() + size.size(), body_.size(), 16).ptr;
            head_.append(size.data(), end);
            head_ += "\r\n";
            tail_ = "\r\n";
        }
        if (chunked_ && last) tail_ += "0\r\n\r\n";
        state_ = State::Writing;
        stream_.expires_after(limits_.write);
        const std::array<asio::const_buffer, 3> buffers{asio::buffer(head_), asio::buffer(body_),
                                                        asio::buffer(tail_)};
        asio::async_write(stream_, buffers,
                          [self = shared_from_this(), keep_alive, linger,
                           last](beast::error_code ec, std::size_t) {
                              if (ec) return self->reset(); // too slow, or gone
                              if (!last) return self->next_piece(keep_alive, linger);
                              self->abort_on_close(false);
                              self->body_ = std::string(); // an idle connection holds none
                              if (keep_alive) return self->next_request();
                              self->close_gracefully(linger);
                          });
    }

    void next_piece(bool keep_alive, std::chrono::milliseconds linger) {
        head_.clear();
        body_.clear();
        try {
            if (!fill(body_, more_)) more_ = nullptr;
        } catch (...) {
            return reset(); // the status is gone: a cut-off answer says it failed
        }
        write_piece(keep_alive, linger);
    }

    // Whether closing the socket resets the connection, dropping what the kernel still
    // holds for the client: set while an answer is streamed, so that a reader too slow for
    // it (the write timeout closes the socket) gets no more of it.
    void abort_on_close(bool abort) {
        beast::error_code ignored;
        stream_.socket().set_option(asio::socket_base::linger(abort, 0), ignored);
    }

    // Closes the connection at once with a reset.
    void reset() {
        abort_on_close(true);
        stream_.close();
        more_ = nullptr;
        request_ = Request{};
    }

    void close_gracefully(std::chrono::milliseconds linger) {
        state_ = State::Closing;
        beast::error_code ignored;
        stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
        buffer_.clear();
        stream_.expires_after(linger);
        drain();
    }

    void drain() {
        stream_.async_read_some(buffer_.prepare(kReadSize),
                                [self = shared_from_this()](beast::error_code ec, std::size_t n) {
                                    self->lingered_ += n;
                                    if (ec || self->lingered_ > kLingerBytes)
                                        return self->stream_.close();
                                    self->drain();
                                });
    }

    beast::tcp_stream stream_;
    Core& core_;
    const Limits& limits_;
    beast::flat_buffer buffer_;
    bool admitted_;
    State state_ = State::Reading;
    std::optional<bhttp::request_parser<bhttp::string_body>> parser_;
    Request request_;  // the request being answered, while its answer may refer to it
    std::string head_; // the answer being written: its header (or a chunk's size), its body
    std::string body_;
    std::string tail_;                       // a chunk's end, the last chunk
    std::function<bool(std::string&)> more_; // the rest of a streamed answer
    bool chunked_ = false;
    std::size_t lingered_ = 0;
    // Where this session is in Connections' idle list; guarded by its mutex.
    std::optional<Connections::IdleList::iterator> idle_at_;
};

bool Connections::admit() {
    std::shared_ptr<Session> victim; // released after the lock: its destructor takes it
    {
        const std::lock_guard lock(mutex_);
        if (live_ < cap_) {
            ++live_;
            return true;
        }
        // Entries whose session is being destroyed are skipped; their destructors erase them.
        for (auto it = idle_.begin(); it != idle_.end(); ++it) {
            victim = it->lock();
            if (!victim) continue;
            victim->idle_at_.reset();
            idle_.erase(it);
            break;
        }
        if (!victim) return false;
        ++live_; // the victim leaves as soon as its strand runs evict()
    }
    victim->evict();
    return true;
}

void Connections::leave(Session& session) {
    const std::lock_guard lock(mutex_);
    if (session.idle_at_) idle_.erase(*session.idle_at_);
    session.idle_at_.reset();
    --live_;
}

void Connections::set_idle(const std::shared_ptr<Session>& session) {
    const std::lock_guard lock(mutex_);
    if (!session->idle_at_) session->idle_at_ = idle_.insert(idle_.end(), session);
}

void Connections::set_busy(Session& session) {
    const std::lock_guard lock(mutex_);
    if (session.idle_at_) idle_.erase(*session.idle_at_);
    session.idle_at_.reset();
}

} // namespace

std::string media_type(std::string_view content_type) {
    std::string type(trim(content_type.substr(0, content_type.find(';'))));
    for (char& c : type) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return type;
}

struct Server::Impl : Core {
    explicit Impl(ServerOptions o)
        : Core(std::move(o)), acceptor(first()), signals(first(), SIGINT, SIGTERM), retry(first()) {
    }

    void accept() {
        acceptor.async_accept(next(), [this](beast::error_code ec, tcp::socket socket) {
            if (ec == asio::error::operation_aborted) return; // stopping
            if (ec) {
                // Out of file descriptors, or the connection went away before it was taken.
                retry.expires_after(kAcceptRetry);
                return retry.async_wait([this](beast::error_code wait) {
                    if (!wait) accept();
                });
            }
            beast::error_code ignored;
            socket.set_option(tcp::no_delay(true), ignored);
            const bool admitted = connections.admit();
            // Started on its own loop's thread, which alone touches it from then on.
            const auto executor = socket.get_executor();
            asio::post(executor, [session = std::make_shared<Session>(
                                      std::move(socket), *this, admitted)] { session->start(); });
            accept();
        });
    }

    tcp::acceptor acceptor;
    asio::signal_set signals;
    asio::steady_timer retry;
    int stopped_by = 0;
};

Server::Server(ServerOptions options) : impl_(std::make_unique<Impl>(std::move(options))) {
    Impl& s = *impl_;
    const std::string& host = s.options.host;
    const std::string where = "cannot listen on " + host + " port " +
                              std::to_string(s.options.port) +
                              " (in use, or not an address of this machine)";
    beast::error_code ec;
    tcp::resolver resolver(s.first());
    const auto endpoints =
        resolver.resolve(host, std::to_string(s.options.port),
                         tcp::resolver::passive | tcp::resolver::numeric_service, ec);
    if (ec) throw std::runtime_error(where);
    for (const auto& entry : endpoints) {
        beast::error_code e;
        tcp::acceptor a(s.first());
        a.open(entry.endpoint().protocol(), e);
        // SO_REUSEADDR only, not SO_REUSEPORT, which would let a second server bind the
        // same port and silently share the connections.
        if (!e) a.set_option(asio::socket_base::reuse_address(true), e);
        if (!e) a.bind(entry.endpoint(), e);
        if (!e) a.listen(asio::socket_base::max_listen_connections, e);
        if (!e) {
            s.acceptor = std::move(a);
            break;
        }
    }
    if (!s.acceptor.is_open()) throw std::runtime_error(where);
    s.signals.async_wait([&s](beast::error_code ec, int signal) {
        if (ec) return;
        s.stopped_by = signal;
        beast::error_code ignored;
        s.acceptor.close(ignored);
        // Every connection stops with it: the clients that are answered get their answer
        // only if it was already written.
        for (auto& loop : s.loops) loop->stop();
    });
}

Server::~Server() = default;

int Server::port() const {
    return impl_->acceptor.local_endpoint().port();
}

int Server::run() {
    Impl& s = *impl_;
    s.accept();
    std::vector<std::thread> threads;
    for (std::size_t i = 1; i < s.loops.size(); ++i)
        threads.emplace_back([&loop = *s.loops[i]] { loop.run(); });
    s.first().run();
    for (std::thread& t : threads) t.join();
    return s.stopped_by;
}

} // namespace owaredb::cli::http
