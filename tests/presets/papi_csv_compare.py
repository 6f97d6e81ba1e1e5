"""papi_csv_compare.py PMUTOOL PMU CSV DUPLICATES: the presets of a PMU
(`pmutool --pmu PMU list --json 'papi_*'`) against the PRESET lines of its
section of PAPI's papi_events.csv: every line is a preset with the same kind
and the same events in the same order, except the DUPLICATES names, given
twice by PAPI, whose first line is the one kept; no preset comes from
elsewhere."""
import json
import subprocess
import sys

KINDS = {"NOT_DERIVED": None, "DERIVED_ADD": "add", "DERIVED_SUB": "sub",
         "DERIVED_POSTFIX": "postfix"}


def main(tool, pmu, csv_path, duplicates):
    out = subprocess.run([tool, "--pmu", pmu, "list", "--json", "papi_*"], check=True,
                         capture_output=True, text=True).stdout
    have = {p["preset"]: p for p in json.loads(out)}
    seen, fails = set(), 0
    for line in open(csv_path, encoding="utf-8"):
        f = line.strip().split(",")
        if f[0] != "PRESET":
            continue
        name, kind = f[1], f[2]
        if name in seen:
            if name not in duplicates:
                print(f"FAIL {name}: given twice but not named as a duplicate")
                fails += 1
            continue
        seen.add(name)
        postfix = f[3] if kind == "DERIVED_POSTFIX" else None
        events = f[4:] if postfix else f[3:]
        p = have.get(name)
        want_kind = KINDS[kind]
        if (not p or p["events"] != events or p["postfix"] != postfix or
                (p["kind"] if p["derived"] else None) != want_kind):
            print(f"FAIL {name}: PAPI {kind} {events}, got {p}")
            fails += 1
    extra = set(have) - seen
    if extra:
        print(f"FAIL presets not in PAPI's file: {sorted(extra)}")
        fails += 1
    print(f"{len(seen)} presets of {csv_path} compared, {fails} failures")
    return 1 if fails or not seen else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2], sys.argv[3], set(sys.argv[4].split(","))))
