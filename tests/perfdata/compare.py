#!/usr/bin/env python3
"""compare.py - pmutool's view of a perf.data file against perf's.

  compare.py script OURS PERF COMM   pmutool script vs perf script -G, line
                                     by line
  compare.py report OURS PERF COMM   pmutool report --json vs perf report
                                     --stdio -F sample,period,comm,dso,sym, row
                                     by row (unresolved addresses included)
  compare.py children OURS PERF COMM pmutool report --json of a file with call
                                     graphs vs perf report -g none -F
                                     overhead_children,overhead,comm,dso,sym:
                                     every row's Children and Self percentages
  compare.py graph OURS PERF N [MORE...]
                                     pmutool report (text) vs perf report
                                     --stdio of a file with call graphs, N
                                     percentage columns (2 with Children, 1
                                     without): the rows in perf's order, the
                                     graph under each line for line, but for
                                     the order of sibling branches of equal
                                     weight whose first frames lie in
                                     different files (perf's follows where
                                     its dso objects lie in memory); the
                                     files from the rows of OURS, PERF and
                                     the perf report outputs MORE (a view
                                     with Children names every frame)
  compare.py cache OURS PERF OURS_IDS PERF_IDS
                                     two build-id caches (find -printf
                                     '%y %p %l' lines) filled by two
                                     recordings, with perf buildid-list of
                                     each: the entries of the objects both
                                     hit the same; ours holds every object
                                     its file lists, and nothing else perf's
                                     does not hold (which objects a short run
                                     hits varies from run to run)
  compare.py comm OURS PERF COMM FULL
                                     pmutool report --json --comm COMM
                                     --sort dso,sym --percent-limit P vs perf
                                     report -F overhead,sample,period,dso,sym
                                     with the same: the same rows, the same
                                     percentages (of the whole file), but
                                     for rows other commands' samples also
                                     hit (FULL: pmutool report --json of the
                                     file, checked against perf's by
                                     "report"): perf filters by command after
                                     it merged samples into rows by dso and
                                     symbol (hists__findnew_entry keeps the
                                     row's first sample's thread), so such a
                                     row holds every command's samples or
                                     none; pmutool's holds COMM's own
  compare.py filtered OURS PERF WHAT
                                     pmutool report --json with a filter vs
                                     perf report -g none -F overhead,sample,
                                     period,comm|pid,dso,sym with the same
                                     (WHAT names it): the same rows with the
                                     same samples, periods and percentages
                                     (of what perf counts: the whole file
                                     for --comms, --pid, --tid, --dsos and
                                     --symbols, what is left for --cpu and
                                     --time), a row at least
  compare.py group OURS PERF K [children]
                                     pmutool report (text) vs perf report
                                     --stdio -n --show-total-period -F
                                     [overhead_children,]overhead,sample,
                                     period,KEYS of tables of K events side
                                     by side (perf's group view): the titles,
                                     and row by row in perf's order each
                                     event's samples, period, [Children and]
                                     Self percentages, the keys (a symbol
                                     only perf names may differ)
  compare.py features OURS PERF      the two perf.data files' host-description
                                     features byte for byte (hostname, os
                                     release, arch, nrcpus, cpudesc, cpuid,
                                     total memory, CPU topology, PMU mappings,
                                     group, caches, memory topology, PMU
                                     capabilities), each present in both; the
                                     build-id records of the files both hit
  compare.py header OURS PERF        perf report --header-only -I of a file
                                     pmutool recorded vs of one perf recorded
                                     on the same machine: the same lines in
                                     the same order, with the same values but
                                     for those that differ by nature (times,
                                     sizes, ids, the command line, free memory)

Lines and rows must be equal, except where perf names a symbol pmutool does
not resolve by design (demangled C++ names) or perf report picks another
alias of an address than perf script; those are
counted and shown; for the samples of command COMM (the workload, whose
code is known: C) they may be at most a tenth (a system-wide recording also
holds whatever else ran, C++ compilers included).  Report totals per
command and file must be equal in any case.
"""
import json
import os
import re
import struct
import sys


def perf_only(sym):
    """A symbol perf names and pmutool, by design, does not."""
    return "::" in sym or "<" in sym or sym.startswith("operator") or " " in sym


