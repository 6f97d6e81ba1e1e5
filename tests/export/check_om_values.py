#!/usr/bin/env python3
"""check_om_values.py - the values of pmutool's OpenMetrics outputs against
the same runs' JSON (stat -M on the simulated kernel, whose counts are
fixed) and against dtl report --json (dispatches, steal, reasons, the wait
histograms' counts and sums), and the histogram buckets against the
report's own log2 histograms: an entry below 2^k us is at or below it.

stat -A, --per-core, --per-die, --per-socket (aggr-MODE.om, aggr-MODE.x): a
series per unit and event, labelled with the unit (cpu; socket, die, core),
exactly the units and values -x, prints for the same fixed counts; a unit
without the event (duration_time off CPU 0) has no point; by interval
(aggr-interval.om), each CPU's series timestamped, its last point the
run's count.

usage: check_om_values.py DIR   (DIR/metrics.om, metrics.json, dtl-*.om, dtl-*.json,
                                 aggr-*.om, aggr-*.x)
"""
import json
import os
import sys

from om_strict import text_string_to_metric_families

d = sys.argv[1]


def fail(msg):
    sys.exit(f"check_om_values: {msg}")


def samples(name):
    text = open(os.path.join(d, name)).read()
    return [s for f in text_string_to_metric_families(text) for s in f.samples]


def close(a, b, rel=1e-9, abs_tol=0.0):
    return abs(a - b) <= max(rel * max(abs(a), abs(b)), abs_tol)


# stat -M: each metric's gauge is its JSON value (% as a ratio)
js = json.load(open(os.path.join(d, "metrics.json")))
om = {s.labels["metric"]: (s.name, s.value) for s in samples("metrics.om") if "metric" in s.labels}
for m in js["metrics"]:
    name, value = om[m["name"]]
    want = m["value"] / 100 if m["unit"] == "%" else m["value"]
    if not close(value, want):
        fail(f"metric {m['name']}: OpenMetrics {value}, JSON {want}")
counts = {s.labels["event"]: s.value for s in samples("metrics.om") if s.name.endswith("_total")}
for e in js["events"]:
    if e["counted"] and not close(counts[e["name"]], e["value"]):
        fail(f"event {e['name']}: OpenMetrics {counts[e['name']]}, JSON {e['value']}")
print(f"check_om_values: stat -M: {len(js['metrics'])} metrics, {len(counts)} events as in JSON")

# dtl report: per CPU, the JSON's figures (its microseconds rounded to 3 digits)
for base in ("dtl-gen", "dtl-perfdata"):
    js = json.load(open(os.path.join(d, base + ".json")))
    ss = samples(base + ".om")
    for c in js["cpus"]:
        cpu = str(c["cpu"])

        def one(name, **labels):
            got = [s.value for s in ss if s.name == name and s.labels.get("cpu") == cpu and
                   all(s.labels.get(k) == v for k, v in labels.items())]
            if len(got) != 1:
                fail(f"{base}: cpu {cpu}: {len(got)} samples of {name} {labels}")
            return got[0]

        if one("pmu_dtl_dispatches_total") != c["dispatches"]:
            fail(f"{base}: cpu {cpu}: dispatches")
        if not close(one("pmu_dtl_steal_seconds_total") * 1e6, c["steal_us"], abs_tol=0.0005):
            fail(f"{base}: cpu {cpu}: steal {one('pmu_dtl_steal_seconds_total')} s, "
                 f"JSON {c['steal_us']} us")
        for kind in ("dispatch", "preempt"):
            for r in c[f"{kind}_reasons"]:
                if one(f"pmu_dtl_{kind}_reasons_total", code=str(r["code"])) != r["count"]:
                    fail(f"{base}: cpu {cpu}: {kind} reason {r['code']}")
        for t in ("enqueue_to_dispatch", "ready_to_enqueue", "waiting_to_ready"):
            dist = c[f"{t}_us"]
            count = one(f"pmu_dtl_{t}_seconds_count")
            if count != dist["count"] or not close(one(f"pmu_dtl_{t}_seconds_sum") * 1e6,
                                                   dist["mean"] * dist["count"],
                                                   abs_tol=0.0005 * dist["count"] + 1e-6):
                fail(f"{base}: cpu {cpu}: {t}: count or sum")
            buckets = sorted((float(s.labels["le"]), s.value) for s in ss
                             if s.name == f"pmu_dtl_{t}_seconds_bucket" and
                             s.labels["cpu"] == cpu)
            hist = dist.get("histogram")
            if hist is not None:
                # the report's bucket k holds [2^(k-1), 2^k) us: below le 2^k us,
                # so the OpenMetrics bucket at le 2^k us holds at least their sum
                below = 0
                for k, (le, v) in enumerate(buckets[:-1]):
                    below += hist[k]["count"] if isinstance(hist[k], dict) else hist[k]
                    if v < below:
                        fail(f"{base}: cpu {cpu}: {t}: le {le} holds {v}, fewer than the "
                             f"{below} below it")
            if buckets[-1][1] != count:
                fail(f"{base}: cpu {cpu}: {t}: +Inf bucket")
    print(f"check_om_values: {base}: {len(js['cpus'])} CPUs as dtl report --json")


