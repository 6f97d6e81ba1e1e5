#!/bin/sh
# stat.sh CASE PMUTOOL FAKESYS-BUILDER - pmutool stat on this machine, for
# real (software events, tracepoints, the msr PMU, an unprivileged user) and
# dry runs against a fake POWER10 LPAR sysfs tree.  Each case states what it
# expects; any other output fails.  Needs root (tracefs, setpriv), python3.
set -u
case_name=$1 pmutool=$2 fakesys=$3
t=$(mktemp -d "${TMPDIR:-/tmp}/pmurt-stat.XXXXXX") || exit 1
mounted=
spinner=
cleanup() { [ -n "$spinner" ] && kill "$spinner" 2>/dev/null; [ -n "$mounted" ] && umount "$mounted"; rm -rf "$t"; }
trap cleanup EXIT

fail() { echo "FAIL: $*" >&2; [ -f "$t/err" ] && sed 's/^/  stderr: /' "$t/err" >&2; exit 1; }
need() { command -v "$1" >/dev/null || fail "$1 missing: install the Debian package $2"; }
# run EXPECTED-STATUS ARGS...: pmutool with stdout in $t/out, stderr in $t/err
run() {
	want=$1; shift
	"$pmutool" "$@" >"$t/out" 2>"$t/err"; got=$?
	[ "$got" = "$want" ] || fail "pmutool $*: exit $got, want $want"
}
has() { grep -q -- "$2" "$t/$1" || fail "$1 lacks '$2'"; }
# counting PID: wait until stat PID counts (SIGINT blocked for its signalfd,
# which it does once the counters are open and it waits for Ctrl-C)
counting() {
	n=0
	until mask=$(awk '$1 == "SigBlk:" { print $2 }' "/proc/$1/status" 2>/dev/null) &&
		[ -n "$mask" ] && [ $((0x$mask & 2)) -ne 0 ]; do
		n=$((n + 1)); [ $n -lt 600 ] || { kill "$1"; fail "stat did not start in 60 s"; }
		sleep 0.1
	done
}
# csv_value EVENT: the value column of perf's -x, line for EVENT
csv_value() { awk -F, -v e="$1" '$3 == e { print $1 }' "$t/err"; }
# json CODE: CODE on d, the JSON a run printed (on standard error, as perf
# stat prints its counts; a dry run's on standard output)
json() { python3 -c "import json,sys; d=json.load(open('$t/${json_from:-err}')); $1" || fail "json: $1"; }
# Whether this host counts hardware events (a KVM guest without PMU
# passthrough does not; others do), as Debian's perf finds it: the cases
# about events the host lacks hold on either kind of host.
host_counts_cycles() {
	need perf linux-perf
	! perf stat -x, -e cycles -- true 2>&1 | grep -q '^<not supported>,'
}

# A tracefs with events/: the mounted one, else mounted here (root only).
tracefs() {
	for d in /sys/kernel/tracing /sys/kernel/debug/tracing; do
		[ -d "$d/events/sched" ] && { echo "$d"; return; }
	done
	mkdir -p "$t/tracefs" && mount -t tracefs nodev "$t/tracefs" ||
		fail "no tracefs and it cannot be mounted (run as root)"
	mounted=$t/tracefs
	echo "$t/tracefs"
}

# perf stat's and pmutool stat's lines with every number as N (the counts
# and times differ from run to run; the layout must not): the columns,
# derived figures, the user and sys times, the -I header.  A spread of 0
# is not printed: whether one is depends on the runs.
layout() {
	sed -E 's/ *[0-9]+(\.[0-9]+)?/ N/g; s/ *\( \+- N% \)//; s/[KMG]?\/sec */\/sec/g; s/ +$//' "$1"
}
same_layout() {
	perf stat "$@" 2>"$t/perf" >/dev/null || fail "perf stat $*"
	"$pmutool" stat "$@" 2>"$t/err" >/dev/null || fail "pmutool stat $*"
	layout "$t/perf" >"$t/perf.n"
	layout "$t/err" >"$t/err.n"
	diff "$t/perf.n" "$t/err.n" >"$t/diff" || { cat "$t/diff" "$t/perf" >&2; fail "stat $*: not perf's layout"; }
}

case $case_name in
perf-layout)
	# against Debian's perf 6.1 on the same command: text (CPUs utilized,
	# per second, user and sys), -x with -r (perf's column order), the -I
	# header and its first interval (always counted: it holds the exec)
	need perf linux-perf
	e=task-clock,cpu-clock,context-switches,cpu-migrations,page-faults,minor-faults,major-faults
	same_layout -e $e -- true
	grep -q 'seconds user$' "$t/err" || fail "no user time"
	same_layout -x, -e $e -- true
	same_layout -r 2 -e $e -- true
	same_layout -r 2 -x, -e $e -- true
	# leader sampling (:S) is a recording's: perf stat accepts and ignores
	# it, the group's and an event's alike, names kept as written
	same_layout -x, -e '{cpu-clock,page-faults}:S' -- true
	same_layout -e '{task-clock,page-faults}:S,cpu-clock:S' -- true
	grep -q ' cpu-clock:S ' "$t/err" || fail "stat: cpu-clock:S not named as written"
	perf stat -I 100 -e task-clock,page-faults -- sleep 0.15 2>"$t/perf" || fail "perf stat -I"
	"$pmutool" stat -I 100 -e task-clock,page-faults -- sleep 0.15 2>"$t/err" || fail "pmutool stat -I"
	layout "$t/perf" | head -3 >"$t/perf.n"
	layout "$t/err" | head -3 >"$t/err.n"
	grep -q '^#           time             counts unit events$' "$t/err" || fail "no -I header"
	diff "$t/perf.n" "$t/err.n" || fail "stat -I: not perf's layout" ;;
