#!/usr/bin/env python3
"""`pmutool dtl dump`, `dtl report -i` and `dtl script` on perf.data files built here.

usage: check_perfdata.py PMUTOOL PERF DIR

The file holds one vpa_dtl attr (PMU type 42, no event description, so the
DTL is known by AUXTRACE_INFO type 7 alone), that INFO record, and AUXTRACE
records for CPUs 0, 3 and 5 (mmap indexes 0, 1 and 2: a reader taking the
index for the CPU is caught), two each, the first starting with the header
slot; CPU 3's carries out-of-range reason codes, u32 times past 2^31 and
zero and sign-bit timebases.
- dump: every AUXTRACE record prints as perf report -D does.  The generic
  part (the event line, the raw hex dump, the PERF_RECORD_AUXTRACE line) is
  compared with what Debian's perf 6.1 prints for the same bytes at the same
  offsets (there the INFO record is replaced by three FINISHED_ROUND records
  of the same 24 bytes, since perf 6.1 refuses type 7; perf stops after the
  first AUXTRACE record, so that one is compared); the DTL lines with
  powerpc-vpadtl.c's format, made here from the documented layout.
- report --json: the figures recomputed per CPU and overall
  (check_report.check).
- script: with cpu-clock samples added at times among the entries', every
  entry is printed once, each before the first sample not earlier than it
  and after the others, entries in time order, at the time perf's double
  arithmetic gives (CPU 7's entries are a microsecond off in exact
  arithmetic).
- report --perfetto: a preempted interval ending at each entry on its CPU's
  track, and each sample as an instant event.
- a 16-byte AUXTRACE record at the file's end: refused by dump, report and
  script with its offset.
"""
import json
import os
import random
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_report import Checker, check  # noqa: E402

DISPATCH = ["external_interrupt", "firmware_internal_event", "H_PROD", "decrementer_interrupt",
            "system_reset", "firmware_internal_event", "conferred_cycles", "time_slice",
            "virtual_memory_page_fault", "expropriated_adjunct", "priv_doorbell"]
PREEMPT = ["unused", "firmware_internal_event", "H_CEDE", "H_CONFER", "time_slice",
           "migration_hibernation_page_fault", "virtual_memory_page_fault", "H_CONFER_ADJUNCT",
           "hcall_adjunct", "HDEC_adjunct"]
PMU_TYPE = 42
BOOT_TB, TB_FREQ = 123456, 512000000
ROUNDED_DOWN = (33280, 66048, 127488, 132096)  # ticks after boot: int(d / f * 1e9) < d * 1e9 // f
CPUS = (0, 3, 5, 7)


def entry(d, p, e2d, r2e, w2r, tb):
    return struct.pack(">BBHIIIQQQQ", d, p, 7, e2d, r2e, w2r, tb, 0, 0xc000000000001000, 0x8000000000001033)


def payloads(rng):
    chunks = []  # (cpu, aux_offset, bytes)
    tb = {0: 1000000, 3: 1000000, 5: 1000000}  # CPU 7 is added after
    for lap in range(2):
        for cpu in (0, 3, 5):
            data = b""
            if lap == 0:
                data += struct.pack("=QQQ", BOOT_TB, TB_FREQ, 0) + b"\x5c" * 24
            for _ in range(rng.randint(5, 30)):
                tb[cpu] += rng.randint(1000, 100000)
                data += entry(rng.randint(0, 10), rng.randint(0, 9), rng.randint(0, 50000),
                              rng.randint(0, 3000), rng.randint(0, 2000000), tb[cpu])
            if cpu == 3 and lap == 0:
                tb[cpu] += 5
                data += entry(11, 10, 0xffffffff, 0x80000000, 0x7fffffff, tb[cpu])
                data += entry(255, 200, 1, 2, 3, 0)
                data += entry(3, 2, 1, 2, 3, 1 << 63)
            chunks.append((cpu, 0 if lap == 0 else 4096, data))
    # CPU 7: timebases whose time perf's double arithmetic puts a nanosecond
    # below the exact one, across a microsecond (65.000 exact, 64.999 as perf)
    data = struct.pack("=QQQ", BOOT_TB, TB_FREQ, 0) + b"\x5c" * 24
    for diff in ROUNDED_DOWN:
        data += entry(7, 4, 1, 2, 3, BOOT_TB + diff)
    chunks.append((7, 0, data))
    return chunks