# stat's per-unit modes: each -x, line "UNIT[,CPUS],COUNT,UNIT,EVENT,..." a
# series of the OpenMetrics file, its labels the unit's id's parts
def unit_labels(mode, unit):
    if mode == "-A":
        return {"cpu": unit[len("CPU"):]}
    parts = dict(zip("SDC", (int(p[1:]) for p in unit.split("-"))))
    keys = {"--per-socket": "S", "--per-die": "SD", "--per-core": "SDC"}[mode]
    return {{"S": "socket", "D": "die", "C": "core"}[k]: str(parts[k]) for k in keys}


def unit_key(labels):
    return tuple(sorted((k, v) for k, v in labels.items() if k in ("cpu", "socket", "die", "core")))


for mode in ("-A", "--per-core", "--per-die", "--per-socket"):
    ncols = 1 if mode == "-A" else 2
    want = {}
    for line in open(os.path.join(d, f"aggr{mode}.x")):
        row = line.rstrip("\n").split(",")
        if not line.strip() or line.startswith("#"):
            continue
        count, event = row[ncols], row[ncols + 2]
        if count != "<not counted>":
            want[(event, unit_key(unit_labels(mode, row[0])))] = float(count)
    got = {}
    ratios = set()
    for smp in samples(f"aggr{mode}.om"):
        key = unit_key(smp.labels)
        if smp.name == "pmu_stat_elapsed_seconds":
            continue
        if len(key) != {"-A": 1, "--per-core": 3, "--per-die": 2, "--per-socket": 1}[mode]:
            fail(f"{mode}: {smp.name} {smp.labels}: not the unit's labels")
        if smp.name == "pmu_stat_counted_ratio":
            ratios.add((smp.labels["event"], key))
        else:
            got[(smp.labels["event"], key)] = smp.value
    if set(got) != set(want) or ratios != set(want):
        fail(f"{mode}: series {sorted(got)}, counted ratios {sorted(ratios)}, -x, {sorted(want)}")
    for k, v in want.items():
        if k[0] == "duration_time":   # the run's own time: in seconds, positive
            if not 0 < got[k] < 60:
                fail(f"{mode}: {k}: {got[k]} s")
        elif not close(got[k], v):
            fail(f"{mode}: {k}: OpenMetrics {got[k]}, -x, {v}")
    print(f"check_om_values: stat {mode}: {len(want)} series as -x, prints them")

last = {}
for smp in samples("aggr-interval.om"):
    if smp.timestamp is None:
        fail(f"stat -A -I: {smp.name} {smp.labels} without a timestamp")
    last[(smp.labels["event"], unit_key(smp.labels))] = smp.value
want_a = {}
for line in open(os.path.join(d, "aggr-A.x")):
    row = line.split(",")
    if len(row) > 3 and row[1] != "<not counted>" and row[3] == "pm_run_inst_cmpl":
        want_a[("pm_run_inst_cmpl", unit_key({"cpu": row[0][3:]}))] = float(row[1])
if {k: v for k, v in last.items() if k[0] == "pm_run_inst_cmpl"} != want_a or \
        {k[1] for k in last if k[0] == "duration_time"} != {(("cpu", "0"),)}:
    fail(f"stat -A -I: last points {last}, want {want_a} and duration_time on CPU 0 alone")
print(f"check_om_values: stat -A -I: {len(last)} series, their last points the run's counts")
