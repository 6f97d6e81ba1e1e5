"""libpfm4_compare.py PMUTOOL PMU SAMPLE.tsv EXPECTED.tsv: the PMU's events
(`pmutool --pmu PMU list --json`) against libpfm4's names and codes in
SAMPLE.tsv (name TAB code).  Every name both have must carry the same code,
except the pairs EXPECTED.tsv lists (name TAB libpfm4 code TAB our code),
which must differ exactly so; libpfm4 names given twice with two codes (its
*_ALT entries keep the base name) are reported and skipped.  Prints the
counts; exit 1 on any other difference."""
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


def main(tool, pmu, sample, expected_path):
    out = subprocess.run([tool, "--pmu", pmu, "list", "--json"], check=True,
                         capture_output=True, text=True).stdout
    ours = {e["name"]: int(e["code"], 16) for e in json.loads(out) if "code" in e}
    theirs = collections.defaultdict(list)
    for name, code in read_tsv(sample):
        theirs[name].append(int(code, 16))
    expected = {r[0]: (int(r[1], 16), int(r[2], 16)) for r in read_tsv(expected_path)}
    same = differ = twice = 0
    fails = []
    for name, codes in sorted(theirs.items()):
        if len(codes) > 1:
            twice += 1
            print(f"libpfm4 gives {name} twice: {[hex(c) for c in codes]} (ours: "
                  f"{hex(ours[name]) if name in ours else 'none'})")
            continue
        if name not in ours:
            continue
        if codes[0] == ours[name]:
            same += 1
            if name in expected:
                fails.append(f"{name}: listed as differing but both are {hex(codes[0])}")
            continue
        differ += 1
        want = expected.get(name)
        if want != (codes[0], ours[name]):
            fails.append(f"{name}: libpfm4 {hex(codes[0])}, ours {hex(ours[name])}")
        else:
            print(f"differs as expected: {name} libpfm4 {hex(codes[0])}, ours {hex(ours[name])}")
    for name in expected:
        if name not in theirs or name not in ours:
            fails.append(f"{name}: expected difference, but a side lacks the name")
    print(f"{len(theirs)} libpfm4 names, {same + differ} also ours: {same} same code, "
          f"{differ} different, {twice} given twice by libpfm4")
    for f in fails:
        print("FAIL", f)
    return 1 if fails or same == 0 else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:5]))
