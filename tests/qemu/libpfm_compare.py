#!/usr/bin/env python3
"""libpfm_compare.py OUT CPU DIFFERENCES - the host's checks of tests/qemu/libpfm_test.sh.

OUT/deb and OUT/ours hold what Debian's PAPI, PCP and tests/pfm/pfm_dump printed in the
guest with Debian's libpfm4 and with libpmurt's libpfm.so.4.  Each check prints ok or FAIL;
the exit status is the number of failures.  DIFFERENCES gets the events both libraries name
with different codes, each library's code and the kernel's answer (perf_event_open of each
alone, and the kernel's own sysfs alias where it has one)."""
import re
import sys

out, cpu, diff_path = sys.argv[1], sys.argv[2], sys.argv[3]
failures = 0


def read(lib, name):
    with open(f"{out}/{lib}/{name}", errors="replace") as f:
        return f.read()


def check(ok, what):
    global failures
    print(("ok: " if ok else "FAIL: ") + what)
    failures += not ok


# papi_component_avail: perf_event active, with the same PMUs
def component(lib):
    text = read(lib, "component.txt")
    active = text.split("Active components:")[-1]
    pmus = re.search(r"PMUs supported: (.*)", active)
    native = re.search(r"Native: (\d+)", active)
    return ("perf_event" in active, pmus.group(1).strip() if pmus else None,
            int(native.group(1)) if native else -1)


# papi_native_avail: each event's block (name, description, modifiers)
def native(lib):
    blocks, name = {}, None
    for line in read(lib, "native.txt").splitlines():
        m = re.match(r"^\| (\S.*?)\s*\|$", line)
        if m and not line.startswith("|  "):
            name = m.group(1)
            blocks[name] = []
        elif name and line.startswith("|"):
            blocks[name].append(line.strip())
        elif line.startswith("---"):
            name = None
    return blocks


def counts(lib, name):
    """papi_command_line's lines 'EVENT : COUNT'"""
    return {m.group(1): int(m.group(2))
            for m in re.finditer(r"^(\S+) : \s*(\d+)", read(lib, name), re.M)}


def ctests(lib):
    """PAPI's test programs: {name: (verdict, seconds, attempts, failures)}.  A test that
    failed ran again (up to three attempts, libpfm_test.sh's ctest, which stops at the first
    that passes): the verdict is the last attempt's; failures lists each failed attempt's
    'Line # N Error: ...' from PAPI's test_fail"""
    res, status, reason = {}, None, ""
    for line in read(lib, "ctests.txt").splitlines():
        m = re.match(r"== (\S+) rc=(\d+) seconds=(\d+)(?: attempt=(\d+))?", line)
        if m:
            verdict = status or f"rc={m.group(2)}"
            _, seconds, attempts, failed = res.get(m.group(1), ("", 0, 0, []))
            if verdict != "PASSED":
                failed = failed + [f"{verdict} {reason}".strip()]
            # the attempts stop at the first that passes: the last one's verdict is the test's
            res[m.group(1)] = (verdict, seconds + int(m.group(3)), attempts + 1, failed)
            status, reason = None, ""
        elif re.match(r"^(PASSED|SKIPPED|FAILED)", line):
            status = line.split()[0].rstrip("!")
        elif line.startswith("Line # "):
            reason = line.strip()
    return res


def ctest_summary(result):
    """'PASSED (3 s)', with the failed attempts when there were any"""
    verdict, seconds, attempts, failed = result
    if not failed:
        return f"{verdict} ({seconds} s)"
    return f"{verdict} ({seconds} s, {attempts} attempts; failed: {'; '.join(failed)})"


def core_pmus(lib):
    """pfm_dump pmus: {name: (present, nevents)} of the core PMUs (type 1)"""
    return {m.group(1): (m.group(3) == "1", int(m.group(2))) for m in re.finditer(
        r"^pmu \d+ (\S+) \".*\" type=1 nevents=(\d+) present=(\d)", read(lib, "pmus.txt"), re.M)}


