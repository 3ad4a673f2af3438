#!/usr/bin/env bash
# Benchmarks/run server: throughput and p99 latency of `switchboard serve` on loopback, driven by wrk.
#
# Scenarios, each against the same server over 1,001 definitions (one with a schedule):
#   trivial      GET /ping, a constant: what the HTTP stack alone costs (the baseline)
#   single       POST /ofrep/v1/evaluate/flags/{key} with a context
#   bulk         POST /ofrep/v1/evaluate/flags, all 1,000 flags (200, about 90 KB)
#   bulk_304     the same with a matching If-None-Match (304, no body)
# Prints `name: value` lines, and server.ratio_to_trivial_route = single rps / trivial rps.
#
# Environment: SWITCHBOARD_BIN (a built binary; default: build this package in release), DURATION (seconds per
# scenario, default 10), CONNECTIONS (default 16), THREADS (wrk threads, default 2). Needs wrk (apt-get install wrk).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
duration="${DURATION:-10}"
connections="${CONNECTIONS:-16}"
threads="${THREADS:-2}"

command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk" >&2; exit 1; }
binary="${SWITCHBOARD_BIN:-}"
if [ -z "$binary" ]; then
    # Built as Benchmarks/run builds it (release_switchboard there), so the two share one build.
    swift build -c release --static-swift-stdlib -Xlinker --no-export-dynamic --package-path "$root" \
        --product switchboard >&2
    binary="$root/.build/release/switchboard"
fi

work="$(mktemp -d)"
server=""
cleanup() {
    if [ -n "$server" ]; then kill -TERM "$server" 2>/dev/null && wait "$server" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

# 1,000 definitions of every type, 200 per file, and one scheduled flag.
python3 - "$work/flags" <<'PY'
import os, sys
folder = sys.argv[1]
os.makedirs(folder)
for part in range(5):
    lines = [f"namespace: bench{part}", "flags:"]
    for i in range(100):
        if i % 2:
            lines += [f"  flag_{i:03}:", "    type: bool", f"    default: {'true' if i % 3 else 'false'}"]
        else:
            lines += [f"  color_{i:03}:", "    type: string", "    variants: { control: blue, treatment: green }",
                      "    default: control"]
    lines.append("preferences:")
    for i in range(100):
        kind = i % 3
        if kind == 0:
            lines += [f"  limit_{i:03}:", "    type: int", f"    default: {i}", "    min: 0", "    max: 100000"]
        elif kind == 1:
            lines += [f"  ratio_{i:03}:", "    type: double", f"    default: {i / 7:.3f}"]
        else:
            lines += [f"  layout_{i:03}:", "    type: object", f"    default: {{ columns: {i % 5 + 1}, dense: true }}"]
    if part == 0:
        # A scheduled flag (a step in force, one to come): bulk tags stay revision-based, so 304s stay cheap.
        lines[2:2] = ["  scheduled:", "    type: bool", "    default: false", "    schedule:",
                      "      - { at: 2020-01-01T00:00:00Z, serve: true }",
                      "      - { at: 2099-01-01T00:00:00Z, serve: false }"]
    with open(f"{folder}/bench{part}.yaml", "w") as out:
        out.write("\n".join(lines) + "\n")
PY

# The server logs only at start and on reloads, never per request, so info costs the measurement nothing.
env -u SWITCHBOARD_ADMIN_TOKEN -u SWITCHBOARD_READ_TOKEN -u SWITCHBOARD_ENV -u SWITCHBOARD_STATE \
    "$binary" serve --flags "$work/flags" --state "$work/state/overrides.json" --port 0 2>"$work/server.log" &
server=$!
port=""
for _ in $(seq 1 300); do
    port="$(grep -o 'listening on http://127.0.0.1:[0-9]*' "$work/server.log" | head -1 | sed 's/.*://')" || true
    [ -n "$port" ] && break
    kill -0 "$server" 2>/dev/null || { cat "$work/server.log" >&2; exit 1; }
    sleep 0.1
done
[ -n "$port" ] || { echo "the server did not start" >&2; cat "$work/server.log" >&2; exit 1; }
base="http://127.0.0.1:$port"

context='{"context":{"targetingKey":"user-1","plan":"pro","country":"CA"}}'
etag="$(curl -s -D - -o /dev/null -X POST -H 'Content-Type: application/json' -d "$context" \
    "$base/ofrep/v1/evaluate/flags" | tr -d '\r' | sed -n 's/^[Ee][Tt]ag: //p')"
[ -n "$etag" ] || { echo "the bulk evaluation sent no ETag" >&2; exit 1; }

# One Lua script per scenario: wrk sends the same request on every connection.
post_script() { # body [extra header line]
    cat <<LUA
wrk.method = "POST"
wrk.body = '$1'
wrk.headers["Content-Type"] = "application/json"
$2
LUA
}
post_script "$context" "" >"$work/post.lua"
post_script "$context" "wrk.headers[\"If-None-Match\"] = '$etag'" >"$work/post-304.lua"

# Runs wrk on one scenario and prints its requests/s and p99 in ms; a warm-up run goes first.
measure() { # name path [script]
    local name="$1" url="$base$2" script=()
    [ -n "${3:-}" ] && script=(-s "$3")
    wrk -t"$threads" -c"$connections" -d2s "${script[@]}" "$url" >/dev/null
    local out
    out="$(wrk -t"$threads" -c"$connections" -d"${duration}s" --latency "${script[@]}" "$url")"
    if grep -q 'Non-2xx or 3xx' <<<"$out"; then
        echo "$name: some responses failed" >&2
        echo "$out" >&2
        exit 1
    fi
    local rps p99
    rps="$(awk '/^Requests\/sec:/ {printf "%.0f", $2}' <<<"$out")"
    p99="$(awk '$1 == "99%" {v = $2; u = v; sub(/[0-9.]+/, "", u); sub(/[a-z]+$/, "", v);
        f = (u == "us") ? 0.001 : (u == "s") ? 1000 : 1; printf "%.3f", v * f}' <<<"$out")"
    echo "server.$name.requests_per_second: $rps"
    echo "server.$name.p99_ms: $p99"
    eval "rps_$name=$rps"
}

measure trivial /ping
measure single /ofrep/v1/evaluate/flags/bench2.limit_042 "$work/post.lua"
measure bulk /ofrep/v1/evaluate/flags "$work/post.lua"
measure bulk_304 /ofrep/v1/evaluate/flags "$work/post-304.lua"
# shellcheck disable=SC2154 # set by measure through eval
awk -v single="$rps_single" -v trivial="$rps_trivial" 'BEGIN {printf "server.ratio_to_trivial_route: %.3f\n", single / trivial}'
