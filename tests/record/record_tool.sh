#!/bin/sh
# record_tool.sh - `pmutool record` on this machine's kernel (root, as CI runs
# it), its files read by Debian's perf (linux-perf):
#   workload  samples of the workload's pid and comm, MMAP2 of its binary,
#             FORK and EXIT, the user function on top in `perf report`;
#             without -e, perf record's default event on this host;
#   callchain -g: `perf script` shows the user stack through main; of a
#             workload through libc's PLT and the vdso, pmutool script
#             prints what perf script prints, frame for frame (symbols
#             "@plt" and __vdso_* included, the vdso's found by perf in the
#             build-id cache pmutool record filled, in a HOME of its own);
#   pid       -p PID: stops when the process exits, its name and binary
#             resolve from the synthesized COMM and MMAP2 (the process
#             held stopped until record is attached); -p PID -- sleep:
#             PID recorded while sleep runs, sleep not;
#   sigint    -a until SIGINT: exit 0, the file finished with its samples;
#   period    the minimum period (5000, --min-period) from -c and a probe's
#             COUNT, refused before anything opens; perf's terms on software
#             events (cpu-clock/period=N/) give perf's attrs;
#   fcfs      counters first come, first served, the holder named;
#   status    the workload's exit status is record's; the workload's own
#             options need no --;
#   papi      a PAPI preset of one event in the probe form is sampled, a
#             derived one refused saying why;
#   single    a description whose PMU cannot tell which counter overflowed
#             (overflow-counter-unknown) lets one enabling hold counters;
#   ours      pmutool script prints what perf script prints, line for line,
#             and pmutool report puts the same function on top;
#   tracepoint sched:sched_switch beside cpu-clock: Debian's perf reads the
#             file (the tracing-data feature) and decodes the raw fields
#             (prev_comm/prev_pid name the sample's comm and tid); perf
#             script and pmutool script give the same lines, fields
#             decoded (libtraceevent), with -F as perf's, %ps as kernel
#             function names;
#   cxx       a C++ workload's names demangled in pmutool script and
#             report as perf 6.1 demangles them (script output identical);
#   sortkeys  --sort pid (perf's per thread: TID:COMMAND) and --sort cpu
#             (perf's %03d, -001 in a file without CPUs) of a two-thread
#             workload, per task and CPU-wide: the rows of perf report;
#   longnames a C++ workload whose std::_Rb_tree<...> members have names
#             of about 790 characters, equal in their first 507: pmutool
#             report's rows, text and --json, name them whole, as perf
#             report's;
#   tracegraph sched:sched_switch recorded with -g (by pmutool record and
#             by perf record, alone and beside cpu-clock): pmutool script
#             prints the frames under each sample line as perf script does,
#             and none where -F chose the tracepoints' fields;
#   deep      a call graph deeper than perf report walks (127 frames):
#             pmutool report's Children and Self, and the call graphs
#             under its rows, equal perf report's.
# usage: record_tool.sh CASE PMUTOOL SPIN [POWER10.yaml [PLT_SPIN]]
set -u
case_name=$1 pmutool=$2 spin=$3 p10yaml=${4:-} plt_spin=${5:-}
command -v perf >/dev/null || { echo "perf is missing: install the Debian package linux-perf"; exit 1; }
t=$(mktemp -d "${TMPDIR:-/tmp}/pmurt-record.XXXXXX") || exit 1
trap 'rm -rf "$t"' EXIT
fail() { echo "FAIL: $*"; for f in "$t"/*.txt; do [ -f "$f" ] && { echo "--- $f"; head -40 "$f"; }; done; exit 1; }
record() { "$pmutool" record "$@" >"$t/out.txt" 2>"$t/err.txt"; }
# POWER10 core events on this x86 host: the description named (--pmu)
p10record() { "$pmutool" --pmu power10 record "$@" >"$t/out.txt" 2>"$t/err.txt"; }
# Waits until process $1 sleeps in poll(): pmutool record polls its rings
# only after it enabled the events, so from then on the events count,
# however long a loaded machine kept it from getting there.
wait_polling() {
	while :; do
		case $(cat "/proc/$1/wchan" 2>/dev/null) in *poll*) return 0 ;; esac
		kill -0 "$1" 2>/dev/null || return 1
		sleep 0.05
	done
}
# perf's own view: perf script fields, perf report -D records
script() { perf script -i "$t/p.data" -F "$1" 2>"$t/perf-err.txt"; }
dump() { perf report -D -i "$t/p.data" 2>/dev/null; }

case $case_name in
workload)
	record -e cpu-clock -c 250000 -o "$t/p.data" -- sh -c "$spin 200000000; true" ||
		fail "record exited $?"
	grep -q '^\[ pmutool record: [1-9][0-9]* samples, 0 lost, 0 lost samples' "$t/err.txt" ||
		fail "no summary line"
	script comm,pid >"$t/script.txt" || fail "perf script failed"
	n=$(grep -c '^ *record_spin ' "$t/script.txt")
	[ "$n" -ge 20 ] || fail "$n samples of record_spin in perf script"
	pid=$(awk '$1 == "record_spin" {print $2; exit}' "$t/script.txt")
	dump >"$t/dump.txt"
	grep -q "PERF_RECORD_MMAP2 $pid/$pid: .* $spin\$" "$t/dump.txt" || fail "no MMAP2 of $spin for $pid"
	grep -q "PERF_RECORD_FORK($pid:$pid)" "$t/dump.txt" || fail "no FORK of $pid"
	grep -q "PERF_RECORD_EXIT($pid:$pid)" "$t/dump.txt" || fail "no EXIT of $pid"
	grep -q "PERF_RECORD_COMM exec: record_spin:$pid/$pid" "$t/dump.txt" || fail "no COMM exec"
	perf report -i "$t/p.data" --stdio --sort comm,dso,sym 2>/dev/null >"$t/report.txt"
	grep -m1 '%' "$t/report.txt" | grep -q 'record_spin  *record_spin  *\[\.\] main' ||
		fail "main of record_spin is not on top of perf report"
	# no -e: perf record's default event on this host (cycles where there
	# is a hardware PMU, else cpu-clock, perf's fallback), at its 4000 Hz;
	# perf's fallback keeps the precise_ip 3 of its cycles:P (":ppp"),
	# which a software event ignores and pmutool does not set
	record -o "$t/d.data" -- "$spin" 20000000 || fail "record without -e exited $?"
	perf record -q -o "$t/perf-d.data" -- "$spin" 20000000 2>/dev/null || fail "perf record failed"
	ours=$(perf evlist -F -i "$t/d.data" 2>/dev/null)
	theirs=$(perf evlist -F -i "$t/perf-d.data" 2>/dev/null | sed 's/^\([a-z-]*\):p*:/\1:/')
	[ -n "$ours" ] && [ "$ours" = "$theirs" ] || fail "default event: '$ours', perf's '$theirs'"
	;;
callchain)
	record -e cpu-clock -c 250000 -g -o "$t/p.data" -- "$spin" 100000000 || fail "record exited $?"
	perf script -i "$t/p.data" 2>/dev/null >"$t/script.txt"
	grep -q '^[[:space:]]*[0-9a-f]* main+0x[0-9a-f]* (.*record_spin)$' "$t/script.txt" || fail "no user frame main"
	grep -q '__libc_start' "$t/script.txt" || fail "no user stack below main"
	# perf names the vdso's frames from the build-id cache only: pmutool
	# record keeps it there as perf record does, in a HOME of the test's
	# own (a machine where perf never recorded has no ~/.debug)
	mkdir "$t/home"
	HOME=$t/home PERF_BUILDID_DIR= "$pmutool" record -e cpu-clock -c 20000 -g -o "$t/p.data" \
		-- "$plt_spin" >"$t/out.txt" 2>"$t/err.txt" || fail "record exited $?"
	ls "$t/home/.debug/[vdso]/"*/vdso >/dev/null 2>&1 || fail "no vdso in the build-id cache"
	HOME=$t/home PERF_BUILDID_DIR= perf script -i "$t/p.data" 2>/dev/null >"$t/perf.txt" ||
		fail "perf script"
	HOME=$t/home PERF_BUILDID_DIR= "$pmutool" script -i "$t/p.data" >"$t/ours.txt" 2>"$t/ours-err.txt" ||
		fail "pmutool script"
	diff "$t/perf.txt" "$t/ours.txt" >"$t/diff.txt" || fail "pmutool script -g differs from perf script"
	grep -q '^	 *[0-9a-f]* main+0x[0-9a-f]* (.*record_plt_spin)$' "$t/ours.txt" || fail "no frame main"
	grep -q '^	 *[0-9a-f]* __vdso_clock_gettime+0x[0-9a-f]* (\[vdso\])$' "$t/ours.txt" ||
		fail "no __vdso_clock_gettime frame"
	# Whether a timer sample ever lands on a PLT stub's one jump depends on
	# the CPU (none on AMD EPYC under KVM, many on Intel): the diff above
	# holds "@plt" frames to perf's wherever they occur; perfdata/interop-plt
	# names them on samples placed in dash's PLT, on any machine.
	[ "$(grep -c '^$' "$t/ours.txt")" -ge 1000 ] || fail "fewer than 1000 samples with call graphs"
	;;
pid)
	# the workload stopped once it runs record_spin, until record is
	# attached: it cannot end first
	"$spin" 300000000 >/dev/null &
	pid=$!
	until [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = record_spin ]; do
		kill -0 "$pid" 2>/dev/null || fail "the workload ended before it was stopped"
	done
	kill -STOP "$pid"
	"$pmutool" record -e cpu-clock -c 250000 -p "$pid" -o "$t/p.data" >"$t/out.txt" 2>"$t/err.txt" &
	rec=$!
	wait_polling "$rec" || fail "record ended before it polled its rings"
	kill -CONT "$pid"
	wait "$rec" || fail "record exited $?"
	script comm,pid >"$t/script.txt" || fail "perf script failed"
	n=$(grep -c "^ *record_spin  *$pid *\$" "$t/script.txt")
	[ "$n" -ge 20 ] || fail "$n samples of record_spin $pid"
	perf report -i "$t/p.data" --stdio --sort dso,sym 2>/dev/null | grep -m1 '%' |
		grep -q 'record_spin  *\[\.\] main' || fail "main does not resolve from the synthesized MMAP2"
	# -p PID -- CMD: PID recorded while CMD runs (perf's record -p PID --
	# sleep N), CMD itself not recorded; record's status is CMD's
	"$spin" 30000000000 >/dev/null &
	spinner=$!
	"$pmutool" record -e cpu-clock -c 250000 -p "$spinner" -o "$t/p2.data" -- sleep 0.3 \
		>"$t/out.txt" 2>"$t/err.txt"
	rc=$?
	kill "$spinner"
	[ "$rc" = 0 ] || fail "record -p -- sleep exited $rc: $(cat "$t/err.txt")"
	perf script -i "$t/p2.data" -F comm,pid 2>/dev/null >"$t/script2.txt" || fail "perf script failed"
	[ "$(grep -c "^ *record_spin  *$spinner *\$" "$t/script2.txt")" -ge 10 ] ||
		fail "-p -- sleep: too few samples of the process"
	grep -q '^ *sleep ' "$t/script2.txt" && fail "-p -- sleep: the command was recorded"
	;;
