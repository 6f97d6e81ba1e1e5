#!/usr/bin/env python3
"""The numbers of a rendered `dtl report --html` page against the JSON report.

usage: check_html.py DOM JSON
DOM is what `chromium --headless --dump-dom` printed: the summary table
exists only once the page's script ran.  Each row (CPU, metric) must show
the JSON's dispatches, steal and percentiles; the SVG histograms' bar titles
must give the JSON's bucket counts.
"""
import json
import re
import sys
from html.parser import HTMLParser


class Rows(HTMLParser):
    def __init__(self):
        super().__init__()
        self.rows, self.row, self.key, self.titles, self.in_title = [], None, None, [], False
        self.rendered = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "body" and a.get("data-rendered") == "yes":
            self.rendered = True
        if tag == "tr" and "data-metric" in a:
            self.row = {"cpu": a["data-cpu"], "metric": a["data-metric"]}
        elif tag == "td" and self.row is not None:
            self.key = a.get("data-key")
        elif tag == "title":
            self.in_title = True

    def handle_endtag(self, tag):
        if tag == "tr" and self.row is not None:
            self.rows.append(self.row)
            self.row = None
        elif tag == "td":
            self.key = None
        elif tag == "title":
            self.in_title = False

    def handle_data(self, data):
        if self.row is not None and self.key:
            self.row[self.key] = data
        elif self.in_title:
            self.titles.append(data)


def main():
    dom = open(sys.argv[1]).read()
    rep = json.load(open(sys.argv[2]))
    p = Rows()
    p.feed(dom)
    failures = []
    if not p.rendered:
        failures.append("the page's script did not run (no data-rendered)")
    cpus = {str(c["cpu"]): c for c in rep["cpus"]}
    cpus["all"] = rep["overall"]
    want_rows = len(cpus) * 3
    if len(p.rows) != want_rows:
        failures.append(f"{len(p.rows)} table rows, expected {want_rows}")
    for row in p.rows:
        c, m = cpus[row["cpu"]], row["metric"]
        expect = {"dispatches": str(c["dispatches"]), "steal_us": f'{c["steal_us"]:.3f}',
                  "steal_percent": f'{c["steal_percent"]:.2f}'}
        for q in ("p50", "p90", "p99", "max"):
            expect[q] = f"{c[m][q]:.3f}"
        for k, v in expect.items():
            if row.get(k) != v:
                failures.append(f"CPU {row['cpu']} {m} {k}: page {row.get(k)!r}, JSON {v!r}")
    # the histograms: one titled bar per bucket, three metrics, all CPUs
    bars = [t for t in p.titles if re.match(r"\[\d+, \d+\) us: \d+$", t)]
    for k, m in enumerate(["enqueue_to_dispatch_us", "ready_to_enqueue_us", "waiting_to_ready_us"]):
        shown = [int(t.rsplit(" ", 1)[1]) for t in bars[k * 34:(k + 1) * 34]]
        hist = [b["count"] for b in rep["overall"][m]["log2_histogram"]]
        if shown[:len(hist)] != hist or any(shown[len(hist):]):
            failures.append(f"{m} histogram: page {shown}, JSON {hist}")
    for f in failures:
        print(f)
    print(f"{len(p.rows)} rows, {len(bars)} bars checked, {len(failures)} differences")
    sys.exit(1 if failures else 0)


main()
