#!/usr/bin/env python3
"""`pmutool dtl report` on inputs that are not DTL or whose values cannot be.

usage: check_validate.py PMUTOOL

- refused, exit 2, nothing on stdout (text or --json), the reason named:
  a text file (as /etc/passwd), a file shorter than the header slot, a
  perf.data file without vpa_dtl data (no AUXTRACE_INFO of type 7);
- reported, exit 0, with warnings on stderr naming the CPU, the offset of
  the slot and the kind, and the same in --json (warning_count,
  warning_kinds, warnings): a header tb_freq of 0, a timebase going
  backwards, one before the header's boot_tb, an entry off the CPU longer
  than since its previous dispatch -- in a raw dump and in a perf.data
  file (offsets there are the file's);
- more than 20 warnings: 20 lines and one counting the rest;
- a plausible stream (the generator's) gives no warning;
- a DTL recording with no entry is a report of nothing, not an error.
"""
import json
import os
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_perfdata import perf_file  # noqa: E402
from check_report import warnings  # noqa: E402

FAILURES = []


def check(ok, what):
    if not ok:
        FAILURES.append(what)


def entry(tb, e2d=0, r2e=0, w2r=0):
    return struct.pack(">BBHIIIQQQQ", 3, 2, 0, e2d, r2e, w2r, tb, 0, 0, 0)


def header(boot, freq):
    return struct.pack("=QQQ", boot, freq, 0) + b"\x5c" * 24


def write(directory, name, data):
    path = os.path.join(directory, name)
    with open(path, "wb") as f:
        f.write(data)
    return path


def report(pmutool, path, *opts):
    return subprocess.run([pmutool, "dtl", "report", *opts, path], capture_output=True, text=True)


def refused(pmutool, path, reason, decode_reason=None):
    """dtl report and dtl decode (text and --json) refuse path, exit 2,
    printing nothing, their error saying why (decode_reason: decode's, where
    it differs)."""
    for sub, why in (("report", reason), ("decode", decode_reason or reason)):
        for opts in ((), ("--json",)):
            r = subprocess.run([pmutool, "dtl", sub, *opts, path], capture_output=True, text=True)
            check(r.returncode == 2, f"{sub} {path} {opts}: exit {r.returncode}, not 2")
            check(r.stdout == "", f"{sub} {path} {opts}: printed output: {r.stdout[:200]!r}")
            check(why in r.stderr, f"{sub} {path} {opts}: error {r.stderr!r} does not say {why!r}")


def warned(pmutool, path, want, cpu):
    """want: [(kind, offset)] in order; all on cpu."""
    r = report(pmutool, path)
    check(r.returncode == 0, f"{path}: exit {r.returncode}: {r.stderr}")
    check(r.stdout.startswith("vpa_dtl: "), f"{path}: no report: {r.stdout[:100]!r}")
    lines = [l for l in r.stderr.splitlines() if ": warning: " in l]
    check(len(lines) == len(want), f"{path}: {len(lines)} warnings, want {len(want)}: {r.stderr}")
    for line, (kind, off) in zip(lines, want):
        where = f"{path}: CPU {cpu}, offset {off:#x}: " if kind != "tb_freq" else f"offset {off:#x}: "
        check(where in line and line.endswith(f"[{kind}]"), f"{path}: {line!r}: not {kind} at {off:#x}")
    j = subprocess.run([PMUTOOL, "dtl", "report", "--json", path], capture_output=True, text=True)
    rep = json.loads(j.stdout)
    check(rep["warning_count"] == len(want), f"{path}: --json warning_count {rep['warning_count']}")
    check([(w["kind"], w["offset"]) for w in rep["warnings"]] == want,
          f"{path}: --json warnings {rep['warnings']}, want {want}")
    check(all(w.get("cpu", cpu) == cpu and w["message"] for w in rep["warnings"]),
          f"{path}: --json warnings not on CPU {cpu}: {rep['warnings']}")
    return r


