#!/bin/bash
# guest_test.sh KERNEL CPU - pmutool on a real POWER kernel (issue 19 items 4 and 5), one
# QEMU boot (tests/qemu/run-guest.sh) of Debian's KERNEL (6.1, 6.12, 7) with -cpu CPU, or,
# for CPU power11, -cpu power10 with Power11's PVR 0x00820200 written through QEMU's gdb
# stub (run-guest.sh --pvr; QEMU 7.2 has no Power11 model):
#  - list, describe and check pick the description by themselves (--show-pick names the
#    source: the cpu PMU's pmu_name, which the kernel logged registering; for Power11 on
#    6.1, which has no Power11 driver and registers its generic "ISAv3" PMU, the PVR;
#    AT_PLATFORM is "power10" in the Power11 guests, their compatibility mode) and answer
#    with that PMU's events;
#  - stat counts POWER events, a group and perf's generic names around a loop of known
#    instruction count (tests/qemu/guest/loop.c): QEMU counts instructions and cycles;
#  - stat refuses a group that cannot fit before any system call;
#  - record -g of a software event writes a ppc64le perf.data that the host's pmutool
#    report/script and Debian's perf read;
#  - power10 and power11 (but on 6.1): three events that cannot all be on the PMU (two need PMC3) run for the shares
#    of the time the simulated kernel's multiplexing (perf/sys_sim.c, bench_mux --shares)
#    gives them: 2/3, 1/3, 2/3, as the first group that cannot go on stops the rest;
#  - power10 and power11 (but on 6.1): stat --dry-run --json gives the same attrs as on the
#    host with the fake tree, and the guest's sysfs (cpu, vpa_dtl, software, tracepoint,
#    breakpoint) equals tests/fakesys/CPU-lpar.sh's but for the differences listed below;
#  - kernel 7 (vpa_dtl): dtl record -a and -C 0 open, drain and finish a file (0 entries:
#    QEMU's hypervisor writes no Dispatch Trace Log); the capture API's disable/enable
#    cycle reopens the event instead of enabling it again (which crashes that kernel,
#    README), a second user of a CPU gets EBUSY, and a per-task open, a counting event, a
#    bad config and an exclude bit are refused, each explained.
# run-guest.sh fails the test when the kernel logs an Oops, BUG or UBSAN report.
# Environment from tests/qemu.cmake: PMU_QEMU_CACHE, PMU_QEMU_BIN, PMU_QEMU_RUN,
# PMU_QEMU_WORK, PMU_HOST_PMUTOOL, PMU_HOST_BENCH_MUX, PMU_FAKESYS.
set -euo pipefail
kernel=$1 cpu=$2
here=$(cd "$(dirname "$0")" && pwd)
# Power11 is POWER10's PMU under another name (init_power11_pmu() registers a copy of
# power10_pmu): what is said of POWER10 below holds for it (family), except on 6.1, whose
# generic ISAv3 PMU has other sysfs attributes (generic)
qemu_cpu=$cpu family=$cpu generic= pvr_arg=()
if [ "$cpu" = power11 ]; then
	qemu_cpu=power10 family=power10 pvr_arg=(--pvr 00820200)
	[ "$kernel" = 6.1 ] && generic=yes
fi
w=$PMU_QEMU_WORK
rm -rf "$w" && mkdir -p "$w/files" "$w/o"
failures=0
fail() { echo "FAIL ($kernel $cpu): $*" >&2; failures=$((failures + 1)); }
ok() { echo "ok: $*"; }
need() { command -v "$1" >/dev/null || { echo "FAIL: '$1' not found (Debian package $2)" >&2; exit 1; }; }
need perf linux-perf
need python3 python3

loops=2000000     # the loop's iterations: 2 instructions each
cp "$PMU_QEMU_BIN/pmutool" "$PMU_QEMU_BIN/qemu_loop" "$PMU_QEMU_BIN/qemu_dtl_cycle" \
	"$PMU_QEMU_BIN/qemu_auxv" "$here/sysfs_dump.sh" "$w/files/"