# perf script -G's sample line: COMM PID [CPU] TIME: PERIOD EVENT: ADDR SYM+OFF (DSO)
SCRIPT_LINE = re.compile(r"^(.*?\d+\.\d+:\s+\d+\s+\S+:\s+[0-9a-f]+) (.*) \(([^()]*)\)$")


def script_fields(line):
    """The line cut into everything up to the address, the symbol, the DSO;
    a line of another form is all header."""
    m = SCRIPT_LINE.match(line)
    if not m:
        return line, "", ""
    return m.group(1), m.group(2), m.group(3)


def compare_script(ours, perf, comm):
    a = open(ours).read().splitlines()
    b = open(perf).read().splitlines()
    if len(a) != len(b):
        sys.exit(f"compare: {len(a)} lines from pmutool script, {len(b)} from perf script")
    if not a:
        sys.exit("compare: no samples at all")
    tolerated = 0
    for n, (x, y) in enumerate(zip(a, b), 1):
        if x == y:
            continue
        hx, sx, dx = script_fields(x)
        hy, sy, dy = script_fields(y)
        if hx == hy and dx == dy and perf_only(sy.rsplit("+", 1)[0]):
            tolerated += x.split()[0] == comm
            continue
        sys.exit(f"compare: line {n} differs:\n  pmutool: {x}\n  perf:    {y}")
    finish(tolerated, sum(x.split()[0] == comm for x in a), len(a), "samples", comm)


def perf_rows(path):
    rows, event = {}, None
    for line in open(path):
        m = re.match(r"^# Samples: \d+\S*\s+of events? '(.*)'", line)
        if m:
            event = m.group(1)
            continue
        m = re.match(r"^\s+(\d+)\s+(\d+)\s+(.*?)\s{2,}(.*?)\s{2,}(\[.\] .*?)\s*$", line)
        if m and int(m.group(1)):
            add(rows, (event, m.group(3), m.group(4), m.group(5)), int(m.group(1)),
                int(m.group(2)))
    return rows


def add(rows, key, samples, period):
    """Rows of one shown key summed: two symbols of one name, two files of
    one base name."""
    have = rows.get(key, (0, 0))
    rows[key] = (have[0] + samples, have[1] + period)


def short_name(dso):
    """perf report's name of a file (dsos.c dso__set_basename)."""
    jit = re.match(r"^/tmp/perf-([-+]?\d+)", dso)
    if jit:
        return f"[JIT] tid {int(jit.group(1))}"
    return dso if dso.startswith("[") else os.path.basename(dso)


def our_rows(path):
    doc = json.load(open(path))
    if doc.get("version") != 1:
        sys.exit("compare: pmutool report --json has no version 1")
    rows = {}
    for ev in doc["events"]:
        for r in ev["rows"]:
            dso = short_name(r["dso"])
            mode = {"kernel": "k", "user": "."}.get(r["mode"], "?")
            if r["samples"]:   # rows of the Children column alone are not perf's -F rows
                add(rows, (ev["name"], r["comm"], dso, f"[{mode}] {r['sym']}"), r["samples"],
                    r["period"])
    return rows


def by_dso(rows):
    """Samples and period per (event, comm, dso): symbols summed."""
    sums = {}
    for key, (n, period) in rows.items():
        s = sums.setdefault(key[:3], [0, 0])
        s[0] += n
        s[1] += period
    return sums


def compare_report(ours, perf, comm):
    a, b = our_rows(ours), perf_rows(perf)
    if not b:
        sys.exit("compare: no rows in perf report's output")
    if by_dso(a) != by_dso(b):
        sys.exit(f"compare: per command and file:\n  pmutool {by_dso(a)}\n  perf    {by_dso(b)}")
    tolerated = 0
    for key, want in sorted(b.items()):
        sym = key[3][4:]
        if a.get(key) == want:
            continue
        # perf report may name another alias of one address than perf
        # script (memset / __pi_memset): a row missing here is counted
        if perf_only(sym) or key not in a:
            tolerated += want[0] if key[1] == comm else 0
            continue
        sys.exit(f"compare: {key}: perf report {want}, pmutool report {a[key]}")
    finish(tolerated, sum(n for k, (n, _) in b.items() if k[1] == comm),
           sum(n for n, _ in b.values()), "samples", comm)


