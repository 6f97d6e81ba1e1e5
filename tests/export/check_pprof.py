#!/usr/bin/env python3
"""check_pprof.py - `pmutool report --pprof` read by Go's pprof tool and by
protoc, held against `pmutool report` on the same perf.data file.

For every event of the file:
  - pprof's -top (its own aggregation, -sample_index EVENT, exact units):
    the total and the top N functions' flat values equal
    `report --no-children --sort sym --json` summed by function name;
  - pprof's -raw (every sample, location, mapping as pprof decoded them):
    the samples of each row of `report --no-children --sort sym -g graph,0,caller`
    give every node of the call graph report draws, path and percentage
    (within the 0.01% of its two decimals; the nodes of one path of names,
    two functions of one name such as ld.so's and the program's _start,
    summed);
  - the comm labels' sums equal `report --sort comm`;
  - `protoc --decode` with profile.proto (a second, independent reader)
    finds the same samples and totals, string_table[0] "".

usage: check_pprof.py PMUTOOL PPROF PROTO FILE.data WORKDIR [TOP_N]
"""
import json
import os
import re
import subprocess
import sys
from collections import defaultdict

pmutool, pprof_bin, proto, data, work = sys.argv[1:6]
top_n = int(sys.argv[6]) if len(sys.argv) > 6 else 10
profile = os.path.join(work, os.path.basename(data) + ".pb.gz")


def run(*argv):
    r = subprocess.run(argv, capture_output=True, text=True)
    if r.returncode:
        sys.exit(f"check_pprof: {' '.join(argv)}: exit {r.returncode}\n{r.stderr}")
    return r.stdout


def fail(msg):
    sys.exit(f"check_pprof: {data}: {msg}")


run(pmutool, "report", "-i", data, "--pprof", profile)
report = json.loads(run(pmutool, "report", "-i", data, "--no-children", "--sort", "sym", "--json"))
events = [e["name"] for e in report["events"]]

# --- pprof -raw: the profile as Go's pprof decoded it ------------------------------
raw = run(pprof_bin, "-symbolize=none", "-raw", profile)
types = None
samples = []          # (values, [location ids], {label: value})
locations = {}        # id -> (address, function name or None, mapping id)
mappings = {}         # id -> (start, limit, offset)
section = None
for line in raw.splitlines():
    if line in ("Samples:", "Locations", "Mappings"):
        section = line
        continue
    if section == "Samples:":
        if types is None:
            types = [t.replace("[dflt]", "") for t in line.split()]
            continue
        m = re.match(r"^\s+([-\d ]+):((?: \d+)*)\s*$", line)
        if m:
            samples.append(([int(v) for v in m.group(1).split()],
                            [int(i) for i in m.group(2).split()], {}))
            continue
        for key, val in re.findall(r"(\w+):\[([^\]]*)\]", line):
            samples[-1][2][key] = val
    elif section == "Locations":
        m = re.match(r"^\s+(\d+): (0x[0-9a-f]+)(?: M=(\d+))?\s*(.*?)(?: \S*:\d+)?(?: s=\d+)?\s*$", line)
        if m:
            locations[int(m.group(1))] = (int(m.group(2), 16), m.group(4) or None,
                                          int(m.group(3) or 0))
    elif section == "Mappings":
        m = re.match(r"^(\d+): (0x[0-9a-f]+)/(0x[0-9a-f]+)/(0x[0-9a-f]+) ", line)
        if m:
            mappings[int(m.group(1))] = tuple(int(m.group(k), 16) for k in (2, 3, 4))
if not samples or types is None:
    fail(f"pprof -raw found no samples:\n{raw[:2000]}")
want_types = [t for e in events for t in (f"{e}_samples/count", e)]
if [t.split("/")[0] for t in types] != [t.split("/")[0] for t in want_types]:
    fail(f"sample types {types}, not {want_types}")


def c_hex(addr, digits=0):
    """C's "%#.*x": no "0x" before a zero."""
    return f"{addr:0{digits}x}" if addr == 0 else f"0x{addr:0{digits}x}"


def frame_name(loc_id):
    addr, func, _ = locations[loc_id]
    return func if func else c_hex(addr)


def row_name(loc_id):
    """The leaf as report names its row: the function, else the address
    (in the file for a user address, perf's map_ip)."""
    addr, func, mapping = locations[loc_id]
    if func:
        return func
    if mapping and mapping in mappings:
        start, _, offset = mappings[mapping]
        name = mapping_names.get(mapping, "")
        if not name.startswith("["):
            return c_hex(addr - start + offset, 16)
    return c_hex(addr, 16)