software)
	run 0 stat -x, -e task-clock,page-faults,context-switches,cpu-migrations -- true
	pf=$(csv_value page-faults)
	[ "${pf:-0}" -gt 0 ] || fail "page-faults '$pf'"
	has err ',msec,task-clock,'
	has err ',,cpu-migrations,'
	# no -e on a host without a core description (this one): the software
	# defaults alone, no <not supported> hardware lines
	run 0 stat -x, -- true
	[ "$(cut -d, -f3 "$t/err" | tr '\n' ' ')" = \
		"task-clock context-switches cpu-migrations page-faults " ] ||
		fail "the default events here: $(cat "$t/err")" ;;
exit-status)
	run 7 stat -e task-clock -- sh -c 'exit 7'
	has err "Performance counter stats for 'sh -c exit 7'"
	run 2 stat -e task-clock -- /nonexistent/cmd
	has err "cannot run '/nonexistent/cmd': No such file or directory"
	run 143 stat -e task-clock -- sh -c 'kill -TERM $$'
	# SIGINT to pmutool (as Ctrl-C sends it) stops the command, not the count
	run 0 stat -e task-clock -- sh -c 'kill -INT $PPID; sleep 0.1'
	has err "task-clock" ;;
group)
	run 0 stat -x, -e '{task-clock,page-faults,context-switches}' -- true
	[ "$(wc -l < "$t/err")" = 3 ] || fail "3 lines"
	has err ',100\.00,[0-9.]*,CPUs utilized$'
	has err ',100\.00,[0-9.]*,[KMG]*/sec$' ;;
msr)
	run 0 stat -x, -e msr/tsc/ -- sleep 0.01
	v=$(csv_value msr/tsc/)
	[ "${v:-0}" -gt 1000 ] || fail "msr/tsc/ counted '$v'"
	run 5 stat -e msr/tsc/u -- true
	has err "PMU 'msr' refuses the exclude bits (:u, :k, :h, :I)"
	has err "(EINVAL)"
	run 5 stat -e 'msr/tsc,period=1000/' -- true
	has err "PMU 'msr' cannot sample" ;;
tracepoint)
	need python3 python3
	tr=$(tracefs)
	run 0 --tracefs "$tr" stat -x, -e sched:sched_switch,sched:sched_process_exec -- sleep 0.01
	sw=$(csv_value sched:sched_switch) ex=$(csv_value sched:sched_process_exec)
	[ "${sw:-0}" -ge 1 ] && [ "${ex:-0}" = 1 ] || fail "switches '$sw', execs '$ex'"
	run 2 --tracefs "$tr" stat -e sched:no_such_event -- true
	has err "unknown tracepoint 'sched:no_such_event' at offset 0"
	# globs, in either part: every match in tracefs's order, as perf stat
	need perf linux-perf
	for glob in 'sched:sched_wak*' 'sch?d:*_fork' 'sched:sched_process_e?*'; do
		run 0 stat -x, -e "$glob" -- true
		perf stat -x, -e "$glob" -- true 2>"$t/perf.csv" || fail "perf stat -e '$glob'"
		[ "$(cut -d, -f3 "$t/err")" = "$(cut -d, -f3 "$t/perf.csv")" ] && [ -s "$t/err" ] ||
			fail "-e '$glob': $(cut -d, -f3 "$t/err" | tr '\n' ' ') where perf counts $(cut -d, -f3 "$t/perf.csv" | tr '\n' ' ')"
	done
	run 2 stat -e 'sched:no_such*' -- true
	has err "no tracepoint matches 'sched:no_such\*' at offset 0" ;;
tracefs-mount)
	# run under tests/fresh_boot.sh: tracefs not mounted, as after a boot.
	# As perf, a tracepoint mounts it (root); otherwise the message says
	# what failed and what to do.
	[ ! -d /sys/kernel/tracing/events ] || fail "tracefs is mounted: run under fresh_boot.sh"
	need setpriv util-linux
	cp "$pmutool" "$t/pmutool" && chmod 755 "$t" "$t/pmutool"
	setpriv --reuid=65534 --regid=65534 --clear-groups "$t/pmutool" stat \
		-e task-clock,sched:sched_switch -- true >"$t/out" 2>"$t/err"
	[ $? = 2 ] || fail "unprivileged: not refused with status 2"
	has err "tracepoint 'sched:sched_switch' at offset 11: tracefs is not mounted, and mounting it at /sys/kernel/tracing failed: Operation not permitted (perf mounts it when run as root"
	[ ! -d /sys/kernel/tracing/events ] || fail "mounted by an unprivileged user"
	run 0 stat -x, -e task-clock,sched:sched_switch -- sleep 0.01
	[ "$(csv_value sched:sched_switch)" -ge 1 ] || fail "no switch counted"
	[ -d /sys/kernel/tracing/events/sched ] || fail "tracefs not mounted by stat"
	umount /sys/kernel/tracing || fail "umount"
	# record finds it mounted meanwhile by nobody else: it mounts it too and
	# writes the formats perf needs to decode the samples
	need perf linux-perf
	run 0 record -e sched:sched_switch -o "$t/p.data" -- sleep 0.01
	perf script -i "$t/p.data" -F event,trace >"$t/out" 2>/dev/null || fail "perf script"
	has out "sched:sched_switch: prev_comm=" ;;
