"""libpfm4_compare.py PMUTOOL PMU TABLE.tsv ENTRIES EXPECTED.tsv: the PMU's
events (`pmutool --pmu PMU list --json`) against libpfm4's names and codes in
TABLE.tsv (name TAB code), which must hold ENTRIES entries with distinct
names (the whole table, not a part of it).  Every name both have must carry
the same code, except the pairs EXPECTED.tsv lists (name TAB libpfm4 code TAB
our code TAB kind), which must differ exactly so.  Prints the counts and the
differences by kind; exit 1 on anything else."""
import collections
import json
import subprocess
import sys


def read_tsv(path):
    rows = []
    for line in open(path, encoding="utf-8"):
        if line.strip() and not line.startswith("#"):
            rows.append(line.rstrip("\n").split("\t"))
    return rows


def read_table(path, entries, fails):
    rows = read_tsv(path)
    table = {}
    for name, code in rows:
        if name in table:
            fails.append(f"{path}: {name} given twice")
        table[name] = int(code, 16)
    if len(rows) != entries:
        fails.append(f"{path}: {len(rows)} entries, expected {entries}")
    return table


def main(tool, pmu, table_path, entries, expected_path):
    fails = []
    out = subprocess.run([tool, "--pmu", pmu, "list", "--json"], check=True,
                         capture_output=True, text=True).stdout
    ours = {e["name"]: int(e["code"], 16) for e in json.loads(out) if "code" in e}
    theirs = read_table(table_path, int(entries), fails)
    expected = {r[0]: (int(r[1], 16), int(r[2], 16), r[3]) for r in read_tsv(expected_path)}
    same = 0
    kinds = collections.Counter()
    for name, code in sorted(theirs.items()):
        if name not in ours:
            continue
        if code == ours[name]:
            same += 1
            if name in expected:
                fails.append(f"{name}: listed as differing but both are {hex(code)}")
            continue
        want = expected.get(name)
        if want is None or want[:2] != (code, ours[name]):
            fails.append(f"{name}: libpfm4 {hex(code)}, ours {hex(ours[name])}")
            continue
        kinds[want[2]] += 1
        print(f"differs as expected ({want[2]}): {name} libpfm4 {hex(code)}, ours {hex(ours[name])}")
    for name in expected:
        if name not in theirs or name not in ours:
            fails.append(f"{name}: expected difference, but a side lacks the name")
    shared = same + sum(kinds.values())
    print(f"{len(theirs)} libpfm4 entries, {len(ours)} of ours, {shared} names shared: "
          f"{same} same code, {sum(kinds.values())} different "
          f"({', '.join(f'{k} {n}' for k, n in sorted(kinds.items()))})")
    for f in fails:
        print("FAIL", f)
    return 1 if fails or same == 0 else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:6]))