sigint)
	"$pmutool" record -e cpu-clock -c 1000000 -a -o "$t/p.data" >"$t/out.txt" 2>"$t/err.txt" &
	rec=$!
	wait_polling "$rec" || fail "record ended before it polled its rings"
	"$spin" 50000000 >/dev/null
	kill -INT "$rec"
	wait "$rec" || fail "record exited $? after SIGINT"
	grep -q '^\[ pmutool record: [1-9][0-9]* samples' "$t/err.txt" || fail "no summary after SIGINT"
	script comm >"$t/script.txt" || fail "perf script cannot read the file"
	grep -q 'record_spin' "$t/script.txt" || fail "no sample of the workload run meanwhile"
	;;
period)
	record -e cpu-clock -c 4999 -- true
	[ $? -eq 2 ] || fail "-c 4999 not refused with status 2"
	grep -q "period 4999 is below the minimum of 5000 .*dcpc_min_overflow; --min-period" "$t/err.txt" ||
		fail "message does not name the minimum"
	record -e cpu-clock -c 1000 --min-period 1000 -o "$t/p.data" -- true || fail "--min-period 1000 refused"
	p10record --dry-run -e PM_RUN_INST_CMPL-user-1000
	[ $? -eq 2 ] && grep -q "'PM_RUN_INST_CMPL-user-1000': period 1000 is below the minimum of 5000" \
		"$t/err.txt" || fail "probe COUNT 1000 not refused"
	p10record --dry-run --min-period 1000 -e PM_RUN_INST_CMPL-user-1000 || fail "--min-period for a probe"
	grep -q '^PM_RUN_INST_CMPL-user-1000: type 4 config 0x500fa period 1000 PMC5$' "$t/out.txt" ||
		fail "dry run does not show the attr and counter"
	# perf's terms on a software event: the attrs perf record writes for them
	for ev in 'cpu-clock/period=1000000/' 'task-clock/freq=999,name=tc/u'; do
		record -e "$ev" -o "$t/q.data" -- true || fail "record -e '$ev' exited $?"
		perf record -q -e "$ev" -o "$t/perf-q.data" -- true 2>/dev/null || fail "perf record -e '$ev'"
		[ "$(perf evlist -F -i "$t/q.data" 2>/dev/null)" = \
		  "$(perf evlist -F -i "$t/perf-q.data" 2>/dev/null)" ] || fail "-e '$ev': not perf's attr"
	done
	record -e 'cpu-clock/bogus=1/' -o "$t/q.data" -- true
	[ $? -eq 2 ] && grep -q "unknown term 'bogus=1' at offset 10 for a software event" "$t/err.txt" ||
		fail "an unknown software term not refused at its offset"
	;;
