#!/usr/bin/env python3
"""The numbers of a rendered `dtl report --html` page against the JSON report.

usage: check_html.py DOM JSON
DOM is what `chromium --headless --dump-dom` printed: the tables exist only
once the page's script ran.  The summary (one row per CPU and all CPUs), the
times (a row per CPU and time) and the two reason tables must show the JSON's
numbers, durations in the unit their magnitude calls for (us, ms, s); each SVG
histogram must give the JSON's bucket counts in its bars' titles and in the
labels above the bars, have a labelled count axis and an x-axis title; and no
text may lie outside its SVG (html_test.sh's probe measures them in Chromium
and writes body data-overflow).
"""
import json
import re
import sys
from html.parser import HTMLParser

METRICS = ["enqueue_to_dispatch_us", "ready_to_enqueue_us", "waiting_to_ready_us"]


def dur(us):
    """The page's dur(): microseconds in us, ms or s."""
    if us < 1e3:
        return f"{us:.3f} \u00b5s"
    if us < 1e6:
        return f"{us / 1e3:.3f} ms"
    return f"{us / 1e6:.3f} s"


class Page(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tables = {}  # table id -> rows (dicts of data-* and cell keys)
        self.table = self.row = self.key = None
        self.svgs = []  # per svg.hist: bar titles, count labels, tick labels, axis titles
        self.text_class = None
        self.in_title = False
        self.body = {}
        self.warnings = None  # the text of p#warnings, None while hidden
        self.in_warnings = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "body":
            self.body = a
        elif tag == "p" and a.get("id") == "warnings":
            self.in_warnings = "hidden" not in a
            self.warnings = "" if self.in_warnings else None
        elif tag == "table":
            self.table = a.get("id")
            self.tables.setdefault(self.table, [])
        elif tag == "tr" and self.table and any(k.startswith("data-") for k in a):
            self.row = {k[5:]: v for k, v in a.items() if k.startswith("data-")}
        elif tag == "td" and self.row is not None:
            self.key = a.get("data-key")
            if self.key == "bar":
                self.row["bar"] = None
        elif tag == "div" and self.row is not None and a.get("class") == "hbar":
            self.row["bar"] = a.get("style", "")
        elif tag == "svg" and a.get("class") == "hist":
            self.svgs.append({"titles": [], "count": [], "tick": [], "axis": []})
        elif tag == "title" and self.svgs:
            self.in_title = True
        elif tag == "text" and self.svgs:
            self.text_class = a.get("class")

    def handle_endtag(self, tag):
        if tag == "tr" and self.row is not None:
            self.tables[self.table].append(self.row)
            self.row = None
        elif tag == "td":
            self.key = None
        elif tag == "table":
            self.table = None
        elif tag == "title":
            self.in_title = False
        elif tag == "text":
            self.text_class = None
        elif tag == "p":
            self.in_warnings = False

    def handle_data(self, data):
        if self.in_warnings:
            self.warnings += data
        if self.row is not None and self.key:
            self.row[self.key] = data
        elif self.in_title:
            self.svgs[-1]["titles"].append(data)
        elif self.text_class in ("count", "tick", "axis"):
            self.svgs[-1][self.text_class].append(data)


def compare(failures, where, shown, want):
    for k, v in want.items():
        if shown.get(k) != v:
            failures.append(f"{where} {k}: page {shown.get(k)!r}, JSON {v!r}")


def check_tables(p, rep, failures):
    cpus = {str(c["cpu"]): c for c in rep["cpus"]}
    cpus["all"] = rep["overall"]
    summary, times = p.tables.get("summary", []), p.tables.get("times", [])
    if sorted(r.get("cpu") for r in summary) != sorted(cpus):
        failures.append(f"summary rows for {[r.get('cpu') for r in summary]}, expected {sorted(cpus)}")
    if len(times) != len(cpus) * len(METRICS):
        failures.append(f"{len(times)} times rows, expected {len(cpus) * len(METRICS)}")
    for row in summary:
        c = cpus[row["cpu"]]
        compare(failures, f"summary CPU {row['cpu']}", row, {
            "dispatches": str(c["dispatches"]), "span": dur(c["span_us"]),
            "steal": dur(c["steal_us"]), "steal_percent": f'{c["steal_percent"]:.2f}'})
    for row in times:
        d = cpus[row["cpu"]][row["metric"]]
        want = {"count": str(d["count"]), "time": row["metric"][:-3]}
        want.update({q: dur(d[q]) for q in ("mean", "p50", "p90", "p99", "max")})
        compare(failures, f"times CPU {row['cpu']} {row['metric']}", row, want)
    disp = rep["overall"]["dispatches"]
    for kind in ("dispatch", "preempt"):
        rows, mix = p.tables.get(f"{kind}-reasons", []), rep["overall"][f"{kind}_reasons"]
        if len(rows) != len(mix):
            failures.append(f"{kind} reasons: {len(rows)} rows, JSON {len(mix)}")
        for row, r in zip(rows, mix):
            pct = f'{100 * r["count"] / disp:.2f}'
            compare(failures, f"{kind} reason {r['code']}", row, {
                "code": str(r["code"]), "reason": r["reason"], "count": str(r["count"]),
                "percent": pct})
            bar = re.fullmatch(r"width: ([0-9.]+)%;", row.get("bar") or "")
            if not bar or float(bar.group(1)) != float(pct):
                failures.append(f"{kind} reason {r['code']} bar: {row.get('bar')!r}, JSON {pct}%")
    return len(summary) + len(times)


def check_histograms(p, rep, failures):
    if len(p.svgs) != len(METRICS):
        failures.append(f"{len(p.svgs)} histograms, expected {len(METRICS)}")
    nbars = 0
    for svg, m in zip(p.svgs, METRICS):
        hist = [b["count"] for b in rep["overall"][m]["log2_histogram"]]
        bars = [t for t in svg["titles"] if re.match(r"\[\d+, \d+\) us: \d+$", t)]
        nbars += len(bars)
        shown = [int(t.rsplit(" ", 1)[1]) for t in bars]
        if shown != hist:
            failures.append(f"{m} histogram bars: page {shown}, JSON {hist}")
        labels = [int(t) for t in svg["count"]]
        if labels != [n for n in hist if n]:
            failures.append(f"{m} count labels: page {labels}, JSON {hist}")
        ticks = svg["tick"]
        counts = [int(t) for t in ticks if t.isdigit()]
        if len(counts) < 2 or counts[0] != 0 or max(counts) < max(hist):
            failures.append(f"{m}: count axis {counts} does not reach {max(hist)}")
        if len(ticks) - len(counts) != len(hist) + 1:  # the bars' edges: 0 us, 1 us, 2 us ...
            failures.append(f"{m}: {len(ticks) - len(counts)} x-axis ticks for {len(hist)} bars")
        if svg["axis"] != [f"{m[:-3]} (log2 buckets)", "entries"]:
            failures.append(f"{m}: axis titles {svg['axis']}")
    return nbars


def main():
    p = Page()
    p.feed(open(sys.argv[1]).read())
    rep = json.load(open(sys.argv[2]))
    failures = []
    if p.body.get("data-rendered") != "yes":
        failures.append("the page's script did not run (no data-rendered)")
    if p.body.get("data-overflow") != "none":
        failures.append(f"text outside its SVG: {p.body.get('data-overflow')!r}")
    if rep["warning_count"] and not (p.warnings or "").startswith(f'Warning: {rep["warning_count"]} '):
        failures.append(f"{rep['warning_count']} warnings, the page says {p.warnings!r}")
    if not rep["warning_count"] and p.warnings is not None:
        failures.append(f"no warning, the page says {p.warnings!r}")
    rows = check_tables(p, rep, failures)
    bars = check_histograms(p, rep, failures)
    for f in failures:
        print(f)
    print(f"{rows} rows, {bars} bars checked, {len(failures)} differences")
    sys.exit(1 if failures else 0)


main()