def main(directory):
    # not DTL
    refused(PMUTOOL, write(directory, "passwd", b"root:x:0:0:root:/root:/bin/bash\n" * 30),
            "neither a perf.data file nor a raw vpa_dtl AUX dump: no header slot at offset 0")
    refused(PMUTOOL, write(directory, "short", b"\0" * 40), "shorter than the 48-byte header slot")
    refused(PMUTOOL, write(directory, "empty", b""), "shorter than the 48-byte header slot")
    noise = bytes((i * 7919 + 13) * 104729 % 251 for i in range(4096))  # fixed, no zero run
    refused(PMUTOOL, write(directory, "noise", noise), "no header slot at offset 0")
    subdir = os.path.join(directory, "a-directory")
    os.makedirs(subdir, exist_ok=True)
    refused(PMUTOOL, subdir, "Is a directory")
    refused(PMUTOOL, write(directory, "nodtl.data", perf_file([(0, 0, header(1, 512000000) +
                                                                     entry(2000))], False)),
            "no vpa_dtl data (no AUXTRACE_INFO of type 7)",
            "a perf.data file; dtl decode reads raw AUX dumps")
    # implausible values in a raw dump: header tb_freq 0; entries at
    # 0x30 ok, 0x60 backwards, 0x90 before boot_tb (and backwards), 0xc0 ok,
    # 0xf0 off 150 ticks after a gap of 100
    raw = header(1000, 0) + entry(5000) + entry(4000) + entry(500) + entry(9000, 1, 1, 1) + \
        entry(9100, 50, 50, 50)
    want = [("tb_freq", 0), ("time_backwards", 0x60), ("before_boot", 0x90),
            ("time_backwards", 0x90), ("off_exceeds_gap", 0xf0)]
    ents = [struct.unpack(">BBHIIIQQQQ", raw[p:p + 48]) + (p,) for p in range(48, len(raw), 48)]
    check(sorted(warnings((1000, 0), ents)) == sorted(want), "check_report.warnings disagrees")
    r = warned(PMUTOOL, write(directory, "odd.bin", raw), want, 0)
    check("tb_freq 512000000 (header)" not in r.stdout, "tb_freq 0 taken as the header's")
    # the same in a perf.data file, on CPU 3 after a plausible CPU 0: offsets are the file's
    cpu0 = header(1000, 512000000) + entry(2000) + entry(3000, 10, 10, 10)
    cpu3 = header(1000, 512000000) + entry(5000) + entry(4000) + entry(6000, 3000)
    data = perf_file([(0, 0, cpu0), (3, 0, cpu3)], True)
    path = write(directory, "odd.data", data)
    at = data.index(cpu3)
    want = [("time_backwards", at + 0x60), ("off_exceeds_gap", at + 0x90)]
    check(data[at + 0x60:at + 0x90] == entry(4000), "the test's offset is not the entry's")
    warned(PMUTOOL, path, want, 3)
    # many: 20 lines and the rest counted
    many = header(1000, 512000000) + b"".join(entry(2000 + i, 10) for i in range(30))
    r = report(PMUTOOL, write(directory, "many.bin", many))
    lines = [l for l in r.stderr.splitlines() if ": warning: " in l]
    check(len(lines) == 21 and lines[-1].endswith("9 more warnings (off_exceeds_gap 29 in all)"),
          f"many: {lines[-2:]}")
    # plausible: no warning
    fine = header(1000, 512000000) + b"".join(entry(2000 + 100 * i, 10, 20, 30) for i in range(30))
    r = report(PMUTOOL, write(directory, "fine.bin", fine))
    check(r.returncode == 0 and r.stderr == "", f"plausible stream: {r.returncode} {r.stderr!r}")
    # a DTL recording with no entries
    empty = write(directory, "empty.data", perf_file([], True))
    r = report(PMUTOOL, empty)
    check(r.returncode == 0 and r.stdout.startswith("vpa_dtl: 0 CPUs, 0 dispatches"),
          f"empty recording: {r.returncode} {r.stdout[:80]!r} {r.stderr!r}")


if __name__ == "__main__":
    PMUTOOL = sys.argv[1]
    with tempfile.TemporaryDirectory(prefix="pmurt-dtlval.") as d:
        main(d)
    for f in FAILURES:
        print(f)
    print(f"{len(FAILURES)} failures")
    sys.exit(1 if FAILURES else 0)
