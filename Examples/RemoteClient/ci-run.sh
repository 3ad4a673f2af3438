#!/usr/bin/env bash
# CI for the RemoteClient example (called by .ci/examples.sh, which compares the output with
# expected-output.txt), as a new user would try it, online then offline:
#   1. starts `switchboard serve` on a free loopback port with the repository's flags, runs remote-client with a
#      cache against it, changes a value through the admin API and waits for the client's change line;
#   2. stops the client and the server, changes a value while the server is down (`switchboard set`), and starts the
#      client again: it must print the cached values, with the reason CACHED, within OFFLINE_BOUND seconds, though
#      its request timeout is a minute (so it does not wait for the network);
#   3. starts the server again on the same port and waits for the client's line with the value changed offline.
#   ci-run.sh PATH/TO/switchboard PATH/TO/remote-client
# Without arguments it builds both and compares the output with expected-output.txt itself.
set -euo pipefail
source "$(dirname "$0")/../ci-support.sh"
example_standalone RemoteClient remote-client "$@"
switchboard="$1"
client="$2"
# Far below the client's one-minute request timeout, far above what a loaded machine needs to start a process.
offline_bound="${OFFLINE_BOUND:-10}"
cp -R "$example_root/flags" "$work/flags"

# start_server PORT: `switchboard serve` on PORT (0: a free one); sets server_pid and port.
start_server() {
    : >"$work/server.log"
    env -i PATH="$PATH" HOME="$work" SWITCHBOARD_ADMIN_TOKEN=ci-admin \
        "$switchboard" serve --flags "$work/flags" --state "$work/state.json" --host 127.0.0.1 --port "$1" \
        2>"$work/server.log" &
    server_pid=$!
    port=""
    for _ in $(seq 1 300); do
        port=$(sed -n 's|.*listening on http://127\.0\.0\.1:\([0-9]*\).*|\1|p' "$work/server.log" | head -1)
        [ -n "$port" ] && break
        sleep 0.1
    done
    [ -n "$port" ] || { echo "server did not start:" >&2; cat "$work/server.log" >&2; exit 1; }
}

stop_server() {
    stop_job "$server_pid"
    server_pid=""
}

# start_client OUT: remote-client with the cache, its lines to OUT; a one-minute request timeout.
start_client() {
    : >"$1"
    env -i PATH="$PATH" HOME="$work" OFREP_TIMEOUT_MS=60000 "$client" --url "http://127.0.0.1:$port" \
        --cache "$work/cache" --context targetingKey=ci-user --context plan=pro \
        app.upload.max_mb checkout.new_flow app.history.sort_order >"$1" 2>"$work/client.err" &
    client_pid=$!
}

stop_client() {
    stop_job "$client_pid"
    client_pid=""
}

# wait_for_lines FILE N [TENTHS]: waits until FILE has N lines, for TENTHS tenths of a second (default 300).
wait_for_lines() {
    for _ in $(seq 1 "${3:-300}"); do
        [ "$(wc -l <"$1")" -ge "$2" ] && return 0
        sleep 0.1
    done
    echo "remote-client printed $(wc -l <"$1") of $2 lines:" >&2
    cat "$1" "$work/client.err" >&2
    return 1
}

# 1. Online: the first answer, then a change over the event stream; the cache now holds the change.
start_server 0
start_client "$work/online.out"
wait_for_lines "$work/online.out" 3
curl -sf -X PUT "http://127.0.0.1:$port/v1/overrides/app.upload.max_mb" -H "Authorization: Bearer ci-admin" \
    -d '{"value": 100, "actor": "ci"}' >/dev/null
wait_for_lines "$work/online.out" 4
stop_client
stop_server

# 2. Offline: the server is down (the port refuses); a change is made meanwhile, straight into the state file.
env -i PATH="$PATH" HOME="$work" "$switchboard" set --flags "$work/flags" --state "$work/state.json" \
    --actor ci app.upload.max_mb 150 >/dev/null
start_client "$work/offline.out"
wait_for_lines "$work/offline.out" 3 $((offline_bound * 10))

# 3. The server comes back on the same port: the client catches up with the change made while it was down.
start_server "$port"
wait_for_lines "$work/offline.out" 4
stop_client
cat "$work/online.out" "$work/offline.out"
