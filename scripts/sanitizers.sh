#!/usr/bin/env bash
# scripts/sanitizers.sh [thread|address]...   (default: both)
#
# Runs the whole test suite under ThreadSanitizer and AddressSanitizer, each in a scratch folder of its own
# (.build-tsan, .build-asan; gitignored) so neither disturbs the ordinary .build. Each is a full debug build of
# the package and its dependencies with the sanitizer (several minutes on two cores) and then `swift test`; a
# sanitizer report fails the run. Extra arguments for `swift test` go in SANITIZER_TEST_ARGS, for example
# SANITIZER_TEST_ARGS="--filter YAMLTests".
set -euo pipefail
cd "$(dirname "$0")/.."

kinds=("$@")
[ ${#kinds[@]} -gt 0 ] || kinds=(thread address)

# Stop at the first report instead of carrying on; a report fails the test process and so the run.
export TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=1 second_deadlock_stack=1}"
export ASAN_OPTIONS="${ASAN_OPTIONS:-halt_on_error=1 detect_leaks=0}"

status=0
for kind in "${kinds[@]}"; do
    case "$kind" in
        thread) scratch=.build-tsan ;;
        address) scratch=.build-asan ;;
        *) echo "usage: scripts/sanitizers.sh [thread|address]..." >&2; exit 2 ;;
    esac
    echo "== swift test --sanitize=$kind (scratch path $scratch)"
    start=$(date +%s)
    # shellcheck disable=SC2086 # extra arguments are words
    if ! swift build --build-tests --sanitize="$kind" --scratch-path "$scratch"; then
        echo "== $kind: build failed"; status=1; continue
    fi
    echo "== $kind: built in $(( $(date +%s) - start )) s"
    # shellcheck disable=SC2086
    if swift test --skip-build --sanitize="$kind" --scratch-path "$scratch" ${SANITIZER_TEST_ARGS:-}; then
        echo "== $kind: tests passed ($(( $(date +%s) - start )) s in all)"
    else
        echo "== $kind: tests FAILED"; status=1
    fi
done
exit $status
