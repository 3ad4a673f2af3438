#!/usr/bin/env bash
# CI for the PreferencesApp example (called by .ci/examples.sh, which compares the output with
# expected-output.txt): runs preferences-app with no arguments in a copy of the repository's flags/, as it runs
# from the repository root, sets app.theme with `switchboard set` from another process in the same folder (so the
# same default store), waits for the app to print the change, then stops it.
#   ci-run.sh PATH/TO/switchboard PATH/TO/preferences-app
# Without arguments it builds both and compares the output with expected-output.txt itself.
set -euo pipefail
source "$(dirname "$0")/../ci-support.sh"
example_standalone PreferencesApp preferences-app "$@"
switchboard="$1"
app="$2"
cp -R "$example_root/flags" "$work/flags"
rm -rf "$work/flags/.switchboard" "$work/.switchboard"

(cd "$work" && exec env -i PATH="$PATH" HOME="$work" "$app" >"$work/app.out" 2>"$work/app.err") &
app_pid=$!
wait_for_line "$work/app.out" "app.theme = system" preferences-app
(cd "$work" && env -i PATH="$PATH" HOME="$work" "$switchboard" set app.theme dark --actor ci >/dev/null)
wait_for_line "$work/app.out" "app.theme = dark" preferences-app
(cd "$work" && env -i PATH="$PATH" HOME="$work" "$switchboard" set app.upload.max_mb 100 --actor ci >/dev/null)
wait_for_line "$work/app.out" "app.upload.max_mb = 100" preferences-app
stop_job "$app_pid"
cat "$work/app.out"
