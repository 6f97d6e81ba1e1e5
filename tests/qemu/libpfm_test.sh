#!/bin/bash
# libpfm_test.sh KERNEL CPU - libpmurt's libpfm.so.4 beside Debian's libpfm4 4.13.0 under
# Debian's unmodified ppc64el PAPI 7.0.0 and PCP 6.0.3 (issue 25 items 2 and 3), in one QEMU
# boot of Debian's KERNEL with -cpu CPU (power10, power9, power8; power11 is a short round
# of item 4, below).  The guest runs every
# program twice, with Debian's libpfm.so.4 (the system's) and with ours (LD_LIBRARY_PATH),
# after lowering perf_event_paranoid:
#   papi_component_avail, papi_native_avail, papi_avail -a, papi_command_line of
#   PM_RUN_INST_CMPL and PM_INST_CMPL (twice) and of PM_MRK_INST_CMPL, PAPI's own test
#   programs from papi-examples (built here against the installed PAPI), PCP's
#   pmda_perfevent through pminfo, tests/pfm/pfm_dump (PMUs, events, encodings), and for
#   every event both libraries name with different codes, the kernel's answer: each code
#   opened alone (perf_event_open) and the kernel's own sysfs alias where it has one.
#   The kernel's tracepoints (the generic perf PMU's events while debugfs is mounted) are
#   compared through pfm_dump only: PAPI runs with debugfs unmounted, as listing them and
#   adding each in all_native_events took some 15 minutes a boot.
# The host then checks (tests/qemu/libpfm_compare.py): perf_event active with the same PMUs,
# the same perf:: and perf_raw:: events, the same preset table, counts within 1%, the same
# PASSED/SKIPPED/FAILED per test program, every event papi_native_avail lists with ours
# resolving and counting (all_native_events), pmda_perfevent counting with ours, and writes
# the list of encodings that differ with the kernel's answers to PMU_QEMU_WORK/differences.txt.
# Environment from tests/qemu.cmake: PMU_QEMU_CACHE, PMU_QEMU_BIN (the ppc64le build's bin/,
# with ../pfm-lib/libpfm.so.4 and ../runtime/libpmurt.so.0 beside), PMU_QEMU_RUN,
# PMU_QEMU_WORK, PMU_HOST_PAPI_CSV (the host's pmurt-papi-csv).
set -euo pipefail
kernel=$1 cpu=$2
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
w=$PMU_QEMU_WORK
peers=$PMU_QEMU_CACHE/peers
examples=$peers/usr/share/doc/papi-examples/examples
build=$(cd "$PMU_QEMU_BIN/.." && pwd)
need() { command -v "$1" >/dev/null || { echo "FAIL: '$1' not found (Debian package $2)" >&2; exit 1; }; }
need powerpc64le-linux-gnu-gcc gcc-powerpc64le-linux-gnu
need python3 python3
[ -f "$peers/.complete" ] || { echo "FAIL: no peers in $peers (run tests/qemu/fetch.sh)" >&2; exit 1; }
[ -f "$build/pfm-lib/libpfm.so.4" ] || { echo "FAIL: no ppc64le libpfm.so.4 in $build/pfm-lib" >&2; exit 1; }
rm -rf "$w" && mkdir -p "$w/files/pmurt-pfm" "$w/files/ctests" "$w/o" "$w/obj"

# our library and libpmurt, as they install
cp "$build/pfm-lib/libpfm.so.4" "$w/files/pmurt-pfm/"
cp -L "$build/runtime/libpmurt.so.0" "$w/files/pmurt-pfm/"

# the guest programs, dynamic, linked against Debian's libpfm4 and PAPI
cc=(powerpc64le-linux-gnu-gcc -O1 -w -isystem "$peers/usr/include" -I"$examples/testlib"
	-I"$examples/validation_tests")
ld=(-L"$peers/usr/lib/powerpc64le-linux-gnu" -Wl,-rpath-link,"$peers/usr/lib/powerpc64le-linux-gnu"
	-Wl,-rpath-link,"$peers/lib/powerpc64le-linux-gnu")
"${cc[@]}" "$src/tests/pfm/pfm_dump.c" -o "$w/files/pfm_dump" "${ld[@]}" -lpfm
"${cc[@]}" "$src/bench/bench_pfm.c" -o "$w/files/bench_pfm" "${ld[@]}" -ldl
# PAPI's test programs, as papi-examples' Makefile builds them (testlib + validation code)
# (failed_events is left out: it adds every native event in turn, as all_native_events
# does, four minutes more a boot)
ctests=(first zero zero_named zero_flip second all_native_events all_events multiplex1
	low-level eventname describe derived branches cmpinfo code2name hwinfo remove_events
	reset get_event_component version destroy case1 case2 realtime virttime inherit exec)