SAMPLE_TYPE = 0x1 | 0x2 | 0x4 | 0x80 | 0x10000   # IP TID TIME CPU IDENTIFIER


def make_attr(pmu_type, config, period):
    attr = struct.pack("<IIQQQQQ", pmu_type, 128, config, period, SAMPLE_TYPE, 0, 1 << 18)
    return attr + b"\0" * (128 - len(attr))


def sample(time, cpu):
    """A cpu-clock sample (event id 2): identifier, ip, pid/tid, time, cpu."""
    body = struct.pack("<QQIIQII", 2, 0xffffffff81000000, 100, 100, time, cpu, 0)
    return struct.pack("<IHH", 9, 2, 8 + len(body)) + body


def perf_file(chunks, with_info, sample_times=(), last=struct.pack("<IHH", 68, 0, 8)):
    attr_size = 128
    attrs = [make_attr(PMU_TYPE, 7, 1000000000), make_attr(1, 0, 1000)]
    if with_info:
        data = struct.pack("<IHHIIQ", 70, 0, 24, 7, 0, PMU_TYPE)
    else:
        data = struct.pack("<IHH", 68, 0, 8) * 3
    for cpu, off, payload in chunks:
        pad = b"\0" * (-len(payload) % 8)
        mmap_idx = CPUS.index(cpu)  # 0, 1, 2, 3: not the CPU
        data += struct.pack("<IHHQQQIIII", 71, 0, 48, len(payload), off, 0, mmap_idx, 0xffffffff,
                            cpu, 0)
        data += payload + pad
    for t in sample_times:
        data += sample(t, 0)
    data += last
    attrs_off = 104
    ids_off = attrs_off + 2 * (attr_size + 16)
    data_off = ids_off + 16
    header = b"PERFILE2" + struct.pack("<QQQQQQQQ", 104, attr_size + 16, attrs_off,
                                       2 * (attr_size + 16), data_off, len(data), 0, 0) + b"\0" * 32
    body = b""
    for k, attr in enumerate(attrs):
        body += attr + struct.pack("<QQ", ids_off + 8 * k, 8)
    return header + body + struct.pack("<QQ", 1, 2) + data


def generic_blocks(text):
    """Each AUXTRACE record's lines from its event line to its PERF_RECORD_AUXTRACE line."""
    lines, blocks, cur = text.split("\n"), [], None
    for line in lines:
        if line.endswith("]: event: 71"):
            cur = [line]
        elif cur is not None:
            cur.append(line)
            if "PERF_RECORD_AUXTRACE size:" in line:
                blocks.append("\n".join(cur))
                cur = None
    return blocks


def dtl_lines(payload):
    n = len(payload)
    out = [".", f". ... VPA DTL PMU data: size {n} bytes, entries is {n // 48}"]
    for pos in range(0, n - n % 48, 48):
        s = payload[pos:pos + 48]
        if struct.unpack_from("=Q", s, 16)[0] == 0:
            b, f = struct.unpack_from("=QQ", s, 0)
            out.append(f".  {pos:08x}: boot_tb: {b}, tb_freq: {f}")
            continue
        d, p, _, e2d, r2e, w2r = struct.unpack_from(">BBHiii", s, 0)
        dn = DISPATCH[d] if d < len(DISPATCH) else f"unknown_{d}"
        pn = PREEMPT[p] if p < len(PREEMPT) else f"unknown_{p}"
        out.append(f".  {pos:08x}: dispatch_reason:{dn}, preempt_reason:{pn}, "
                   f"enqueue_to_dispatch_time:{e2d}, ready_to_enqueue_time:{r2e}, "
                   f"waiting_to_ready_time:{w2r}")
    return out


def perf_ns(tb):
    """powerpc_vpadtl_timestamp: double arithmetic, truncated."""
    return int((tb - BOOT_TB) / TB_FREQ * 1e9)