fcfs)
	p10record --dry-run -e PM_FLOP_CMPL-all-10000 -e cpu-clock -e '0x100fc'
	[ $? -eq 1 ] || fail "PMC1 twice not refused with status 1"
	grep -q "event '0x100fc' cannot get a counter (.*PMC1.*): the counters are held by 'PM_FLOP_CMPL-all-10000'" \
		"$t/err.txt" || fail "holder not named"
	p10record --dry-run -e PM_FLOP_CMPL-all-10000 -e cpu-clock -e '0x200fa' || fail "PMC1 and PMC2 refused"
	grep -q '^PM_FLOP_CMPL-all-10000: type 4 config 0x100f4 period 10000 PMC1$' "$t/out.txt" &&
		grep -q '^0x200fa: type 4 config 0x200fa freq 4000 PMC2$' "$t/out.txt" && grep -q '^cpu-clock: type 1 config 0x0 freq 4000$' \
		"$t/out.txt" || fail "dry run does not show the counters held"
	;;
status)
	record -e cpu-clock -o "$t/p.data" -- sh -c 'exit 7'
	[ $? -eq 7 ] || fail "workload status not kept"
	# the command's own options need no --: record's end at it
	record -e cpu-clock -o "$t/p.data" ls -l / || fail "record ls -l / exited $?"
	grep -q ' tmp$' "$t/out.txt" || fail "ls did not get -l"
	record -e cpu-clock -o "$t/p.data" -- /nonexistent/cmd
	[ $? -eq 2 ] && grep -q "cannot run '/nonexistent/cmd'" "$t/err.txt" || fail "missing command"
	;;
