#!/usr/bin/env python3
"""Recompute `pmutool dtl report --json` from the raw DTL bytes.

usage: check_report.py PMUTOOL RAW[:AUX_SIZE]... [random:SEED:N]...

random:SEED:N writes N entries whose times span every magnitude from 0 to
2^32-1, with runs of equal values (the report's rank selection works on
bit ranges of the values, several passes deep for large ones), to a
temporary file and checks that.

For each file, the entries are decoded here from the documented layout
(header slot at 0 with a zero timebase, big-endian entries, entries with a
timebase <= 0 as a signed value skipped, the stale tail past
(aux_size - 32) // 48 slots split off at each wrap), and every figure of the
report is compared: dispatches, skipped, stale bytes, the reason mix, steal
(enqueue_to_dispatch + ready_to_enqueue), nearest-rank p50/p90/p99, max,
mean and the log2 microsecond histograms; and the warnings (an implausible
header tb_freq, a timebase going backwards or before boot_tb, the three
times longer than the gap since the previous entry), counted and placed.
"""
import json
import os
import random
import struct
import subprocess
import sys
import tempfile

TIMES = ["enqueue_to_dispatch", "ready_to_enqueue", "waiting_to_ready"]


def decode(data, aux_size):
    hdr = None
    entries, skipped, stale = [], 0, 0
    limit = (aux_size - 32) // 48 * 48 if aux_size else None
    pos = 0
    while pos + 48 <= len(data):
        if limit is not None and pos % aux_size >= limit:
            stale += aux_size - pos % aux_size
            pos += aux_size - pos % aux_size
            continue
        slot = data[pos:pos + 48]
        if pos == 0 and struct.unpack_from("=Q", slot, 16)[0] == 0:
            boot, freq = struct.unpack_from("=QQ", slot, 0)
            hdr = (boot, freq)
        else:
            f = struct.unpack(">BBHIIIQQQQ", slot)
            if f[6] == 0 or f[6] >= 1 << 63:
                skipped += 1
            else:
                entries.append(f + (pos,))
        pos += 48
    return hdr, entries, skipped, stale


def warnings(hdr, entries, base=0):
    """The implausible values the report must name, in entry order:
    (kind, offset); entries are one CPU's, each with its offset last."""
    out = []
    if hdr and not 1000000 <= hdr[1] <= 10000000000:
        out.append(("tb_freq", base))
    prev = None
    for f in entries:
        tb, off = f[6], f[3] + f[4] + f[5]
        if hdr and tb < hdr[0]:
            out.append(("before_boot", base + f[-1]))
        if prev is not None:
            if tb < prev:
                out.append(("time_backwards", base + f[-1]))
            elif off > tb - prev:
                out.append(("off_exceeds_gap", base + f[-1]))
        prev = tb
    return out


def check_warnings(c, rep, want):
    """rep's warning_count, warning_kinds and kept warnings against want."""
    c.eq("warning_count", rep["warning_count"], len(want))
    kinds = {k: 0 for k in ("tb_freq", "time_backwards", "before_boot", "off_exceeds_gap")}
    for k, _ in want:
        kinds[k] += 1
    c.eq("warning_kinds", rep["warning_kinds"], kinds)
    c.eq("warnings kept", [(w["kind"], w["offset"]) for w in rep["warnings"]], want[:20])


def rank(values, p):
    s = sorted(values)
    r = (p * len(s) + 99) // 100
    return s[max(r, 1) - 1]


def bucket(us):
    return 0 if us < 1 else min(int(us).bit_length(), 33)


class Checker:
    def __init__(self, name):
        self.name, self.failures = name, 0

    def eq(self, what, got, want, tol=0.0):
        ok = abs(got - want) <= tol if tol else got == want
        if not ok:
            print(f"{self.name}: {what}: report {got!r}, recomputed {want!r}")
            self.failures += 1