for lib in testlib:test_utils,do_loops,clockcore \
	validation_tests:display_error,instructions_testcode,flops_testcode,branches_testcode,busy_work,cache_helper,cache_testcode,matrix_multiply; do
	dir=${lib%%:*}
	for f in $(echo "${lib#*:}" | tr , ' '); do
		"${cc[@]}" -c "$examples/$dir/$f.c" -o "$w/obj/$f.o"
		powerpc64le-linux-gnu-ar rc "$w/obj/lib$dir.a" "$w/obj/$f.o"
	done
done
for t in "${ctests[@]}"; do
	"${cc[@]}" "$examples/ctests/$t.c" -o "$w/files/ctests/$t" -L"$w/obj" -ltestlib \
		-lvalidation_tests "${ld[@]}" -lpapi -lm -lpthread
done

# the root: Debian's C library, PAPI, libpfm4 and PCP with what they load
scan=(--scan "$w/files/pfm_dump" --scan "$w/files/bench_pfm" --scan "$w/files/pmurt-pfm/libpfm.so.4" --lib "$w/files/pmurt-pfm")
for t in "${ctests[@]}"; do scan+=(--scan "$w/files/ctests/$t"); done
"$here/peers_root.sh" "$peers" "$w/root" "${scan[@]}" \
	usr/bin/papi_avail usr/bin/papi_native_avail usr/bin/papi_component_avail \
	usr/bin/papi_command_line usr/bin/pmval usr/lib/pcp/bin/pmcpp \
	usr/lib/pcp/pmdas/perfevent var/lib/pcp/pmdas/perfevent etc/pcp.conf \
	etc/pcp.env usr/share/papi

marked=PM_MRK_INST_CMPL
# shell functions both guest scripts use; $o is the library's output directory.  A PAPI
# test that fails runs again, up to three attempts in all, each logged: under QEMU (TCG)
# the cycle counter follows the host's clock, and tests such as first compare cycle counts
# of equal work within 20%, which a busy host's scheduling can break for either library.
# libpfm_compare.py takes a test as passed when an attempt passed, and names the failures
guest_functions=$(cat <<'FUNCTIONS'
use() { # the library: Debian's (the system's) or ours
	if [ $1 = ours ]; then export LD_LIBRARY_PATH=/t/pmurt-pfm; else unset LD_LIBRARY_PATH; fi
}
ctest() { # ctest NAME: PAPI's test program, logged to $o/ctests.txt
	for attempt in 1 2 3; do
		echo "== $1" >>$o/ctests.txt
		s=$(date +%s)
		timeout 900 ./ctests/$1 TESTS_QUIET >>$o/ctests.txt 2>&1
		rc=$?
		echo "== $1 rc=$rc seconds=$(($(date +%s) - s)) attempt=$attempt" | tee -a $o/ctests.txt
		[ $rc != 0 ] || break
	done
}
FUNCTIONS
)
"$PMU_HOST_PAPI_CSV" >"$w/files/presets.csv"
qemu_cpu=$cpu pvr_arg=()
if [ "$cpu" = power11 ]; then
	# QEMU 7.2 has no Power11: POWER10's model with Power11's PVR (run-guest.sh --pvr), which
	# libpfm4 does not know (its POWER10 rule is the PVR version 0x0080).  One short round
	# each: the PMUs, PAPI's view of them and two counts; ours must find power11 and count
	qemu_cpu=power10 pvr_arg=(--pvr 00820200)
	cat >"$w/files/run" <<RUN
#!/bin/sh
# the guest side of tests/qemu/libpfm_test.sh power11
cd /t
echo -1 >/proc/sys/kernel/perf_event_paranoid
grep -m1 '^cpu' /proc/cpuinfo >/o/cpu.txt
umount /sys/kernel/debug
$guest_functions
for lib in deb ours; do
	use \$lib
	o=/o/\$lib
	mkdir -p \$o
	./pfm_dump pmus >\$o/pmus.txt 2>&1
	papi_component_avail >\$o/component.txt 2>&1
	papi_native_avail >\$o/native.txt 2>&1
	papi_command_line PM_INST_CMPL >\$o/cmd1.txt 2>&1
	papi_command_line PM_RUN_INST_CMPL >\$o/cmd_run.txt 2>&1
	# first with PAPI's presets for power11 from the descriptions' (PAPI has none); not
	# zero, which fails on QEMU's cycles (PM_RUN_CYC reads 0 under QEMU on POWER10 too)
	for t in first all_native_events; do PAPI_CSV_EVENT_FILE=/t/presets.csv ctest \$t; done
done
exit 0
RUN
else
	cat >"$w/files/run" <<RUN