papi)
	p10record --dry-run -e PAPI_l1_ldm-all-10000 || fail "PAPI_L1_LDM refused"
	grep -q '^PAPI_l1_ldm-all-10000: type 4 config 0x3e054 period 10000 PMC3$' "$t/out.txt" ||
		fail "PAPI_L1_LDM is not PM_LD_MISS_L1 on PMC3"
	p10record --dry-run -e PAPI_L1_DCM-all-10000
	[ $? -eq 2 ] && grep -q "preset 'PAPI_L1_DCM' at offset 0 is derived (PM_LD_DEMAND_MISS_L1_FIN + PM_ST_MISS_L1).*record takes only a preset of one event" \
		"$t/err.txt" || fail "derived preset not refused with its reason"
	;;
single)
	cp "$p10yaml" "$(dirname "$p10yaml")/power10-events.yaml" "$t/"
	sed -i 's/^  max-group: 6.*/&\n  overflow-counter-unknown: true/' "$t/power10.yaml"
	grep -q '^  overflow-counter-unknown: true$' "$t/power10.yaml" || fail "flag not set"
	"$pmutool" --pmu "$t/power10.yaml" record --dry-run -e PM_FLOP_CMPL-all-10000 -e cpu-clock \
		-e 0x200fa >"$t/out.txt" 2>"$t/err.txt"
	[ $? -eq 1 ] && grep -q "event '0x200fa' cannot get a counter (the PMU cannot tell which counter overflowed, so one enabling samples at a time): the counters are held by 'PM_FLOP_CMPL-all-10000'" \
		"$t/err.txt" || fail "a second enabling not refused"
	"$pmutool" --pmu "$t/power10.yaml" record --dry-run -e '{PM_FLOP_CMPL-all-10000,0x200fa}' \
		-e cpu-clock >"$t/out.txt" 2>"$t/err.txt" || fail "one enabling of two events refused"
	;;