repeat)
	run 0 stat -r 3 -e task-clock,page-faults -- true
	has err "(3 runs)"
	has err "page-faults  *# *[0-9.]* [KMG]*/sec"
	has err " +- [0-9.]* seconds time elapsed  *( +- "
	need python3 python3
	run 0 --json-report stat -r 3 -e page-faults -- true
	json "assert d['runs'] == 3 and len(d['events'][0]['runs']) == 3, d"
	# the running time beside the mean count is the mean running time, as
	# perf prints it: runs of 1, 2 and 9 units of work (a file counts them),
	# so the last run's (9) is far from the mean (4); task-clock's count is
	# its running time
	printf 0 >"$t/n"
	work='n=$(($(cat "$1") + 1)); echo $n >"$1"; k=$((n == 3 ? 9 : n)); i=0
		while [ $i -lt $((k * 20000)) ]; do i=$((i + 1)); done'
	run 0 stat -r 3 -x, -e task-clock -- sh -c "$work" sh "$t/n"
	awk -F, '$3 == "task-clock" { d = $1 * 1e6 - $5; if (d < 0) d = -d; exit !(d < 0.05 * $5) }' \
		"$t/err" || fail "-r 3 -x,: running time not the mean: $(cat "$t/err")"
	json_from=err
	printf 0 >"$t/n"
	run 0 --json-report stat -r 3 -e task-clock -- sh -c "$work" sh "$t/n"
	json "e = d['events'][0]; assert abs(e['value'] * 1e6 - e['time_running']) < 0.05 * e['time_running'], e" ;;
interval)
	# a line every 100 ms while the command runs and one at its end: times
	# at least 100 ms apart (a wait each) but the last, stamped when the
	# command ended, after its sleep.  How many intervals a loaded machine
	# fits in is not fixed.
	run 0 stat -I 100 -x, -e task-clock -- sleep 0.45
	awk -F, '$4 == "task-clock" { if (n && last - prev < 0.0995) bad++; prev = last; last = $1; n++ }
	     END { exit !(n >= 2 && !bad && last >= 0.45) }' "$t/err" ||
		fail "intervals not 100 ms apart up to the command's end"
	need python3 python3
	run 0 --json-report stat -I 100 -e task-clock,page-faults -- sleep 0.25
	json "i = d['intervals']; assert len(i) >= 2 and [e['name'] for e in i[0]['events']] == ['task-clock', 'page-faults'] and i[0]['time'] >= 0.0995 and i[-1]['time'] >= 0.25 and all(b['time'] - a['time'] >= 0.0995 for a, b in zip(i[:-1], i[1:-1])), i" ;;
interval-end)
	# the command's end ends the count at once, the last line stamped then
	# (perf stat -I): with -I 20000 and a 0.1 s command, one line, stamped
	# after the sleep and no later than pmutool's own run, far from 20 s
	need python3 python3
	t0=$(date +%s.%N)
	run 0 stat -I 20000 -x, -e task-clock -- sleep 0.1
	t1=$(date +%s.%N)
	awk -F, -v wall="$(echo "$t1 $t0" | awk '{ print $1 - $2 }')" '
	     $4 == "task-clock" { n++; last = $1 }
	     END { exit !(n == 1 && last >= 0.1 && last <= wall && wall < 10) }' "$t/err" ||
		fail "not one line stamped at the command's end, within the run ($t0 to $t1)"
	run 0 --json-report stat -I 20000 -e task-clock -- sleep 0.1
	json "i = d['intervals']; assert len(i) == 1 and 0.1 <= i[0]['time'] <= d['elapsed_seconds'] < 10, (i, d['elapsed_seconds'])" ;;
output-file)
	# -o FILE: the counts there, whatever the format, and not on standard
	# error; the workload's output stays on standard output; perf's layout
	need python3 python3
	run 0 stat -o "$t/counts" -e task-clock -- echo workload-line
	has out '^workload-line$'
	empty_err=$(grep -v '^$' "$t/err")
	[ -z "$empty_err" ] || fail "-o: stderr holds '$empty_err'"
	grep -q "Performance counter stats for 'echo workload-line'" "$t/counts" || fail "-o: no counts in FILE"
	grep -q 'msec  *task-clock' "$t/counts" || fail "-o: no task-clock line"
	run 0 --json-report stat -o "$t/counts.json" -e task-clock -- echo workload-line
	has out '^workload-line$'
	python3 -c "import json; d=json.load(open('$t/counts.json')); assert d['command'] == 'echo workload-line' and d['events'][0]['name'] == 'task-clock', d" ||
		fail "-o with --json: not the JSON in FILE"
	[ -s "$t/err" ] && fail "-o with --json: stderr not empty"
	run 0 stat -o "$t/counts.csv" -x, -I 50 -e task-clock -- sleep 0.12
	grep -q '^ *[0-9.]*,[0-9.]*,msec,task-clock,' "$t/counts.csv" || fail "-o with -x and -I"
	# --append: runs after each other in -o's FILE, each after perf's
	# "# started on DATE", laid out as perf stat --append's (digits and
	# dates aside)
	need perf linux-perf
	run 0 stat -o "$t/app" -x, -e task-clock -- true
	run 0 stat --append -o "$t/app" -x, -e task-clock -- true
	perf stat -o "$t/perf-app" -x, -e task-clock -- true || fail "perf stat -o"
	perf stat --append -o "$t/perf-app" -x, -e task-clock -- true || fail "perf stat --append"
	shape() { sed -e 's/^# started on .*/# started on/' -e 's/[0-9][0-9.]*/N/g' "$1"; }
	[ "$(shape "$t/app")" = "$(shape "$t/perf-app")" ] ||
		fail "--append: $(cat "$t/app") where perf writes $(cat "$t/perf-app")"
	[ "$(grep -c ',task-clock,' "$t/app")" = 2 ] || fail "--append: not two runs"
	run 2 stat --append -e task-clock -- true
	has err "--append appends to -o's FILE"
	# --json without -o: on standard error, the workload's output alone on stdout
	run 0 --json-report stat -e task-clock -- echo workload-line
	[ "$(cat "$t/out")" = workload-line ] || fail "--json: stdout holds more than the workload's"
	json "assert d['events'][0]['name'] == 'task-clock', d"
	# refusals: a file that cannot be made (before the command runs), a dry run
	run 2 stat -o "$t/no/such/dir" -e task-clock -- touch "$t/ran"
	has err "^pmutool: error: -o $t/no/such/dir: No such file or directory"
	[ -e "$t/ran" ] && fail "-o failed but the command ran"
	run 2 stat --dry-run -o "$t/x" -e task-clock
	has err "-o: --dry-run prints on standard output"
	run 2 -o "$t/x" check PM_CYC
	has err "change nothing for check" ;;
