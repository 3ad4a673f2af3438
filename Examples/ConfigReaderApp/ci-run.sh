#!/usr/bin/env bash
# CI for the ConfigReaderApp example (called by .ci/examples.sh, which compares the output with
# expected-output.txt): runs config-reader-app on a copy of the example's flags/ with a state file of its own,
# which prints what it reads through ConfigReader and then watches app.upload.max_mb; sets that key with
# `switchboard set` from another process, waits for the watch to print the new value, then stops the app.
#   ci-run.sh PATH/TO/switchboard PATH/TO/config-reader-app
# Without arguments it builds both and compares the output with expected-output.txt itself.
set -euo pipefail
source "$(dirname "$0")/../ci-support.sh"
example_standalone ConfigReaderApp config-reader-app "$@"
switchboard="$1"
app="$2"
cp -R "$example_root/Examples/ConfigReaderApp/flags" "$work/flags"

env -i PATH="$PATH" HOME="$work" "$app" --flags "$work/flags" --state "$work/state.json" \
    --watch app.upload.max_mb >"$work/app.out" 2>"$work/app.err" &
app_pid=$!
wait_for_line "$work/app.out" "app.upload.max_mb = 25" config-reader-app
env -i PATH="$PATH" HOME="$work" "$switchboard" set app.upload.max_mb 100 --actor ci \
    --flags "$work/flags" --state "$work/state.json" >/dev/null
wait_for_line "$work/app.out" "app.upload.max_mb = 100" config-reader-app
stop_job "$app_pid"
cat "$work/app.out"