def children_rows_perf(path):
    rows = {}
    for line in open(path):
        m = re.match(r"^\s+([\d.]+)%\s+([\d.]+)%\s+(.*?)\s{2,}(.*?)\s{2,}(\[.\] .*?)\s*$", line)
        if m:
            rows[(m.group(3), m.group(4), m.group(5))] = (m.group(1), m.group(2))
    return rows


def children_rows_ours(path):
    rows = {}
    for ev in json.load(open(path))["events"]:
        for r in ev["rows"]:
            mode = {"kernel": "k", "user": "."}.get(r["mode"], "?")
            key = (r["comm"], short_name(r["dso"]), f"[{mode}] {r['sym']}")
            rows[key] = (f"{r['children_percent']:.2f}", f"{r['percent']:.2f}")
    return rows


def compare_children(ours, perf, comm):
    a, b = children_rows_ours(ours), children_rows_perf(perf)
    if not b:
        sys.exit("compare: no rows in perf report's children view")
    tolerated = 0
    for key in sorted(set(a) | set(b)):
        if a.get(key) == b.get(key):
            continue
        if perf_only(key[2][4:]):
            tolerated += key[0] == comm
            continue
        sys.exit(f"compare: {key}: perf report (children, self) {b.get(key)}, "
                 f"pmutool report {a.get(key)}")
    finish(tolerated, sum(k[0] == comm for k in b), len(b), "rows", comm)


def graph_rows(path, ours, npc):
    """[(row key, graph lines)] in the order printed, and {symbol: {dso}}
    of the rows (keys "COMM DSO [.] SYM", report's default sort)."""
    rows, dsos = [], {}
    pc = r"[\d.]+%\s+" * npc
    row = re.compile(r"^\s+(?:\d+\s+\d+\s+)" + pc + r"(.*\S)\s*$" if ours
                     else r"^\s+" + pc + r"(.*\S)\s*$")
    for line in open(path):
        line = line.rstrip()
        if line.startswith("#"):
            continue
        m = row.match(line)
        if m:
            rows.append((re.sub(r"\s+", " ", m.group(1)), []))
            k = re.match(r"^(.*?)\s{2,}(.*?)\s{2,}\[.\] (.*)$", m.group(1))
            if k:
                dsos.setdefault(k.group(3), set()).add(k.group(2))
        elif rows and line:
            rows[-1][1].append(line)
    return rows, dsos


# one level of perf's graph (ui/stdio/hist.c ipchain__fprintf_graph): "|"
# or " ", then ten columns, or "--P%--" on a branch's first line
LEVEL = 11


def graph_tree(lines):
    """A row's graph lines as a tree of nodes [percent, [frames], [children]]
    (the top node's percent None), read from the columns perf draws them in;
    ValueError on a line out of its columns."""
    root = [None, [], []]
    path, base = [root], 12          # path[k]: the open node of level k
    for line in lines:
        lead, mark, name = re.match(r"^([ |]*)(--[\d.]+%--|---)?(.*)$", line).groups()
        if not name:
            continue                 # a line of "|" between branches
        if mark == "---":            # a first node holding the whole row
            if len(path) > 1 or root[2]:
                raise ValueError(line)
            node = [None, [name], []]
            root[2].append(node)
            path, base = [node], len(lead) + len(mark)
        elif mark:                   # a branch: a child of the node of its level
            level, off = divmod(len(lead) - 1 - base, LEVEL)
            if off or level >= len(path):
                raise ValueError(line)
            node = [mark[2:-2], [name], []]
            path[level][2].append(node)
            path = path[:level + 1] + [node]
        else:                        # another frame of the open node of its level
            level, off = divmod(len(lead) - base, LEVEL)
            if off or level >= len(path) or not path[level][1]:
                raise ValueError(line)
            path[level][1].append(name)
    return root


def tie_order(node, dsos):
    """The tree with each run of siblings of equal percentage ordered by the
    file of their first frame (stable: siblings of one file keep their
    order), as nested tuples: the one thing perf's order does not tell, its
    order of dso objects in memory (util/callchain.c
    match_chain_dso_addresses), taken out.  A frame no row names counts as
    a file of its own; siblings named alike that rows name in more than one
    file (the _start of ld.so and of the program) are taken in the order of
    their subtrees: which file each is in, the graph does not say."""
    def key(n):
        name = node[2][n][1][0]
        d = dsos.get(name, ())
        if len(d) == 1:
            return (min(d), ())
        return ("?" + name, kids[n] if len(d) > 1 else ())

    kids, i = [tie_order(k, dsos) for k in node[2]], 0
    ordered = []
    while i < len(node[2]):
        j = i
        while j < len(node[2]) and node[2][j][0] == node[2][i][0]:
            j += 1
        run = sorted(range(i, j), key=key)
        ordered += [kids[n] for n in run]
        i = j
    return (node[0], tuple(node[1]), tuple(ordered))