ours)
	record -e cpu-clock -c 250000 -o "$t/p.data" -- "$spin" 100000000 || fail "record exited $?"
	"$pmutool" script -i "$t/p.data" >"$t/ours.txt" 2>"$t/ours-err.txt" || fail "pmutool script"
	perf script -i "$t/p.data" >"$t/perf.txt" 2>/dev/null || fail "perf script"
	[ -s "$t/perf.txt" ] && diff "$t/perf.txt" "$t/ours.txt" >"$t/diff.txt" ||
		fail "pmutool script differs from perf script"
	"$pmutool" report -i "$t/p.data" --sort comm,dso,sym >"$t/report.txt" || fail "pmutool report"
	grep -m1 '%' "$t/report.txt" | grep -q 'record_spin  *record_spin  *\[\.\] main$' ||
		fail "main of record_spin is not on top of pmutool report"
	;;
tracepoint)
	# a tracepoint samples every hit unless -c/-F says otherwise, as perf's
	# evsel__newtp_idx: at 4000 Hz the kernel skips hits as it adapts
	record --dry-run -e cpu-clock -e sched:sched_switch -- true || fail "dry run"
	grep -q '^sched:sched_switch: type 2 config 0x[0-9a-f]* period 1$' "$t/out.txt" ||
		fail "sched:sched_switch not sampled at period 1"
	grep -q '^cpu-clock: type 1 config 0x0 freq 4000$' "$t/out.txt" || fail "cpu-clock not at 4000 Hz"
	record --dry-run -F 100 -e sched:sched_switch -- true || fail "dry run -F 100"
	grep -q '^sched:sched_switch: type 2 config 0x[0-9a-f]* freq 100$' "$t/out.txt" ||
		fail "-F 100 not applied to sched:sched_switch"
	record -e cpu-clock -e sched:sched_switch -o "$t/p.data" -- sh -c 'sleep 0.01; sleep 0.01' ||
		fail "record exited $?"
	perf script -i "$t/p.data" >"$t/perf.txt" 2>"$t/perf-err.txt" || fail "perf script refused the file"
	"$pmutool" script -i "$t/p.data" >"$t/ours.txt" || fail "pmutool script"
	# perf prints the time as %5lu.%06lu: spaces before it while the
	# machine has been up less than 10,000 s
	n=$(grep -c '^ *sleep  *[0-9]* \[[0-9]*\]  *[0-9.]*: sched:sched_switch: prev_comm=sleep ' "$t/perf.txt")
	[ "$n" -ge 2 ] || fail "$n sched_switch samples of sleep decoded by perf script"
	awk '/sched:sched_switch: prev_comm=/ { n++; if (!match($0, / prev_pid=[0-9]+ /) ||
	     substr($0, RSTART + 10, RLENGTH - 11) != $2) bad++ }
	     END { exit bad > 0 || n == 0 }' "$t/perf.txt" || fail "prev_pid is not the sample's tid"
	diff "$t/perf.txt" "$t/ours.txt" >"$t/diff.txt" || fail "pmutool script differs from perf script"
	perf report -i "$t/p.data" --stdio --sort comm 2>/dev/null >"$t/report.txt"
	grep -q "of event 'sched:sched_switch'" "$t/report.txt" || fail "perf report has no sched:sched_switch"
	# -F as perf's: for every type, for one type, defaults changed
	for fields in comm,pid,tid,time,event,trace trace:comm,cpu,trace sw:comm,ip,sym,dso \
		-cpu,+pid,-period tid,period,event,trace; do
		perf script -i "$t/p.data" -F "$fields" >"$t/perf.txt" 2>"$t/perf-err.txt" ||
			fail "perf script -F $fields"
		"$pmutool" script -i "$t/p.data" -F "$fields" >"$t/ours.txt" || fail "pmutool script -F $fields"
		diff "$t/perf.txt" "$t/ours.txt" >"$t/diff.txt" || fail "pmutool script -F $fields differs"
	done
	# %ps fields name kernel functions (hrtimer_start's function=)
	record -e timer:hrtimer_start -e sched:sched_process_exec -o "$t/p.data" -- sh -c 'sleep 0.01' ||
		fail "record exited $?"
	perf script -i "$t/p.data" >"$t/perf.txt" 2>"$t/perf-err.txt" || fail "perf script refused the file"
	"$pmutool" script -i "$t/p.data" >"$t/ours.txt" || fail "pmutool script"
	grep -q 'sched:sched_process_exec: filename=[^ ]*/sleep pid=[0-9]* old_pid=' "$t/ours.txt" ||
		fail "no exec of sleep decoded"
	diff "$t/perf.txt" "$t/ours.txt" >"$t/diff.txt" || fail "pmutool script differs on timer/exec"
	;;
