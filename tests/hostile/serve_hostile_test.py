#!/usr/bin/env python3
"""owaredb serve against hostile HTTP clients (issue #30, items 2, 4, 5, 8 and 10).

Each check is a client a public server meets sooner or later, over raw sockets (stdlib
only), and what must hold while it runs:
  - slowloris: 64 sockets trickling a request header a byte at a time; normal requests are
    still answered at once, and the server closes the trickling sockets after its header
    timeout;
  - a flood of idle connections: normal requests answered at once; idle sockets closed after
    the keep-alive timeout; at the connection cap the oldest idle one makes room, and with
    none idle a new connection is told 503 at once, not kept waiting;
  - SIGTERM and SIGINT stop the server promptly while clients trickle or idle;
  - a chunked bomb (a chunked body without end): refused with 413 after about 1 MiB, the
    server's memory does not grow with it;
  - pipelined requests (2, 10, 200 in one write, GETs and POSTs): every one answered, in
    order, at once;
  - a half-closed socket (shutdown(SHUT_WR) after the request): the answer still comes;
  - ambiguous framing (conflicting Content-Length, +24, 24abc, Transfer-Encoding with
    Content-Length, unknown transfer codings, duplicate or missing Host): 400 and the
    connection closed, so that no request hidden in the body is answered; a multipart body
    is 415;
  - slow readers (issue #52, item 4): clients that post a batch with pv (an answer hundreds
    of times its request) and read nothing hold a bounded amount of the server's memory,
    normal requests are answered meanwhile, and the memory is given back when they go; a
    client reading slower than the minimum read rate is disconnected; a fast reader gets the
    answer `owaredb probe --batch --json --pv` prints, chunked (HTTP/1.1) or ended by the
    close (HTTP/1.0);
  - the API's edges (issue #52, item 10): repeated parameters and an empty pv= are 400
    naming the parameter, multipart in capitals is 415 as in lower case, a lone CR ends a
    batch line, a path that does not exist is 404 whatever the method.
    serve_hostile_test.py /path/to/owaredb [TEST...]
"""
import json
import os
import re
import select
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

OWAREDB = sys.argv[1]
POSITION = "1+0+0+1+0+1+0+1+0+0+1+0"  # 5 seeds: in the levels 0..8 generated below
PROBE = f"/api/probe?rules=abapa&position={POSITION}"
passes = failures = 0


def check(what, ok, detail=""):
    global passes, failures
    if ok:
        passes += 1
    else:
        failures += 1
        print(f"FAIL: {what}: {detail}"[:600], flush=True)
    return ok