def graph_failure(key, x, y):
    sys.exit(f"compare: the call graph of {key} differs:\n  pmutool:\n    " +
             "\n    ".join(x or ["(none)"]) + "\n  perf:\n    " + "\n    ".join(y or ["(none)"]))


def compare_graph(ours, perf, npc, *more):
    """Rows in perf's order, each one's graph line for line; where lines
    differ, the two trees must be equal but for the order of siblings of
    equal weight whose first frames lie in different files (the files from
    the rows of both outputs and of the perf report outputs in more, which
    name the frames a view without Children shows no row of)."""
    (a, dsos), (b, perf_dsos) = graph_rows(ours, True, int(npc)), graph_rows(perf, False, int(npc))
    if not b:
        sys.exit("compare: no rows in perf report's output")
    for path in more:
        for sym, d in graph_rows(path, False, 2)[1].items():
            perf_dsos.setdefault(sym, set()).update(d)
    for sym, d in perf_dsos.items():
        dsos.setdefault(sym, set()).update(d)
    if [k for k, _ in a] != [k for k, _ in b]:
        for n, (x, y) in enumerate(zip([k for k, _ in a] + ["(none)"] * len(b),
                                       [k for k, _ in b] + ["(none)"] * len(a)), 1):
            if x != y:
                sys.exit(f"compare: row {n} differs:\n  pmutool: {x}\n  perf:    {y}")
    ties = 0
    for (key, x), (_, y) in zip(a, b):
        if x == y:
            continue
        try:
            same = tie_order(graph_tree(x), dsos) == tie_order(graph_tree(y), dsos)
        except ValueError as e:
            sys.exit(f"compare: the call graph of {key}: a line out of perf's columns: {e}")
        if not same:
            graph_failure(key, x, y)
        ties += 1
    print(f"{len(b)} rows and their call graphs agree in order ({len(b) - ties} line for "
          f"line, {ties} but for the order of branches of equal weight in different files)")


def comm_rows_perf(path):
    """Rows by (dso, sym, event), as comm_rows_ours."""
    rows, event = {}, None
    for line in open(path):
        m = re.match(r"^# Samples: \d+\S*\s+of events? '(.*)'", line)
        if m:
            event = m.group(1)
            continue
        m = re.match(r"^\s+([\d.]+)%\s+(\d+)\s+(\d+)\s+(.*?)\s{2,}(\[.\] .*?)\s*$", line)
        if m:
            rows[(m.group(4), m.group(5), event)] = (m.group(1), int(m.group(2)),
                                                     int(m.group(3)))
    return rows


def comm_rows_ours(path, comm=None):
    """Rows by (dso, sym, event): (percent, samples, period), of every
    command (or of comm) summed."""
    rows = {}
    for ev in json.load(open(path))["events"]:
        for r in ev["rows"]:
            if comm is not None and r["comm"] != comm:
                continue
            mode = {"kernel": "k", "user": "."}.get(r["mode"], "?")
            key = (short_name(r["dso"]), f"[{mode}] {r['sym']}", ev["name"])
            _, n, period = rows.get(key, ("", 0, 0))
            rows[key] = (f"{r['percent']:.2f}", n + r["samples"], period + r["period"])
    return rows