pid)
	# -p PID counts a running process, every thread it has: two threads
	# spin while the main one waits in join (counting the main thread alone
	# would show no task-clock); it ends with `-- CMD` (CMD's exit status),
	# when the process ends, or on Ctrl-C (exit 0, the counts printed)
	need python3 python3
	python3 -c '
import sys, threading, time
def spin(until):
    while time.time() < until:
        pass
until = time.time() + 60
ts = [threading.Thread(target=spin, args=(until,)) for _ in range(2)]
for x in ts: x.start()
open(sys.argv[1], "w").write("ready")
for x in ts: x.join()' "$t/ready" &
	spinner=$!
	n=0
	until [ -s "$t/ready" ]; do
		n=$((n + 1)); [ $n -lt 600 ] || fail "the spinning threads did not start in 60 s"
		sleep 0.1
	done
	run 3 stat -x, -p $spinner -e task-clock -- sh -c 'sleep 0.5; exit 3'
	v=$(csv_value task-clock)
	python3 -c "import sys; sys.exit(0 if float('${v:-0}') > 5 else 1)" ||
		fail "task-clock of the threads '$v' msec"
	run 0 stat -p $spinner -e task-clock -- sleep 0.1
	has err "Performance counter stats for process id '$spinner'"
	! grep -q "seconds user\|seconds sys" "$t/err" || fail "-p: sleep's times printed"
	run 0 --json-report stat -p $spinner -e task-clock -- sleep 0.1
	json "assert d['pid'] == $spinner and d['command'] == 'sleep 0.1' and d['events'][0]['value'] > 0, d"
	# Ctrl-C: once the signal is blocked for the signalfd, the count is on
	"$pmutool" stat -p $spinner -e task-clock >"$t/out" 2>"$t/err" &
	statpid=$!
	counting $statpid
	kill -INT $statpid
	wait $statpid; rc=$?
	[ $rc = 0 ] || fail "stat -p stopped by SIGINT: exit $rc"
	has err 'msec  *task-clock'
	# the process ending ends the count: it waits on a fifo until stat counts (a short
	# sleep could end before stat attached on a busy machine: "no such process")
	mkfifo "$t/hold"
	sh -c "read x <'$t/hold'" &
	"$pmutool" stat -p $! -e task-clock >"$t/out" 2>"$t/err" &
	statpid=$!
	counting $statpid
	echo go >"$t/hold"
	wait $statpid; rc=$?
	[ $rc = 0 ] || fail "stat -p of a process that ends: exit $rc ($(cat "$t/err"))"
	has err "seconds time elapsed"
	# refusals
	max=$(cat /proc/sys/kernel/pid_max)
	run 2 stat -p "$max" -e task-clock
	has err "^pmutool: error: -p $max: no such process"
	run 2 stat -p 1 -a -e task-clock
	has err "stat: -p counts a process; -a and -C count CPUs"
	run 2 stat -p 1 -r 2 -e task-clock
	has err "stat: -p counts a process; -r repeats a command"
	run 2 stat -p x -e task-clock
	has err "^pmutool: error: -p wants a number"
	run 2 --pid 1 stat -e task-clock -- true
	has err "^pmutool: error: --pid applies to stat, report and script, after their name" ;;
json)
	need python3 python3
	run 3 --json-report stat -e '{task-clock,page-faults}' -- sh -c 'exit 3'
	json "assert d['version'] == 1 and d['exit_status'] == 3 and d['command'] == 'sh -c exit 3'
e = d['events'][1]; assert e['name'] == 'page-faults' and e['value'] > 0 and e['counted'] and e['percent_counted'] == 100.0 and not e['multiplexed'], e
assert sorted(d['events'][0]) == sorted(['name','pmu','unit','value','counted','supported','time_enabled','time_running','percent_counted','multiplexed','stddev_percent','runs'])" ;;
json-perf)
	# --json: perf stat -j's lines (stat_json.py compares keys, order,
	# events, units and derived figures' units with perf 6.1's on the same
	# command); plain, repeated, by interval, with a count perf cannot open
	need perf linux-perf
	need python3 python3
	here=$(dirname "$0")
	for args in "-e task-clock,page-faults,minor-faults,cs" "-r 3 -e task-clock,page-faults" \
		"-I 100 -e task-clock,cs" "-e task-clock,msr/tsc/"; do
		# shellcheck disable=SC2086 # the options are words
		run 0 stat --json $args -- sleep 0.25
		# shellcheck disable=SC2086
		perf stat -j $args -- sleep 0.25 2>"$t/perf.json" || fail "perf stat -j $args"
		python3 "$here/stat_json.py" "$t/err" "$t/perf.json" || fail "--json $args: not perf's"
	done
	run 2 stat --json -x, -e task-clock -- true
	has err "json" ;;