#!/bin/sh
# the guest side of tests/qemu/libpfm_test.sh; each step's seconds in /o/times.txt
cd /t
step() { t0=\$(date +%s); "\$@"; echo "\$((\$(date +%s) - t0)) s: \$*" | tee -a /o/times.txt; }
echo -1 >/proc/sys/kernel/perf_event_paranoid
grep -m1 '^cpu' /proc/cpuinfo >/o/cpu.txt
mkdir -p /etc/pcp/perfevent /tmp
printf 'root {\n\tperfevent 127:*:*\n}\n' >/tmp/pmns
printf '[$cpu]\nPM_INST_CMPL\nPM_RUN_INST_CMPL\n' >/etc/pcp/perfevent/perfevent.conf
$guest_functions
tracepoints() { # with debugfs mounted: the generic perf PMU lists the kernel's tracepoints
	use \$1
	./pfm_dump events perf >/o/\$1/perf_events.txt 2>&1
}
listing() { # without (PAPI would list and all_native_events add some 1,500 tracepoints)
	use \$1
	o=/o/\$1
	./pfm_dump pmus >\$o/pmus.txt 2>&1
	./pfm_dump events $cpu >\$o/events.txt 2>&1
	papi_component_avail >\$o/component.txt 2>&1
	papi_native_avail >\$o/native.txt 2>&1
	papi_avail -a >\$o/avail.txt 2>&1
}
counting() {
	use \$1
	o=/o/\$1
	papi_command_line PM_INST_CMPL >\$o/cmd1.txt 2>&1
	papi_command_line PM_INST_CMPL >\$o/cmd2.txt 2>&1
	papi_command_line PM_RUN_INST_CMPL >\$o/cmd_run.txt 2>&1
	papi_command_line $marked >\$o/cmd_marked.txt 2>&1
	for t in \$(ls ctests); do ctest \$t; done
	# PCP's perfevent PMDA loaded into pmval (a local context, no pmcd): three samples
	pmval -n /tmp/pmns -L -K clear -K add,127,/usr/lib/pcp/pmdas/perfevent/pmda_perfevent.so,perfevent_init \\
		-s 3 -t 1 -f 0 perfevent.hwcounters.PM_INST_CMPL.value >\$o/pmval.txt 2>&1
}
mkdir -p /o/deb /o/ours /o/csv
step tracepoints deb
step tracepoints ours
umount /sys/kernel/debug
step listing deb
step listing ours
step counting deb
step counting ours
# the descriptions' presets, through ours, as a file PAPI reads
export PAPI_CSV_EVENT_FILE=/t/presets.csv LD_LIBRARY_PATH=/t/pmurt-pfm
papi_avail -a >/o/csv/avail.txt 2>&1
papi_command_line PAPI_TOT_INS PAPI_TOT_CYC >/o/csv/cmd.txt 2>&1
unset PAPI_CSV_EVENT_FILE LD_LIBRARY_PATH
# the encodings both libraries give otherwise, each opened alone: the kernel's answer
awk '/^event / && NR == FNR { code[\$2] = \$3; next }
	/^event / && (\$2 in code) && code[\$2] != \$3 { print \$2 }' /o/deb/events.txt /o/ours/events.txt >/o/differ.txt
./pfm_dump kernel \$(cat /o/differ.txt) >/o/deb/kernel.txt 2>&1
LD_LIBRARY_PATH=/t/pmurt-pfm ./pfm_dump kernel \$(cat /o/differ.txt) >/o/ours/kernel.txt 2>&1
for n in \$(cat /o/differ.txt); do
	f=/sys/bus/event_source/devices/cpu/events/\$n
	[ -f \$f ] && echo "\$n \$(cat \$f)"
done >/o/sysfs_aliases.txt
# the benchmark (bench/bench_pfm.c): encoding through each library, papi_native_avail's start-up
LD_LIBRARY_PATH=/t/pmurt-pfm ./bench_pfm encode /t/pmurt-pfm/libpfm.so.4 /usr/lib/powerpc64le-linux-gnu/libpfm.so.4 5 >/o/bench.txt 2>&1
./bench_pfm startup /t/pmurt-pfm 1 papi_native_avail >>/o/bench.txt 2>&1
exit 0
RUN
fi
chmod +x "$w/files/run"

"$PMU_QEMU_RUN" --cache "$PMU_QEMU_CACHE" --kernel "$kernel" --cpu "$qemu_cpu" "${pvr_arg[@]}" \
	--files "$w/files" --root "$w/root" --out "$w/guest.out" --outdir "$w/o" --timeout 900
[ ! -f "$w/o/bench.txt" ] || cat "$w/o/bench.txt"
python3 "$here/libpfm_compare.py" "$w/o" "$cpu" "$w/differences.txt"