def compare_comm(ours, perf, comm, full):
    a, b = comm_rows_ours(ours), comm_rows_perf(perf)
    own, every = comm_rows_ours(full, comm), comm_rows_ours(full)
    if not b:
        sys.exit("compare: no rows in perf report --comm's output")
    tolerated = merged = 0
    for key in sorted(set(a) | set(b)):
        if a.get(key) == b.get(key):
            continue
        if perf_only(key[1][4:]):
            tolerated += (b.get(key) or a.get(key))[1]
            continue
        shared = key in own and every[key][1] > own[key][1]
        ours_right = a.get(key) is None or a[key][1:] == own[key][1:]
        perf_merged = b.get(key) is None or b[key][1:] == every[key][1:]
        if shared and ours_right and perf_merged:
            merged += 1
            continue
        sys.exit(f"compare: --comm {comm} {key}: perf report {b.get(key)}, "
                 f"pmutool report {a.get(key)}")
    if merged:
        print(f"{merged} rows also hit by other commands: perf's hold their samples or none, "
              f"pmutool's {comm}'s own")
    finish(tolerated, sum(v[1] for v in b.values()), sum(v[1] for v in b.values()), "samples",
           comm)


def filtered_rows_perf(path):
    """Rows by (command or tid, dso, sym): (percent, samples, period)."""
    rows = {}
    for line in open(path):
        m = re.match(r"^\s+([\d.]+)%\s+(\d+)\s+(\d+)\s+(.*?)\s{2,}(.*?)\s{2,}(\[.\] .*?)\s*$",
                     line)
        if m:
            who = m.group(4).strip()
            thread = re.match(r"^(\d+):", who)   # perf's pid key: TID:COMMAND
            key = (int(thread.group(1)) if thread else who, m.group(5), m.group(6))
            rows[key] = (m.group(1), int(m.group(2)), int(m.group(3)))
    return rows


def filtered_rows_ours(path):
    rows = {}
    for ev in json.load(open(path))["events"]:
        for r in ev["rows"]:
            if not r["samples"]:
                continue
            mode = {"kernel": "k", "user": "."}.get(r["mode"], "?")
            who = r["comm"] if "comm" in r else r["tid"]
            rows[(who, short_name(r["dso"]), f"[{mode}] {r['sym']}")] = (
                f"{r['percent']:.2f}", r["samples"], r["period"])
    return rows


def compare_filtered(ours, perf, what):
    a, b = filtered_rows_ours(ours), filtered_rows_perf(perf)
    if not b:
        sys.exit(f"compare: {what}: no rows in perf report's output")
    tolerated = 0
    for key in sorted(set(a) | set(b), key=str):
        if a.get(key) == b.get(key):
            continue
        if perf_only(key[2][4:]):
            tolerated += (b.get(key) or a.get(key))[1]
            continue
        sys.exit(f"compare: {what}: {key}: perf report {b.get(key)}, pmutool report {a.get(key)}")
    total = sum(v[1] for v in b.values())
    if tolerated * 10 > total:
        sys.exit(f"compare: {what}: {tolerated} of {total} samples under perf-only symbols")
    print(f"{what}: {len(b)} rows, {total} samples agree ({tolerated} under symbols only perf "
          "names)")


def group_tables_perf(path, k, ncols):
    """perf's group view: [(title, samples or None, period, rows)], each
    row (keys, samples, periods, percentages: Children's then Self's)."""
    tables, rows = [], None
    for line in open(path):
        m = re.match(r"^# Samples: (\S+)\s+of events? '(.*)'$", line)
        if m:
            n = m.group(1)
            rows = []
            tables.append([m.group(2), int(n) if n.isdigit() else None, None, rows])
            continue
        m = re.match(r"^# Event count \(approx\.\): (\d+)$", line)
        if m and tables:
            tables[-1][2] = int(m.group(1))
            continue
        if rows is None or not line.strip() or line.startswith("#"):
            continue
        cols = line.split()[:ncols * k]
        keys = re.split(r"\s{2,}", line.rstrip("\n").split(None, ncols * k)[ncols * k].strip())
        npct = (ncols - 2) * k
        rows.append((tuple(keys), tuple(cols[npct:npct + k]), tuple(cols[npct + k:]),
                     tuple(cols[:npct])))
    return tables


def group_tables_ours(path, k, ncols):
    tables, rows = [], None
    for line in open(path):
        m = re.match(r"^# Events? '(.*)': (\d+) samples, period (\d+)$", line)
        if m:
            rows = []
            tables.append([m.group(1), int(m.group(2)), int(m.group(3)), rows])
            continue
        if rows is None or not line.strip() or line.startswith("#"):
            continue
        cols = line.split()[:ncols * k]
        keys = re.split(r"\s{2,}", line.rstrip("\n").split(None, ncols * k)[ncols * k].strip())
        rows.append((tuple(keys), tuple(cols[:k]), tuple(cols[k:2 * k]), tuple(cols[2 * k:])))
    return tables


