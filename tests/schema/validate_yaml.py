#!/usr/bin/python3
"""Validate PMU description YAML files against schema/pmu-description.schema.json.

Used by tests/schema.cmake (ctest) and usable by hand:

    /usr/bin/python3 tests/schema/validate_yaml.py [--schema S] [--expect-invalid]
        [--no-includes] [--pmugen PATH] FILE...

Each FILE is validated on its own, and so is every file it includes (unless
--no-includes); the whole include tree must then hold one 'pmu' section and
each single section at most once, as pmugen's loader requires.

YAML is read the way pmugen's loader (libyaml, every scalar as text) reads it,
not with YAML 1.1's wider implicit types: only true/false are booleans, only
numbers the loader can read (decimal, 0x hex, 0-prefixed octal) are integers,
everything else is a string ('yes', '1.0', '0o17', '1_000' stay text, so the
schema rejects them where a number or boolean is wanted).  Duplicate keys are
errors, except a list section repeated at the top level, which the loader
concatenates.

--expect-invalid: succeed only if every FILE is rejected.  A FILE may name the
reason in a comment '# schema: TEXT', which must occur in one of the messages.
--pmugen PATH: also run 'PATH --check -q FILE' and require the loader to agree
(accept valid files; reject invalid ones, with the '# pmugen: TEXT' comment's
text in its output when given).

Needs Debian's python3-yaml and python3-jsonschema: run it with /usr/bin/python3.
Exit status: 0 success, 1 failure (a missing module too: the message names
its Debian package).
"""
import argparse
import os
import re
import subprocess
import sys

import json

# The modules beyond the standard library, by their Debian packages.
DEBIAN_PACKAGES = {"yaml": "python3-yaml", "jsonschema": "python3-jsonschema"}
try:
    import yaml
    import jsonschema
except ImportError as exc:  # pragma: no cover - depends on the host
    print("validate_yaml: FAIL: %s: install the Debian package %s (.ci/install-deps) "
          "and run with /usr/bin/python3" % (exc, DEBIAN_PACKAGES.get(exc.name, exc.name)),
          file=sys.stderr)
    sys.exit(1)

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_SCHEMA = os.path.join(HERE, "..", "..", "schema", "pmu-description.schema.json")

# Sections the loader reads once (ysec_single) or as concatenated lists.
SINGLE_SECTIONS = {"pmu", "privilege-filters", "branch-stack-clears",
                   "generic-events", "cache-events"}
LIST_SECTIONS = {"counters", "registers", "fields", "counter-usage", "checks",
                 "constraints", "alternatives", "events", "firmware-events"}

INT_RE = re.compile(r"^(?:0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)$")
BOOL_RE = re.compile(r"^(?:true|false)$")
NULL_RE = re.compile(r"^(?:~|null|Null|NULL|)$")


class DescriptionError(Exception):
    """A problem found while reading YAML, with its place."""


class Loader(yaml.SafeLoader):
    """SafeLoader with the loader's scalar reading and duplicate-key checks."""

    def construct_document(self, node):
        self._root = node
        # deep: top-level lists must be complete before they are concatenated
        data = self.construct_object(node, deep=True)
        self.constructed_objects = {}
        self.recursive_objects = {}
        self.deep_construct = False
        return data

    def construct_mapping(self, node, deep=False):
        if not isinstance(node, yaml.MappingNode):
            raise yaml.constructor.ConstructorError(
                None, None, "expected a mapping", node.start_mark)
        top = node is getattr(self, "_root", None)
        mapping = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                raise yaml.constructor.ConstructorError(
                    None, None, "keys must be plain words", key_node.start_mark)
            key = key_node.value  # keys are text to pmugen, whatever they look like
            value = self.construct_object(value_node, deep=True)
            if key in mapping:
                mark = key_node.start_mark
                if top and key in LIST_SECTIONS and isinstance(mapping[key], list) \
                        and isinstance(value, list):
                    mapping[key] = mapping[key] + value  # the loader concatenates
                    continue
                raise yaml.constructor.ConstructorError(
                    None, None, "duplicate key '%s'%s" % (
                        key, " (pmugen reads only the first)" if not top else
                        " (a single section may appear once)"), mark)
            mapping[key] = value
        return mapping


def _construct_int(loader, node):
    text = loader.construct_scalar(node)
    if text[:2] in ("0x", "0X"):
        return int(text[2:], 16)
    if len(text) > 1 and text[0] == "0":
        return int(text[1:], 8)
    return int(text)