dry_events=(-e PM_RUN_INST_CMPL,cycles -e '{PM_RUN_INST_CMPL,PM_CYC}:u' -e task-clock
	-e L1-dcache-load-misses -e 'cpu/event=0x600f4/k' -e mem-loads -e instructions:k)
# five events that each need one of PMC1-4 (no alternative on PMC5/6): cannot fit
case $family in
power10) unfit='{PM_LD_REF_L1,PM_LD_MISS_L1,PM_ST_MISS_L1,PM_BR_CMPL,PM_DATA_FROM_L3MISS}' ;;
power9) unfit='{PM_LD_REF_L1,PM_LD_MISS_L1,PM_ST_MISS_L1,PM_BR_CMPL,PM_DATA_FROM_L3MISS}' ;;
power8) unfit='{PM_LD_REF_L1,PM_LD_MISS_L1,PM_ST_MISS_L1,PM_BR_CMPL,PM_DATA_FROM_L3MISS}' ;;
esac
# the instructions counted: PM_RUN_INST_CMPL, but on POWER8 PM_INST_CMPL (0x2, PMC1-4).
# POWER8 has no MMCR0_C56RUN (power10_compute_mmcr sets it), so its PMC5 counts only
# while the run latch is set: under QEMU PM_RUN_INST_CMPL (0x500fa) counted 357,571 and
# then 0 for the loop's 4,000,000 instructions, where PM_INST_CMPL counts them all
inst=PM_RUN_INST_CMPL
[ "$cpu" = power8 ] && inst=PM_INST_CMPL
# multiplexed: PM_LD_MISS_L1 (PMC3 only) twice, PM_CYC beside either
mux_events='-e PM_LD_MISS_L1 -e PM_LD_MISS_L1 -e PM_CYC'
{
	echo '#!/bin/sh'
	echo 'cd /t; o=/o'
	echo 'sh ./sysfs_dump.sh /sys cpu vpa_dtl software tracepoint breakpoint >$o/sysfs.txt'
	echo 'run() { name=$1; shift; "$@" >$o/$name.out 2>$o/$name.err; echo $? >$o/$name.rc; }'
	echo 'run list ./pmutool --show-pick list PM_BACK_BR_CMPL'
	echo 'run describe ./pmutool --show-pick describe PM_RUN_INST_CMPL'
	echo 'run check ./pmutool --show-pick check PM_RUN_INST_CMPL,PM_RUN_CYC'
	echo 'grep -m1 "^revision" /proc/cpuinfo >$o/cpuinfo.txt'
	echo './qemu_auxv >$o/auxv.txt'
	echo "run stat_raw ./pmutool -x, stat -e $inst -e PM_CYC -- ./qemu_loop $loops"
	echo "run stat_group ./pmutool -x, stat -e '{$inst,PM_CYC}' -- ./qemu_loop $loops"
	echo "run stat_generic ./pmutool -x, stat -e instructions,cycles -- ./qemu_loop $loops"
	echo "run stat_unfit ./pmutool stat -e '$unfit' -- ./qemu_loop 1"
	[ "$family" = power10 ] && [ -z "$generic" ] &&
		echo "run stat_mux ./pmutool -x, stat $mux_events -- ./qemu_loop 500000000"
	echo "run record ./pmutool record -g -e cpu-clock -c 100000 -o \$o/perf.data -- ./qemu_loop 20000000"
	printf 'run dry ./pmutool stat --dry-run --json'
	printf " '%s'" "${dry_events[@]}"
	echo
	if [ "$kernel" = 7 ]; then
		echo 'run dtl_a ./pmutool dtl record -a -o $o/dtl-a.data -- ./qemu_loop 3000000'
		echo 'run dtl_c ./pmutool dtl record -C 0 -o $o/dtl-c0.data -- ./qemu_loop 3000000'
		echo 'run dtl_dump ./pmutool dtl dump -i $o/dtl-a.data'
		# the capture API's disable/enable cycle (no Oops: a new event each time)
		# and a second user of CPU 0; the driver's refusals, explained
		echo 'run dtl_cycle ./qemu_dtl_cycle'
		echo 'run dtl_task ./pmutool record -e vpa_dtl/dtl_all/ -c 1000000 -o $o/task.data -- ./qemu_loop 1'
		echo 'run dtl_count ./pmutool stat -a -e vpa_dtl/dtl_all/ -- ./qemu_loop 1'
		echo 'run dtl_config ./pmutool record -a -e vpa_dtl/event=0x9/ -c 1000000 -o $o/config.data -- ./qemu_loop 1'
		echo 'run dtl_exclude ./pmutool record -a -e vpa_dtl/dtl_all/u -c 1000000 -o $o/exclude.data -- ./qemu_loop 1'
	fi
} >"$w/files/run"
chmod +x "$w/files/run"

