#!/usr/bin/env python3
"""Benchmarks/run soak SECONDS: `switchboard serve` under mixed load for SECONDS, watching its memory.

Load, all on loopback:
  - two OFREP clients: single evaluations with a context, and bulk evaluations with If-None-Match;
  - an admin writer, about 70 runtime overrides a second (PUT, and now and then DELETE);
  - definition edits every 0.3 s, cycling through a valid change, an invalid file (kept 0.3 s), and a valid file
    written in two halves 50 ms apart;
  - stalled clients, SOAK_STALLED of them at any time (default 300): a third send half a request head and stop, a
    third trickle a head one byte every 0.5 s, a third make one request and leave the connection idle. The server
    runs with --header-timeout 2 --idle-timeout 5, so it closes each in seconds, and each is replaced at once;
  - OFREP event streams, SOAK_STREAMS of them (default 2000; 0 leaves them out), `GET /ofrep/v1/events`, all read
    by one thread of a process of their own (this script run with --streams) with non-blocking sockets. Each
    opens with `Last-Event-ID: 0`, so the server answers at once with the current revision, and a stream that
    drops reconnects (after the server's `retry`, 1 s) with the highest id it has received.

What a stream must see, judged by the protocol alone: the server's revision advances with every admin write and
every good definition edit, and an event's id is the revision it announces. Events may coalesce (a slow reader may
be sent only the latest state), so a stream that has received id N has seen every change up to N. After the load
stops, the soak waits for the revision in GET /healthz to stay the same for 2 s (the final revision) and gives the
streams up to 10 s more to reach it. soak.missed counts the (stream, revision) pairs never seen: for each stream
whose highest id is below the final revision, final - highest (revisions counted as numbers), so a stream that died
and never came back misses all it did not get. soak.streams is the streams open at the end with the final revision.
soak.behind_after_final counts the streams still below the final revision 2.5 s after the soak has it: a delivery
takes well under a second, so such a stream was not woken (a lost wake-up), which the next heartbeat (15 s) would
otherwise repair unseen within the 10 s; soak.final_reach_s is how long after the order every stream had it (0.25 s
steps; 10 s when some never did). Along the way the soak reads /healthz every 5 s, and soak.stream_lag_max_s
is the longest any stream took from that reading to an id at or above it (in steps of 0.25 s): a stream that falls
behind for a while and then catches up is not missed, but shows here.

An error is a response the server must not give to a normal client (the OFREP clients, the admin writer and the
event streams): a 5xx, a refused or dropped connection, no answer within 10 s, a bulk body that is not JSON, an
admin write of a valid value that is refused, an event stream answered other than 200 text/event-stream, ended or
dropped by the server (the server has no reason to close a stream before it stops; soak.stream_drops counts them
too), an event id that goes backwards or an event that is not a refetchEvaluation. A stalled client is not a
normal one; what matters about it is that the server closes it (408 for a head that did not arrive, nothing for
an idle connection) and that its descriptor and memory come back. With the errors the soak prints what /metrics
says the server closed and refused, by reason.

Prints soak.errors, soak.requests, soak.writes, soak.request_max_s (the OFREP clients' slowest answer),
soak.stalled_opened, soak.stalled_closed, soak.stalled_408, soak.streams, soak.missed, soak.behind_after_final,
soak.final_reach_s, soak.stream_events, soak.stream_drops, soak.stream_lag_max_s, soak.rss_start_mb (after a warm-up, with the streams
open), soak.rss_peak_mb, soak.rss_end_mb (the streams still open), soak.rss_growth_mb, and the server's open
descriptors: soak.fds_before (before any client), soak.fds_peak, soak.fds_after (once every client, streams too, has
gone and the count is back within 5 of soak.fds_before, or 20 s after) and soak.fds_back_s (how long that took: the
server lets go of an event stream whose client closed it cleanly at its next write to it, a heartbeat, 15 s, at
most).

Exits 1 when soak.errors, soak.missed or soak.behind_after_final is not 0, when soak.fds_after is more than 5 from
soak.fds_before, or, in a run of 300 s or more, when soak.rss_growth_mb is over 16 (a shorter run's figure is mostly
the allocator settling; it is printed, not judged). Whatever raises (a request unanswered in 10 s, the streams
process gone), the server and the streams process are ended, the exception counts as an error and the figures are
printed; a SIGTERM ends both too. Environment: SWITCHBOARD_BIN (a built binary), SOAK_STALLED, SOAK_STREAMS,
SOAK_SERVER_LOG (a file to keep the server's log in).
"""
import atexit
import http.client
import json
import os
import queue
import random
import re
import resource
import selectors
import signal
import socket
import shutil
import subprocess
import sys
import tempfile
import threading
import time


