#!/usr/bin/env python3
"""stat_json.py OURS PERF - pmutool stat --json against perf 6.1's stat -j on
the same command: one JSON object per line, each with perf's keys in perf's
order (interval, counter-value, unit, event, variance, event-runtime,
pcnt-running, metric-value, metric-unit), the same events in the same order
with the same units, and the same metric unit on every counted line (perf
6.1 prints "(null)" for an event without a derived figure, pmutool ""; a
rate's K, M or G, which follows the count, set aside: each line's own
prefix is checked against its value, as perf's convert_unit_double picks
it). Counts differ from run to run and are only checked for their form."""
import json
import sys


def lines(path):
    out = []
    for text in open(path):
        text = text.strip()
        if text.startswith("{"):
            out.append(json.loads(text, object_pairs_hook=list))
    if not out:
        sys.exit(f"stat_json: no JSON line in {path}")
    return out


RATE_PREFIXES = ("K", "M", "G")


def rate_family(unit):
    """A rate's unit without the prefix its size chose: "K/sec" -> "/sec"."""
    return unit[1:] if unit[:1] in RATE_PREFIXES and unit[1:] == "/sec" else unit


def check_form(o, path):
    d = dict(o)
    v = d["counter-value"]
    if v not in ("<not counted>", "<not supported>"):
        float(v)   # "%f" in a string, as perf's
    assert isinstance(d["event-runtime"], int) and isinstance(d["pcnt-running"], float), (path, d)
    assert isinstance(d["metric-value"], float), (path, d)
    unit, m = d["metric-unit"], d["metric-value"]
    if v[0] != "<" and rate_family(unit) == "/sec":
        # stat-shadow.c convert_unit_double: divided by 1000 while over
        # 1000, at most three times (K, M, G)
        scaled = unit[:1] in RATE_PREFIXES
        assert (not scaled or m > 1.0) and (unit[:1] == "G" or m <= 1000.0), (path, d)


def shape(objs, path):
    """Per event in order: its keys, its unit, its metric unit when counted."""
    events, metric_units = [], {}
    for o in objs:
        check_form(o, path)
        d = dict(o)
        key = (d["event"], tuple(k for k, _ in o), d["unit"])
        if key not in events:
            events.append(key)
        if d["counter-value"][0] != "<":
            unit = rate_family(d["metric-unit"].replace("(null)", ""))
            metric_units.setdefault(d["event"], set()).add(unit)
    return events, metric_units


ours, perf = lines(sys.argv[1]), lines(sys.argv[2])
a, b = shape(ours, "pmutool"), shape(perf, "perf")
if a[0] != b[0]:
    sys.exit(f"stat_json: lines differ:\n  pmutool {a[0]}\n  perf    {b[0]}")
if a[1] != b[1]:
    sys.exit(f"stat_json: metric units differ:\n  pmutool {a[1]}\n  perf    {b[1]}")
times = [dict(o)["interval"] for o in ours if "interval" in dict(o)]
if times != sorted(times):
    sys.exit(f"stat_json: intervals out of order: {times}")
print(f"stat_json: {len(ours)} lines of {len(a[0])} events as perf's {len(perf)}")