breakpoint)
	# mem:ADDR[:ACCESS], perf's hardware breakpoints: the attrs perf
	# record writes (type 5, bp_type, bp_addr, bp_len, a sample a hit), and
	# the count perf stat gives for a variable written 1000 times (1000
	# where the machine delivers breakpoints; a KVM guest may give both 0)
	need perf linux-perf
	need cc gcc
	printf 'volatile int hits;\nint main(void) { for (int i = 0; i < 1000; i++) hits = i; return 0; }\n' \
		>"$t/bp.c"
	cc -O1 -no-pie -o "$t/bp" "$t/bp.c" || fail "cc"
	addr=0x$(nm "$t/bp" | awk '$3 == "hits" { print $1 }')
	for ev in "mem:$addr:w" "mem:$addr" "mem:$addr:rw" "mem:0x1000:x"; do
		run 0 record -e "$ev" -o "$t/ours.data" -- true
		perf record -q -e "$ev" -o "$t/perf.data" -- true 2>/dev/null || fail "perf record -e $ev"
		attrs() { perf evlist -v -i "$1" 2>/dev/null | tr ',' '\n' | grep -E '^ *(bp_|type|\{ sample_period|[a-z]*mem:)' ; }
		[ "$(attrs "$t/ours.data")" = "$(attrs "$t/perf.data")" ] ||
			fail "-e $ev: $(attrs "$t/ours.data") where perf's: $(attrs "$t/perf.data")"
	done
	run 0 stat -x, -e "mem:$addr:w" -- "$t/bp"
	perf stat -x, -e "mem:$addr:w" -- "$t/bp" 2>"$t/perf.csv" || fail "perf stat"
	[ "$(cut -d, -f1,3 "$t/err")" = "$(cut -d, -f1,3 "$t/perf.csv")" ] ||
		fail "mem:$addr:w counts $(cat "$t/err") where perf counts $(cat "$t/perf.csv")"
	run 2 stat -e 'mem:0x1000:q' -- true
	has err "breakpoint 'mem:0x1000:q' at offset 0: not mem:ADDR"
	run 2 stat -e 'mem:0x1000:rx' -- true
	has err "(ACCESS r, w, rw or x)" ;;
aggr)
	# -A, --per-core, --per-die, --per-socket (issue 23 item 11) against
	# perf 6.1 on this machine's topology: the lines' layout in text, -x
	# and -I, the units' columns (CPU, S-D-C ids, the CPUs in each) and
	# events in perf's order, exactly, in -x and --json; duration_time on
	# the first CPU only; a tracepoint's counts over the units add up to
	# at least the execs of a command that execs a known number of times
	# (system wide: the machine's other execs count too)
	need perf linux-perf
	need python3 python3
	here=$(dirname "$0")
	tfs=$(tracefs)
	for mode in -A --per-core --per-die --per-socket; do
		same_layout $mode -a -e task-clock,duration_time -- sleep 0.05
		same_layout $mode -a -x, -e task-clock,duration_time -- sleep 0.05
		same_layout $mode -a -I 100 -e duration_time,task-clock -- sleep 0.15
		# the columns before the count, and the events, exactly
		run 0 --tracefs "$tfs" stat $mode -a -x, -e task-clock,duration_time,sched:sched_process_exec -- sh -c 'for i in 1 2 3 4 5; do /bin/true; done'
		perf stat $mode -a -x, -e task-clock,duration_time,sched:sched_process_exec -- sh -c 'for i in 1 2 3 4 5; do /bin/true; done' 2>"$t/perf.csv" || fail "perf stat $mode"
		python3 - "$t/err" "$t/perf.csv" "$mode" <<'PY' || fail "$mode -x,: not perf's units"
import sys
ours, perf, mode = [l.strip().split(",") for l in open(sys.argv[1]) if l.strip()], \
    [l.strip().split(",") for l in open(sys.argv[2]) if l.strip()], sys.argv[3]
n = 1 if mode == "-A" else 2           # the unit's columns: id (and its CPUs)
cols = lambda rows: [r[:n] + r[n + 2:n + 3] for r in rows]
assert cols(ours) == cols(perf), (cols(ours), cols(perf))
exec_count = lambda rows: sum(int(r[n]) for r in rows if r[n + 2] == "sched:sched_process_exec")
# counted system wide, so other processes' execs count too: at least ours
assert exec_count(ours) >= 6 and exec_count(perf) >= 6, (exec_count(ours), exec_count(perf))
PY
		run 0 stat $mode -a --json -e task-clock,duration_time -- sleep 0.05
		perf stat $mode -a -j -e task-clock,duration_time -- sleep 0.05 2>"$t/perf.json" || fail "perf stat -j $mode"
		python3 "$here/stat_json.py" "$t/err" "$t/perf.json" >/dev/null || fail "--json $mode: not perf's"
		python3 - "$t/err" "$t/perf.json" <<'PY' || fail "--json $mode: not perf's units"
import json, sys
units = lambda p: [[v for k, v in json.loads(l, object_pairs_hook=list) if k in
                    ("cpu", "core", "die", "socket", "aggregate-number", "event")]
                   for l in open(p) if l.startswith("{")]
assert units(sys.argv[1]) == units(sys.argv[2]), (units(sys.argv[1]), units(sys.argv[2]))
PY
	done
	same_layout -A -C 1 -e task-clock,duration_time -- sleep 0.05
	# a fake sysfs: CPU 0 on socket 1 core 3, CPU 1 on socket 0 core 12
	# (then both in one core of die 2): the units in perf's order (socket,
	# die, core), each with its CPUs, duration_time in CPU 0's alone
	topo() { d=$t/fake/devices/system/cpu/cpu$1/topology; mkdir -p "$d"
		echo "$2" >"$d/physical_package_id"; echo "$3" >"$d/die_id"; echo "$4" >"$d/core_id"; }
	topo 0 1 0 3; topo 1 0 0 12
	run 0 --sysfs "$t/fake" stat --per-core -C 0,1 -x, -e task-clock,duration_time -- true
	[ "$(cut -d, -f1,2,5 "$t/err" | tr '\n' ' ')" = "S0-D0-C12,1,task-clock S0-D0-C12,0,duration_time S1-D0-C3,1,task-clock S1-D0-C3,1,duration_time " ] ||
		fail "--per-core on the fake topology: $(cat "$t/err")"
	grep -q '^S0-D0-C12,0,<not counted>,ns,duration_time,0,100.00,,$' "$t/err" || fail "no duration_time off CPU 0: $(cat "$t/err")"
	run 0 --sysfs "$t/fake" stat --per-socket -C 0,1 -e task-clock -- true
	grep -Eq '^S0        1 +[0-9.]+ msec task-clock' "$t/err" && grep -Eq '^S1        1 +[0-9.]+ msec task-clock' "$t/err" ||
		fail "--per-socket text on the fake topology: $(cat "$t/err")"
	topo 0 0 2 7; topo 1 0 2 7
	run 0 --sysfs "$t/fake" stat --per-core -C 0,1 -e task-clock,duration_time -- true
	grep -Eq '^S0-D2-C7           2 +[0-9.]+ msec task-clock' "$t/err" &&
		grep -Eq '^S0-D2-C7           1 +[0-9]+ ns   duration_time' "$t/err" ||
		fail "--per-core, one core of two CPUs: $(cat "$t/err")"
	run 0 --sysfs "$t/fake" stat --per-die -C 0,1 --json -e task-clock -- true
	json_from=err json "assert d['die'] == 'S0-D2' and d['aggregate-number'] == 2, d"
	run 2 stat -A -e task-clock -- true
	has err "-A splits the counts of CPUs: give -a or -C CPUS"
	run 2 stat --per-core -a --json-report -e task-clock -- true
	has err "--per-core: not with --json-report" ;;