cxx)
	# C++ names demangled as perf 6.1 does (libiberty's cplus_demangle)
	command -v g++ >/dev/null || fail "g++ is missing: install the Debian package g++"
	g++ -O1 -fno-omit-frame-pointer -o "$t/cxx_spin" "$(dirname "$0")/cxx_spin.cc" || fail "g++ cxx_spin.cc"
	record -e cpu-clock -c 250000 -g -o "$t/p.data" -- "$t/cxx_spin" 20000000 || fail "record exited $?"
	perf script -i "$t/p.data" 2>/dev/null >"$t/perf.txt" || fail "perf script"
	"$pmutool" script -i "$t/p.data" >"$t/ours.txt" 2>"$t/ours-err.txt" || fail "pmutool script"
	diff "$t/perf.txt" "$t/ours.txt" >"$t/diff.txt" || fail "pmutool script differs from perf script"
	grep -q ' work::Spin::run+0x[0-9a-f]* (.*cxx_spin)$' "$t/ours.txt" || fail "work::Spin::run not demangled"
	grep -q ' twice<unsigned long>+0x[0-9a-f]* (.*cxx_spin)$' "$t/ours.txt" || fail "twice<unsigned long> not demangled"
	"$pmutool" report -i "$t/p.data" --sort sym >"$t/report.txt" || fail "pmutool report"
	grep -q '%  \[\.\] work::Spin::run$' "$t/report.txt" || fail "report: no work::Spin::run row"
	;;
longnames)
	command -v g++ >/dev/null || fail "g++ is missing: install the Debian package g++"
	# -fno-inline: the map's members out of line, each its own row;
	# -fno-plt: no PLT stubs of its own in the rows
	g++ -O1 -fno-inline -fno-plt -fno-omit-frame-pointer -o "$t/longname_spin" \
		"$(dirname "$0")/longname_spin.cc" || fail "g++ longname_spin.cc"
	record -e cpu-clock -c 100000 -o "$t/p.data" -- "$t/longname_spin" 3000000 ||
		fail "record exited $?"
	# rows as "SAMPLES PERIOD [m] NAME", sorted
	perf report --stdio -i "$t/p.data" --sort sym -F sample,period,sym 2>/dev/null |
		awk '/^ +[0-9]+ +[0-9]+ +\[/ { $1 = $1; print }' | sort >"$t/perf.txt"
	"$pmutool" report -i "$t/p.data" --sort sym |
		awk '!/^#/ && NF > 3 { $3 = ""; $0 = $0; $1 = $1; print }' | sort >"$t/ours.txt"
	"$pmutool" report --json -i "$t/p.data" --sort sym >"$t/ours.json" || fail "pmutool report --json"
	python3 -c 'import json, sys
