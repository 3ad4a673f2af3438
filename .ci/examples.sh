#!/usr/bin/env bash
# Builds every package under Examples/ (each depends on the root package by path and uses the SwitchboardGenerator
# build plugin), fails on any compiler warning in an example's own or generated code, runs its executable with the
# environment in its run.env (VAR=value lines), and compares the output with its expected-output.txt.
# An example's executable is named like its folder, unless the example has a ci-run.sh: then that script runs it
# (given the `switchboard` binary and the example's executable, named in its Package.swift), for examples that
# need another process beside them: a live server (RemoteClient), a `switchboard set` that a watch must see
# (ConfigReaderApp). Exits non-zero when any example fails.
set -euo pipefail
cd "$(dirname "$0")/.."

status=0
for package in Examples/*/; do
    package=${package%/}
    name=$(basename "$package")
    echo "== example $name: build"
    log=$(mktemp)
    if ! swift build --package-path "$package" 2>&1 | tee "$log"; then
        echo "example $name: build failed" >&2
        exit 1
    fi
    # Warnings from the root package's own sources are its CI's business; here only the example's code and the
    # plugin's generated file must be clean.
    if grep -E '(Examples/[^:]*|SwitchboardKeys)\.swift:[0-9]+:[0-9]+: warning:' "$log" >&2; then
        echo "example $name: compiler warnings in the example or its generated keys" >&2
        status=1
    fi
    rm -f "$log"

    echo "== example $name: run"
    expected="$package/expected-output.txt"
    environment=()
    if [ -f "$package/run.env" ]; then
        while IFS= read -r line; do
            [[ -z "$line" || "$line" == \#* ]] || environment+=("$line")
        done < "$package/run.env"
    fi
    if [ -x "$package/ci-run.sh" ]; then
        swift build --product switchboard >/dev/null
        executable=$(sed -n 's/.*\.executable(name: "\([^"]*\)".*/\1/p' "$package/Package.swift" | head -1)
        actual=$("$package/ci-run.sh" "$(swift build --show-bin-path)/switchboard" \
            "$(swift build --package-path "$package" --show-bin-path)/$executable")
    else
        actual=$(env "${environment[@]}" swift run --skip-build --package-path "$package" "$name")
    fi
    if [ -f "$expected" ]; then
        if ! diff -u "$expected" <(printf '%s\n' "$actual"); then
            echo "example $name: output differs from $expected" >&2
            status=1
        fi
    else
        printf '%s\n' "$actual"
    fi
done
exit $status