mapping_names = {}
for line in raw.split("Mappings", 1)[1].splitlines() if "Mappings" in raw else []:
    m = re.match(r"^(\d+): \S+ (\S+)", line)
    if m:
        mapping_names[int(m.group(1))] = m.group(2)

# --- per event: totals, top N, call graphs -----------------------------------------
for e_index, event in enumerate(events):
    col = 2 * e_index + 1
    rows = next(x for x in report["events"] if x["name"] == event)["rows"]
    whole = sum(s[0][col] for s in samples)
    if whole != sum(r["period"] for r in rows) or \
            sum(s[0][col - 1] for s in samples) != sum(r["samples"] for r in rows):
        fail(f"{event}: pprof total {whole}, report {sum(r['period'] for r in rows)}")
    # pprof -top: its own totals and flat values (exact units)
    unit_args = ["-unit=ns"] if types[col].endswith("nanoseconds") else []
    top = run(pprof_bin, "-symbolize=none", "-top", f"-nodecount={top_n}", "-nodefraction=0",
              "-edgefraction=0",
              f"-sample_index={event}", *unit_args, profile)
    m = re.search(r"Total samples = (\d+)", top) or re.search(r"of (\d+)(?:ns)? total", top)
    if not m or int(m.group(1)) != whole:
        fail(f"{event}: pprof -top's total {m and m.group(1)} is not {whole}:\n{top}")
    by_name = defaultdict(int)
    for r in rows:
        by_name[r["sym"]] += r["period"]
    expect = sorted(by_name.items(), key=lambda kv: -kv[1])
    got = []
    for line in top.splitlines():
        m = re.match(r"^\s*(\d+)(?:ns)?\s+[\d.]+%\s+[\d.]+%\s+(\d+)(?:ns)?\s+[\d.]+%\s+(.+)$", line)
        if m:
            got.append((m.group(3).strip(), int(m.group(1))))
    if not got:
        fail(f"{event}: no rows in pprof -top:\n{top}")
    floor = got[-1][1]
    for name, flat in got:
        if name.startswith("0x") or name == "<unknown>" or re.match(r"^\[.*\]$", name):
            continue   # pprof names an unsymbolized node by address or [file]
        if by_name.get(name, 0) != flat:
            fail(f"{event}: pprof -top {name} {flat}, report {by_name.get(name)}")
    named = [(n, v) for n, v in expect if v > floor and not n.startswith("0x")]
    missing = [n for n, _ in named if n not in dict(got)]
    if missing:
        fail(f"{event}: report's top rows {missing} missing from pprof -top:\n{top}")

    # report -g caller: every node drawn, against the samples' stacks
    # every branch drawn (threshold 0): a name's nodes are summed below
    text = run(pmutool, "report", "-i", data, "--no-children", "--no-group", "--sort", "sym", "-g",
               "graph,0,caller")
    blocks = text.split(f"# Event '{event}'", 1)[1].split("# Event '", 1)[0]
    row_re = re.compile(r"^\s+(\d+)\s+(\d+)\s+([\d.]+)%\s+\[(.)\] (.*)$")
    row_samples = defaultdict(list)
    row_roots = defaultdict(set)   # the outermost frames: function and file
    for values, locs, _ in samples:
        if values[col] and locs:
            row_samples[row_name(locs[0])].append(
                (values[col], [frame_name(i) for i in reversed(locs)]))
            row_roots[row_name(locs[0])].add((frame_name(locs[-1]), mapping_names.get(
                locations[locs[-1]][2], "")))

    def one_root(row):
        # one node: one function of one file (ld.so's and the program's
        # _start are two)
        return len(row_roots[row]) == 1

    def weight(row, path, wildcard):
        total = 0
        for v, chain in row_samples[row]:
            if len(chain) >= len(path) and all(
                    (wildcard and k == 0) or chain[k] == path[k] for k in range(len(path))):
                total += v
        return total

    checked = 0
    current = None
    drawn = {}
    for line in blocks.splitlines():
        m = row_re.match(line)
        if m:
            current = {"name": m.group(5).strip(), "period": int(m.group(2)), "stack": [],
                       "wildcard": False}
            continue
        if current is None or not line.strip() or set(line.strip()) <= {"|", "-", " "}:
            continue
        body = line.rstrip()
        pct = re.search(r"--([\d.]+)%--(.*)$", body)
        root = re.search(r"---(.*)$", body) if not pct else None
        if pct:
            # perf draws a level 11 columns wide: '|' or ' ', then "--P%--"
            # (9 columns below 10%) on the node's first line, 10 blanks on
            # the others, so its next lines start 10 columns past the "--"
            col_at = pct.start() + 10
            while current["stack"] and current["stack"][-1]["col"] >= col_at:
                current["stack"].pop()
            # a branch at the top: under the row's one root node when all
            # its chains start at one frame, whose first entry perf does
            # not draw when sorting on sym (callchain__fprintf_graph), so
            # that a root of that frame alone leaves only its branches
            top = [None] if current["wildcard"] or one_root(current["name"]) else []
            parent = current["stack"][-1]["path"] if current["stack"] else top
            node = {"col": col_at, "path": parent + [pct.group(2).strip()],
                    "pct": float(pct.group(1))}
            current["stack"].append(node)
        elif root:
            # one chain holding the whole row; its first frame is not drawn
            # when sorting on sym (perf's callchain__fprintf_graph)
            current["wildcard"] = True
            node = {"col": root.start(1), "path": [None, root.group(1).strip()], "pct": None}
            current["stack"] = [node]
        else:
            margin = re.match(r"^([ |]*)(\S.*)$", body)
            col_at = len(margin.group(1))
            owner = next((n for n in reversed(current["stack"]) if n["col"] == col_at), None)
            if owner is None:
                fail(f"{event}: cannot place graph line {line!r}")
            owner["path"] = owner["path"] + [margin.group(2).strip()]
            node = owner
        # nodes of one name path (two functions of one name, ld.so's and
        # the program's _start, are two nodes) are summed before comparing
        key = (current["name"], tuple(node["path"]), node["pct"] is None)
        total, nodes = drawn.get(key, (0, 0))
        drawn[key] = (total + (current["period"] if node["pct"] is None else node["pct"]),
                      nodes + 1)
    for (name, path, whole_row), (want, nodes) in drawn.items():
        w = weight(name, list(path), path[0] is None)
        share = w if whole_row else 100.0 * w / whole
        # each drawn percentage rounded to 0.01
        if (whole_row and w != want) or (not whole_row and abs(share - want) > 0.0051 * nodes):
            fail(f"{event}: row {name}: graph node {list(path)} {want}, "
                 f"the profile's stacks give {share}")
        checked += 1
    print(f"check_pprof: {os.path.basename(data)} {event}: total {whole}, "
          f"{len(got)} top rows, {checked} graph lines agree")