def compare_group(ours, perf, k, children=""):
    k, ncols = int(k), 4 if children == "children" else 3
    a, b = group_tables_ours(ours, k, ncols), group_tables_perf(perf, k, ncols)
    if not b or not b[0][3]:
        sys.exit("compare: no table in perf report's output")
    if [t[0] for t in a] != [t[0] for t in b]:
        sys.exit(f"compare: tables {[t[0] for t in a]}, perf's {[t[0] for t in b]}")
    rows = 0
    for (title, n, period, ra), (_, pn, pperiod, rb) in zip(a, b):
        if (pn is not None and pn != n) or pperiod != period:
            sys.exit(f"compare: {title}: {n} samples, period {period}; perf {pn}, {pperiod}")
        if len(ra) != len(rb):
            sys.exit(f"compare: {title}: {len(ra)} rows, perf {len(rb)}")
        for i, (x, y) in enumerate(zip(ra, rb)):
            same_keys = x[0] == y[0] or perf_only(y[0][-1]) and x[0][:-1] == y[0][:-1]
            if not same_keys or x[1:] != y[1:]:
                sys.exit(f"compare: {title}: row {i + 1} differs:\n  pmutool: {x}\n  "
                         f"perf:    {y}")
        rows += len(rb)
    print(f"group: {len(b)} tables, {rows} rows agree in order")


def finish(tolerated, of_comm, total, what, comm):
    if not of_comm:
        sys.exit(f"compare: no {what} of {comm}")
    if tolerated * 10 > of_comm:
        sys.exit(f"compare: {tolerated} of {of_comm} {what} of {comm} differ by perf-only "
                 "symbols: too many")
    print(f"{total} {what} agree ({tolerated} of {comm}'s {of_comm} under symbols only perf "
          "names: C++, aliases)")


# header lines whose values differ between two recordings by nature
BY_NATURE = re.compile(r"^(captured on|data offset|data size|feat offset|perf version|cmdline|"
                       r"event|time of first sample|time of last sample|sample duration|"
                       r"node\d+ meminfo)$")


# the BPF programs loaded on the machine, which perf lists because its
# events ask for PERF_RECORD_BPF_EVENT (bpf_event = 1) and pmutool's do not
BPF_PROGRAMS = re.compile(r"^(bpf_prog_info \d+|btf info of id \d+)")


def header_lines(path):
    """(key, value) of each line of perf report --header-only: the key the
    text before the first colon, or the whole line."""
    out = []
    for line in open(path).read().splitlines():
        text = line.lstrip("#").strip()
        if not text or set(text) == {"="} or BPF_PROGRAMS.match(text):
            continue
        key, sep, value = text.partition(":")
        out.append((key.strip(), value.strip()) if sep else (text, ""))
    return out


def compare_header(ours, perf):
    a, b = header_lines(ours), header_lines(perf)
    failures = []
    if [k for k, _ in a] != [k for k, _ in b]:
        failures.append("lines differ:\n  ours: %s\n  perf: %s" % ([k for k, _ in a], [k for k, _ in b]))
    for (k, v), (k2, v2) in zip(a, b):
        if k == k2 and not BY_NATURE.match(k) and v != v2:
            failures.append(f"{k}: ours {v!r}, perf {v2!r}")
    for f in failures:
        print(f)
    print(f"header: {len(a)} lines, {len(failures)} differences")
    sys.exit(1 if failures else 0)


# tools/perf/util/header.h HEADER_* bits whose bytes do not depend on the
# recording: HOSTNAME OSRELEASE ARCH NRCPUS CPUDESC CPUID TOTAL_MEM
# CPU_TOPOLOGY PMU_MAPPINGS GROUP_DESC CACHE MEM_TOPOLOGY CPU_PMU_CAPS PMU_CAPS
HOST_FEATURES = (3, 4, 6, 7, 8, 9, 10, 13, 16, 17, 20, 22, 28, 31)


