#!/usr/bin/env python3
"""Checks Schemas/switchboard.schema.json against the definition files and test fixtures.

- Every file in flags/ and Tests/SwitchboardTests/Fixtures/valid/ must pass the schema.
- Every invalid fixture marked "schema": true in invalid/expectations.json must fail it,
  at the node its expectation points to (or, for a key, at the mapping holding it).
- Every invalid fixture marked "schema": false must pass the schema: it is otherwise valid and
  its mistake is one only the loader can see. (If the schema learns to catch it, flip the flag.)
- Every expectation must point at the first character of a key or value in its file, and every
  invalid fixture must have exactly one expectation.
- Keys (namespace included) must be unique across the files of flags/ and of valid/.

YAML is read with YAML 1.2 core-schema typing, like the Swift loader: only true/false are
booleans, no yes/on/off, no timestamps (dates stay strings), no sexagesimal, no merge keys,
decimal/0o/0x integers.

Needs Python 3 with PyYAML 6 and jsonschema 4. Prints one line per check and a final
"N passed, M failed"; exits 1 if anything failed.
"""

import json
import math
import re
import sys
from pathlib import Path

import jsonschema
import yaml

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = ROOT / "Schemas" / "switchboard.schema.json"
FLAGS = ROOT / "flags"
FIXTURES = ROOT / "Tests" / "SwitchboardTests" / "Fixtures"
VALID = FIXTURES / "valid"
INVALID = FIXTURES / "invalid"
EXPECTATIONS = INVALID / "expectations.json"


# --- YAML 1.2 core schema -------------------------------------------------------------------

class CoreLoader(yaml.SafeLoader):
    """SafeLoader with YAML 1.2 core-schema implicit typing instead of YAML 1.1's."""


CoreLoader.yaml_implicit_resolvers = {}