def power11_checks():
    """A Power11 guest: libpfm4 finds no core PMU; ours finds power11, PAPI lists and counts"""
    dp, op = core_pmus("deb"), core_pmus("ours")
    check(not any(p for p, _ in dp.values()),
          f"libpfm4 on Power11: no core PMU present ({sorted(dp)} known, none present)")
    check(op.get("power11", (False,))[0] and not op.get("power10", (False,))[0],
          f"ours on Power11: power11 present, power10 not ({op})")
    d, o = component("deb"), component("ours")
    check(o[0] and o[1] is not None and "power11" in o[1].split(", "),
          f"papi_component_avail: PMUs supported, libpfm4 '{d[1]}', ours '{o[1]}'")
    listed = {k for k in native("ours") if "::" not in k}
    check(len(listed) == op.get("power11", (0, 0))[1] > 0,
          f"papi_native_avail with ours: {len(listed)} power11 events "
          f"(libpfm4: {sum('::' not in k for k in native('deb'))})")
    c1, cr = counts("ours", "cmd1.txt"), counts("ours", "cmd_run.txt")
    check(c1.get("PM_INST_CMPL", 0) > 0 and cr.get("PM_RUN_INST_CMPL", 0) > 0,
          f"papi_command_line with ours counts: {c1} {cr} (libpfm4: "
          f"{counts('deb', 'cmd_run.txt') or read('deb', 'cmd_run.txt').strip().splitlines()[-1:]})")
    to, td = ctests("ours"), ctests("deb")
    check(all(to.get(t, ("missing",))[0] == "PASSED" for t in ("first", "all_native_events")),
          f"ctests first (presets from PAPI_CSV_EVENT_FILE) and all_native_events (every "
          f"listed event resolves and counts) with ours: "
          f"{ {t: ctest_summary(r) for t, r in to.items()} } "
          f"(libpfm4: { {t: ctest_summary(r) for t, r in td.items()} })")


if cpu == "power11":
    power11_checks()
    sys.exit(failures)

d, o = component("deb"), component("ours")
check(d[0] and o[0], f"papi_component_avail: perf_event active with both (native events: "
      f"libpfm4 {d[2]}, ours {o[2]})")
check(d[1] == o[1] and o[1] is not None and cpu in o[1].split(", "),
      f"papi_component_avail: PMUs supported, libpfm4 '{d[1]}', ours '{o[1]}'")


nd, no = native("deb"), native("ours")
generic = lambda b: {k: v for k, v in b.items() if k.startswith(("perf::", "perf_raw::"))}
check(generic(nd) == generic(no) and len(generic(no)) > 0,
      f"papi_native_avail: the same {len(generic(no))} perf:: and perf_raw:: events, "
      f"descriptions and modifiers")
# the default core PMU's events are listed without their PMU's name
ours_core = {k for k in no if "::" not in k}
ours_events = set(re.findall(r"^event (\S+)", read("ours", "events.txt"), re.M))
check(ours_core == ours_events and ours_core,
      f"papi_native_avail: ours lists libpfm.so.4's {len(ours_events)} {cpu} events, from the "
      f"description (libpfm4 lists {sum('::' not in k for k in nd)}; "
      f"{len(ours_core & {k for k in nd if '::' not in k})} names in both)")


# pfm_dump's listing of the generic perf PMU, the host's tracepoints included
perf_d, perf_o = read("deb", "perf_events.txt"), read("ours", "perf_events.txt")
check(perf_d == perf_o,
      f"pfm_dump events perf: equal, {perf_o.count(chr(10) + 'event ')} events with the "
      f"kernel's tracepoints")

# papi_avail -a: the preset table, the hardware lines before it aside
def presets(lib):
    text = read(lib, "avail.txt")
    return text[text.find("PAPI Preset Events"):]


check(presets("deb") == presets("ours"), "papi_avail -a: the same preset table")