rc=0
"$PMU_QEMU_RUN" --cache "$PMU_QEMU_CACHE" --kernel "$kernel" --cpu "$qemu_cpu" "${pvr_arg[@]}" \
	--files "$w/files" --out "$w/out.txt" --outdir "$w/o" || rc=$?
if [ "$rc" -ne 0 ]; then
	cat "$w/out.txt" >&2 || true
	echo "FAIL ($kernel $cpu): the guest run failed with status $rc" >&2
	exit 1
fi
o=$w/o
show() { echo "--- $1:"; cat "$o/$1.out" "$o/$1.err"; }
rc_of() { cat "$o/$1.rc"; }

# --- the pick: the cpu PMU's pmu_name first (the PMU the kernel registered, which it
# chose by the real PVR), then the PVR; the guest's sysfs, cpuinfo and console agree
case $cpu in
power10) pmu_name=POWER10 pvr='0080 0200' ;;
power9) pmu_name=POWER9 pvr='004e 1200' ;;
power8) pmu_name=POWER8 pvr='004d 0200' ;;
power11) pmu_name=${generic:+ISAv3} pvr='0082 0200' ;;
esac
pmu_name=${pmu_name:-Power11}
picked_by="the cpu PMU's pmu_name '$pmu_name' (/sys/bus/event_source/devices/cpu/caps/pmu_name)"
[ -n "$generic" ] && picked_by="the PVR '$pvr' (/proc/cpuinfo)"
grep -qx "pmutool: description $cpu from $cpu.yaml, picked by $picked_by" "$o/list.err" ||
	fail "list's pick: $(cat "$o/list.err"), not by $picked_by"
grep -qx "cpu/caps/pmu_name=$pmu_name" "$o/sysfs.txt" || fail "the guest's pmu_name is not $pmu_name"
grep -q "(pvr $pvr)" "$o/cpuinfo.txt" || fail "the guest's PVR: $(cat "$o/cpuinfo.txt")"
grep -q "$pmu_name performance monitor hardware support registered" "$w/out.txt.console" ||
	fail "the kernel did not log '$pmu_name performance monitor hardware support registered'"
# the Power11 guests run in POWER10 compatibility mode: AT_PLATFORM names power10
if [ "$cpu" = power11 ]; then
	grep -qx 'AT_PLATFORM=power10' "$o/auxv.txt" || fail "AT_PLATFORM: $(cat "$o/auxv.txt")"
	echo "  the guest's $(tr '\n' ' ' <"$o/auxv.txt")"
fi
# PM_BACK_BR_CMPL is POWER9's and POWER8's: list finds it there (0), not on POWER10 (1)
want_list=$([ "$family" = power10 ] && echo 1 || echo 0)
[ "$(rc_of list)" = "$want_list" ] || fail "list PM_BACK_BR_CMPL exited $(rc_of list), not $want_list"
# PM_RUN_INST_CMPL is 0x400fa in POWER9's description, 0x500fa in POWER10's and POWER8's
want_code=$([ "$family" = power9 ] && echo 0x400fa || echo 0x500fa)
head -n 1 "$o/describe.out" | grep -q "^PM_RUN_INST_CMPL  $want_code " ||
	fail "describe PM_RUN_INST_CMPL: $(head -n 1 "$o/describe.out")"
[ "$(rc_of check)" = 0 ] && grep -q '^group fits: 2 events' "$o/check.out" &&
	grep -q "PM_RUN_INST_CMPL  $want_code" "$o/check.out" || { show check; fail "check"; }
