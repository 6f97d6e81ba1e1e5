#!/usr/bin/env python3
"""check_om_values.py - the values of pmutool's OpenMetrics outputs against
the same runs' JSON (stat -M on the simulated kernel, whose counts are
fixed) and against dtl report --json (dispatches, steal, reasons, the wait
histograms' counts and sums), and the histogram buckets against the
report's own log2 histograms: an entry below 2^k us is at or below it.

usage: check_om_values.py DIR   (DIR/metrics.om, metrics.json, dtl-*.om, dtl-*.json)
"""
import json
import os
import sys

from prometheus_client.openmetrics.parser import text_string_to_metric_families

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
