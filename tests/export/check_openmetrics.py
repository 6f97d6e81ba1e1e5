#!/usr/bin/env python3
"""check_openmetrics.py - pmutool's OpenMetrics text judged by the readers
the engines use:

  1. every file through the strict parser of Debian's python3-prometheus-client
     (prometheus_client.openmetrics.parser: # EOF, metadata, units, counters'
     _total, histograms' buckets, timestamps);
  2. the files with timestamps (stat -I) imported by `promtool tsdb
     create-blocks-from openmetrics` into a fresh data directory;
  3. Prometheus (Debian's prometheus 2.42) started on that directory on the
     loopback address, scraping the files without timestamps from a file
     server here as application/openmetrics-text; its query API must return
     every value the files hold, the imported points at their own times too.

usage: check_openmetrics.py WORKDIR FILE.om...
The bounded waits count attempts (Prometheus must come up and scrape), so a
busy machine only makes the test slower.
"""
import http.server
import json
import math
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request

from om_strict import text_string_to_metric_families

work, files = sys.argv[1], sys.argv[2:]
CONTENT_TYPE = "application/openmetrics-text; version=1.0.0; charset=utf-8"


def fail(msg):
    sys.exit(f"check_openmetrics: {msg}")


def need(tool, package):
    from shutil import which
    if not which(tool):
        fail(f"{tool} not found: install the Debian package {package}")


need("prometheus", "prometheus")
need("promtool", "prometheus")

# --- 1. the strict parser --------------------------------------------------------
parsed = {}
for path in files:
    text = open(path).read()
    try:
        families = list(text_string_to_metric_families(text))
    except ValueError as e:
        fail(f"{path}: the OpenMetrics parser refuses it: {e}")
    samples = [s for f in families for s in f.samples]
    if not samples:
        fail(f"{path}: no samples")
    parsed[path] = (families, samples)
    print(f"check_openmetrics: {os.path.basename(path)}: {len(families)} families, "
          f"{len(samples)} samples pass the strict parser")

stamped = [p for p in files if any(s.timestamp is not None for s in parsed[p][1])]
live = [p for p in files if p not in stamped]

# --- 2. promtool's import of the stamped files -------------------------------------
data = os.path.join(work, "prometheus-data")
os.makedirs(data, exist_ok=True)
for path in stamped:
    r = subprocess.run(["promtool", "tsdb", "create-blocks-from", "openmetrics", path, data],
                       capture_output=True, text=True)
    if r.returncode:
        fail(f"{path}: promtool create-blocks-from openmetrics: {r.stdout}{r.stderr}")
    print(f"check_openmetrics: {os.path.basename(path)}: imported by promtool")


# --- 3. Prometheus on loopback ------------------------------------------------------
def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Files(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        name = self.path.lstrip("/")
        match = [p for p in live if os.path.basename(p) == name]
        if not match:
            self.send_error(404)
            return
        body = open(match[0], "rb").read()
        self.send_response(200)
        self.send_header("Content-Type", CONTENT_TYPE)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", free_port()), Files)
threading.Thread(target=server.serve_forever, daemon=True).start()
prom_port = free_port()
config = os.path.join(work, "prometheus.yml")
with open(config, "w") as f:
    f.write("global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\nscrape_configs:\n")
    for i, path in enumerate(live):
        f.write(f"  - job_name: f{i}\n    honor_labels: true\n"
                f"    metrics_path: /{os.path.basename(path)}\n"
                f"    static_configs:\n      - targets: ['127.0.0.1:{server.server_port}']\n")
log = open(os.path.join(work, "prometheus.log"), "w")
prom = subprocess.Popen(["prometheus", f"--config.file={config}",
                         f"--storage.tsdb.path={data}",
                         f"--web.listen-address=127.0.0.1:{prom_port}"],
                        stdout=log, stderr=subprocess.STDOUT)


def query(expr, at=None):
    args = {"query": expr}
    if at is not None:
        args["time"] = f"{at:.3f}"
    url = f"http://127.0.0.1:{prom_port}/api/v1/query?" + urllib.parse.urlencode(args)
    with urllib.request.urlopen(url, timeout=10) as r:
        doc = json.load(r)
    if doc.get("status") != "success":
        fail(f"query {expr}: {doc}")
    return doc["data"]["result"]


def selector(sample, job):
    """The series: its labels, and the scrape's job (job="" for an imported
    one, which has none)."""
    labels = [f'{k}="{v}"' for k, v in sorted(sample.labels.items())]
    labels.append(f'job="{job}"')
    return f"{sample.name}{{{','.join(labels)}}}"


def exact(result, sample):
    """The series whose labels are the sample's, no more (a selector
    matches series with more labels too)."""
    return [r for r in result if {k: v for k, v in r["metric"].items()
                                  if k not in ("__name__", "job", "instance")} == sample.labels]


def same(a, b):
    if math.isnan(a) and math.isnan(b):
        return True
    return a == b or abs(a - b) <= 1e-12 * max(abs(a), abs(b))


try:
    # up to 240 attempts half a second apart: Prometheus started and every
    # target scraped at least once
    for attempt in range(240):
        try:
            up = query("up")
            if len(up) == len(live) and all(r["value"][1] == "1" for r in up):
                break
        except OSError:
            pass
        time.sleep(0.5)
    else:
        fail(f"Prometheus did not scrape the {len(live)} targets (see {log.name})")
    checked = 0
    for i, path in enumerate(live):
        for s in parsed[path][1]:
            got = exact(query(selector(s, f"f{i}")), s)
            if len(got) != 1 or not same(float(got[0]["value"][1]), float(s.value)):
                fail(f"{os.path.basename(path)}: Prometheus has {selector(s, f'f{i}')} = {got}, "
                     f"pmutool wrote {s.value}")
            checked += 1
    for path in stamped:
        for s in parsed[path][1]:
            got = exact(query(selector(s, ""), at=float(s.timestamp)), s)
            if len(got) != 1 or not same(float(got[0]["value"][1]), float(s.value)):
                fail(f"{os.path.basename(path)}: the imported {selector(s, '')} at {s.timestamp} "
                     f"= {got}, pmutool wrote {s.value}")
            checked += 1
    print(f"check_openmetrics: Prometheus returns all {checked} values pmutool wrote")
finally:
    prom.terminate()
    try:
        prom.wait(timeout=30)
    except subprocess.TimeoutExpired:
        prom.kill()
    server.shutdown()