for e in json.load(open(sys.argv[1]))["events"]:
    for r in e["rows"]:
        m = {"kernel": "k", "user": "."}.get(r["mode"], "?")
        print(r["samples"], r["period"], f"[{m}]", r["sym"])' "$t/ours.json" | sort >"$t/ours-json.txt"
	# the test's point: rows perf names whole past 507 characters, two
	# of them alike in their first 507
	awk 'length($0) > 600 { print substr($0, index($0, "]") + 2, 507) }' "$t/perf.txt" |
		sort | uniq -d | grep -q '^std::_Rb_tree<' ||
		fail "perf report has no two rows of std::_Rb_tree<...> alike in 507 characters"
	diff "$t/perf.txt" "$t/ours.txt" >"$t/diff.txt" || fail "pmutool report's rows differ from perf report's"
	diff "$t/perf.txt" "$t/ours-json.txt" >"$t/diff.txt" ||
		fail "pmutool report --json's rows differ from perf report's"
	;;
tracegraph)
	record -e sched:sched_switch -g -o "$t/ours.data" -- sh -c 'sleep 0.01; sleep 0.01' ||
		fail "record exited $?"
	record -e cpu-clock -c 100000 -e sched:sched_switch -g -o "$t/both.data" -- \
		sh -c "sleep 0.01; $spin 20000000; sleep 0.01" || fail "record exited $?"
	perf record -q -e sched:sched_switch -g -o "$t/perf.data" -- sh -c 'sleep 0.01; sleep 0.01' \
		2>"$t/perf-err.txt" || fail "perf record"
	for f in ours both perf; do
		perf script -i "$t/$f.data" >"$t/perf.txt" 2>"$t/perf-err.txt" || fail "perf script $f"
		"$pmutool" script -i "$t/$f.data" >"$t/ours.txt" || fail "pmutool script $f"
		diff "$t/perf.txt" "$t/ours.txt" >"$t/diff.txt" || fail "pmutool script differs on $f.data"
		# a frame under a sched_switch line: the kernel's __schedule
		grep -A1 'sched:sched_switch: prev_comm=' "$t/ours.txt" |
			grep -q '^	 *[0-9a-f]* __schedule+0x[0-9a-f]* (\[kernel.kallsyms\])$' ||
			fail "$f.data: no __schedule frame under a sched_switch sample"
		for fields in +pid trace:+ip trace:comm,ip,sym sw:comm,ip,sym,dso comm,tid,event,trace; do
			perf script -i "$t/$f.data" -F "$fields" >"$t/perf.txt" 2>"$t/perf-err.txt" ||
				fail "perf script -F $fields"
			"$pmutool" script -i "$t/$f.data" -F "$fields" >"$t/ours.txt" ||
				fail "pmutool script -F $fields"
			diff "$t/perf.txt" "$t/ours.txt" >"$t/diff.txt" ||
				fail "pmutool script -F $fields differs on $f.data"
		done
	done
	;;