# papi_command_line: counts within 1% of libpfm4's
# the same code through both libraries: the same count within 1%; an event whose
# codes differ (PM_RUN_INST_CMPL: libpfm4 0x400fa on PMC4, ours 0x500fa on PMC5, perf's
# JSON and the kernel's power10-pmu.c) is reported with both counts
for run in ("cmd1.txt", "cmd2.txt", "cmd_marked.txt", "cmd_run.txt"):
    cd, co = counts("deb", run), counts("ours", run)
    for ev in sorted(set(cd) | set(co)):
        a, b = cd.get(ev), co.get(ev)
        same_code = run != "cmd_run.txt"
        close = a is not None and b is not None and abs(a - b) <= a / 100
        if same_code:
            check(close, f"papi_command_line {ev} ({run}): libpfm4 {a}, ours {b}")
        else:
            check(b is not None, f"papi_command_line {ev} ({run}, codes differ): libpfm4 {a}, "
                  f"ours {b}")


def ctests_agree(a, b):
    """The same verdict; or one library passed and every failure of the other is one
    the passing side also had in an attempt: the same timing check (QEMU's cycles follow
    the host's clock) failing for both, more often for one"""
    if a[0] == b[0]:
        return True
    passed, failed = (a, b) if a[0] == "PASSED" else (b, a)
    return passed[0] == "PASSED" and bool(failed[3]) and set(failed[3]) <= set(passed[3])


# PAPI's test programs: the same PASSED / SKIPPED / FAILED
td, to = ctests("deb"), ctests("ours")
for t in sorted(set(td) | set(to)):
    a, b = td.get(t, ("missing", 0, 0, [])), to.get(t, ("missing", 0, 0, []))
    check(ctests_agree(a, b), f"ctest {t}: libpfm4 {ctest_summary(a)}, ours {ctest_summary(b)}")
check(to.get("all_native_events", ("",))[0] == "PASSED",
      "all_native_events with ours: every listed event resolves and counts")

# the descriptions' presets through ours (pmurt-papi-csv, PAPI_CSV_EVENT_FILE)
csv_avail = read("csv", "avail.txt")
m = re.search(r"Of (\d+) available events", csv_avail)
csv_counts = counts("csv", "cmd.txt")
check(m and int(m.group(1)) > 0 and csv_counts.get("PAPI_TOT_INS", 0) > 0,
      f"PAPI_CSV_EVENT_FILE from our presets: {m.group(1) if m else 0} presets available, "
      f"counts {csv_counts}")

# PCP's pmda_perfevent, loaded by pminfo, counts the core PMU's event through ours
def pmval(lib):
    text = read(lib, "pmval.txt")
    return [float(v) for v in re.findall(r"^\s*([0-9][0-9.e+]*)\s*$", text, re.M)], text


vd, vo = pmval("deb")[0], pmval("ours")
check(any(v > 0 for v in vo[0]),
      f"pmda_perfevent through ours (pmval): perfevent.hwcounters.PM_INST_CMPL {vo[0]}/s "
      f"(libpfm4: {vd}/s)" + ("" if vo[0] else "\n" + vo[1][-600:]))

# the encodings that differ, with the kernel's answer
def kernel(lib):
    return {m.group(1): m.group(2) for m in
            re.finditer(r"^(\S+) (.*)$", read(lib, "kernel.txt"), re.M)}


kd, ko = kernel("deb"), kernel("ours")
with open(f"{out}/sysfs_aliases.txt") as f:
    aliases = dict(line.split(None, 1) for line in f.read().splitlines() if " " in line)
with open(diff_path, "w") as f:
    f.write(f"# {cpu}: events both libraries name with different codes; each opened alone\n"
            "# NAME | libpfm4 | ours | the kernel's sysfs alias\n")
    for n in sorted(set(kd) | set(ko)):
        f.write(f"{n} | {kd.get(n)} | {ko.get(n)} | {aliases.get(n, '-').strip()}\n")
refused = [n for n in ko if "open=ok" not in ko[n] and "open=ok" in kd.get(n, "")]
check(not refused, f"{len(ko)} encodings differ from libpfm4's; of those the kernel refuses "
      f"ours and takes libpfm4's for {len(refused)}: {refused[:5]} (list: {diff_path})")
sys.exit(failures)
