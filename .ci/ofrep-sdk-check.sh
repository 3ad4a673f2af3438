#!/usr/bin/env bash
# Runs the OFREP check with the OpenFeature Python SDK against a built `switchboard`:
#   .ci/ofrep-sdk-check.sh [PATH/TO/switchboard]     (default: .build/debug/switchboard)
# Installs the SDK and its OFREP provider from PyPI when they are missing.
set -euo pipefail
cd "$(dirname "$0")/.."
binary="${1:-.build/debug/switchboard}"
if ! python3 -c "import openfeature.contrib.provider.ofrep" 2>/dev/null; then
    python3 -m pip install --quiet --disable-pip-version-check openfeature-sdk openfeature-provider-ofrep
fi
exec python3 .ci/ofrep-sdk-check.py "$binary"
