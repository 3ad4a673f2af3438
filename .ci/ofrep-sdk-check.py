#!/usr/bin/env python3
"""Checks `switchboard serve` with a real OFREP client: the OpenFeature Python SDK and its OFREP provider.

    python3 .ci/ofrep-sdk-check.py PATH/TO/switchboard [--testbed DIR]

The script copies flagd's conformance flag files (vendored in Tests/SwitchboardTests/Fixtures/flagd-testbed/flags,
each `NAME.json` as `NAME.flagd.json`, the name Switchboard reads in flagd's format) into a temporary folder, starts
the server on a free loopback port, and evaluates through the SDK:

- every supported row of the testbed's provider cases (`cases/provider-cases.json`: boolean, string, integer,
  float and object flags, with and without contexts), compared with what the Gherkin features expect of those
  flag files: value (and its JSON type, so a float must arrive as `1.0`, not `1`), reason, error code, metadata;
- a few checks of its own: object and float flags with contexts, an unknown flag, a type mismatch, a runtime
  override made through the admin API and seen by the SDK, and the bulk endpoint's ETag and 304.

Left out: `selector-*` files (they exercise a flagd daemon's selectors, and redefine keys of the other files);
rows tagged `@deprecated` (an older behaviour the newer `@no-default-variant` rows replace), `@fractional-v1` and
`@fractional-v2` (older bucketing algorithms), `@contextEnrichment` and `@sync-payload` (context a flagd provider
adds from its sync stream, which no OFREP client sends); and rows of flags that `$ref` an evaluator defined only
in another file (Switchboard resolves `$evaluators` per file; the testbed's merged allFlags.json hides that).

The server is stopped with SIGTERM at the end, which must end it cleanly. The last line is `N passed, M failed`;
the exit status is 1 when anything failed.
"""

import argparse
import json
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

from openfeature import api
from openfeature.contrib.provider.ofrep import OFREPProvider
from openfeature.evaluation_context import EvaluationContext

ROOT = Path(__file__).resolve().parent.parent
# Rows that do not describe what an OFREP server answers: an older behaviour later rows replace, older bucketing
# algorithms, and context a flagd provider adds from its sync stream before evaluating.
LEFT_OUT_TAGS = {"@deprecated", "@fractional-v1", "@fractional-v2", "@contextEnrichment", "@sync-payload"}
DEFAULT_TESTBED = ROOT / "Tests" / "SwitchboardTests" / "Fixtures" / "flagd-testbed"


class Results:
    """Counts checks and prints each failure with what was expected."""

    def __init__(self):
        self.passed = 0
        self.failed = 0
        self.skipped = 0

    def check(self, name, ok, detail=""):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
            print(f"FAIL {name}: {detail}")


def same_json(expected, actual):
    """Equality that also compares JSON types: 1 and 1.0 differ, and so do True and 1."""
    if isinstance(expected, bool) or isinstance(actual, bool):
        return type(expected) is type(actual) and expected == actual
    if isinstance(expected, float) or isinstance(actual, float):
        return type(expected) is type(actual) and expected == actual
    if isinstance(expected, dict):
        return isinstance(actual, dict) and expected.keys() == actual.keys() and all(
            same_json(expected[k], actual[k]) for k in expected)
    if isinstance(expected, list):
        return isinstance(actual, list) and len(expected) == len(actual) and all(
            same_json(e, a) for e, a in zip(expected, actual))
    return type(expected) is type(actual) and expected == actual


def copy_flags(testbed, folder):
    """Copies the flag files as `*.flagd.json` and returns the keys of flags whose `$ref`s only another file
    can satisfy."""
    folder.mkdir()
    merge_dependent = set()
    for source in sorted((testbed / "flags").glob("*.json")):
        if source.name.startswith("selector-"):
            continue
        shutil.copy(source, folder / (source.stem + ".flagd.json"))
        document = json.loads(source.read_text())
        local = set(document.get("$evaluators", {}))
        for key, flag in document.get("flags", {}).items():
            refs = set(re.findall(r'"\$ref"\s*:\s*"([^"]+)"', json.dumps(flag.get("targeting", {}))))
            if refs - local and any(other_file_defines(testbed, ref, source) for ref in refs - local):
                merge_dependent.add(key)
    return merge_dependent