deep)
	# a call graph 200 frames deep: perf report walks its 127 outermost
	# frames, each row once per sample (Children); pmutool report's rows
	# equal perf's default view's
	command -v gcc >/dev/null || fail "gcc is missing: install the Debian package gcc"
	gcc -O1 -fno-omit-frame-pointer -fno-optimize-sibling-calls -o "$t/deep_spin" \
		"$(dirname "$0")/deep_spin.c" || fail "gcc deep_spin.c"
	record -e cpu-clock -c 250000 -g -o "$t/p.data" -- "$t/deep_spin" 20000000 || fail "record exited $?"
	"$pmutool" report --json -i "$t/p.data" >"$t/ours.json" || fail "pmutool report"
	perf report --stdio -i "$t/p.data" -g none --sort comm,dso,sym \
		-F overhead_children,overhead,comm,dso,sym -w 0,0,16,0,0 >"$t/perf.txt" 2>/dev/null ||
		fail "perf report"
	python3 "$(dirname "$0")/../perfdata/compare.py" children "$t/ours.json" "$t/perf.txt" deep_spin \
		>"$t/compare.txt" 2>&1 || fail "Children differ from perf report's"
	grep -q '\[\.\] down$' "$t/perf.txt" || fail "no row of down in perf report"
	# the call graphs under the rows, as perf report draws them
	"$pmutool" report -i "$t/p.data" >"$t/ours-graph.txt" || fail "pmutool report"
	perf report --stdio -i "$t/p.data" >"$t/perf-graph.txt" 2>/dev/null || fail "perf report"
	python3 "$(dirname "$0")/../perfdata/compare.py" graph "$t/ours-graph.txt" "$t/perf-graph.txt" 2 \
		>"$t/compare.txt" 2>&1 || fail "call graphs differ from perf report's"
	;;
sortkeys)
	command -v python3 >/dev/null || fail "python3 is missing: install the Debian package python3"
	# rows: "PERCENT KEY..." of perf report --stdio and of pmutool report
	perf_rows() { perf report --stdio -i "$1" --sort "$2" 2>/dev/null |
		awk '/^ +[0-9.]+%/ { $1 = $1; print }' | sort; }
	our_rows() { "$pmutool" report -i "$1" --sort "$2" |
		awk '!/^#/ && NF > 3 { $1 = $2 = ""; $0 = $0; $1 = $1; print }' | sort; }
	threads='import threading, time
def spin():
    end = time.time() + 0.4
    while time.time() < end:
        pass
ts = [threading.Thread(target=spin) for _ in range(2)]
for x in ts: x.start()
for x in ts: x.join()'
	# Debian's python3 itself (not a wrapper script on PATH), after the
	# shell spun a while: the main thread's command changes at the exec
	py=/usr/bin/python3
	[ -x $py ] || fail "$py is missing: install the Debian package python3"
	work='i=0; while [ $i -lt 20000 ]; do i=$((i + 1)); done; exec "$0" -c "$1"'
	record -e cpu-clock -c 200000 -o "$t/task.data" -- sh -c "$work" $py "$threads" ||
		fail "record per task"
	record -e cpu-clock -c 200000 -a -o "$t/all.data" -- sh -c "$work" $py "$threads" ||
		fail "record -a"
	# perf's own per-task file carries no CPU (perf report shows -001)
	perf record -q -e cpu-clock -c 200000 -o "$t/perf.data" -- sh -c "$work" $py "$threads" \
		2>/dev/null || fail "perf record"
	for f in task all perf; do
		keys="pid cpu pid,cpu comm,pid"
		# (CPU-wide: threads whose samples come before their FORK and COMM
		# in the file have the command ':TID' in pmutool's comm key, the
		# parent's in perf's: comm left out there)
		[ $f = all ] && keys="pid cpu pid,cpu"
		for key in $keys; do
			perf_rows "$t/$f.data" $key >"$t/perf-$f-$key.txt"
			our_rows "$t/$f.data" $key >"$t/ours-$f-$key.txt"
			[ -s "$t/perf-$f-$key.txt" ] || fail "$f --sort $key: perf printed no rows"
			diff "$t/perf-$f-$key.txt" "$t/ours-$f-$key.txt" >"$t/diff.txt" ||
				fail "$f --sort $key: rows differ from perf report's"
		done
	done
	# one row per thread, named by its last command: the shell that became
	# python3 and the two spinning threads
	[ "$(grep -c ':python3$' "$t/ours-task-pid.txt")" = 3 ] ||
		fail "per task: not three python3 threads"
	! grep -q ':sh$' "$t/ours-task-pid.txt" || fail "per task: the shell's command kept"
	grep -q ' -001$' "$t/ours-perf-cpu.txt" || fail "perf's per-task file: no -001 CPU" ;;
*)
	echo "unknown case $case_name"
	exit 2
	;;
esac
echo "ok: $case_name"