Loader.yaml_implicit_resolvers = {}
Loader.add_implicit_resolver("tag:yaml.org,2002:bool", BOOL_RE, list("tf"))
Loader.add_implicit_resolver("tag:yaml.org,2002:int", INT_RE, list("0123456789"))
Loader.add_implicit_resolver("tag:yaml.org,2002:null", NULL_RE, ["~", "n", "N", ""])
Loader.add_constructor("tag:yaml.org,2002:int", _construct_int)


def load(path):
    """(data, root node) of one YAML file; raises DescriptionError."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        root = yaml.compose(text, Loader=Loader)
        data = yaml.load(text, Loader=Loader)
    except OSError as exc:
        raise DescriptionError("%s: error: cannot read: %s" % (path, exc.strerror))
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = "%s:%d:%d" % (path, mark.line + 1, mark.column + 1) if mark else path
        raise DescriptionError("%s: error: %s" % (where, exc.problem or exc))
    return data, root


def locate(root, path):
    """line:col of the node at a jsonschema path (top-level lists may repeat)."""
    node = root
    for step in path:
        if isinstance(node, yaml.MappingNode):
            pairs = [(k, v) for k, v in node.value if getattr(k, "value", None) == step]
            if not pairs:
                break
            node = pairs[0][1]
            if node is not None and isinstance(step, str) and len(pairs) > 1 \
                    and isinstance(node, yaml.SequenceNode):
                node = yaml.SequenceNode(node.tag, sum((v.value for _, v in pairs), []),
                                         node.start_mark, node.end_mark)
        elif isinstance(node, yaml.SequenceNode) and isinstance(step, int) \
                and step < len(node.value):
            node = node.value[step]
        else:
            break
    return node.start_mark.line + 1, node.start_mark.column + 1


def required_keys(schema):
    """Keys named by 'required' in a schema and its anyOf/oneOf branches."""
    if not isinstance(schema, dict):
        return []
    keys = list(schema.get("required", []))
    for branch in schema.get("anyOf", []) + schema.get("oneOf", []):
        keys += required_keys(branch)
    return keys


def message(error):
    """A readable message: the schema's patternErrorMessage (the
    yaml-language-server extension) for a pattern, key names for the
    not/oneOf rules over required keys, else jsonschema's own."""
    if error.validator == "pattern" and isinstance(error.schema, dict) \
            and "patternErrorMessage" in error.schema:
        return "%r: %s" % (error.instance, error.schema["patternErrorMessage"])
    keys = required_keys({"anyOf": error.validator_value}
                         if error.validator == "oneOf" else error.validator_value)
    quoted = " or ".join("'%s'" % k for k in keys)
    if error.validator == "not" and keys:
        present = [k for k in keys if isinstance(error.instance, dict) and k in error.instance]
        named = present or keys
        return "%s %s not allowed here" % (" and ".join("'%s'" % k for k in named),
                                          "is" if len(named) == 1 else "are")
    if error.validator == "oneOf" and keys and len(keys) == len(error.validator_value):
        return "needs exactly one of %s" % quoted
    return error.message


def best_reason(error):
    """The deepest relevant error under anyOf/oneOf: prefer the branch whose
    type matched (a number out of range, not 'is not of type string')."""
    while error.context:
        typed = [e for e in error.context if e.validator != "type"]
        if error.validator == "oneOf" and required_keys({"anyOf": error.validator_value}):
            break  # the rule itself says it best
        error = jsonschema.exceptions.best_match(typed or error.context)
    return error


def describe(error):
    """path: message, one line per failure."""
    where = "".join("[%d]" % p if isinstance(p, int) else (".%s" % p)
                    for p in error.absolute_path).lstrip(".") or "(top)"
    best = best_reason(error)
    text = message(best)
    if best is not error and error.validator == "anyOf":
        text = "%s (%r is none of the accepted forms)" % (text, error.instance)
    return "%s: %s" % (where, text)


def validate_file(validator, path, seen, messages, sections, follow=True):
    """Validate path and (if follow) its includes; append problems to messages."""
    real = os.path.realpath(path)
    if real in seen:
        messages.append("%s: error: included twice" % path)
        return
    seen.add(real)
    try:
        data, root = load(path)
    except DescriptionError as exc:
        messages.append(str(exc))
        return
    if data is None:
        messages.append("%s:1:1: error: empty document: expected a PMU description" % path)
        return
    errors = sorted(validator.iter_errors(data), key=lambda e: list(map(str, e.absolute_path)))
    for err in errors:
        line, col = locate(root, list(err.absolute_path))
        messages.append("%s:%d:%d: error: %s" % (path, line, col, describe(err)))
    if not isinstance(data, dict):
        return
    for key in data:
        sections.setdefault(key, []).append(path)
    if follow and isinstance(data.get("extends"), str):
        validate_base(validator, os.path.join(os.path.dirname(path), data["extends"]),
                      messages)
    if not follow or "include" not in data:
        return
    inc = data["include"]
    for rel in inc if isinstance(inc, list) else [inc]:
        if isinstance(rel, str):
            validate_file(validator, os.path.join(os.path.dirname(path), rel), seen,
                          messages, sections)