_BOOL = re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$")
_NULL = re.compile(r"^(?:~|null|Null|NULL|)$")
_INT = re.compile(r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$")
_FLOAT = re.compile(
    r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
    r"|[-+]?\.(?:inf|Inf|INF)"
    r"|\.(?:nan|NaN|NAN))$"
)

# Order matters within a first character: int before float, so "12" is an int.
CoreLoader.add_implicit_resolver("tag:yaml.org,2002:bool", _BOOL, list("tTfF"))
CoreLoader.add_implicit_resolver("tag:yaml.org,2002:null", _NULL, ["~", "n", "N", ""])
CoreLoader.add_implicit_resolver("tag:yaml.org,2002:int", _INT, list("-+0123456789"))
CoreLoader.add_implicit_resolver("tag:yaml.org,2002:float", _FLOAT, list("-+.0123456789"))

INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1


def _construct_bool(loader, node):
    return loader.construct_scalar(node).lower() == "true"


def _construct_null(loader, node):
    loader.construct_scalar(node)
    return None


def _construct_int(loader, node):
    text = loader.construct_scalar(node)
    if text.startswith("0x"):
        return int(text[2:], 16)
    if text.startswith("0o"):
        return int(text[2:], 8)
    value = int(text, 10)  # leading zeros are decimal in YAML 1.2
    if not INT64_MIN <= value <= INT64_MAX:
        return float(value)  # as the Swift loader does: too large for Int becomes a double
    return value


def _construct_float(loader, node):
    text = loader.construct_scalar(node)
    body = text.lstrip("+-")
    negative = text.startswith("-")
    if body.lower() == ".inf":
        return -math.inf if negative else math.inf
    if body.lower() == ".nan":
        return math.nan
    return float(text)


def _construct_mapping(loader, node, deep=False):
    """Mappings keyed by the key's text (JSON keys are strings); duplicate keys are an error."""
    if not isinstance(node, yaml.MappingNode):
        raise yaml.constructor.ConstructorError(
            None, None, f"expected a mapping node, but found {node.id}", node.start_mark)
    mapping = {}
    for key_node, value_node in node.value:
        if isinstance(key_node, yaml.ScalarNode):
            key = key_node.value
        else:
            raise yaml.constructor.ConstructorError(
                "while constructing a mapping", node.start_mark,
                "found a non-scalar key", key_node.start_mark)
        if key in mapping:
            raise yaml.constructor.ConstructorError(
                "while constructing a mapping", node.start_mark,
                f"found duplicate key {key!r}", key_node.start_mark)
        mapping[key] = loader.construct_object(value_node, deep=deep)
    return mapping


def _construct_map(loader, node):
    data = {}
    yield data
    data.update(_construct_mapping(loader, node))


CoreLoader.add_constructor("tag:yaml.org,2002:bool", _construct_bool)
CoreLoader.add_constructor("tag:yaml.org,2002:null", _construct_null)
CoreLoader.add_constructor("tag:yaml.org,2002:int", _construct_int)
CoreLoader.add_constructor("tag:yaml.org,2002:float", _construct_float)
CoreLoader.add_constructor("tag:yaml.org,2002:map", _construct_map)
# YAML 1.1-only tags have no place in definitions.
for _tag in ("timestamp", "set", "omap", "pairs", "binary", "merge", "value"):
    CoreLoader.yaml_constructors.pop(f"tag:yaml.org,2002:{_tag}", None)


def load(path):
    with open(path, encoding="utf-8") as f:
        return yaml.load(f, Loader=CoreLoader)


def compose(path):
    with open(path, encoding="utf-8") as f:
        return yaml.compose(f, Loader=CoreLoader)


def node_positions(root):
    """Maps (line, column), 1-based, to (path, kind) for every key and value node."""
    positions = {}
    seen = set()

    def visit(node, path):
        mark = node.start_mark
        positions.setdefault((mark.line + 1, mark.column + 1), (path, "value"))
        if id(node) in seen:  # an alias: already walked at its anchor
            return
        seen.add(id(node))
        if isinstance(node, yaml.MappingNode):
            for key_node, value_node in node.value:
                child = path + [key_node.value]
                km = key_node.start_mark
                positions[(km.line + 1, km.column + 1)] = (child, "key")
                visit(value_node, child)
        elif isinstance(node, yaml.SequenceNode):
            for index, item in enumerate(node.value):
                visit(item, path + [index])

    visit(root, [])
    return positions


# --- checks ---------------------------------------------------------------------------------

def rel(path):
    return path.relative_to(ROOT).as_posix()


def dotted(path):
    return ".".join(str(p) for p in path) or "(top level)"


def first_line(message, limit=110):
    message = " ".join(str(message).split())
    return message if len(message) <= limit else message[: limit - 3] + "..."


def error_path(error, data):
    """The instance path of a schema error, as a list.

    jsonschema reports a `false` property schema ("properties": {"values": false}) at the
    object, not at the property; put the property back when its value identifies it.
    """
    path = list(error.absolute_path)
    if error.validator is None and error.schema is False:
        parent = data
        for part in path:
            parent = parent[part]
        if isinstance(parent, dict):
            names = [k for k, v in parent.items() if type(v) is type(error.instance) and v == error.instance]
            if len(names) == 1:
                path.append(names[0])
    return path


def sorted_errors(validator, data):
    """Schema errors, shallowest first, each with .where set to its instance path."""
    errors = list(validator.iter_errors(data))
    for e in errors:
        e.where = error_path(e, data)
    return sorted(errors, key=lambda e: (len(e.where), list(map(str, e.where))))


def defined_keys(data):
    if not isinstance(data, dict):
        return []
    namespace = data.get("namespace")
    keys = []
    for section in ("flags", "preferences"):
        for key in (data.get(section) or {}):
            keys.append(f"{namespace}.{key}" if namespace else key)
    return keys


class Report:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def ok(self, name, note=""):
        self.passed += 1
        print(f"ok   {name}" + (f"  ({note})" if note else ""))

    def fail(self, name, reason):
        self.failed += 1
        print(f"FAIL {name}: {reason}")


def check_valid_dir(report, validator, directory):
    files = sorted(directory.glob("*.yaml")) + sorted(directory.glob("*.yml"))
    files = [f for f in files if ".flagd." not in f.name]  # flagd-format files have their own schema
    if not files:
        report.fail(rel(directory) + "/", "no YAML files found")
        return
    owners = {}
    for path in files:
        try:
            data = load(path)
        except yaml.YAMLError as error:
            report.fail(rel(path), "YAML error: " + first_line(error))
            continue
        errors = sorted_errors(validator, data)
        if errors:
            e = errors[0]
            more = f" (+{len(errors) - 1} more)" if len(errors) > 1 else ""
            report.fail(rel(path), f"schema rejects it at {dotted(e.where)}: {first_line(e.message)}{more}")
        else:
            report.ok(rel(path))
        for key in defined_keys(data):
            owners.setdefault(key, []).append(path.name)
    duplicates = {k: v for k, v in owners.items() if len(v) > 1}
    if duplicates:
        listed = "; ".join(f"{k} in {', '.join(v)}" for k, v in sorted(duplicates.items()))
        report.fail(rel(directory) + "/", "keys defined more than once: " + listed)
    else:
        report.ok(rel(directory) + "/", f"{len(owners)} keys unique across {len(files)} files")


def check_invalid(report, validator):
    try:
        expectations = json.loads(EXPECTATIONS.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        report.fail(rel(EXPECTATIONS), first_line(error))
        return
    files = {p.name for p in INVALID.glob("*.yaml")} | {p.name for p in INVALID.glob("*.yml")}
    for name in sorted(files - set(expectations)):
        report.fail(rel(INVALID / name), "no entry in expectations.json")
    for name in sorted(set(expectations) - files):
        report.fail(rel(EXPECTATIONS), f"entry for missing file {name}")

    for name in sorted(files & set(expectations)):
        path = INVALID / name
        label = rel(path)
        expected = expectations[name]
        problems = [f"missing {field!r}" for field in ("line", "column", "contains", "schema") if field not in expected]
        if problems:
            report.fail(label, "expectation " + ", ".join(problems))
            continue
        try:
            data = load(path)
            positions = node_positions(compose(path))
        except yaml.YAMLError as error:
            report.fail(label, "YAML error (fixtures must be well-formed YAML): " + first_line(error))
            continue
        where = (expected["line"], expected["column"])
        if where not in positions:
            report.fail(label, f"expectation {where[0]}:{where[1]} is not the start of a key or value")
            continue
        target, kind = positions[where]
        errors = sorted_errors(validator, data)
        if expected["schema"]:
            if not errors:
                report.fail(label, f"schema accepts it, but expectations.json says it catches the mistake at {dotted(target)}")
                continue
            # The error must be at the node itself, or, for a key (an unknown field, a bad name),
            # at the mapping holding it with a message that names the key.
            def at_target(e):
                if e.where == target:
                    return True
                return kind == "key" and e.where == target[:-1] and repr(str(target[-1])) in e.message
            matching = [e for e in errors if at_target(e)]
            if not matching:
                e = errors[0]
                report.fail(label, f"schema rejects it at {dotted(e.where)} ({first_line(e.message)}), "
                                   f"not at {dotted(target)} where the expectation points")
                continue
            best = max(matching, key=lambda e: len(e.where))
            report.ok(label, f"rejected at {dotted(best.where)}: {first_line(best.message, 70)}")
        else:
            if errors:
                e = errors[0]
                report.fail(label, f"marked \"schema\": false but the schema rejects it at {dotted(e.where)}: "
                                   f"{first_line(e.message)} (a second mistake, or flip the flag)")
                continue
            report.ok(label, f"schema accepts it; loader-only rule at {dotted(target)}")


def main():
    report = Report()
    try:
        schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
        jsonschema.Draft202012Validator.check_schema(schema)
    except (OSError, ValueError, jsonschema.SchemaError) as error:
        report.fail(rel(SCHEMA), first_line(error))
        print(f"{report.passed} passed, {report.failed} failed")
        return 1
    report.ok(rel(SCHEMA), "valid draft 2020-12 schema")
    # Formats are annotations only, as in draft 2020-12 by default and in editors: `expires`
    # relies on its pattern, and a real-calendar check (2027-02-30) is left to the loader.
    validator = jsonschema.Draft202012Validator(schema)

    check_valid_dir(report, validator, FLAGS)
    check_valid_dir(report, validator, VALID)
    check_invalid(report, validator)

    print(f"{report.passed} passed, {report.failed} failed")
    return 1 if report.failed else 0


if __name__ == "__main__":
    sys.exit(main())
