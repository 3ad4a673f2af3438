#!/usr/bin/env bash
# CI for the PreferencesApp example (called by .ci/examples.sh, which compares the output with
# expected-output.txt): runs preferences-app with no arguments in a copy of the repository's flags/, as it runs
# from the repository root, sets app.theme with `switchboard set` from another process in the same folder (so the
# same default store), waits for the app to print the change, then stops it.
#   ci-run.sh PATH/TO/switchboard PATH/TO/preferences-app
# Without arguments it builds both and compares the output with expected-output.txt itself.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
if [ $# -eq 0 ]; then
    swift build --package-path "$root" --product switchboard >&2
    swift build --package-path "$here" >&2
    actual=$("$0" "$(swift build --package-path "$root" --show-bin-path)/switchboard" \
        "$(swift build --package-path "$here" --show-bin-path)/preferences-app")
    diff -u "$here/expected-output.txt" <(printf '%s\n' "$actual")
    echo "PreferencesApp: output as expected" >&2
    exit 0
fi
switchboard="$1"
app="$2"
work=$(mktemp -d)
app_pid=""
cleanup() {
    [ -n "$app_pid" ] && kill "$app_pid" 2>/dev/null || true
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
cp -R "$root/flags" "$work/flags"
rm -rf "$work/flags/.switchboard" "$work/.switchboard"

(cd "$work" && exec env -i PATH="$PATH" HOME="$work" "$app" >"$work/app.out" 2>"$work/app.err") &
app_pid=$!
wait_for_line() {
    for _ in $(seq 1 600); do
        grep -qxF "$1" "$work/app.out" && return 0
        sleep 0.1
    done
    echo "preferences-app never printed '$1':" >&2
    cat "$work/app.out" "$work/app.err" >&2
    return 1
}
wait_for_line "app.theme = system"
(cd "$work" && env -i PATH="$PATH" HOME="$work" "$switchboard" set app.theme dark --actor ci >/dev/null)
wait_for_line "app.theme = dark"
(cd "$work" && env -i PATH="$PATH" HOME="$work" "$switchboard" set app.upload.max_mb 100 --actor ci >/dev/null)
wait_for_line "app.upload.max_mb = 100"
# TERM, not INT: a background job of a non-interactive shell ignores SIGINT.
kill -TERM "$app_pid"
wait "$app_pid" 2>/dev/null || true
app_pid=""
cat "$work/app.out"
