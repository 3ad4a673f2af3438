#!/usr/bin/env python3
"""Benchmarks/run replicas: how fast an admin write on one `switchboard serve` replica is served by another.

Starts a throwaway PostgreSQL cluster (scripts/test-postgres.sh) and two `switchboard serve --store postgres://...`
replicas, A and B, on loopback. TOGGLES times (default 200, after 10 warm-up toggles) it PUTs a new value of one
key on A through the admin API, then asks B for the key over OFREP as fast as B answers (one keep-alive
connection, no pause) until B serves the new value. Then the same with two `switchboard serve` processes sharing
one file store (the same --state file), for comparison. Prints:

  replicas.write_ms                        the median admin PUT on A (PostgreSQL)
  replicas.propagation_p50_ms / _p99_ms    from sending the PUT on A until B serves the value (PostgreSQL)
  replicas.file_store_propagation_p50_ms   the same with the file store

Environment: SWITCHBOARD_BIN (a built binary), TOGGLES. The cluster and the servers are stopped on exit, also on
an error, SIGINT or SIGTERM.
"""
import atexit
import http.client
import json
import math
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

binary = os.environ["SWITCHBOARD_BIN"]
toggles = int(os.environ.get("TOGGLES", "200"))
warmup = 10
root = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
cluster_script = os.path.join(root, "scripts", "test-postgres.sh")
token = "bench-token"
key = "bench.limit"

work = tempfile.mkdtemp(prefix="switchboard-replicas-")
servers = []
cluster = None


def cleanup():
    for server in servers:
        if server.poll() is None:
            server.terminate()
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
    if cluster:
        subprocess.run(["bash", cluster_script, "stop", cluster], stdout=subprocess.DEVNULL)
    shutil.rmtree(work, ignore_errors=True)


atexit.register(cleanup)
# SIGINT and SIGTERM end the script through sys.exit, so the cleanup above runs.
for number in (signal.SIGINT, signal.SIGTERM):
    signal.signal(number, lambda signum, frame: sys.exit(128 + signum))

flags = os.path.join(work, "flags")
os.makedirs(flags)
with open(os.path.join(flags, "bench.yaml"), "w") as out:
    out.write("namespace: bench\npreferences:\n  limit:\n    type: int\n    default: 0\n")

environment = {k: v for k, v in os.environ.items() if not k.startswith("SWITCHBOARD_")}
environment["SWITCHBOARD_ADMIN_TOKEN"] = token


def serve(name, *store):
    """Starts `switchboard serve` with the store options; returns its port once it listens."""
    log_path = os.path.join(work, f"{name}.log")
    log = open(log_path, "w")
    server = subprocess.Popen([binary, "serve", "--flags", flags, "--port", "0", *store],
                              stdout=subprocess.DEVNULL, stderr=log, stdin=subprocess.DEVNULL, env=environment)
    servers.append(server)
    deadline = time.time() + 60
    while time.time() < deadline:
        with open(log_path) as text:
            match = re.search(r"listening on http://127\.0\.0\.1:(\d+)", text.read())
        if match:
            return int(match.group(1))
        if server.poll() is not None:
            break
        time.sleep(0.05)
    with open(log_path) as text:
        sys.exit(f"switchboard serve ({name}) did not start:\n{text.read()}")


def request(connection, method, target, body, headers):
    connection.request(method, target, body=body, headers=headers)
    response = connection.getresponse()
    return response.status, response.read()


def measure(writer_port, reader_port):
    """TOGGLES writes on the writer; for each, the PUT's time and the time until the reader serves the value."""
    writer = http.client.HTTPConnection("127.0.0.1", writer_port, timeout=10)
    reader = http.client.HTTPConnection("127.0.0.1", reader_port, timeout=10)
    admin_headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    ofrep_headers = {"Content-Type": "application/json"}
    context = json.dumps({"context": {"targetingKey": "user-1"}})
    writes, propagations = [], []
    for toggle in range(warmup + toggles):
        value = toggle + 1
        start = time.perf_counter()
        status, body = request(writer, "PUT", f"/v1/overrides/{key}", json.dumps({"value": value, "actor": "bench"}),
                               admin_headers)
        written = time.perf_counter()
        if status != 200:
            sys.exit(f"PUT {key} = {value} answered {status}: {body[:300]!r}")
        deadline = start + 30
        while True:
            status, body = request(reader, "POST", f"/ofrep/v1/evaluate/flags/{key}", context, ofrep_headers)
            if status == 200 and json.loads(body).get("value") == value:
                break
            if time.perf_counter() > deadline:
                sys.exit(f"the reader did not serve {key} = {value} within 30 s (last answer {status}: {body[:300]!r})")
        served = time.perf_counter()
        if toggle >= warmup:
            writes.append((written - start) * 1000)
            propagations.append((served - start) * 1000)
    return writes, propagations


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(fraction * len(ordered)) - 1))]


started = subprocess.run(["bash", cluster_script, "start"], stdout=subprocess.PIPE, text=True, check=True)
url, cluster = started.stdout.splitlines()[:2]
a = serve("postgres-a", "--store", url, "--scope", "bench")
b = serve("postgres-b", "--store", url, "--scope", "bench")
writes, propagations = measure(a, b)
print(f"replicas.write_ms: {statistics.median(writes):.2f}")
print(f"replicas.propagation_p50_ms: {percentile(propagations, 0.5):.2f}")
print(f"replicas.propagation_p99_ms: {percentile(propagations, 0.99):.2f}")
sys.stdout.flush()

state = os.path.join(work, "state", "overrides.json")
a = serve("file-a", "--state", state)
b = serve("file-b", "--state", state)
file_writes, file_propagations = measure(a, b)
print(f"replicas.file_store_propagation_p50_ms: {percentile(file_propagations, 0.5):.2f}")
print(f"(PostgreSQL: write p99 {percentile(writes, 0.99):.2f} ms, propagation max {max(propagations):.2f} ms; "
      f"file store: write median {statistics.median(file_writes):.2f} ms, propagation p99 "
      f"{percentile(file_propagations, 0.99):.2f} ms)", file=sys.stderr)