class Server:
    """owaredb serve on a free port of 127.0.0.1; killed if a check leaves it running."""

    def __init__(self, db, *args):
        self.proc = subprocess.Popen([OWAREDB, "serve", "--dir", db, "--port", "0", *args],
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        line = self.proc.stdout.readline()
        m = re.search(r"http://[^\s]+?:(\d+)/", line)
        if not m:
            self.proc.kill()
            raise RuntimeError(f"owaredb serve {' '.join(args)} did not start: {line}"
                               f"{self.proc.stdout.read()}")
        self.port = int(m.group(1))

    def rss_kib(self):
        with open(f"/proc/{self.proc.pid}/status") as f:
            return int(re.search(r"VmRSS:\s+(\d+)", f.read()).group(1))

    def stop(self, sig=signal.SIGTERM, within=10):
        """Sends `sig`; (exit status, seconds to exit, rest of the output)."""
        start = time.monotonic()
        self.proc.send_signal(sig)
        try:
            rc = self.proc.wait(within)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            rc = None
        return rc, time.monotonic() - start, self.proc.stdout.read()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def connect(port, timeout=5):
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return s


def read_until_close(s, timeout):
    """Bytes until the peer closes or `timeout` seconds pass; (bytes, closed)."""
    data = b""
    end = time.monotonic() + timeout
    while True:
        left = end - time.monotonic()
        if left <= 0:
            return data, False
        s.settimeout(left)
        try:
            chunk = s.recv(65536)
        except socket.timeout:
            return data, False
        except ConnectionResetError:
            return data, True
        if not chunk:
            return data, True
        data += chunk


def dechunk(data):
    """(body, bytes used) of a chunked body at the start of `data`; None if incomplete."""
    body, at = b"", 0
    while True:
        line_end = data.find(b"\r\n", at)
        if line_end < 0:
            return None
        size = int(data[at:line_end].split(b";")[0], 16)
        at = line_end + 2
        if size == 0:
            return (body, at + 2) if data[at:at + 2] == b"\r\n" else None
        if len(data) < at + size + 2:
            return None
        body += data[at:at + size]
        at += size + 2


def parse_responses(data, closed=False):
    """The complete responses in `data`, in order: [(status, {header: value}, body)]; an
    answer with neither Content-Length nor chunks is complete once the server `closed`."""
    out = []
    while True:
        end = data.find(b"\r\n\r\n")
        if end < 0:
            return out
        head = data[:end].decode("latin1").split("\r\n")
        m = re.match(r"HTTP/1\.[01] (\d{3})", head[0])
        if not m:
            return out
        headers = {}
        for line in head[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        if headers.get("transfer-encoding") == "chunked":
            got = dechunk(data[end + 4:])
            if got is None:
                return out
            body, length = got
        elif "content-length" in headers:
            length = int(headers["content-length"])
            body = data[end + 4:end + 4 + length]
            if len(data) < end + 4 + length:
                return out
        elif closed:
            body = data[end + 4:]
            length = len(body)
        else:
            return out
        out.append((int(m.group(1)), headers, body))
        data = data[end + 4 + length:]


def exchange(port, raw, timeout=5, half_close=False):
    """Sends `raw` in one write and reads until the server closes: (responses, closed)."""
    with connect(port, timeout) as s:
        s.sendall(raw)
        if half_close:
            s.shutdown(socket.SHUT_WR)
        data, closed = read_until_close(s, timeout)
    return parse_responses(data, closed), closed


def get(path, close=True):
    return (f"GET {path} HTTP/1.1\r\nHost: x\r\n" + ("Connection: close\r\n" if close else "") +
            "\r\n").encode()


def timed_get(port, path=PROBE, timeout=5):
    """(status or None, seconds) of one request on a new connection."""
    start = time.monotonic()
    try:
        responses, _ = exchange(port, get(path), timeout)
    except OSError:
        responses = []
    return (responses[0][0] if responses else None), time.monotonic() - start


def normal_requests_fast(port, what, count=20, within=2.0):
    results = [timed_get(port) for _ in range(count)]
    slow = [r for r in results if r[0] != 200 or r[1] > within]
    check(f"{what}: {count} normal requests each answered 200 within {within} s", not slow,
          f"{len(slow)} were not: {slow[:5]}")


def closed_by_server(s, timeout):
    """Whether the server closes `s` within `timeout` (an answer before the close is fine)."""
    _, closed = read_until_close(s, timeout)
    return closed


class Trickler(threading.Thread):
    """Sends the bytes of a request header that never ends, one byte per socket every
    `interval` seconds, to each of `sockets`; a socket the server closed is dropped."""

    def __init__(self, sockets, interval=0.5):
        super().__init__(daemon=True)
        self.sockets = list(sockets)
        self.interval = interval
        self.stop = threading.Event()
        self.header = (f"GET {PROBE} HTTP/1.1\r\nHost: x\r\n" + "X-Slow: " + "a" * 100000).encode()

    def run(self):
        i = 0
        while not self.stop.is_set() and self.sockets:
            for s in list(self.sockets):
                try:
                    s.send(self.header[i:i + 1])
                except OSError:
                    self.sockets.remove(s)
            i += 1
            self.stop.wait(self.interval)


def slowloris(db):
    print("== slowloris: 64 sockets trickling a header, a byte each every 0.5 s", flush=True)
    with Server(db) as server:
        slow = [connect(server.port) for _ in range(64)]
        trickler = Trickler(slow)
        trickler.start()
        time.sleep(1.5)
        normal_requests_fast(server.port, "while 64 clients trickle")
        # The header timeout (10 s from a header's first byte) closes them all.
        start = time.monotonic()
        open_ = [s for s in slow if not closed_by_server(s, max(0.1, 14 - (time.monotonic() - start)))]
        check("the trickling sockets are closed within 14 s (header timeout 10 s)", not open_,
              f"{len(open_)} of 64 still open")
        trickler.stop.set()
        for s in slow:
            s.close()


def idle_flood(db):
    print("== a flood of 300 idle connections", flush=True)
    with Server(db) as server:
        idle = [connect(server.port) for _ in range(300)]
        time.sleep(0.5)
        normal_requests_fast(server.port, "with 300 idle connections open")
        # Kept-alive idle time is 5 s; a connection that never sent a byte counts as idle.
        start = time.monotonic()
        open_ = [s for s in idle if not closed_by_server(s, max(0.1, 9 - (time.monotonic() - start)))]
        check("idle connections are closed within 9 s (idle timeout 5 s)", not open_,
              f"{len(open_)} of 300 still open")
        for s in idle:
            s.close()
    print("== the connection cap: --max-connections 20", flush=True)
    try:
        server = Server(db, "--max-connections", "20")
    except RuntimeError as e:
        check("serve --max-connections 20 starts", False, str(e))
        return
    with server:
        idle = [connect(server.port) for _ in range(40)]
        time.sleep(0.5)
        normal_requests_fast(server.port, "40 idle connections, cap 20: the oldest idle make room")
        for s in idle:
            s.close()
        time.sleep(0.5)
        # 20 sockets in the middle of a header are not idle: nothing can be closed for a new
        # connection, which is told so at once (503), not left waiting.
        slow = [connect(server.port) for _ in range(20)]
        trickler = Trickler(slow, interval=0.2)
        trickler.start()
        time.sleep(1)
        status, seconds = timed_get(server.port)
        check("at the cap with no idle connection: 503 at once", status == 503 and seconds < 2,
              f"status {status} after {seconds:.2f} s")
        responses, _ = exchange(server.port, get(PROBE))
        body = responses[0][2] if responses else b""
        check("the 503 is a JSON message", b'"error"' in body, body[:200])
        trickler.stop.set()
        for s in slow:
            s.close()
        time.sleep(0.5)
        status, seconds = timed_get(server.port)
        check("once they are gone, requests are answered again", status == 200,
              f"status {status} after {seconds:.2f} s")


def stopping(db):
    for sig in (signal.SIGTERM, signal.SIGINT):
        name = signal.Signals(sig).name
        print(f"== {name} while clients trickle and idle", flush=True)
        with Server(db) as server:
            slow = [connect(server.port) for _ in range(4)]
            idle = [connect(server.port) for _ in range(4)]
            trickler = Trickler(slow, interval=0.2)
            trickler.start()
            time.sleep(1)
            rc, seconds, output = server.stop(sig)
            check(f"{name} stops the server within 2 s, status 0", rc == 0 and seconds < 2,
                  f"status {rc} after {seconds:.2f} s")
            check(f"it says it stopped ({name})", f"stopped ({name})" in output, output)
            trickler.stop.set()
            for s in slow + idle:
                s.close()


def chunked_bomb(db):
    print("== a chunked body that never ends (up to 64 MiB sent)", flush=True)
    with Server(db) as server:
        rss_before = server.rss_kib()
        chunk = b"10000\r\n" + b"1" * 0x10000 + b"\r\n"  # one line that never ends
        s = connect(server.port)
        s.sendall(b"POST /api/batch HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n"
                  b"Transfer-Encoding: chunked\r\n\r\n")
        s.setblocking(False)
        sent, data, limit = 0, b"", 64 << 20
        deadline = time.monotonic() + 30
        pending = chunk
        while time.monotonic() < deadline and not parse_responses(data):
            readable, writable, _ = select.select([s], [s] if sent < limit else [], [], 0.5)
            try:
                if readable:
                    got = s.recv(65536)
                    if not got:
                        break
                    data += got
                if writable:
                    n = s.send(pending)
                    sent += n
                    pending = pending[n:] or chunk
            except (BrokenPipeError, ConnectionResetError):
                break
        s.close()
        responses = parse_responses(data)
        status = responses[0][0] if responses else None
        check("a chunked body over 1 MiB is refused with 413", status == 413,
              f"status {status} after {sent >> 20} MiB sent")
        check("the server stopped reading it (at most 8 MiB sent)", sent <= 8 << 20,
              f"{sent >> 20} MiB sent")
        check("its memory did not grow by the body (less than 40 MiB)",
              server.rss_kib() - rss_before < 40 << 10,
              f"RSS {rss_before} -> {server.rss_kib()} KiB")
        # A chunk-size line that never ends, and chunk extensions without end.
        for what, body in [("a chunk-size line of 2 MiB", b"1" * (2 << 20)),
                           ("chunk extensions of 2 MiB", b"1;" + b"a" * (2 << 20))]:
            try:
                responses, _ = exchange(server.port, b"POST /api/batch HTTP/1.1\r\nHost: x\r\n"
                                        b"Transfer-Encoding: chunked\r\n\r\n" + body, timeout=10)
            except OSError as e:
                responses = [(str(e), {}, b"")]
            status = responses[0][0] if responses else None
            check(f"{what}: a 4xx answer", isinstance(status, int) and 400 <= status < 500,
                  f"status {status}")
        status, _ = timed_get(server.port)
        check("after the bombs, requests are answered", status == 200, f"status {status}")


def pipelining(db):
    print("== pipelined requests: 2, 10 and 200 in one write", flush=True)
    with Server(db) as server:
        positions = ["1+0+0+1+0+1+0+1+0+0+1+0", "0+0+0+0+0+1+0+0+0+0+0+0", "2+0+1+0+0+0+0+1+0+1+0+0",
                     "x"]
        paths = [f"/api/probe?position={p}" for p in positions] + ["/api/info", "/"]
        single = {p: exchange(server.port, get(p))[0][0] for p in paths}
        for n in (2, 10, 200):
            sequence = [paths[i % len(paths)] for i in range(n)]
            raw = b"".join(get(p, close=(i == n - 1)) for i, p in enumerate(sequence))
            start = time.monotonic()
            responses, closed = exchange(server.port, raw, timeout=10)
            seconds = time.monotonic() - start
            same = [(r[0], r[2]) for r in responses] == [(single[p][0], single[p][2]) for p in sequence]
            check(f"{n} pipelined GETs: {n} answers, in order, each as when sent alone",
                  len(responses) == n and same, f"{len(responses)} answers")
            check(f"{n} pipelined GETs: answered and closed within 3 s", closed and seconds < 3,
                  f"closed {closed} after {seconds:.2f} s")
        # POSTs with bodies of both framings, between GETs.
        batch = b"1 0 0 1 0 1 0 1 0 0 1 0\nfoo\n"
        alone = exchange(server.port, b"POST /api/batch HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n"
                         b"Connection: close\r\nContent-Length: %d\r\n\r\n" % len(batch) + batch)[0][0]
        raw = (get(PROBE, close=False) +
               b"POST /api/batch HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n"
               b"Content-Length: %d\r\n\r\n" % len(batch) + batch +
               b"POST /api/batch HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n"
               b"Transfer-Encoding: chunked\r\n\r\n" +
               b"%x\r\n%s\r\n%x\r\n%s\r\n0\r\n\r\n" % (10, batch[:10], len(batch) - 10, batch[10:]) +
               get("/api/info"))
        responses, closed = exchange(server.port, raw, timeout=10)
        check("pipelined GET, POST, chunked POST, GET: 4 answers", len(responses) == 4 and closed,
              f"{len(responses)} answers")
        if len(responses) == 4:
            check("the POSTs answer as when sent alone", responses[1][2] == alone[2] and
                  responses[2][2] == alone[2], f"{responses[1][2][:100]} {responses[2][2][:100]}")
            check("the GETs too", responses[0][2] == single[paths[0]][2] and
                  responses[3][2] == single["/api/info"][2], "")


def half_closed(db):
    print("== half-closed sockets: shutdown(SHUT_WR) after the request, 100 times each", flush=True)
    with Server(db) as server:
        for path in ("/api/info", PROBE):
            want = exchange(server.port, get(path))[0][0]
            missing = 0
            for _ in range(100):
                responses, _ = exchange(server.port, get(path, close=False), half_close=True)
                if len(responses) != 1 or responses[0][0] != 200 or responses[0][2] != want[2]:
                    missing += 1
            check(f"half-closed {path}: 100 of 100 answered", missing == 0, f"{missing} not answered")


def framing(db):
    print("== ambiguous framing: 400, and nothing hidden in the body is answered", flush=True)
    line = b"1 0 0 1 0 1 0 1 0 0 1 0\n"  # 24 bytes
    hidden = b"GET /api/info HTTP/1.1\r\nHost: x\r\n\r\n"
    body = line + hidden  # a request hidden behind the first 24 bytes
    post = b"POST /api/batch HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n"
    cases = [
        ("two conflicting Content-Length", b"Content-Length: 24\r\nContent-Length: %d\r\n" % len(body)),
        ("two conflicting Content-Length, reversed", b"Content-Length: %d\r\nContent-Length: 24\r\n" % len(body)),
        ("Content-Length: +24", b"Content-Length: +24\r\n"),
        ("Content-Length: 24abc", b"Content-Length: 24abc\r\n"),
        ("Content-Length: 0x18", b"Content-Length: 0x18\r\n"),
        ("Content-Length: 24, 60", b"Content-Length: 24, 60\r\n"),
        ("Content-Length: -24", b"Content-Length: -24\r\n"),
        ("Content-Length : 24 (space before the colon)", b"Content-Length : 24\r\n"),
        ("Transfer-Encoding: chunked and Content-Length", b"Transfer-Encoding: chunked\r\nContent-Length: 24\r\n"),
        ("Content-Length and Transfer-Encoding: chunked", b"Content-Length: 24\r\nTransfer-Encoding: chunked\r\n"),
        ("Transfer-Encoding: gzip", b"Transfer-Encoding: gzip\r\nContent-Length: 24\r\n"),
        ("Transfer-Encoding: gzip alone", b"Transfer-Encoding: gzip\r\n"),
        ("Transfer-Encoding: chunked, chunked", b"Transfer-Encoding: chunked, chunked\r\n"),
        ("Transfer-Encoding twice", b"Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n"),
        ("Transfer-Encoding: xchunked", b"Transfer-Encoding: xchunked\r\n"),
        ("two Host headers", b"Host: y\r\nContent-Length: 24\r\n"),
    ]
    with Server(db) as server:
        for what, headers in cases:
            responses, closed = exchange(server.port, post + headers + b"\r\n" + body)
            status = responses[0][0] if responses else None
            ok = check(f"{what}: 400", status == 400, f"statuses {[r[0] for r in responses]}")
            if ok:
                check(f"{what}: a JSON message", b'"error"' in responses[0][2], responses[0][2][:200])
                check(f"{what}: one answer, then the connection closed", len(responses) == 1 and closed,
                      f"{len(responses)} answers, closed {closed}")
        responses, _ = exchange(server.port, b"GET /api/info HTTP/1.1\r\nConnection: close\r\n\r\n")
        check("HTTP/1.1 without Host: 400", [r[0] for r in responses] == [400],
              f"statuses {[r[0] for r in responses]}")
        multipart = (b"--b\r\nContent-Disposition: form-data; name=\"p\"\r\n\r\n" + line + b"\r\n--b--\r\n")
        responses, _ = exchange(server.port, b"POST /api/batch HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
                                b"Content-Type: multipart/form-data; boundary=b\r\n"
                                b"Content-Length: %d\r\n\r\n" % len(multipart) + multipart)
        status = responses[0][0] if responses else None
        body = responses[0][2] if responses else b""
        check("a multipart POST: 415 with a message naming text/plain",
              status == 415 and b"text/plain" in body, f"status {status}: {body[:200]}")
        status, _ = timed_get(server.port)
        check("after all that, requests are answered", status == 200, f"status {status}")


def batch_request(body, query="?pv=1", version="1.1", close=True):
    return (f"POST /api/batch{query} HTTP/{version}\r\nHost: x\r\nContent-Type: text/plain\r\n"
            f"Content-Length: {len(body)}\r\n" + ("Connection: close\r\n" if close else "") +
            "\r\n").encode() + body


def slow_readers(db):
    # 1,000 positions of 8 seeds with pv: an answer of about 1 MB from a 24 KB request.
    positions = all_positions(8)[::75][:1000]
    body = "".join(p + "\n" for p in positions).encode()
    want = subprocess.run([OWAREDB, "probe", "--dir", db, "--rules", "abapa", "--batch", "--json",
                           "--pv"], input=body, stdout=subprocess.PIPE, check=True).stdout
    print(f"== slow readers: 40 clients post a 1,000-line batch with pv ({len(body)} bytes, "
          f"answer {len(want)} bytes) and read nothing", flush=True)
    with Server(db) as server:
        # A fast reader gets the whole answer, chunked in HTTP/1.1, ended by the close in 1.0.
        for version in ("1.1", "1.0"):
            responses, closed = exchange(server.port, batch_request(body, version=version), 20)
            got = responses[0][2] if responses else b""
            check(f"HTTP/{version}: a fast reader gets what probe --batch --json --pv prints",
                  got == want and closed, f"{len(got)} of {len(want)} bytes, closed {closed}")
        time.sleep(0.5)
        rss_before = server.rss_kib()
        idle = []
        for _ in range(40):
            s = socket.socket()
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 16 << 10)
            s.connect(("127.0.0.1", server.port))
            s.sendall(batch_request(body))
            idle.append(s)
        time.sleep(1.5)
        normal_requests_fast(server.port, "while 40 clients read nothing of their batches", 10, 1.0)
        grown = server.rss_kib() - rss_before
        print(f"   RSS {rss_before} KiB before, grown by {grown} KiB with 40 unread answers", flush=True)
        # A sanitizer's allocator keeps what is freed (ASan's quarantine): no RSS to measure.
        sanitized = b"__asan_init" in open(os.path.join(os.path.dirname(OWAREDB), "owaredb-serve"),
                                            "rb").read()
        check("40 unread answers hold less than 20 MiB of the server's memory",
              sanitized or grown < 20 << 10,
              f"RSS grew by {grown} KiB (the answers: {40 * len(want) >> 10} KiB)")
        for s in idle:
            s.close()
        time.sleep(1)
        kept = server.rss_kib() - rss_before
        check("once they are gone, their memory is given back (less than 10 MiB kept)",
              sanitized or kept < 10 << 10, f"RSS {rss_before} -> {server.rss_kib()} KiB")
    print("== a client reading 1 KiB every 0.1 s, --write-timeout 1", flush=True)
    with Server(db, "--write-timeout", "1") as server:
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 16 << 10)
        s.connect(("127.0.0.1", server.port))
        s.sendall(batch_request(body))
        start, got, closed = time.monotonic(), 0, False
        while time.monotonic() - start < 8:
            try:
                s.settimeout(1)
                chunk = s.recv(1024)
            except socket.timeout:
                continue
            except ConnectionResetError:
                closed = True
                break
            if not chunk:
                closed = True
                break
            got += len(chunk)
            time.sleep(0.1)
        s.close()
        print(f"   closed {closed} after {time.monotonic() - start:.1f} s, {got} bytes read", flush=True)
        check("it is disconnected within 8 s, long before its answer is taken", closed and
              got < len(want) // 2, f"closed {closed} after {time.monotonic() - start:.1f} s, "
              f"{got} of {len(want)} bytes read")
        status, _ = timed_get(server.port)
        check("requests are answered after it", status == 200, f"status {status}")