def check_script(pmutool, path, chunks):
    """dtl script: every entry once, between the samples in time order."""
    entries = {}
    for cpu, off, payload in chunks:
        for pos in range(0, len(payload) - len(payload) % 48, 48):
            tb = struct.unpack_from(">Q", payload, pos + 16)[0]
            if 0 < tb < 1 << 63:
                entries.setdefault(cpu, []).append(tb)
    times = sorted(perf_ns(tb) for tbs in entries.values() for tb in tbs)
    samples = [times[len(times) * k // 6] for k in range(1, 6)] + [times[-1] + 5]
    open(path, "wb").write(perf_file(chunks, True, samples))
    out = subprocess.run([pmutool, "dtl", "script", "-i", path], capture_output=True, text=True)
    if out.returncode:
        return [f"dtl script failed: {out.stderr}"]
    seq, failures, times_shown = [], [], 0
    for line in out.stdout.splitlines():
        if "vpa-dtl: timebase: " in line:
            cpu = int(line.split("[")[1].split("]")[0])
            tb = int(line.split("timebase: ")[1].split()[0])
            seq.append((perf_ns(tb), 1, cpu))
            # the time column as perf prints it: its double arithmetic
            shown = line.split("]")[1].split(":")[0].strip()
            ns = perf_ns(tb)
            want = f"{ns // 10**9}.{ns % 10**9 // 1000:06d}"
            if shown != want:
                failures.append(f"timebase {tb} shown at {shown}, perf shows {want}")
            times_shown += (tb - BOOT_TB) in ROUNDED_DOWN
        elif " 1:0:  " in line:
            sec, usec = line.split("]")[1].split(":")[0].split(".")
            seq.append((int(sec) * 10**9 + int(usec) * 1000, 0, -1))
    dtl = sorted((t, cpu) for t, kind, cpu in seq if kind == 1)
    want = sorted((perf_ns(tb), cpu) for cpu, tbs in entries.items() for tb in tbs)
    if dtl != want:
        failures.append(f"script shows {len(dtl)} entries, the file has {len(want)}")
    if times_shown != len(ROUNDED_DOWN):
        failures.append(f"{times_shown} of the {len(ROUNDED_DOWN)} entries perf rounds down shown")
    if sum(1 for x in seq if x[1] == 0) != len(samples):
        failures.append(f"script shows {sum(1 for x in seq if x[1] == 0)} samples of {len(samples)}")
    # a sample's printed time is cut to microseconds: compare entries with
    # the sample's exact time, known by its position
    exact = iter(samples)
    keyed = [(next(exact), 0, -1) if kind == 0 else (t, kind, cpu) for t, kind, cpu in seq]
    for a, b in zip(keyed, keyed[1:]):
        if (a[1] == 1 and b[1] == 0 and a[0] >= b[0]) or (a[1] == 0 and b[1] == 1 and b[0] < a[0]):
            failures.append(f"out of order: {a} then {b}")
        if a[1] == 1 and b[1] == 1 and b[0] < a[0]:
            failures.append(f"entries out of time order: {a} then {b}")
    # the trace: a preempted interval ending at each entry (exact time), on
    # its CPU's track; each sample an instant event beside them
    trace_path = os.path.join(os.path.dirname(path), "dtl-trace.json")
    subprocess.run([pmutool, "dtl", "report", "-i", path, "--perfetto", trace_path],
                   check=True, capture_output=True)
    events = json.load(open(trace_path))["traceEvents"]
    ends = sorted((e["tid"], round(e["ts"] + e["dur"], 3)) for e in events
                  if e["ph"] == "X" and e["name"].startswith("preempted: "))
    exact = sorted((cpu, round((tb - BOOT_TB) * 1e6 / TB_FREQ, 3))
                   for cpu, tbs in entries.items() for tb in tbs)
    if len(ends) != len(exact) or any(a[0] != b[0] or abs(a[1] - b[1]) > 0.002
                                      for a, b in zip(ends, exact)):
        failures.append(f"trace intervals {ends[:3]}... do not end at the entries {exact[:3]}...")
    marks = sorted(e["ts"] for e in events if e["ph"] == "i")
    if [round(m, 3) for m in marks] != [round(t / 1000, 3) for t in samples]:
        failures.append(f"trace instants {marks} are not the samples {samples}")
    return failures


def check_short_record(pmutool, path, chunks):
    """A 16-byte AUXTRACE record ending the file (its size field 0, no
    feature after it): dump, report and script refuse it naming its offset,
    never reading its 48 bytes past the file's end."""
    short = struct.pack("<IHHQ", 71, 0, 16, 0)
    data = perf_file(chunks[:1], True, last=short)
    open(path, "wb").write(data)
    where = f"offset {hex(len(data) - 16)}: record type 71 of 16 bytes is shorter than its fixed part"
    failures = []
    for cmd in (["dump"], ["report", "--json"], ["script"]):
        res = subprocess.run([pmutool, "dtl", *cmd, "-i", path], capture_output=True, text=True)
        if res.returncode != 2 or where not in res.stderr:
            failures.append(f"dtl {cmd[0]} on a short AUXTRACE record: exit {res.returncode}, "
                            f"{res.stderr.strip()!r} lacks {where!r}")
    return failures


def main():
    pmutool, perf, workdir = sys.argv[1:4]
    path = os.path.join(workdir, "dtl-perf.data")
    chunks = payloads(random.Random(8))
    failures = []
    # perf 6.1 on the INFO-less twin, at the same path
    open(path, "wb").write(perf_file(chunks, False))
    res = subprocess.run([perf, "report", "-D", "-i", path], capture_output=True, text=True)
    perf_blocks = generic_blocks(res.stdout)
    if not perf_blocks:
        failures.append(f"perf printed no AUXTRACE record: {res.stdout[-500:]} {res.stderr[-500:]}")
    open(path, "wb").write(perf_file(chunks, True))
    dump = subprocess.run([pmutool, "dtl", "dump", "-i", path], capture_output=True, text=True)
    if dump.returncode != 0:
        failures.append(f"dtl dump failed: {dump.stderr}")
    ours = generic_blocks(dump.stdout)
    if len(ours) != len(chunks):
        failures.append(f"dump shows {len(ours)} records, the file has {len(chunks)}")
    if perf_blocks and ours and perf_blocks[0] != ours[0]:
        failures.append(f"first record differs from perf's:\n--- perf\n{perf_blocks[0]}\n--- ours\n{ours[0]}")
    # the DTL lines after each generic block
    text = dump.stdout.split("\n")
    starts = [i for i, l in enumerate(text) if "PERF_RECORD_AUXTRACE size:" in l]
    for k, (cpu, off, payload) in enumerate(chunks):
        want = dtl_lines(payload)
        got = text[starts[k] + 1:starts[k] + 1 + len(want)] if k < len(starts) else []
        if got != want:
            failures.append(f"record {k} DTL lines differ:\n" + "\n".join(
                f"  want {w!r}\n  got  {g!r}" for w, g in zip(want, got + [""] * len(want)) if w != g)[:2000])
    if not dump.stdout.startswith("\n0x"):
        failures.append("the dump does not start with the first record's event line")
    # report -i: per CPU and overall
    rep = json.loads(subprocess.run([pmutool, "dtl", "report", "--json", "-i", path],
                                    check=True, capture_output=True).stdout)
    c = Checker("report -i")
    per_cpu, everything = {}, []
    for cpu, off, payload in chunks:
        first = cpu not in per_cpu
        ents = per_cpu.setdefault(cpu, [[], 0])
        for pos in range(0, len(payload) - len(payload) % 48, 48):
            s = payload[pos:pos + 48]
            if pos == 0 and first and struct.unpack_from("=Q", s, 16)[0] == 0:
                continue
            f = struct.unpack(">BBHIIIQQQQ", s)
            if f[6] == 0 or f[6] >= 1 << 63:
                ents[1] += 1
            else:
                ents[0].append(f)
    c.eq("cpus", [x["cpu"] for x in rep["cpus"]], sorted(per_cpu))
    for x in (x for x in rep["cpus"] if x["cpu"] in per_cpu):
        ents, skipped = per_cpu[x["cpu"]]
        everything += ents
        check(c, x, ents, skipped, 0, TB_FREQ)
    everything.sort(key=lambda f: f[6])
    all_skipped = sum(v[1] for v in per_cpu.values())
    check(c, rep["overall"], everything, all_skipped, 0, TB_FREQ)
    failures += [f"report: {c.failures} differences"] if c.failures else []
    failures += check_script(pmutool, path, chunks)
    failures += check_short_record(pmutool, os.path.join(workdir, "dtl-short.data"), chunks)
    for f in failures:
        print(f)
    print(f"{len(chunks)} records, {len(failures)} failures")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