# How long after the "final" order the streams must all have the final revision. By then the load has stopped,
# /healthz has given the same revision for 2 s, and a delivery takes well under 1 s even from the debug server
# with 200 streams on a loaded 2-core machine; a stream still behind was not woken, and would otherwise wait
# for the next heartbeat (15 s), which the 10 s window for soak.missed would often let repair it.
BEHIND_AFTER_FINAL_S = 2.5


def streams_process(port, count):
    """The event streams: COUNT of them, read by this one thread. Runs as `soak.py --streams PORT COUNT`.

    Orders come on stdin, one JSON object a line: {"check": R} (the revision /healthz gave just now),
    {"final": R} (the load has stopped: report once every stream has R, or after 10 s), {"close": true}.
    Reports go to stdout the same way: {"ready": ...} once every stream has its first event, the figures after
    "final", {"closed": true}.
    """
    selector = selectors.DefaultSelector()
    id_line = re.compile(rb"^id:[ ]?([^\r\n]*)", re.M)
    data_line = re.compile(rb"^data:[ ]?([^\r\n]*)", re.M)
    head_end = b"\r\n\r\n"
    figures = {"events": 0, "drops": 0, "errors": 0, "lag_max_s": 0.0}
    problems = []
    closing = False

    def problem(text):
        figures["errors"] += 1
        if len(problems) < 10:
            problems.append(text)

    class Stream:
        __slots__ = ("index", "sock", "raw", "body", "chunked", "chunk_left", "text", "highest", "open")

        def __init__(self, index):
            self.index = index
            self.sock = None
            self.highest = 0  # the Last-Event-ID of the first request: "tell me where you are"
            self.open = False

    streams = [Stream(i) for i in range(count)]
    waiting = []  # (when, stream): connections to make
    connecting = 0

    def connect(stream):
        nonlocal connecting
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setblocking(False)
        sock.connect_ex(("127.0.0.1", port))
        stream.sock, stream.raw, stream.body, stream.chunked = sock, b"", False, False
        stream.chunk_left, stream.text, stream.open = 0, b"", False
        selector.register(sock, selectors.EVENT_WRITE, stream)
        connecting += 1

    def drop(stream, why):
        """The connection ended: an error unless the soak is closing; reconnect after the server's `retry`."""
        nonlocal connecting
        if not stream.open and not stream.body:
            connecting -= 1
        selector.unregister(stream.sock)
        stream.sock.close()
        stream.sock = None
        stream.open = False
        if closing:
            return
        figures["drops"] += 1
        problem(f"stream {stream.index}: {why}")
        waiting.append((time.monotonic() + 1.0, stream))

    def body_bytes(stream, data):
        """Takes the chunked framing off (HTTP/1.1 without Content-Length), leaving the SSE text."""
        if not stream.chunked:
            return data, False
        raw = stream.raw + data
        out = []
        position = 0
        ended = False
        while position < len(raw):
            if stream.chunk_left == 0:
                line_end = raw.find(b"\r\n", position)
                if line_end < 0:
                    break
                size = int(raw[position:line_end].split(b";")[0], 16)
                position = line_end + 2
                if size == 0:
                    ended = True
                    break
                stream.chunk_left = size + 2  # the chunk's CRLF too
            take = min(stream.chunk_left, len(raw) - position)
            payload = min(take, stream.chunk_left - 2)
            if payload > 0:
                out.append(raw[position:position + payload])
            stream.chunk_left -= take
            position += take
        stream.raw = raw[position:]
        return b"".join(out), ended

    def events(stream, text):
        """Reads the complete events in the text: their ids, and that each is a refetchEvaluation."""
        text = stream.text + text
        end = text.rfind(b"\n\n")
        if end < 0:
            stream.text = text
            return
        complete, stream.text = text[:end + 2], text[end + 2:]
        ids = id_line.findall(complete)
        for value in data_line.findall(complete):
            if b'"refetchEvaluation"' not in value:
                problem(f"stream {stream.index}: an event that is not a refetchEvaluation: {value[:100]!r}")
        for value in ids:
            try:
                revision = int(value)
            except ValueError:
                problem(f"stream {stream.index}: an id that is not a revision: {value[:40]!r}")
                continue
            figures["events"] += 1
            if revision < stream.highest:
                problem(f"stream {stream.index}: id {revision} after {stream.highest}")
            else:
                stream.highest = revision

    def readable(stream):
        nonlocal connecting
        try:
            data = stream.sock.recv(262144)
        except BlockingIOError:
            return
        except OSError as error:
            drop(stream, f"{error!r}")
            return
        if not data:
            drop(stream, "closed by the server" if stream.body else "closed before the response head")
            return
        if not stream.body:
            stream.raw += data
            end = stream.raw.find(head_end)
            if end < 0:
                return
            head, data = stream.raw[:end].decode("latin-1").lower(), stream.raw[end + 4:]
            stream.raw = b""
            stream.body = True
            connecting -= 1
            if not head.startswith("http/1.1 200") or "text/event-stream" not in head:
                drop(stream, f"answered {head.splitlines()[0]!r}")
                return
            stream.chunked = "transfer-encoding: chunked" in head
            stream.open = True
        text, ended = body_bytes(stream, data)
        events(stream, text)
        if ended:
            drop(stream, "the server ended the response")

    def writable(stream):
        error = stream.sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
        if error:
            drop(stream, f"cannot connect: {os.strerror(error)}")
            return
        request = (b"GET /ofrep/v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
                   b"Last-Event-ID: %d\r\n\r\n" % stream.highest)
        stream.sock.send(request)  # a new socket's buffer takes it whole
        selector.modify(stream.sock, selectors.EVENT_READ, stream)

    def say(message):
        sys.stdout.write(json.dumps(message) + "\n")
        sys.stdout.flush()

    orders = b""
    selector.register(sys.stdin.buffer.fileno(), selectors.EVENT_READ, None)
    waiting = [(0.0, stream) for stream in streams]
    started = time.monotonic()
    ready = False
    checks = []  # [revision, when read, streams still below it]
    final = None
    final_deadline = 0.0
    behind_at = 0.0  # when to count the streams still behind the final revision: soak.behind_after_final
    behind_after_final = None
    last_scan = 0.0
    while True:
        now = time.monotonic()
        # New connections, at most 200 handshakes at a time so the listen backlog never overflows.
        if waiting:
            due = [entry for entry in waiting if entry[0] <= now]
            if due:
                waiting = [entry for entry in waiting if entry[0] > now]
                room = max(0, 200 - connecting)
                for _, stream in due[:room]:
                    connect(stream)
                waiting.extend(due[room:])
        for key, mask in selector.select(0.05):
            stream = key.data
            if stream is None:
                chunk = os.read(sys.stdin.buffer.fileno(), 65536)
                if not chunk:
                    return
                orders += chunk
                while b"\n" in orders:
                    line, orders = orders.split(b"\n", 1)
                    order = json.loads(line)
                    if "check" in order:
                        checks.append([order["check"], time.monotonic(), list(streams)])
                    elif "final" in order:
                        final = order["final"]
                        final_deadline = time.monotonic() + 10.0
                        behind_at = time.monotonic() + BEHIND_AFTER_FINAL_S
                        behind_after_final = None
                    elif "close" in order:
                        closing = True
                        for each in streams:
                            if each.sock is not None:
                                drop(each, "closed by the soak")
                        say({"closed": True})
                        return
            elif mask & selectors.EVENT_WRITE:
                writable(stream)
            else:
                readable(stream)
        now = time.monotonic()
        if now - last_scan >= 0.25:
            last_scan = now
            if not ready and all(stream.open and stream.highest > 0 for stream in streams):
                ready = True
                say({"ready": count, "seconds": round(now - started, 1)})
            for check in checks:
                check[2] = [stream for stream in check[2] if stream.highest < check[0]]
                if not check[2]:
                    figures["lag_max_s"] = max(figures["lag_max_s"], now - check[1])
            checks = [check for check in checks if check[2]]
            if final is not None:
                behind = [stream for stream in streams if stream.highest < final]
                if behind_after_final is None and (not behind or now >= behind_at):
                    behind_after_final = len(behind)
                if not behind or now >= final_deadline:
                    for check in checks:  # never reached: as long as the soak waited
                        figures["lag_max_s"] = max(figures["lag_max_s"], now - check[1])
                    say({"streams": sum(1 for stream in streams if stream.open and stream.highest >= final),
                         "missed": sum(final - stream.highest for stream in behind),
                         "behind": [[stream.index, stream.highest] for stream in behind[:5]],
                         "behind_after_final": behind_after_final,
                         "final_reach_s": round(now - (final_deadline - 10.0), 2),
                         "problems": problems, **figures})
                    final = None