[ "$failures" -eq 0 ] && ok "list, describe, check use $cpu, picked by $picked_by; PVR $pvr"

# --- counting: a loop of 2 x $loops user instructions; QEMU ignores the privilege
# filters and counts the kernel's exec and exit work too, a few 100,000 instructions
count_of() { # count_of NAME EVENT: the count -x, prints for EVENT
	awk -F, -v e="$2" '$3 == e { print $1 }' "$o/$1.out" "$o/$1.err" | head -n 1
}
plausible_insns() { # NAME EVENT
	local n
	n=$(count_of "$1" "$2")
	[[ $n =~ ^[0-9]+$ ]] && [ "$n" -ge $((2 * loops)) ] && [ "$n" -le $((2 * loops + 3000000)) ] ||
		{ show "$1"; fail "$1: $2 counted '$n', not 2 x $loops plus at most 3,000,000"; return; }
	echo "  $1: $2 = $n"
}
nonzero_cycles() { # NAME EVENT: QEMU's cycles follow its virtual clock (1 GHz)
	local n
	n=$(count_of "$1" "$2")
	[[ $n =~ ^[0-9]+$ ]] && [ "$n" -gt 0 ] && [ "$n" -lt 1000000000000 ] ||
		{ show "$1"; fail "$1: $2 counted '$n', not between 1 and 10^12"; return; }
	echo "  $1: $2 = $n"
}
for s in stat_raw stat_group stat_generic; do
	[ "$(rc_of $s)" = 0 ] || { show $s; fail "$s exited $(rc_of $s)"; }
	# a count scaled by multiplexing would not be checkable: every line ran 100 %
	awk -F, 'NF >= 5 && $5 != "100.00" { bad = 1 } END { exit bad }' "$o/$s.out" "$o/$s.err" ||
		{ show $s; fail "$s: an event did not run all the time"; }
done
plausible_insns stat_raw $inst
nonzero_cycles stat_raw PM_CYC
plausible_insns stat_group $inst
nonzero_cycles stat_group PM_CYC
plausible_insns stat_generic instructions
nonzero_cycles stat_generic cycles