tool-events)
	# perf's tool events (issue 23 item 11): duration_time is the run's
	# elapsed time (equal to "seconds time elapsed", at least the sleep's
	# length), user_time and system_time the command's rusage (equal to
	# "seconds user" and "seconds sys"), in perf 6.1's layout in text and
	# -x; by interval, the intervals' durations add up to the last stamp;
	# with -r, the mean and its spread; never in a group, never sampled
	need perf linux-perf
	need python3 python3
	same_layout -e duration_time,task-clock -- sleep 0.1
	same_layout -x, -e duration_time,task-clock -- sleep 0.1
	same_layout -I 100 -e duration_time -- sleep 0.25
	run 0 stat -e duration_time,user_time,system_time -- sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done; sleep 0.2'
	python3 - "$t/err" <<'PY' || fail "duration_time, user_time, system_time: $(cat "$t/err")"
import re, sys
text = open(sys.argv[1]).read()
def count(ev):
    m = re.search(r"^ +(\d+|<not counted>) ns +%s " % ev, text, re.M)
    return 0 if m.group(1) == "<not counted>" else int(m.group(1))
def seconds(what):
    return round(float(re.search(r"([0-9.]+) seconds %s" % what, text).group(1)) * 1e9)
d, u, s = count("duration_time"), count("user_time"), count("system_time")
assert d >= 200000000 and d == seconds("time elapsed"), d
assert u == seconds("user") and s == seconds("sys") and u + s > 0, (u, s)
PY
	run 0 stat -x, -I 100 -e duration_time -- sleep 0.35
	python3 - "$t/err" <<'PY' || fail "-I: $(cat "$t/err")"
import sys
rows = [l.split(",") for l in open(sys.argv[1]) if l.strip()]
assert len(rows) >= 3 and all(r[2] == "ns" and r[3] == "duration_time" for r in rows), rows
last = round(float(rows[-1][0]) * 1e9)
assert sum(int(r[1]) for r in rows) == last and all(int(r[1]) > 0 for r in rows), rows
PY
	run 0 stat -r 3 -x, -e duration_time -- sleep 0.1
	awk -F, '$3 == "duration_time" && $1 >= 100000000 && $4 ~ /%$/ { ok = 1 } END { exit !ok }' \
		"$t/err" || fail "-r 3: $(cat "$t/err")"
	run 0 stat --json -e duration_time -- sleep 0.1
	json_from=err json "assert d['event'] == 'duration_time' and d['unit'] == 'ns' and float(d['counter-value']) >= 1e8 and d['event-runtime'] == int(float(d['counter-value'])), d"
	run 0 stat --dry-run -e duration_time,task-clock
	has out "0 duration_time (tool): opens no perf_event fd"
	run 0 stat --dry-run --json -e duration_time
	json_from=out json "e = d['events'][0]; assert e['kind'] == 'tool' and e['attr'] is None and e['unit'] == 'ns', e"
	run 2 stat -e '{task-clock,duration_time}' -- true
	has err "tool event 'duration_time' at offset 12 in the group at offset 0"
	run 4 record -e duration_time -o "$t/r.data" -- true
	has err "'duration_time' is a tool event: it is counted (pmutool stat), never sampled" ;;
cpus)
	# -a without a command counts until Ctrl-C, as perf stat; -r wants one
	"$pmutool" stat -a -x, -e cpu-clock >"$t/out" 2>"$t/err" &
	statpid=$!
	counting $statpid
	kill -INT $statpid
	wait $statpid; rc=$?
	[ $rc = 0 ] || fail "stat -a ended by SIGINT: exit $rc"
	[ -n "$(csv_value cpu-clock)" ] || fail "stat -a until Ctrl-C: no count"
	run 2 stat -a -r 2 -e cpu-clock
	has err "stat: -r repeats a command"
	run 0 stat -a -x, -e cpu-clock -- sleep 0.05
	v=$(csv_value cpu-clock)
	python3 -c "import sys; sys.exit(0 if float('$v') > 45 else 1)" || fail "cpu-clock -a '$v'"
	run 0 stat -C 0 -x, -e cpu-clock -- sleep 0.05
	# the header names what was counted, and the command's user and sys
	# times only when it alone was counted, as perf 6.1 prints them
	# (stat-display.c print_header_std; issue 23 item 18)
	need perf linux-perf
	for target in -a "-C 0" "-a -C 0" ""; do
		# shellcheck disable=SC2086
		run 0 stat $target -e cpu-clock -- sleep 0.05
		# shellcheck disable=SC2086
		perf stat $target -e cpu-clock -- sleep 0.05 2>"$t/perf" >/dev/null || fail "perf stat $target"
		for f in err perf; do
			grep -o "Performance counter stats for .*\|seconds user\|seconds sys" "$t/$f" >"$t/$f.lines"
		done
		diff "$t/perf.lines" "$t/err.lines" || fail "stat $target: header and times not perf's"
	done
	grep -q "seconds user" "$t/err.lines" || fail "a command alone: no user time"
	run 2 stat -C 9999 -e cpu-clock -- true
	has err "-C '9999': CPU 9999 does not exist (this host has"
	run 2 stat -C 0-x -e cpu-clock -- true
	has err "-C: '0-x' is not a CPU list (such as 0-3,8)" ;;
