# What the examples' ci-run.sh scripts share; they source it. Not an example itself.
#
#   example_standalone NAME EXECUTABLE "$@"   with no arguments, builds `switchboard` and the example, runs the
#                                             calling script with both, compares its output with
#                                             expected-output.txt and exits; otherwise returns at once
#   work                                      a scratch folder, removed at exit with every background job killed
#   wait_for_line FILE LINE [WHO]             waits up to a minute for FILE to hold LINE as a whole line (and
#                                             shows FILE, and its .err beside it, when it does not)
#   stop_job PID                              stops a background job (TERM: it ignores SIGINT) and waits for it

example_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

example_standalone() {
    local name="$1" executable="$2" here
    shift 2
    [ $# -eq 0 ] || return 0
    here="$example_root/Examples/$name"
    swift build --package-path "$example_root" --product switchboard >&2
    swift build --package-path "$here" >&2
    actual=$("$here/ci-run.sh" "$(swift build --package-path "$example_root" --show-bin-path)/switchboard" \
        "$(swift build --package-path "$here" --show-bin-path)/$executable")
    diff -u "$here/expected-output.txt" <(printf '%s\n' "$actual")
    echo "$name: output as expected" >&2
    exit 0
}

work=$(mktemp -d)
example_cleanup() {
    local jobs
    jobs=$(jobs -p)
    [ -z "$jobs" ] || kill $jobs 2>/dev/null || true
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap example_cleanup EXIT

wait_for_line() {
    for _ in $(seq 1 600); do
        grep -qxF "$2" "$1" && return 0
        sleep 0.1
    done
    echo "${3:-the example} never printed '$2':" >&2
    cat "$1" >&2
    # What it said on standard error, when it goes to a file beside (app.out, app.err).
    [ ! -f "${1%.out}.err" ] || cat "${1%.out}.err" >&2
    return 1
}

stop_job() {
    # A job that already ended is not an error here: what it printed is checked against expected-output.txt.
    kill -TERM "$1" 2>/dev/null || true
    wait "$1" 2>/dev/null || true
}