if len(sys.argv) > 1 and sys.argv[1] == "--streams":
    streams_process(int(sys.argv[2]), int(sys.argv[3]))
    sys.exit(0)


seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 60.0
binary = os.environ["SWITCHBOARD_BIN"]
work = tempfile.mkdtemp(prefix="switchboard-soak-")
flags = os.path.join(work, "flags")
os.makedirs(flags)
DEFINITIONS = 200
STALLED = int(os.environ.get("SOAK_STALLED", "300"))
STREAMS = int(os.environ.get("SOAK_STREAMS", "2000"))
# A descriptor for every stream and stalled client, here and in the server (which raises its own soft limit).
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
if hard != resource.RLIM_INFINITY and hard < STREAMS + STALLED + 200:
    sys.exit(f"soak: {STREAMS} streams and {STALLED} stalled clients need more open files than the limit, {hard}")
resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def definitions(default_limit):
    lines = ["namespace: soak", "flags:"]
    for i in range(DEFINITIONS // 2):
        lines += [f"  flag_{i:03}:", "    type: bool", f"    default: {'true' if i % 2 else 'false'}"]
        if i % 10 == 0:
            lines += ["    rules:", "      - when: [{ attribute: plan, equals: pro }]", "        serve: true"]
    lines.append("preferences:")
    for i in range(DEFINITIONS // 2):
        lines += [f"  limit_{i:03}:", "    type: int", f"    default: {default_limit + i}", "    min: 0",
                  "    max: 1000000"]
    return "\n".join(lines) + "\n"


path = os.path.join(flags, "soak.yaml")
with open(path, "w") as out:
    out.write(definitions(10))

token = "soak-token"
environment = {k: v for k, v in os.environ.items() if not k.startswith("SWITCHBOARD_")}
environment["SWITCHBOARD_ADMIN_TOKEN"] = token
server = subprocess.Popen([binary, "serve", "--flags", flags, "--state", os.path.join(work, "state", "o.json"),
                           "--port", "0", "--header-timeout", "2", "--idle-timeout", "5",
                           "--max-connections", str(max(10000, STREAMS + STALLED + 200))],
                          stderr=subprocess.PIPE, env=environment, text=True)
port = None
deadline = time.time() + 60
log_lines = []
while time.time() < deadline and port is None:
    line = server.stderr.readline()
    if not line:
        break
    log_lines.append(line)
    match = re.search(r"listening on http://127\.0\.0\.1:(\d+)", line)
    if match:
        port = int(match.group(1))
streams_child = []  # the streams process, once started: cleanup() ends it too


def cleanup():
    """Ends the server and the streams process, whatever stopped the soak: neither may outlive it (in CI least)."""
    for process in streams_child + [server]:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
    shutil.rmtree(work, ignore_errors=True)


atexit.register(cleanup)  # an exception outside the guarded run below, or sys.exit
signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # a CI timeout's SIGTERM runs cleanup() too
if port is None:
    print("the server did not start:\n" + "".join(log_lines), file=sys.stderr)
    sys.exit(1)
# Keep draining the log so the server never blocks on a full pipe; SOAK_SERVER_LOG keeps it in a file.
log_path = os.environ.get("SOAK_SERVER_LOG")


def drain_log():
    with open(log_path or os.devnull, "w") as log:
        log.writelines(log_lines)
        for line in server.stderr:
            log.write(line)


threading.Thread(target=drain_log, daemon=True).start()

lock = threading.Lock()
counts = {"errors": 0, "requests": 0, "writes": 0, "stalled_opened": 0, "stalled_closed": 0, "stalled_408": 0}
slowest = [0.0]  # the OFREP clients' slowest answer, in seconds
stream_figures = {"streams": 0, "missed": 0, "behind_after_final": 0, "final_reach_s": 0.0, "events": 0, "drops": 0,
                  "lag_max_s": 0.0}
problems = []
stop = threading.Event()


def count(name, problem=None):
    with lock:
        counts[name] += 1
        if problem and len(problems) < 10:
            problems.append(problem)


def rss_mb():
    with open(f"/proc/{server.pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def open_fds():
    return len(os.listdir(f"/proc/{server.pid}/fd"))


def served_revision():
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        return json.loads(request(connection, "GET", "/healthz")[2])["revision"]
    finally:
        connection.close()


class Streams:
    """The process holding the event streams (this script with --streams), and its orders and reports."""

    def __init__(self, count):
        self.process = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--streams", str(port),
                                         str(count)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        streams_child.append(self.process)
        self.reports = queue.Queue()
        self.lock = threading.Lock()
        threading.Thread(target=lambda: [self.reports.put(json.loads(line)) for line in self.process.stdout],
                         daemon=True).start()

    def order(self, **order):
        with self.lock:
            self.process.stdin.write(json.dumps(order) + "\n")
            self.process.stdin.flush()

    def report(self, key, timeout):
        deadline = time.time() + timeout
        while time.time() < deadline:
            try:
                report = self.reports.get(timeout=max(0.1, deadline - time.time()))
            except queue.Empty:
                break
            if key in report:
                return report
        return None


def checker(streams):
    """Every 5 s, tells the streams the revision in service, so that they time how long each takes to have it."""
    while not stop.wait(5):
        try:
            streams.order(check=served_revision())
        except Exception as error:
            count("errors", f"healthz: {error!r}")


def request(connection, method, target, body=None, headers=None):
    if connection.sock is None:
        try:
            connection.connect()
        except OSError as error:  # says which: a connection not accepted, or a request not answered
            raise OSError(f"connecting: {error!r}") from error
    connection.request(method, target, body=body, headers=headers or {})
    response = connection.getresponse()
    return response.status, dict(response.getheaders()), response.read()


def client(kind):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    etag = None
    while not stop.is_set():
        started = time.time()
        try:
            context = json.dumps({"context": {"targetingKey": f"user-{random.randrange(1000)}", "plan": "pro"}})
            if kind == "single":
                key = f"soak.limit_{random.randrange(DEFINITIONS // 2):03}"
                status, _, body = request(connection, "POST", f"/ofrep/v1/evaluate/flags/{key}", context,
                                          {"Content-Type": "application/json"})
                if status != 200 or "value" not in json.loads(body):
                    count("errors", f"single {key}: {status} {body[:200]!r}")
            else:
                headers = {"Content-Type": "application/json"}
                context = json.dumps({"context": {"targetingKey": "user-1", "plan": "pro"}})
                if etag:
                    headers["If-None-Match"] = etag
                status, response_headers, body = request(connection, "POST", "/ofrep/v1/evaluate/flags", context,
                                                         headers)
                if status == 200:
                    etag = response_headers.get("ETag") or response_headers.get("etag")
                    if len(json.loads(body)["flags"]) != DEFINITIONS:
                        count("errors", "bulk: wrong number of flags")
                elif status != 304:
                    count("errors", f"bulk: {status} {body[:200]!r}")
            count("requests")
            slowest[0] = max(slowest[0], time.time() - started)
        except Exception as error:  # a refused or dropped connection is an error
            count("errors", f"{kind}: {error!r}")
            connection.close()
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)


def admin():
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    n = 0
    while not stop.is_set():
        n += 1
        key = f"soak.limit_{random.randrange(DEFINITIONS // 2):03}"
        try:
            if n % 10 == 0:
                status, _, body = request(connection, "DELETE", f"/v1/overrides/{key}?actor=soak", None, headers)
                ok = status in (200, 404)
            else:
                status, _, body = request(connection, "PUT", f"/v1/overrides/{key}",
                                          json.dumps({"value": n, "actor": "soak"}), headers)
                # 404: the key was briefly undefined while an invalid edit is in place? No: the last good
                # definitions stay in service, so every PUT of a valid value must succeed.
                ok = status == 200
            if not ok:
                count("errors", f"admin {key}: {status} {body[:200]!r}")
            count("writes")
        except Exception as error:
            count("errors", f"admin: {error!r}")
            connection.close()
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        time.sleep(1 / 70)


def editor():
    step = 0
    while not stop.is_set():
        step += 1
        text = definitions(10 + step)
        kind = step % 3
        if kind == 0:
            with open(path, "w") as out:
                out.write(text)
        elif kind == 1:
            with open(path, "w") as out:
                out.write(text + "  broken:\n    type: int\n    default: many\n")
        else:
            with open(path, "w") as out:
                out.write(text[: len(text) // 2])
                out.flush()
                time.sleep(0.05)
                out.write(text[len(text) // 2:])
        time.sleep(0.3)


def stalled():
    """Keeps STALLED slow or idle connections open, replacing each one the server closes."""
    head = b"GET /ofrep/v1/evaluate/flags HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: " + b"a" * 4000
    connections = {}  # socket -> [kind, bytes sent, what was received]
    selector = selectors.DefaultSelector()  # epoll: any number of sockets

    def open_one(n):
        sock = socket.create_connection(("127.0.0.1", port))
        sock.setblocking(False)
        kind = ("half", "trickle", "idle")[n % 3]
        if kind == "half":
            sock.send(head[:40])
        elif kind == "idle":
            sock.send(b"GET /ping HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        connections[sock] = [kind, 40 if kind == "half" else 0, b""]
        selector.register(sock, selectors.EVENT_READ)
        count("stalled_opened")

    n = 0
    last_trickle = 0.0
    while not stop.is_set():
        while len(connections) < STALLED:
            n += 1
            try:
                open_one(n)
            except OSError as error:
                count("errors", f"stalled: cannot connect: {error!r}")
                time.sleep(0.1)
                break
        for key, _ in selector.select(0.1):
            sock = key.fileobj
            try:
                data = sock.recv(65536)
            except OSError:
                data = b""
            if data:
                connections[sock][2] += data
                continue
            if connections[sock][2].startswith(b"HTTP/1.1 408"):
                count("stalled_408")
            count("stalled_closed")
            del connections[sock]
            selector.unregister(sock)
            sock.close()
        if time.time() - last_trickle >= 0.5:
            last_trickle = time.time()
            for sock, state in connections.items():
                if state[0] == "trickle" and state[1] < len(head):
                    try:
                        sock.send(head[state[1]:state[1] + 1])
                        state[1] += 1
                    except OSError:
                        pass
    for sock in connections:
        sock.close()


# Figures the finally below and the report need, whatever raises in between.
before_fds = peak_fds = after_fds = 0
start_rss = peak = end_rss = 0.0
fds_back_s = 0.0
alive = True
connection_metrics = []
threads = []
try:
    before_fds = open_fds()
    streams = Streams(STREAMS) if STREAMS else None
    if streams:
        # Every stream open, with its first event, before the load and the warm-up.
        ready = streams.report("ready", max(60.0, STREAMS / 20))
        if ready is None:
            count("errors",
                  f"the {STREAMS} event streams were not all open after {max(60.0, STREAMS / 20):.0f} s")
    threads = [threading.Thread(target=client, args=("single",)), threading.Thread(target=client, args=("bulk",)),
               threading.Thread(target=admin), threading.Thread(target=editor), threading.Thread(target=stalled)]
    if streams:
        threads.append(threading.Thread(target=checker, args=(streams,)))
    for thread in threads:
        thread.start()
    time.sleep(min(5.0, seconds / 6))
    start_rss = rss_mb()
    peak = start_rss
    peak_fds = open_fds()
    end_time = time.time() + seconds
    while time.time() < end_time and server.poll() is None:
        time.sleep(1)
        peak = max(peak, rss_mb())
        peak_fds = max(peak_fds, open_fds())
    stop.set()
    for thread in threads:
        thread.join()
    if streams and server.poll() is None:
        # The final revision: the one /healthz gives 2 s running (a last edit can land up to a second late).
        final, steady_since, settle_deadline = served_revision(), time.time(), time.time() + 15
        while time.time() - steady_since < 2 and time.time() < settle_deadline:
            time.sleep(0.25)
            revision = served_revision()
            if revision != final:
                final, steady_since = revision, time.time()
        streams.order(final=final)
        report = streams.report("missed", 30)
        if report is None:
            count("errors", "the event streams did not report")
        else:
            for name in stream_figures:
                stream_figures[name] = report[name]
            counts["errors"] += report["errors"]
            problems.extend(report["problems"][: max(0, 10 - len(problems))])
            for index, highest in report["behind"]:
                problems.append(f"stream {index} ended at id {highest}, the final revision {final}")
    alive = server.poll() is None
    end_rss = rss_mb() if alive else 0.0
    # What the server says it closed or refused, and why: printed with the problems, to tell an error's cause.
    connection_metrics = []
    if alive:
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            connection_metrics = [line for line in request(connection, "GET", "/metrics")[2].decode().splitlines()
                                  if line.startswith(("switchboard_http_connections_closed_total",
                                                      "switchboard_http_connections_refused_total"))]
            connection.close()
        except Exception as error:
            connection_metrics = [f"/metrics: {error!r}"]
    if streams:
        streams.order(close=True)
        if streams.report("closed", 30) is None:
            count("errors", "the event streams did not close")
        streams.process.wait(timeout=30)
    # The clients are gone: count what the server still holds once its descriptors are back within 5 of where
    # they started, or after 20 s. An event stream the client closed cleanly is let go at the server's next write
    # to it, a heartbeat at the latest (15 s): soak.fds_back_s says how long that took.
    closed_at = time.time()
    after_fds = open_fds() if server.poll() is None else 0
    while server.poll() is None and abs(after_fds - before_fds) > 5 and time.time() - closed_at < 20:
        time.sleep(0.25)
        after_fds = open_fds()
    fds_back_s = time.time() - closed_at
except Exception as error:  # a request not answered in 10 s, the streams process gone (BrokenPipeError), ...
    count("errors", f"the soak stopped early: {error!r}")
    alive = alive and server.poll() is None
finally:
    stop.set()
    for thread in threads:
        if thread.ident is not None:  # started
            thread.join(timeout=30)
    cleanup()
if not alive:
    counts["errors"] += 1
    problems.append("the server exited")
for problem in problems:
    print(f"  {problem}", file=sys.stderr)
if problems:
    for line in connection_metrics:
        print(f"  server: {line}", file=sys.stderr)
print(f"soak.errors: {counts['errors']}")
print(f"soak.requests: {counts['requests']}")
print(f"soak.writes: {counts['writes']}")
print(f"soak.request_max_s: {slowest[0]:.2f}")
print(f"soak.stalled_opened: {counts['stalled_opened']}")
print(f"soak.stalled_closed: {counts['stalled_closed']}")
print(f"soak.stalled_408: {counts['stalled_408']}")
print(f"soak.streams: {stream_figures['streams']}")
print(f"soak.missed: {stream_figures['missed']}")
print(f"soak.behind_after_final: {stream_figures['behind_after_final']}")
print(f"soak.final_reach_s: {stream_figures['final_reach_s']:.2f}")
print(f"soak.stream_events: {stream_figures['events']}")
print(f"soak.stream_drops: {stream_figures['drops']}")
print(f"soak.stream_lag_max_s: {stream_figures['lag_max_s']:.2f}")
print(f"soak.rss_start_mb: {start_rss:.1f}")
print(f"soak.rss_peak_mb: {peak:.1f}")
print(f"soak.rss_end_mb: {end_rss:.1f}")
print(f"soak.rss_growth_mb: {end_rss - start_rss:.1f}")
print(f"soak.fds_before: {before_fds}")
print(f"soak.fds_peak: {peak_fds}")
print(f"soak.fds_after: {after_fds}")
print(f"soak.fds_back_s: {fds_back_s:.1f}")
failures = []
if counts["errors"]:
    failures.append(f"soak.errors is {counts['errors']}")
if stream_figures["missed"]:
    failures.append(f"soak.missed is {stream_figures['missed']}")
if stream_figures["behind_after_final"]:
    failures.append(f"soak.behind_after_final is {stream_figures['behind_after_final']}")
if abs(after_fds - before_fds) > 5:
    failures.append(f"soak.fds_after is {after_fds}, more than 5 from soak.fds_before, {before_fds}")
if seconds >= 300 and end_rss - start_rss > 16:
    failures.append(f"soak.rss_growth_mb is {end_rss - start_rss:.1f}, over 16")
if failures:
    print("soak failed: " + "; ".join(failures), file=sys.stderr)
    sys.exit(1)