def all_positions(seeds, pits=12):
    """Every position of `seeds` seeds on `pits` pits, as text, in a fixed order."""
    if pits == 1:
        return [str(seeds)]
    return [f"{k} {rest}" for k in range(seeds + 1) for rest in all_positions(seeds - k, pits - 1)]


def api_edges(db):
    print("== the API's edges: repeated and empty parameters, capitals, CR, OPTIONS", flush=True)
    p = POSITION
    with Server(db) as server:
        def answer(raw):
            responses, _ = exchange(server.port, raw)
            return (responses[0][0], responses[0][2]) if responses else (None, b"")
        for query, name in ((f"position={p}&position=0+0+0+0+0+1+0+0+0+0+0+0", "position"),
                            (f"rules=abapa&position={p}&rules=awari", "rules"),
                            (f"position={p}&pv=1&pv=0", "pv")):
            status, body = answer(get(f"/api/probe?{query}"))
            check(f"/api/probe?{query}: 400 naming {name}",
                  status == 400 and f"parameter {name} given 2 times".encode() in body,
                  f"{status}: {body[:200]}")
        status, body = answer(batch_request(b"1 1 1 1 1 1 1 1 1 1 1 1\n", "?rules=abapa&rules=abapa"))
        check("a batch with rules twice: 400 naming rules",
              status == 400 and b"parameter rules given 2 times" in body, f"{status}: {body[:200]}")
        for query in ("pv=", "pv"):
            status, body = answer(get(f"/api/probe?position={p}&{query}"))
            check(f"/api/probe?...&{query}: 400 naming pv", status == 400 and b"parameter pv" in body,
                  f"{status}: {body[:200]}")
        multipart = (b"--b\r\nContent-Disposition: form-data; name=\"p\"\r\n\r\n" + p.replace("+", " ").encode() +
                     b"\r\n--b--\r\n")
        for type_ in ("MULTIPART/form-data", "Multipart/Form-Data"):
            status, body = answer(b"POST /api/batch HTTP/1.1\r\nHost: x\r\nConnection: close\r\n" +
                                  f"Content-Type: {type_}; boundary=b\r\n".encode() +
                                  b"Content-Length: %d\r\n\r\n" % len(multipart) + multipart)
            check(f"Content-Type {type_}: 415 as in lower case", status == 415, f"{status}: {body[:200]}")
        lines = [p.replace("+", " "), "0 0 0 0 0 1 0 0 0 0 0 0", "x"]
        _, lf = answer(batch_request("".join(l + "\n" for l in lines).encode(), ""))
        _, cr = answer(batch_request("".join(l + "\r" for l in lines).encode(), ""))
        _, crlf = answer(batch_request("".join(l + "\r\n" for l in lines).encode(), ""))
        check("a batch with CR line ends: 3 lines answered as with LF", cr == lf and lf.count(b"\n") == 3,
              f"CR: {cr[:300]} LF: {lf[:300]}")
        check("a batch with CRLF line ends: answered as with LF", crlf == lf, f"{crlf[:300]}")
        for method in ("OPTIONS", "DELETE", "POST"):
            status, body = answer(f"{method} /nothing HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n"
                                  "Connection: close\r\n\r\n".encode())
            check(f"{method} /nothing: 404", status == 404, f"{status}: {body[:200]}")
        status, _ = answer(b"OPTIONS / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        check("OPTIONS / (the page): 405", status == 405, f"{status}")


def search_route(db):
    print("== /api/search: the answer of probe --json --search, its budget capped, one search per two loops",
          flush=True)
    above = "2+0+1+0+3+0+0+1+0+0+2+0"  # 9 seeds: above the levels 0..8
    with Server(db, "--threads", "2") as server:
        def answer(path):
            responses, _ = exchange(server.port, get(path))
            return (responses[0][0], responses[0][2]) if responses else (None, b"")
        status, body = answer(f"/api/search?rules=abapa&position={above}&budget=20000n")
        cli = subprocess.run([OWAREDB, "probe", "--dir", db, "--rules", "abapa", "--json", "--search", "20000n",
                              above.replace("+", " ")], capture_output=True, text=True)
        if check("a search above the levels built: 200", status == 200, f"{status}: {body[:300]}"):
            d, c = json.loads(body), json.loads(cli.stdout)
            check("its budget: the nodes asked, the seconds capped at 2",
                  d["search"]["budget"] == {"nodes": 20000, "seconds": 2.0}, d["search"])
            for x in (d, c):
                del x["search"]["seconds"], x["search"]["budget"], x["error"], x["generate"]
            check("the answer of owaredb probe --json --search", d == c, f"{d} != {c}")
        status, body = answer(f"/api/search?position={POSITION}&budget=1000n")
        d = json.loads(body) if status == 200 else {}
        check("a search in the levels built: the databases' value, proven",
              status == 200 and d["search"]["kind"] == "proven" and d["search"]["value"] == d["value"],
              f"{status}: {body[:300]}")
        status, body = answer(f"/api/search?position={POSITION}&budget=100s,99999999n")
        d = json.loads(body) if status == 200 else {}
        check("a budget over the limits is cut to them",
              status == 200 and d["search"]["budget"] == {"nodes": 5000000, "seconds": 2.0}, body[:300])
        for query, part in ((f"position={POSITION}&budget=2x", b"parameter budget: a search budget is"),
                            (f"position={POSITION}&budget=1s&budget=2s", b"parameter budget given 2 times"),
                            ("budget=1s", b"missing the position")):
            status, body = answer(f"/api/search?{query}")
            check(f"/api/search?{query}: 400", status == 400 and part in body, f"{status}: {body[:200]}")
        # Two event loops: one search at a time; a second one meanwhile is told 503 at once.
        opening = "4+4+4+4+4+4+4+4+4+4+4+4"
        first = threading.Thread(target=answer, args=(f"/api/search?position={opening}&budget=2s",))
        first.start()
        time.sleep(0.5)
        status, body = answer(f"/api/search?position={opening}&budget=2s")
        check("a search while the one allowed runs: 503", status == 503 and b"busy" in body, f"{status}: {body[:200]}")
        first.join()
        status, _ = answer(f"/api/search?position={opening}&budget=1000n")
        check("then searches are answered again", status == 200, f"{status}")


def main():
    with tempfile.TemporaryDirectory() as work:
        db = os.path.join(work, "db")
        subprocess.run([OWAREDB, "generate", "--max-seeds", "8", "--dir", db, "--threads", "2"],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        only = set(sys.argv[2:])
        for test in (framing, api_edges, search_route, pipelining, half_closed, chunked_bomb, slow_readers, stopping,
                     idle_flood, slowloris):
            if only and test.__name__ not in only:
                continue
            try:
                test(db)
            except Exception as e:  # a check that cannot even run is a failure, not a crash
                check(f"{test.__name__} ran", False, f"{type(e).__name__}: {e}")
    print(f"serve_hostile: {passes} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
