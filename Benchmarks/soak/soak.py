#!/usr/bin/env python3
"""Benchmarks/run soak SECONDS: `switchboard serve` under mixed load for SECONDS, watching its memory.

Load, all on loopback:
  - two OFREP clients: single evaluations with a context, and bulk evaluations with If-None-Match;
  - an admin writer, about 70 runtime overrides a second (PUT, and now and then DELETE);
  - definition edits every 0.3 s, cycling through a valid change, an invalid file (kept 0.3 s), and a valid file
    written in two halves 50 ms apart;
  - stalled clients, SOAK_STALLED of them at any time (default 300): a third send half a request head and stop, a
    third trickle a head one byte every 0.5 s, a third make one request and leave the connection idle. The server
    runs with --header-timeout 2 --idle-timeout 5, so it closes each in seconds, and each is replaced at once.

An error is a response the server must not give to a normal client (the OFREP clients and the admin writer): a
5xx, a refused or dropped connection, a bulk body that is not JSON, or an admin write of a valid value that is
refused. A stalled client is not a normal one; what matters about it is that the server closes it (408 for a head
that did not arrive, nothing for an idle connection) and that its descriptor and memory come back. Prints
soak.errors, soak.requests, soak.writes, soak.stalled_opened, soak.stalled_closed, soak.stalled_408,
soak.rss_start_mb (after a warm-up), soak.rss_peak_mb, soak.rss_end_mb, soak.rss_growth_mb, and the server's open
descriptors: soak.fds_before (before any client), soak.fds_peak, soak.fds_after (2 s after the clients stop).
Environment: SWITCHBOARD_BIN (a built binary), SOAK_STALLED.
"""
import http.client
import json
import os
import random
import re
import selectors
import socket
import shutil
import subprocess
import sys
import tempfile
import threading
import time

seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 60.0
binary = os.environ["SWITCHBOARD_BIN"]
work = tempfile.mkdtemp(prefix="switchboard-soak-")
flags = os.path.join(work, "flags")
os.makedirs(flags)
DEFINITIONS = 200
STALLED = int(os.environ.get("SOAK_STALLED", "300"))


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
                           "--port", "0", "--header-timeout", "2", "--idle-timeout", "5"],
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
if port is None:
    print("the server did not start:\n" + "".join(log_lines), file=sys.stderr)
    server.kill()
    sys.exit(1)
# Keep draining the log so the server never blocks on a full pipe.
threading.Thread(target=lambda: [None for _ in server.stderr], daemon=True).start()

lock = threading.Lock()
counts = {"errors": 0, "requests": 0, "writes": 0, "stalled_opened": 0, "stalled_closed": 0, "stalled_408": 0}
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


def request(connection, method, target, body=None, headers=None):
    connection.request(method, target, body=body, headers=headers or {})
    response = connection.getresponse()
    return response.status, dict(response.getheaders()), response.read()


def client(kind):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    etag = None
    while not stop.is_set():
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


before_fds = open_fds()
threads = [threading.Thread(target=client, args=("single",)), threading.Thread(target=client, args=("bulk",)),
           threading.Thread(target=admin), threading.Thread(target=editor), threading.Thread(target=stalled)]
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
alive = server.poll() is None
end_rss = rss_mb() if alive else 0.0
# The clients are gone: give the server a moment to see their connections close, then count what it still holds.
time.sleep(2)
after_fds = open_fds() if server.poll() is None else 0
if not alive:
    counts["errors"] += 1
    problems.append("the server exited")
server.terminate()
server.wait(timeout=30)
shutil.rmtree(work, ignore_errors=True)
for problem in problems:
    print(f"  {problem}", file=sys.stderr)
print(f"soak.errors: {counts['errors']}")
print(f"soak.requests: {counts['requests']}")
print(f"soak.writes: {counts['writes']}")
print(f"soak.stalled_opened: {counts['stalled_opened']}")
print(f"soak.stalled_closed: {counts['stalled_closed']}")
print(f"soak.stalled_408: {counts['stalled_408']}")
print(f"soak.rss_start_mb: {start_rss:.1f}")
print(f"soak.rss_peak_mb: {peak:.1f}")
print(f"soak.rss_end_mb: {end_rss:.1f}")
print(f"soak.rss_growth_mb: {end_rss - start_rss:.1f}")
print(f"soak.fds_before: {before_fds}")
print(f"soak.fds_peak: {peak_fds}")
print(f"soak.fds_after: {after_fds}")
