#!/usr/bin/env python3
"""`pmutool dtl record` end to end.

usage: check_record.py PMUTOOL PMUTOOL_SIM PERF LPAR_SH TMPDIR

On the fake POWER10 LPAR sysfs (tests/fakesys/power10-lpar.sh) with the
simulated kernel (PMUTOOL_SIM, a test program: pmutool's code on
tests/support/sys_sim.c and the vpa_dtl driver tests/support/sim_dtl.c; the recording ends by
the SIGINT it raises after its last poll, so SIGINT's flush is what is
checked):
- the file as perf writes it for vpa_dtl: AUXTRACE_INFO (type 7, priv[0]
  the PMU type) as the first record, the vpa_dtl attr first (type, config,
  the poll interval as its period, no exclude bit), the sched tracepoints
  after it, the event description names, the AUXTRACE index pointing at
  every AUXTRACE record;
- a command (`-- CMD`) ends the recording when it exits, its exit status
  pmutool's;
- every entry the driver reported is decoded by `dtl report` or counted lost
  in the summary, its losses at wraps said there too; `dtl dump` prints each AUXTRACE record, `dtl script` each
  entry; a slow reader's losses are reported;
- Debian's perf 6.1 (linux-perf), which predates vpa_dtl, reads the header
  and the event list and stops at the AUXTRACE_INFO record it does not
  know, without crashing.
Then the refusals: an interval below 1 ms, exclude bits, a config the
driver refuses, another PMU, `record`/`stat -e vpa_dtl/...` of a command
(per task, never opened), and on this machine's real sysfs (no vpa_dtl
on x86) the driver's absence explained.
"""
import json
import os
import re
import struct
import subprocess
import sys

PMUTOOL, PMUTOOL_SIM, PERF, LPAR_SH, TMP = sys.argv[1:6]
SYS = os.path.join(TMP, "sys")
failures = 0


def check(cond, what):
    global failures
    if not cond:
        failures += 1
        print("check failed:", what, file=sys.stderr)


def run(args, sim=None, **kw):
    """pmutool, or with sim (SEED,ENTRIES,POLLS[,EXPIRIES]) the test program
    running pmutool's code on the simulated kernel (vpa_dtl type 14)."""
    env = dict(os.environ)
    env.pop("PMURT_SYSFS", None)
    if sim:
        args = [PMUTOOL_SIM, "14", sim, *args[1:]]
    return subprocess.run(args, env=env, capture_output=True, text=True, **kw)


def record(name, sim, *opts):
    path = os.path.join(TMP, name)
    r = run([PMUTOOL, "dtl", "record", "--sysfs", SYS, "-o", path, *opts], sim)
    check(r.returncode == 0, f"{name}: exit {r.returncode}: {r.stderr}")
    return path, r.stderr


def summary(err):
    sim = re.search(r"simulated vpa_dtl: (\d+) logged, (\d+) reported", err)
    aux = re.search(r"AUX: (\d+) PERF_RECORD_AUX, (\d+) AUXTRACE records, (\d+) bytes .* "
                    r"(\d+) entries lost", err)
    check(sim and aux, f"summary lines in {err!r}")
    if not (sim and aux):
        return 0, 0, 0
    return int(sim.group(2)), int(aux.group(2)), int(aux.group(4))


