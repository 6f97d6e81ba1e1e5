#!/usr/bin/env python3
"""check_dtl_pprof.py - dtl report --pprof as Go's pprof reads it, against
dtl report --json of the same log: the steal total (pprof -top's), the
dispatches, and the dispatches per dispatch and preempt reason and per CPU
(the samples' labels in pprof -raw).

usage: check_dtl_pprof.py REPORT.json PPROF.raw PPROF.top
"""
import json
import re
import sys
from collections import Counter

js = json.load(open(sys.argv[1]))
raw = open(sys.argv[2]).read()
top = open(sys.argv[3]).read()


def fail(msg):
    sys.exit(f"check_dtl_pprof: {msg}")


m = re.search(r"of (\d+)ns total", top)
steal_us = sum(c["steal_us"] for c in js["cpus"])
dispatches = sum(c["dispatches"] for c in js["cpus"])
# per entry rounded to the ns: at most half a ns an entry apart
if not m or abs(int(m.group(1)) / 1000 - steal_us) > dispatches * 0.0005 + 0.001:
    fail(f"pprof's steal total {m and m.group(1)} ns, dtl report {steal_us} us:\n{top}")
samples = re.findall(r"^\s+(\d+)\s+(\d+): [\d ]+\n((?:\s+\w+:\[.*\n)*)", raw.split("Locations")[0],
                     re.M)
by = {"dispatch_reason": Counter(), "preempt_reason": Counter(), "cpu": Counter()}
total = 0
for n, _, labels in samples:
    total += int(n)
    for key, val in re.findall(r"(\w+):\[([^\]]*)\]", labels):
        by[key][val] += int(n)
if total != dispatches:
    fail(f"pprof has {total} dispatches, dtl report {dispatches}")
for kind in ("dispatch", "preempt"):
    want = Counter()
    for c in js["cpus"]:
        for r in c[f"{kind}_reasons"]:
            want[r["reason"]] += r["count"]
    if by[f"{kind}_reason"] != want:
        fail(f"{kind} reasons: pprof {dict(by[kind + '_reason'])}, report {dict(want)}")
if by["cpu"] != Counter({str(c["cpu"]): c["dispatches"] for c in js["cpus"]}):
    fail(f"cpus: {dict(by['cpu'])}")
print(f"check_dtl_pprof: {total} dispatches, steal {m.group(1)} ns, reasons and CPUs as dtl report")
