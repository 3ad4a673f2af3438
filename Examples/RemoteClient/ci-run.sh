#!/usr/bin/env bash
# CI for the RemoteClient example (called by .ci/examples.sh, which compares the output with
# expected-output.txt): starts `switchboard serve` on a free loopback port with the repository's flags, runs
# remote-client against it, changes a value through the admin API, waits for the client's change line, then
# stops the client and the server.
#   ci-run.sh PATH/TO/switchboard PATH/TO/remote-client
set -euo pipefail
switchboard="$1"
client="$2"
work=$(mktemp -d)
server_pid=""
client_pid=""
cleanup() {
    [ -n "$client_pid" ] && kill "$client_pid" 2>/dev/null || true
    [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
root="$(cd "$(dirname "$0")/../.." && pwd)"
cp -R "$root/flags" "$work/flags"

env -i PATH="$PATH" HOME="$work" SWITCHBOARD_ADMIN_TOKEN=ci-admin \
    "$switchboard" serve --flags "$work/flags" --state "$work/state.json" --host 127.0.0.1 --port 0 \
    2>"$work/server.log" &
server_pid=$!
port=""
for _ in $(seq 1 300); do
    port=$(sed -n 's|.*listening on http://127\.0\.0\.1:\([0-9]*\).*|\1|p' "$work/server.log" | head -1)
    [ -n "$port" ] && break
    sleep 0.1
done
[ -n "$port" ] || { echo "server did not start:" >&2; cat "$work/server.log" >&2; exit 1; }

env -i PATH="$PATH" HOME="$work" "$client" --url "http://127.0.0.1:$port" --cache "$work/cache" \
    --context targetingKey=ci-user --context plan=pro \
    app.upload.max_mb checkout.new_flow app.history.sort_order >"$work/client.out" 2>"$work/client.err" &
client_pid=$!
wait_for_lines() {
    for _ in $(seq 1 300); do
        [ "$(wc -l <"$work/client.out")" -ge "$1" ] && return 0
        sleep 0.1
    done
    echo "remote-client printed $(wc -l <"$work/client.out") of $1 lines:" >&2
    cat "$work/client.out" "$work/client.err" >&2
    return 1
}
wait_for_lines 3
curl -sf -X PUT "http://127.0.0.1:$port/v1/overrides/app.upload.max_mb" -H "Authorization: Bearer ci-admin" \
    -d '{"value": 100, "actor": "ci"}' >/dev/null
wait_for_lines 4
# TERM, not INT: a background job of a non-interactive shell ignores SIGINT.
kill -TERM "$client_pid"
wait "$client_pid" 2>/dev/null || true
client_pid=""
cat "$work/client.out"