no-hardware)
	# no POWER PMU on this x86 host; no hardware PMU either in a KVM guest
	# without PMU passthrough
	if host_counts_cycles; then
		run 0 stat -x, -e cycles -- true
		v=$(csv_value cycles)
		[ "${v:-0}" -gt 0 ] 2>/dev/null || fail "cycles '$v' on a host that counts them"
	else
		run 5 stat -e cycles -- true
		has err "has no hardware PMU for perf type 0"
	fi
	run 5 --pmu power10 stat -e PM_RUN_INST_CMPL -- true
	if [ -d /sys/bus/event_source/devices/cpu ]; then
		# a host with its own core PMU at type 4: refused before opening
		has err "this host's core PMU is another"
	else
		has err "has no POWER10 PMU: no PMU takes perf type 4"
		has err "pmutool stat --dry-run shows the attr it would open"
	fi ;;
foreign-core)
	# a host whose cpu PMU is not POWER10 (x86's, named by caps/pmu_name):
	# a POWER10 code is refused before any system call, by stat and
	# record; a dry run still shows the attr, software events still count
	mkdir -p "$t/x/bus/event_source/devices/cpu/caps" "$t/x/devices/system/cpu"
	echo skylake >"$t/x/bus/event_source/devices/cpu/caps/pmu_name"
	echo 0 >"$t/x/devices/system/cpu/online"
	run 5 --sysfs "$t/x" --pmu power10 stat -e task-clock,PM_CYC -- true
	has err "cannot open 'PM_CYC' on this host: it is an event of the description 'power10'"
	has err "caps/pmu_name is 'skylake'"
	run 5 --sysfs "$t/x" --pmu power10 record -e PM_CYC -o "$t/r.data" -- true
	has err "this host's core PMU is another"
	[ ! -e "$t/r.data" ] || fail "record wrote a file"
	run 0 --sysfs "$t/x" --pmu power10 stat --dry-run -e PM_CYC
	has out "PM_CYC (cpu): type=4 config=0x100f0"
	run 0 --sysfs "$t/x" --pmu power10 stat -x, -e task-clock -- true
	has err ',msec,task-clock,' ;;
missing-event)
	# cycles: <not supported> on a host without a hardware PMU (a KVM
	# guest); task-clock counts; the command's own options need no --
	# (stat's end at it).  A host that counts cycles has nothing missing.
	if host_counts_cycles; then
		run 0 stat -x, -e cycles,task-clock -- true
		v=$(csv_value cycles)
		[ "${v:-0}" -gt 0 ] 2>/dev/null || fail "cycles '$v' on a host that counts them"
		exit 0
	fi
	run 0 stat -e cycles,task-clock ls -l /
	has out ' tmp$'
	grep -q '^ *<not supported>  *cycles *$' "$t/err" || fail "no '<not supported> cycles' line"
	grep -Eq '^ *[0-9]+\.[0-9]{2} msec task-clock  *# *[0-9.]+ CPUs utilized *$' "$t/err" ||
		fail "task-clock not counted"
	run 0 stat -x, -e cycles,task-clock -- true
	has err '^<not supported>,,cycles,0,'
	v=$(csv_value task-clock)
	awk -v v="${v:-0}" 'BEGIN { exit !(v + 0 > 0) }' || fail "task-clock counted '$v'"
	run 0 stat --json-report -e '{task-clock,cycles},page-faults' -- true
	json "e = d['events']; assert d['version'] == 1, d['version']
assert [x['name'] for x in e] == ['task-clock', 'cycles', 'page-faults'], e
assert e[1]['supported'] is False and e[1]['counted'] is False, e[1]
assert e[0]['supported'] and e[0]['counted'] and e[0]['value'] > 0, e[0]
assert e[2]['supported'] and e[2]['counted'], e[2]"
	# a leader the host lacks: its group is not counted, the rest is
	run 0 stat -x, -e '{cycles,task-clock},page-faults' -- true
	has err '^<not supported>,,cycles,'
	has err '^<not counted>,msec,task-clock,'
	has err ',,page-faults,'
	# -I: each interval says so too
	run 0 stat -I 100 -e cycles,task-clock sleep 0.25
	has err '<not supported>  *cycles'
	# nothing the host can count: an error, explained
	run 5 stat -e cycles,instructions ls -l /
	has err "cannot open 'cycles'"
	has err "has no hardware PMU for perf type 0" ;;
paranoid)
	need setpriv util-linux
	level=$(cat /proc/sys/kernel/perf_event_paranoid)
	[ "$(id -u)" = 0 ] || fail "run as root: the case drops to user 65534 with setpriv"
	chmod 755 "$t"
	cp "$pmutool" "$t/pmutool" && chmod 755 "$t/pmutool"
	printf '#!/bin/sh\nexec setpriv --reuid=65534 --regid=65534 --clear-groups %s "$@"\n' \
		"$t/pmutool" > "$t/as-nobody"
	chmod 755 "$t/as-nobody"
	pmutool=$t/as-nobody
	if [ "$level" -ge 2 ]; then
		run 5 stat -e task-clock -- true
		has err "kernel.perf_event_paranoid is $level (/proc/sys/kernel/perf_event_paranoid)"
		has err "kernel counting (no :u)"
		[ "$level" -ge 3 ] || has err "add :u to count user space only"
		has err "(EACCES)"
	fi
	if [ "$level" -lt 3 ]; then
		run 0 stat -x, -e task-clock:u -- true
	fi
	if [ "$level" -ge 1 ]; then
		run 5 stat -a -e cpu-clock:u -- true
		has err "kernel.perf_event_paranoid is $level"
		has err "a CPU-wide event (-a/-C)"
	fi ;;