def perf_file(path):
    """The attrs, the first data record, the event names, the AUXTRACE index."""
    b = open(path, "rb").read()
    magic, hsize, attr_size = struct.unpack_from("<QQQ", b, 0)
    check(magic == 0x32454c4946524550, "magic")
    a_off, a_size, d_off, d_size = struct.unpack_from("<QQQQ", b, 24)
    feats = struct.unpack_from("<4Q", b, 72)
    attrs = []
    for off in range(a_off, a_off + a_size, attr_size):
        typ, size, config, period, stype = struct.unpack_from("<IIQQQ", b, off)
        flags = struct.unpack_from("<Q", b, off + 40)[0]
        attrs.append((typ, config, period, stype, flags))
    first = struct.unpack_from("<IHHIIQ", b, d_off)
    bits = [i for i in range(256) if feats[i // 64] >> (i % 64) & 1]
    sec = d_off + d_size
    names, index = [], []
    for n, bit in enumerate(bits):
        off, size = struct.unpack_from("<QQ", b, sec + 16 * n)
        if bit == 12:  # EVENT_DESC
            nr, asz = struct.unpack_from("<II", b, off)
            p = off + 8
            for _ in range(nr):
                p += asz
                nids, slen = struct.unpack_from("<II", b, p)
                p += 8
                names.append(b[p:p + slen].split(b"\0")[0].decode())
                p += slen + 8 * nids
        if bit == 18:  # AUXTRACE index
            count = struct.unpack_from("<Q", b, off)[0]
            index = [struct.unpack_from("<QQ", b, off + 8 + 16 * i) for i in range(count)]
    types = [struct.unpack_from("<IHH", b, o)[0] for o, _ in index]
    return attrs, first, names, index, types


def report_json(path):
    r = run([PMUTOOL, "dtl", "report", "-i", path, "--json"])
    check(r.returncode == 0, f"report {path}: {r.stderr}")
    return json.loads(r.stdout) if r.returncode == 0 else {"overall": {"dispatches": -1}}


subprocess.run(["sh", LPAR_SH, SYS], check=True)

# 1. two CPUs, the sched tracepoints beside, 120 polls of 60 entries: past
# several wraps of a 128 KiB area (perf's default)
path, err = record("sim.data", "3,60,120", "-C", "0-1", "-c", "2000000", "--aux-pages", "32")
written, chunks, lost = summary(err)
check(written > 2 * 2730 and lost == 0, f"written {written}, lost {lost}")
wrap = re.search(r"simulated vpa_dtl: \d+ logged, \d+ reported, (\d+) lost at wraps", err)
said = re.search(r"the vpa_dtl driver lost (\d+) to (\d+) DTL entries at its wraps", err)
check(wrap and said and int(said.group(1)) <= int(wrap.group(1)) <= int(said.group(2)),
      f"the driver's wrap losses said and bounded: {err}")
attrs, first, names, index, types = perf_file(path)
check(first[0] == 70 and first[2] == 24 and first[3] == 7 and first[5] == 14,
      f"AUXTRACE_INFO first, type 7, priv[0] 14: {first}")
check(names == ["vpa_dtl/dtl_all/", "sched:sched_switch", "sched:sched_wakeup"], f"names {names}")
typ, config, period, stype, flags = attrs[0]
check(typ == 14 and config == 7 and period == 2000000, f"vpa_dtl attr {attrs[0]}")
check(flags & (0xf << 4 | 3 << 19) == 0, "no exclude bit (user, kernel, hv, idle, host, guest)")
check(stype & 0x4 and stype & 0x10000, "TIME and IDENTIFIER in sample_type")
check(all(a[0] == 2 and a[2] == 1 for a in attrs[1:]), f"tracepoints, period 1: {attrs[1:]}")
check(len(index) == chunks and all(t == 71 and s == 48 for (o, s), t in zip(index, types)),
      f"AUXTRACE index: {len(index)} of {chunks}")
rep = report_json(path)
check(rep["overall"]["dispatches"] == written, f"report {rep['overall']['dispatches']} of {written}")
check(sorted(c["cpu"] for c in rep["cpus"]) == [0, 1], "per CPU")
dump = run([PMUTOOL, "dtl", "dump", "-i", path]).stdout
check(dump.count("PERF_RECORD_AUXTRACE size") == chunks, "dump: every record")
check(dump.count("boot_tb: 1000000, tb_freq: 512000000") == 2, "dump: a header per CPU")
script = run([PMUTOOL, "dtl", "script", "-i", path]).stdout
check(script.count("vpa-dtl: timebase:") == written, "script: every entry")

# 2. a slow reader: 6 expiries of 70 entries between polls, a 2-page area
path, err = record("slow.data", "5,70,40,6", "-C", "0-1", "--aux-pages", "2", "--no-sched")
written, chunks, lost = summary(err)
check("warning: the AUX area filled" in err, f"slow reader reported: {err}")
rep = report_json(path)
check(rep["overall"]["dispatches"] + lost == written,
      f"slow: {rep['overall']['dispatches']} + {lost} lost != {written}")

# 2b. a command bounds the recording (SIGCHLD), its exit status is ours
path = os.path.join(TMP, "cmd.data")
r = run([PMUTOOL, "dtl", "record", "--sysfs", SYS, "-o", path, "-C", "0", "--no-sched", "--",
         "sh", "-c", "exit 3"], "4,1,100000000")
check(r.returncode == 3, f"the command's exit status: {r.returncode} {r.stderr}")
written, chunks, lost = summary(r.stderr)
check(report_json(path)["overall"]["dispatches"] == written, "the command's recording")

# 3. Debian's perf 6.1 on a file with the sched tracepoints (their formats
# in the tracing-data feature)
path, err = record("perf61.data", "9,30,20", "-C", "0")
try:
    head = subprocess.run([PERF, "report", "--header-only", "-i", path], capture_output=True,
                          text=True)
    check(head.returncode == 0 and "event : name = vpa_dtl/dtl_all/" in head.stdout and
          "event : name = sched:sched_switch" in head.stdout and
          "contains AUX area data" in head.stdout, f"perf header: {head.stdout}{head.stderr}")
    dumped = subprocess.run([PERF, "report", "-D", "-i", path], capture_output=True, text=True)
    check(dumped.returncode == 0 and "PERF_RECORD_AUXTRACE_INFO type: 7" in dumped.stdout,
          f"perf report -D: {dumped.returncode} {dumped.stderr}")
    scr = subprocess.run([PERF, "script", "-i", path], capture_output=True, text=True)
    check(scr.returncode >= 0 and "failed to process type: 70" in scr.stderr,
          f"perf script stops at type 70, no crash: {scr.returncode} {scr.stderr}")
except FileNotFoundError:
    check(False, "perf is missing: install Debian's linux-perf")

# 4. refusals before any system call
for opts, want in [
        (["-c", "999999"], "vpa_dtl polls at most every 1 ms"),
        (["-e", "vpa_dtl/dtl_all/u"], "vpa_dtl refuses every exclude bit"),
        (["-e", "vpa_dtl/event=0x3/"], "config 0x3: vpa_dtl takes dtl_cede (0x1)"),
        (["-e", "PM_CYC"], "one vpa_dtl event"),
        (["-a", "-C", "0"], "-a and -C exclude each other")]:
    r = run([PMUTOOL, "dtl", "record", "--sysfs", SYS, "-o", os.path.join(TMP, "x.data"),
             *opts, "--", "true"])
    check(r.returncode == 2 and want in r.stderr, f"{opts}: {r.returncode} {r.stderr}")
r = run([PMUTOOL, "dtl", "record", "--sysfs", SYS])
check(r.returncode == 2 and "nothing to record" in r.stderr, f"no target: {r.stderr}")
# never per task (the fake tree, as the real one, gives vpa_dtl no cpumask):
# record and stat of a command refuse it before the system call, naming -a/-C
# (this x86 kernel would answer type 14 with ENOENT, another message)
for cmd in (["record", "-c", "1000000", "-o", os.path.join(TMP, "x.data")], ["stat"],
            ["record", "-i", "-c", "1000000", "-o", os.path.join(TMP, "x.data")]):
    r = run([PMUTOOL, "--sysfs", SYS, cmd[0], "-e", "vpa_dtl/dtl_all/", *cmd[1:], "--", "true"])
    check(r.returncode == 5 and "vpa_dtl is per CPU only" in r.stderr and
          "-a or -C CPUS" in r.stderr and "(EINVAL)" in r.stderr,
          f"{cmd[0]} per task: {r.returncode} {r.stderr}")

# 5. this machine's kernel: no vpa_dtl off a shared-processor LPAR
if os.path.exists("/sys/bus/event_source/devices/vpa_dtl"):
    check(False, "this host has vpa_dtl: run the capture on it by hand (not done here)")
else:
    r = run([PMUTOOL, "dtl", "record", "-a", "-o", os.path.join(TMP, "x.data"), "--", "true"])
    check(r.returncode == 5 and "no PMU 'vpa_dtl' in /sys/bus/event_source/devices" in r.stderr
          and "shared-processor LPAR" in r.stderr, f"real sysfs: {r.returncode} {r.stderr}")

sys.exit(1 if failures else 0)