def check(c, rep, entries, skipped, stale, freq):
    us = lambda t: t * 1e6 / freq
    c.eq("dispatches", rep["dispatches"], len(entries))
    c.eq("skipped", rep["skipped"], skipped)
    c.eq("stale_bytes", rep["stale_bytes"], stale)
    for key, idx in (("dispatch_reasons", 0), ("preempt_reasons", 1)):
        mix = {}
        for e in entries:
            mix[e[idx]] = mix.get(e[idx], 0) + 1
        got = {r["code"]: r["count"] for r in rep[key]}
        c.eq(key, got, mix)
    steal = sum(e[3] + e[4] for e in entries)
    c.eq("steal_us", rep["steal_us"], round(us(steal), 3), 0.0015)
    if entries:
        span = entries[-1][6] - entries[0][6]
        c.eq("span_us", rep["span_us"], round(us(span), 3), 0.0015)
    for k, name in enumerate(TIMES):
        vals = [e[3 + k] for e in entries]
        d = rep[name + "_us"]
        c.eq(name + " count", d["count"], len(vals))
        if not vals:
            continue
        for p in (50, 90, 99):
            c.eq(f"{name} p{p}", d[f"p{p}"], us(rank(vals, p)), 0.0006)
        c.eq(name + " max", d["max"], us(max(vals)), 0.0006)
        c.eq(name + " mean", d["mean"], us(sum(vals)) / len(vals), 0.0006)
        per_tick = 1e6 / freq
        hist = [0] * 34
        for v in vals:
            hist[bucket(v * per_tick)] += 1
        while hist and not hist[-1]:
            hist.pop()
        c.eq(name + " histogram", [b["count"] for b in d["log2_histogram"]], hist)
        c.eq(name + " histogram bounds", [(b["lo_us"], b["hi_us"]) for b in d["log2_histogram"]],
             [(0 if i == 0 else 1 << (i - 1), 1 << i) for i in range(len(hist))])


def random_file(seed, n):
    rnd = random.Random(seed)
    ties = [rnd.getrandbits(32) for _ in range(4)]

    def value():
        if rnd.random() < 0.2:
            return rnd.choice(ties)
        return rnd.getrandbits(rnd.randint(0, 32))

    data = struct.pack("=QQQ", 1000, 512000000, 0) + bytes(24)
    for i in range(n):
        data += struct.pack(">BBHIIIQQQQ", i % 11, i % 10, 0, value(), value(), value(),
                            2000 + i, 0, 0, 0)
    f = tempfile.NamedTemporaryFile(suffix=".bin", delete=False)
    f.write(data)
    f.close()
    return f.name


def main():
    pmutool = sys.argv[1]
    failures = 0
    for arg in sys.argv[2:]:
        made = None
        if arg.startswith("random:"):
            _, seed, n = arg.split(":")
            path = made = random_file(int(seed), int(n))
            aux_size = 0
        else:
            path, _, aux = arg.partition(":")
            aux_size = int(aux) if aux else 0
        cmd = [pmutool, "dtl", "report", "--json", path]
        if aux_size:
            cmd += ["--aux-size", str(aux_size)]
        rep = json.loads(subprocess.run(cmd, check=True, capture_output=True).stdout)
        hdr, entries, skipped, stale = decode(open(path, "rb").read(), aux_size)
        if made:
            os.unlink(made)
        freq = hdr[1] if hdr else 512000000
        c = Checker(arg)
        c.eq("version", rep["version"], 1)
        c.eq("tb_freq", rep["tb_freq"], freq)
        c.eq("cpus", [x["cpu"] for x in rep["cpus"]], [0])
        check(c, rep["cpus"][0], entries, skipped, stale, freq)
        check(c, rep["overall"], entries, skipped, stale, freq)
        want = warnings(hdr, entries)
        check_warnings(c, rep, want)
        if len(entries) < 10:
            print(f"{arg}: only {len(entries)} entries")
            c.failures += 1
        failures += c.failures
        print(f"{arg}: {len(entries)} entries, {len(want)} warnings, {c.failures} differences")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