dry-run-power10)
	need python3 python3
	sh "$fakesys" "$t/sys" || fail "fake sysfs"
	json_from=out
	run 0 --sysfs "$t/sys" stat --dry-run --json -e \
		'{PM_LD_MISS_L1:u,PM_BR_MPRED_CMPL,cycles},cpu/PM_MRK_INST_CMPL,thresh_cmp=1000/p,powerpc:hcall_entry,hv_24x7/PM_PB_CYC/'
	json "
assert d['version'] == 1 and d['dry_run'] and d['target'] == 'task'
a = d['events'][0]['attr']; assert (a['type'], a['config'], a['exclude_kernel'], a['exclude_hv'], a['exclude_user'], a['disabled'], a['inherit'], a['group_leader'], a['read_format']) == (4, '0x3e054', True, True, False, True, True, 0, '0xf'), a
a = d['events'][1]['attr']; assert (a['config'], a['disabled'], a['group_leader']) == ('0x400f6', False, 0), a
a = d['events'][2]['attr']; assert (a['type'], a['config']) == (0, '0x0'), a
a = d['events'][3]['attr']; assert (a['config'], a['config1'], a['precise_ip']) == ('0x401e0', '0x3e8', 1), a
a = d['events'][4]['attr']; assert (a['type'], a['config']) == (2, '0x93'), a
e = d['events'][5]; a = e['attr']; assert (a['type'], a['config'], e['unit']) == (12, '0x1c00001', 'cycles'), e
g = d['groups'][0]; c = g['check']; assert (g['leader'], g['size'], c['ok'], c['pmc']) == (0, 3, True, [3, 4, 6]), g
r = d['groups'][0]['check']['registers']; assert sorted(r) == ['mmcr0','mmcr1','mmcr2','mmcr3','mmcra'] and r['mmcr1'] == '0xe00000000054f6', r
c = d['groups'][1]['check']; assert c['ok'] and c['pmc'] == [4] and c['registers']['mmcra'] == '0x3f402000000001', c
assert len(d['groups']) == 2, d['groups']"
	# vpa_dtl counts per CPU only: with -a
	run 0 --sysfs "$t/sys" stat -a --dry-run --json -e 'vpa_dtl/dtl_all,period=1000000000/'
	json "assert d['target'] == 'cpus'
e = d['events'][0]; a = e['attr']; assert (e['pmu'], a['type'], a['config'], a['sample_period'], e['per_cpu_only']) == ('vpa_dtl', 14, '0x7', 1000000000, True), e"
	json_from=out
	run 1 --sysfs "$t/sys" stat --dry-run --json -e '{PM_LD_MISS_L1,PM_LD_MISS_L1}'
	json "c = d['groups'][0]['check']; assert not c['ok'] and c['reason'] == 'constraint_conflict' and c['reject_index'] == 1, c"
	run 0 --sysfs "$t/sys" stat --dry-run -a -e 'vpa_dtl/dtl_cede,period=1000000/'
	has out "type=14 config=0x1 .* sample_period=1000000 .* inherit=0"
	# no -e on a host whose core PMU has a description: perf's software
	# defaults, then cycles and instructions (their IPC), as perf stat
	run 0 --sysfs "$t/sys" stat --dry-run
	[ "$(awk '/^[0-9]/ { printf "%s ", $2 }' "$t/out")" = \
		"task-clock context-switches cpu-migrations page-faults cycles instructions " ] ||
		fail "the default events on POWER10: $(cat "$t/out")"
	export PMURT_SYSFS="$t/sys"
	run 0 stat --dry-run -e PM_CYC
	unset PMURT_SYSFS
	has out "PM_CYC (cpu): type=4 config=0x100f0"
	json_from=out
	run 0 --sysfs "$t/sys" stat --dry-run --json -e 'PAPI_L1_DCM:u,task-clock'
	json "assert [e['name'] for e in d['events']] == ['PM_LD_DEMAND_MISS_L1_FIN', 'PM_ST_MISS_L1', 'task-clock'], d['events']
assert d['events'][1]['attr']['exclude_kernel'] and d['groups'][0]['check']['pmc'] == [4, 3], d
assert d['derived'] == [{'name': 'PAPI_L1_DCM', 'formula': 'PM_LD_DEMAND_MISS_L1_FIN + PM_ST_MISS_L1', 'first_event': 0, 'nevents': 2}], d['derived']"
	run 2 --sysfs "$t/sys" stat --dry-run -e 'task-clock,vpa_dtl/dtl_bogus/'
	has err "unknown term 'dtl_bogus' at offset 19 for PMU vpa_dtl"
	# a dry run refuses what the run refuses (issue 23 item 17): vpa_dtl per
	# task, in stat and record, with the run's own message
	# (stat --dry-run takes no command: per task unless -a or -C)
	for cmd in stat record; do
		workload="-- true" output="-o $t/r.data"
		[ $cmd = stat ] && workload= output=
		# shellcheck disable=SC2086
		run 5 --sysfs "$t/sys" $cmd -e 'vpa_dtl/dtl_all/' $output -- true
		sed 's/ on task [0-9]*: / on the task: /' "$t/err" >"$t/run.err"
		# shellcheck disable=SC2086
		run 5 --sysfs "$t/sys" $cmd --dry-run -e 'vpa_dtl/dtl_all/' $workload
		has err "cannot open 'vpa_dtl/dtl_all/' on the task: vpa_dtl is per CPU only"
		cmp -s "$t/err" "$t/run.err" || fail "$cmd: the dry run's refusal is not the run's"
		empty out
		# shellcheck disable=SC2086
		run 0 --sysfs "$t/sys" $cmd -a --dry-run -e 'vpa_dtl/dtl_all/' $workload
	done ;;
*)
	fail "unknown case $case_name" ;;
esac
exit 0