def other_file_defines(testbed, evaluator, besides):
    for path in (testbed / "flags").glob("*.json"):
        if path != besides and evaluator in json.loads(path.read_text()).get("$evaluators", {}):
            return True
    return False


def start_server(binary, flags, state, admin_token):
    environment = {k: v for k, v in os.environ.items() if not k.startswith("SWITCHBOARD_")}
    environment["SWITCHBOARD_ADMIN_TOKEN"] = admin_token
    process = subprocess.Popen(
        [binary, "serve", "--flags", str(flags), "--state", str(state), "--host", "127.0.0.1", "--port", "0"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=environment)
    log = []
    port = None
    deadline = time.monotonic() + 60
    while port is None:
        line = process.stderr.readline()
        if not line:
            raise SystemExit("the server exited before listening:\n" + "".join(log))
        log.append(line)
        match = re.search(r"listening on http://127\.0\.0\.1:(\d+)", line)
        if match:
            port = int(match.group(1))
        elif time.monotonic() > deadline:
            process.kill()
            raise SystemExit("the server did not start within 60 s:\n" + "".join(log))
    # Keep reading the log so a full pipe never blocks the server; keep it for the report.
    threading.Thread(target=lambda: log.extend(process.stderr), daemon=True).start()
    return process, port, log


def http(method, url, body=None, headers=None):
    request = urllib.request.Request(url, method=method, data=None if body is None else json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def evaluate(client, kind, flag, default, targeting_key=None, attributes=None):
    context = EvaluationContext(targeting_key=targeting_key, attributes=attributes or {})
    method = {
        "Boolean": client.get_boolean_details, "String": client.get_string_details,
        "Integer": client.get_integer_details, "Float": client.get_float_details,
        "Object": client.get_object_details,
    }[kind]
    return method(flag, default, context)


def code_of(details):
    return details.error_code.value if details.error_code is not None else None


def reason_of(details):
    return getattr(details.reason, "value", details.reason)


def run_cases(client, testbed, served, merge_dependent, results):
    cases = json.loads((testbed / "cases" / "provider-cases.json").read_text())
    for case in cases:
        if not case.get("supported") or not case.get("flag"):
            continue
        if LEFT_OUT_TAGS & set(case.get("tags", [])):
            results.skipped += 1
            continue
        if case["flag"] not in served or case["flag"] in merge_dependent:
            results.skipped += 1
            continue
        expect = case["expect"]
        details = evaluate(client, case["type"], case["flag"], case["default"], case.get("targetingKey"),
                           case.get("context"))
        name = f"case {case['id']} ({case['flag']}, {case['type']}, {case['file']}:{case['line']})"
        got = {"value": details.value, "reason": reason_of(details), "errorCode": code_of(details),
               "variant": details.variant, "metadata": dict(details.flag_metadata or {})}
        problems = []
        if "value" in expect and not same_json(expect["value"], details.value):
            problems.append(f"value {expect['value']!r} expected")
        if "reason" in expect and expect["reason"] != got["reason"]:
            problems.append(f"reason {expect['reason']} expected")
        if "errorCode" in expect and expect["errorCode"] != got["errorCode"]:
            problems.append(f"errorCode {expect['errorCode']} expected")
        if "variant" in expect and expect["variant"] != details.variant:
            problems.append(f"variant {expect['variant']} expected")
        if "metadata" in expect and not same_json(expect["metadata"], got["metadata"]):
            problems.append(f"metadata {expect['metadata']} expected")
        results.check(name, not problems, "; ".join(problems) + f"; got {got}")


def run_own_checks(client, base, admin_token, results):
    template = {"showImages": True, "title": "Check out these pics!", "imagesPerPage": 100}
    details = evaluate(client, "Object", "object-flag", {}, "user-1", {"plan": "pro"})
    results.check("object flag with a context", same_json(template, details.value) and details.variant == "template",
                  f"got {details.value!r} ({details.variant})")

    details = evaluate(client, "Float", "float-flag", 0.0, "user-1", {"country": "CA"})
    results.check("float flag with a context", same_json(0.5, details.value) and details.variant == "half",
                  f"got {details.value!r}")

    polish = {"fn": "Sulisław", "ln": "Świętopełk", "age": 29, "customer": False}
    details = evaluate(client, "String", "context-aware", "none", "user-1", polish)
    results.check("targeting on a context", details.value == "INTERNAL" and reason_of(details) == "TARGETING_MATCH",
                  f"got {details.value!r} {reason_of(details)}")
    details = evaluate(client, "String", "context-aware", "none", "user-1", {**polish, "age": 30})
    results.check("targeting's other branch", details.value == "EXTERNAL" and details.variant == "external",
                  f"got {details.value!r} {details.variant}")

    details = evaluate(client, "Boolean", "no-such-flag", True)
    results.check("unknown flag", details.value is True and code_of(details) == "FLAG_NOT_FOUND",
                  f"got {details.value!r} {code_of(details)}")

    details = evaluate(client, "Integer", "string-flag", 7)
    results.check("type mismatch", details.value == 7 and code_of(details) == "TYPE_MISMATCH",
                  f"got {details.value!r} {code_of(details)}")

    # A runtime override through the admin API is what the SDK sees next, reported as STATIC.
    authorization = {"Authorization": f"Bearer {admin_token}"}
    status, _, body = http("PUT", f"{base}/v1/overrides/integer-flag", {"value": 1, "actor": "sdk-check"},
                           authorization)
    results.check("admin override accepted", status == 200, f"status {status}: {body[:200]!r}")
    details = evaluate(client, "Integer", "integer-flag", 0)
    results.check("override seen by the SDK",
                  details.value == 1 and details.variant == "one" and reason_of(details) == "STATIC"
                  and (details.flag_metadata or {}).get("switchboard.layer") == "runtime",
                  f"got {details.value!r} {details.variant} {reason_of(details)} {details.flag_metadata}")
    status, _, body = http("PUT", f"{base}/v1/overrides/integer-flag", {"value": "ten"}, authorization)
    results.check("refused override", status == 400, f"status {status}: {body[:200]!r}")
    status, _, _ = http("DELETE", f"{base}/v1/overrides/integer-flag?actor=sdk-check", None, authorization)
    details = evaluate(client, "Integer", "integer-flag", 0)
    results.check("override removed", status == 200 and details.value == 10, f"status {status}, got {details.value!r}")

    # The bulk endpoint: every flag, an ETag, and 304 for a client that has the same answer.
    status, headers, body = http("POST", f"{base}/ofrep/v1/evaluate/flags", {"context": {"targetingKey": "u"}})
    etag = {k.lower(): v for k, v in headers.items()}.get("etag")
    flags = json.loads(body).get("flags", []) if status == 200 else []
    results.check("bulk evaluation", status == 200 and etag and len(flags) > 50, f"status {status}, etag {etag}")
    status, _, body = http("POST", f"{base}/ofrep/v1/evaluate/flags", {"context": {"targetingKey": "u"}},
                           {"If-None-Match": etag or ""})
    results.check("bulk evaluation 304", status == 304 and body == b"", f"status {status}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("binary", help="the switchboard executable")
    parser.add_argument("--testbed", default=str(DEFAULT_TESTBED), help="the flagd-testbed folder")
    arguments = parser.parse_args()
    testbed = Path(arguments.testbed)
    results = Results()
    with tempfile.TemporaryDirectory(prefix="ofrep-sdk-check-") as temporary:
        folder = Path(temporary)
        merge_dependent = copy_flags(testbed, folder / "flags")
        served = set()
        for path in (folder / "flags").glob("*.flagd.json"):
            served |= set(json.loads(path.read_text()).get("flags", {}))
        admin_token = secrets.token_hex(16)
        process, port, log = start_server(arguments.binary, folder / "flags", folder / "state" / "overrides.json",
                                          admin_token)
        base = f"http://127.0.0.1:{port}"
        try:
            api.set_provider(OFREPProvider(base))
            client = api.get_client()
            run_cases(client, testbed, served, merge_dependent, results)
            run_own_checks(client, base, admin_token, results)
        finally:
            process.send_signal(signal.SIGTERM)
            try:
                code = process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                code = "still running after 15 s"
        results.check("clean shutdown on SIGTERM", code == 0, f"exit status {code}")
        if results.failed:
            print("server log:\n" + "".join(log[-40:]))
    print(f"{results.skipped} cases skipped (see the docstring)")
    print(f"{results.passed} passed, {results.failed} failed")
    return 1 if results.failed else 0


if __name__ == "__main__":
    sys.exit(main())