# --- labels: comm sums as report --sort comm ---------------------------------------
by_comm = json.loads(run(pmutool, "report", "-i", data, "--sort", "comm", "--no-children", "--json"))
for e_index, ev in enumerate(by_comm["events"]):
    sums = defaultdict(int)
    for values, _, labels in samples:
        sums[labels.get("comm")] += values[2 * e_index + 1]
    want = {r["comm"]: r["period"] for r in ev["rows"]}
    if {k: v for k, v in sums.items() if v} != want:
        fail(f"{ev['name']}: comm labels {dict(sums)}, report {want}")

# --- the second reader: protoc --decode with profile.proto --------------------------
import gzip  # noqa: E402
with gzip.open(profile) as f:
    blob = f.read()
dec = subprocess.run(["protoc", "--decode=perftools.profiles.Profile",
                      f"--proto_path={os.path.dirname(proto)}", os.path.basename(proto)],
                     input=blob, capture_output=True)
if dec.returncode:
    fail(f"protoc --decode: {dec.stderr.decode()}")
text = dec.stdout.decode()
strings = re.findall(r'^string_table: "(.*)"$', text, re.M)
if not strings or strings[0] != "":
    fail("protoc: string_table[0] is not empty")
n_samples = len(re.findall(r"^sample \{$", text, re.M))
if n_samples != len(samples):
    fail(f"protoc: {n_samples} samples, pprof {len(samples)}")
ntypes = len(types)
vals = [int(v) for v in re.findall(r"^  value: (-?\d+)$", text, re.M)]
for k in range(ntypes):
    if sum(vals[k::ntypes]) != sum(s[0][k] for s in samples):
        fail(f"protoc: value {k} sums to {sum(vals[k::ntypes])}, pprof's to "
             f"{sum(s[0][k] for s in samples)}")
print(f"check_pprof: {os.path.basename(data)}: protoc --decode agrees ({n_samples} samples, "
      f"{len(strings)} strings)")