# --- multiplexing: the real kernel's shares of the time against the simulated kernel's
if [ "$family" = power10 ] && [ -z "$generic" ]; then
	[ "$(rc_of stat_mux)" = 0 ] || { show stat_mux; fail "stat_mux exited $(rc_of stat_mux)"; }
	# shellcheck disable=SC2086 # the events are words
	sim=$("$PMU_HOST_BENCH_MUX" --shares "$cpu" 1200 ${mux_events//-e /} | cut -d, -f2 | tr '\n' ' ')
	real=$(awk -F, 'NF >= 5 { printf "%s ", $5 }' "$o/stat_mux.err")
	if python3 - "$sim" "$real" <<'PY'
import sys
sim, real = ([float(x) for x in a.split()] for a in sys.argv[1:])
sys.exit(not (len(sim) == len(real) == 3 and all(abs(s - r) <= 8 for s, r in zip(sim, real))))
PY
	then
		ok "multiplexing: shares of the time $real(%) on the kernel, $sim on the simulated kernel"
	else
		show stat_mux
		fail "multiplexing: the kernel ran the events for shares $real(%), the simulated kernel $sim"
	fi
fi

# --- an unfittable group is refused before the system call
[ "$(rc_of stat_unfit)" = 1 ] && grep -q 'cannot be counted on .* (nothing was opened)' "$o/stat_unfit.err" ||
	{ show stat_unfit; fail "stat of an unfittable group: exit $(rc_of stat_unfit)"; }
ok "stat refused $unfit before opening: $(cat "$o/stat_unfit.err")"

# --- record -g in the guest, read on the host
[ "$(rc_of record)" = 0 ] && [ -s "$o/perf.data" ] || { show record; fail "record -g"; }
host=$PMU_HOST_PMUTOOL
if "$host" report --no-children -g none -i "$o/perf.data" >"$w/report.txt" 2>"$w/report.err"; then
	samples=$(sed -n 's/^# pmutool report: .*, \([0-9]*\) samples, .*/\1/p' "$w/report.txt")
	grep -Eq '^ +[0-9]+ +[0-9]+ +[0-9.]+% +qemu_loop ' "$w/report.txt" ||
		fail "host pmutool report shows no qemu_loop samples: $(head -n 12 "$w/report.txt")"
else
	fail "host pmutool report: $(cat "$w/report.err")"
fi
"$host" script -i "$o/perf.data" >"$w/script.txt" 2>"$w/script.err" ||
	fail "host pmutool script: $(cat "$w/script.err")"
ours_lines=$(grep -c ' cpu-clock: ' "$w/script.txt" || true)
perf report -i "$o/perf.data" --header-only >"$w/perf-header.txt" 2>&1 ||
	fail "perf report --header-only: $(tail -n 3 "$w/perf-header.txt")"
grep -q '^# arch : ppc64le' "$w/perf-header.txt" || fail "perf reads no ppc64le arch: $(grep arch "$w/perf-header.txt")"
perf script -i "$o/perf.data" -F comm,tid,period -G >"$w/perf-script.txt" 2>"$w/perf-script.err" ||
	fail "perf script: $(tail -n 3 "$w/perf-script.err")"
perf_lines=$(grep -c . "$w/perf-script.txt" || true)
perf report -i "$o/perf.data" --stdio -g none --sort comm >"$w/perf-report.txt" 2>"$w/perf-report.err" ||
	fail "perf report: $(tail -n 3 "$w/perf-report.err")"
grep -q 'qemu_loop' "$w/perf-report.txt" || fail "perf report names no qemu_loop"
[ -n "${samples:-}" ] && [ "$samples" -gt 0 ] && [ "$samples" = "$ours_lines" ] && [ "$samples" = "$perf_lines" ] ||
	fail "samples: pmutool report ${samples:-?}, pmutool script $ours_lines, perf script $perf_lines"
ok "record -g: a ppc64le perf.data of ${samples:-?} samples, the same in pmutool report/script and perf script/report"

# --- power10, power11: the dry run and the sysfs against the fake tree
if [ "$family" = power10 ] && [ -z "$generic" ]; then
	fake=$w/fakesys
	sh "$PMU_FAKESYS/$cpu-lpar.sh" "$fake"
	[ "$(rc_of dry)" = 0 ] || { show dry; fail "dry run in the guest"; }
	"$host" --sysfs "$fake" stat --dry-run --json "${dry_events[@]}" >"$w/dry-host.json" ||
		fail "dry run on the host"
	if [ "$(rc_of dry)" = 0 ] && diff -u "$w/dry-host.json" "$o/dry.out" >"$w/dry.diff"; then
		ok "stat --dry-run --json: the guest's attrs equal the host's with the fake tree"
	else
		cat "$w/dry.diff" >&2
		fail "stat --dry-run --json differs between the guest and the fake tree"
	fi

	sh "$here/sysfs_dump.sh" "$fake" cpu vpa_dtl software tracepoint breakpoint >"$w/sysfs-fake.txt"
	# The deliberate differences, each with its reason ("<" only in the fake tree,
	# ">" only in the guest); anything else fails.
	if [ "$kernel" = 7 ]; then
		allowed=(
			# PMU types after the fixed ones follow the registration order
			'< vpa_dtl/type=14' '> vpa_dtl/type=10'
		)
	else
		allowed=(
			# vpa_dtl came with Linux 6.18: the fake tree is a newer LPAR
			'> vpa_dtl absent'
			'< vpa_dtl/events/dtl_all=event=0x07' '< vpa_dtl/events/dtl_cede=event=0x01'
			'< vpa_dtl/events/dtl_fault=event=0x04' '< vpa_dtl/events/dtl_preempt=event=0x02'
			'< vpa_dtl/format/event=config:0-7' '< vpa_dtl/perf_event_mux_interval_ms=4'
			'< vpa_dtl/type=14'
		)
	fi
	if [ "$kernel" = 6.1 ]; then
		allowed+=(
			# Linux 6.1 shows 0 for the software-context PMUs; 6.12 and 7.2, as the
			# fake tree, 4 (perf_event_mux_interval_ms_show of pmu->hrtimer_interval_ms)
			'< breakpoint/perf_event_mux_interval_ms=4' '> breakpoint/perf_event_mux_interval_ms=0'
			'< software/perf_event_mux_interval_ms=4' '> software/perf_event_mux_interval_ms=0'
			'< tracepoint/perf_event_mux_interval_ms=4' '> tracepoint/perf_event_mux_interval_ms=0'
		)
	fi
	# Not compared: hv_24x7 (QEMU implements no 24x7 hcalls, so the guest has no such
	# PMU), kprobe and uprobe (the guest's; the fake tree needs neither).
	diff "$w/sysfs-fake.txt" "$o/sysfs.txt" | grep '^[<>]' >"$w/sysfs.diff" || true
	printf '%s\n' "${allowed[@]}" | LC_ALL=C sort >"$w/sysfs-allowed.txt"
	if LC_ALL=C sort "$w/sysfs.diff" | cmp -s - "$w/sysfs-allowed.txt"; then
		ok "sysfs: cpu, vpa_dtl, software, tracepoint, breakpoint as the fake tree, but for: ${allowed[*]}"
	else
		echo "sysfs differences (< fake tree, > guest) against the allowed ones:" >&2
		LC_ALL=C sort "$w/sysfs.diff" | diff - "$w/sysfs-allowed.txt" >&2 || true
		fail "the guest's sysfs and tests/fakesys/$cpu-lpar.sh differ beyond the listed differences"
	fi
fi

# --- kernel 7: vpa_dtl capture, per CPU
if [ "$kernel" = 7 ]; then
	for d in dtl_a dtl_c; do
		[ "$(rc_of $d)" = 0 ] || { show $d; fail "pmutool dtl record ($d) exited $(rc_of $d)"; }
	done
	[ -s "$o/dtl-a.data" ] && [ -s "$o/dtl-c0.data" ] || fail "dtl record left no perf.data"
	for d in dtl_a dtl_c; do
		grep -q '^\[ AUX: .* entries lost \]$' "$o/$d.err" "$o/$d.out" ||
			{ show $d; fail "$d: no AUX summary at the end of the capture"; }
	done
	[ "$(rc_of dtl_dump)" = 0 ] || { show dtl_dump; fail "dtl dump of the -a capture"; }
	"$host" dtl dump -i "$o/dtl-c0.data" >"$w/dtl-host.txt" 2>&1 || fail "host dtl dump: $(cat "$w/dtl-host.txt")"
	[ "$(rc_of dtl_cycle)" = 0 ] && grep -q '^cycle ok: reopens=2 ' "$o/dtl_cycle.out" ||
		{ show dtl_cycle; fail "the capture API's disable/enable cycle"; }
	grep -q '^second user: -16 .*another user holds the Dispatch Trace Log' "$o/dtl_cycle.out" ||
		{ show dtl_cycle; fail "a second user of CPU 0 not refused with EBUSY, explained"; }
	refused() { # NAME TEXT: pmutool exited non-zero saying TEXT
		[ "$(rc_of "$1")" != 0 ] && grep -q -- "$2" "$o/$1.err" ||
			{ show "$1"; fail "$1: not refused with '$2'"; return; }
		echo "  $1: $(tail -n 1 "$o/$1.err")"
	}
	refused dtl_task 'per CPU only.*-a or -C'
	refused dtl_count 'vpa_dtl only samples'
	refused dtl_config 'config 0x9: vpa_dtl takes'
	refused dtl_exclude 'vpa_dtl refuses every exclude bit'
	show dtl_cycle
	show dtl_a
	show dtl_dump
	echo "--- host dtl dump of -C 0:"
	cat "$w/dtl-host.txt"
fi

if [ "$failures" -ne 0 ]; then
	echo "$failures failure(s); the guest's files are in $o, its console in $w/out.txt.console" >&2
	exit 1
fi
echo "all passed ($kernel, $cpu)"