def validate_base(validator, path, messages, chain=()):
    """The base an extension names: a whole description of its own, which
    may extend another in turn (a file already in the chain is a cycle)."""
    real = os.path.realpath(path)
    if real in chain:
        messages.append("%s: error: extends itself" % path)
        return
    sections, seen, before = {}, set(), len(messages)
    validate_file(validator, path, seen, messages, sections, follow=False)
    for rel in [] if len(messages) > before else _includes_of(path):
        validate_file(validator, os.path.join(os.path.dirname(path), rel), seen, messages,
                      sections)
    if len(messages) == before:
        whole_description(path, sections, messages)
    base = _extends_of(path)
    if base and len(messages) == before:
        validate_base(validator, os.path.join(os.path.dirname(path), base), messages,
                      chain + (real,))


def _top_level(path):
    try:
        data, _ = load(path)
    except DescriptionError:
        return {}
    return data if isinstance(data, dict) else {}


def _includes_of(path):
    inc = _top_level(path).get("include", [])
    return [r for r in (inc if isinstance(inc, list) else [inc]) if isinstance(r, str)]


def _extends_of(path):
    base = _top_level(path).get("extends")
    return base if isinstance(base, str) else None


def whole_description(path, sections, messages):
    """Rules over the gathered sections of a main file and its includes."""
    for name in sorted(SINGLE_SECTIONS):
        if len(sections.get(name, [])) > 1:
            messages.append("%s: error: section '%s' given twice (in %s)" % (
                path, name, ", ".join(sections[name])))
    if "pmu" not in sections:
        messages.append("%s: error: the description has no 'pmu' section" % path)


def expected_comment(path, tag):
    try:
        with open(path, encoding="utf-8") as f:
            for line in f:
                m = re.match(r"^#\s*%s:\s*(.+?)\s*$" % re.escape(tag), line)
                if m:
                    return m.group(1)
    except OSError:
        pass
    return None


def run_pmugen(pmugen, path):
    proc = subprocess.run([pmugen, "--check", "-q", path], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, universal_newlines=True)
    return proc.returncode, proc.stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--schema", default=DEFAULT_SCHEMA)
    ap.add_argument("--expect-invalid", action="store_true")
    ap.add_argument("--no-includes", action="store_true",
                    help="validate only the named files, not what they include")
    ap.add_argument("--fragment", action="store_true",
                    help="the files are parts of a description (no 'pmu' needed)")
    ap.add_argument("--pmugen", help="also check that pmugen --check agrees")
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()

    with open(args.schema, encoding="utf-8") as f:
        schema = json.load(f)
    jsonschema.Draft7Validator.check_schema(schema)
    validator = jsonschema.Draft7Validator(schema)

    failed = False
    for path in args.files:
        messages, sections, seen = [], {}, set()
        validate_file(validator, path, seen, messages, sections, not args.no_includes)
        if not messages and not args.fragment and not args.no_includes:
            whole_description(path, sections, messages)
        if args.expect_invalid:
            want = expected_comment(path, "schema")
            if not messages:
                print("FAIL %s: the schema accepts it, but it is invalid" % path)
                failed = True
            elif want and not any(want in m for m in messages):
                print("FAIL %s: rejected, but no message mentions %r:" % (path, want))
                print("\n".join("  " + m for m in messages))
                failed = True
            else:
                print("ok   %s: rejected" % path)
                if args.verbose:
                    print("\n".join("  " + m for m in messages))
        else:
            if messages:
                print("FAIL %s:" % path)
                print("\n".join("  " + m for m in messages))
                failed = True
            else:
                more = len(seen) - 1
                print("ok   %s: valid%s" % (path, " (with %d included file%s)" % (
                    more, "s" if more > 1 else "") if more else ""))
        if args.pmugen:
            rc, out = run_pmugen(args.pmugen, path)
            want = expected_comment(path, "pmugen")
            if args.expect_invalid and rc == 0:
                print("FAIL %s: pmugen --check accepts it; schema and loader disagree" % path)
                failed = True
            elif args.expect_invalid and want and want not in out:
                print("FAIL %s: pmugen rejects it, but not with %r:\n%s" % (path, want, out))
                failed = True
            elif not args.expect_invalid and rc != 0:
                print("FAIL %s: pmugen --check rejects it; schema and loader disagree:\n%s"
                      % (path, out))
                failed = True
            else:
                print("ok   %s: pmugen --check agrees (exit %d)" % (path, rc))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