def features(path):
    """{bit: payload} of a perf.data file's feature sections."""
    d = open(path, "rb").read()
    data_off, data_size = struct.unpack_from("<QQ", d, 40)
    bits = struct.unpack_from("<4Q", d, 72)
    table, out = data_off + data_size, {}
    for b in range(256):
        if bits[b // 64] >> (b % 64) & 1:
            off, size = struct.unpack_from("<QQ", d, table)
            out[b] = d[off:off + size]
            table += 16
    return out


def build_ids(payload):
    """{name: record bytes} of a BUILD_ID feature (build-id.c write_buildid:
    36 bytes, then the name; header.size covers both)."""
    out, at = {}, 0
    while at + 36 <= len(payload):
        size = struct.unpack_from("<H", payload, at + 6)[0]
        if size < 36:
            break
        out[payload[at + 36:at + size].split(b"\0")[0].decode()] = payload[at:at + size]
        at += size
    return out


def compare_features(ours, perf):
    a, b = features(ours), features(perf)
    failures = [f"feature {bit}: ours {None if bit not in a else len(a[bit])} bytes, perf "
                f"{None if bit not in b else len(b[bit])}, not the same bytes"
                for bit in HOST_FEATURES if a.get(bit) != b.get(bit)]
    # the files both hit (the workload, the kernel...) and the vDSO: the
    # same build-id records
    ids_a, ids_b = build_ids(a.get(2, b"")), build_ids(b.get(2, b""))
    failures += [f"build-id record of {name}: ours {ids_a[name].hex()}, perf {ids_b[name].hex()}"
                 for name in sorted(set(ids_a) & set(ids_b)) if ids_a[name] != ids_b[name]]
    if "[vdso]" not in ids_a:
        failures.append("no build id of the vDSO")
    for f in failures:
        print(f)
    print(f"features: {sum(bit in b for bit in HOST_FEATURES)} compared, {len(failures)} differ")
    sys.exit(1 if failures else 0)


def listed_ids(path):
    """{build id: name} of perf buildid-list lines."""
    return dict(line.split(" ", 1) for line in open(path).read().splitlines() if line)


def cache_owner(line, ids):
    """The build id of the listed object a cache tree line is about, None
    for lines about none (a name directory shared by two ids: the first)."""
    path = line.split(" ")[1]
    for bid, name in ids.items():
        # a link is its id's alone (two ids may share the two-digit directory)
        if f"/{bid}" in path or path == f"./.build-id/{bid[:2]}/{bid[2:]}":
            return bid
        if path == "./" + name.lstrip("/") or path == f"./.build-id/{bid[:2]}":
            return bid
    return None


def compare_cache(ours, perf, ours_ids, perf_ids):
    a, b = set(open(ours).read().splitlines()), set(open(perf).read().splitlines())
    ids_a, ids_b = listed_ids(ours_ids), listed_ids(perf_ids)
    both = {bid: name for bid, name in ids_a.items() if ids_b.get(bid) == name}
    failures = []
    for line in sorted(a ^ b):
        owner = cache_owner(line, both)
        if owner is not None:
            failures.append(f"{'ours' if line in a else 'perf'} only: {line} ({both[owner]})")
        elif line in a and cache_owner(line, ids_a) is None:
            failures.append(f"ours only, of no object the file lists: {line}")
    for bid, name in ids_a.items():
        if not any(line.startswith(f"l ./.build-id/{bid[:2]}/{bid[2:]} ") for line in a):
            failures.append(f"{name} {bid}: listed, not in the cache")
    for f in failures:
        print(f)
    print(f"cache: {len(both)} objects in both, {len(failures)} differences")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "header":
        compare_header(*sys.argv[2:])
    if len(sys.argv) == 4 and sys.argv[1] == "features":
        compare_features(*sys.argv[2:])
    if len(sys.argv) == 6 and sys.argv[1] == "cache":
        compare_cache(*sys.argv[2:])
    if len(sys.argv) == 6 and sys.argv[1] == "comm":
        compare_comm(*sys.argv[2:])
        sys.exit(0)
    if len(sys.argv) >= 5 and sys.argv[1] == "graph":
        compare_graph(*sys.argv[2:])
        sys.exit(0)
    if len(sys.argv) in (5, 6) and sys.argv[1] == "group":
        compare_group(*sys.argv[2:])
        sys.exit(0)
    modes = {"script": compare_script, "report": compare_report,
             "children": compare_children, "filtered": compare_filtered}
    if len(sys.argv) != 5 or sys.argv[1] not in modes:
        sys.exit(__doc__)
    modes[sys.argv[1]](*sys.argv[2:])
