#!/bin/sh
# filters.sh - pmutool report's and script's filters and view options
# against perf 6.1's (linux-perf) on one recording of three processes (two
# pd_spin and an ls between them, --sample-cpu, call graphs):
#
#   report --comms, --dsos, --symbols, --pid, --tid (rows hidden, the
#   percentages still of the whole file), --cpu, --time in seconds and in
#   shares (samples dropped, the percentages of what is left): the same rows,
#   samples, periods and percentages as perf report's;
#   script with the same filters and --max-stack: perf script's lines;
#   report -g graph,0.1,caller and --max-stack: perf's call graphs (with
#   --max-stack, without Children: among rows of equal Children perf's order
#   then follows call depths pmutool does not model, doc/perf.md);
#   -s and the key "symbol" (perf's prefix match), --stdio: the same report;
#   --cpu on a file without CPUs and a malformed --time: refused, as perf.
#
# Needs root (perf record, /proc/kallsyms addresses).
set -eu
bin=$1
here=$(dirname "$0")
command -v perf >/dev/null 2>&1 || {
	echo "filters: perf not found: install the Debian package linux-perf (.ci/install-deps)" >&2
	exit 1
}
t=$(mktemp -d "${TMPDIR:-/tmp}/pd-filters.XXXXXX")
trap 'rm -rf "$t"' EXIT
p=$t/p.data
perf record -q --sample-cpu -e cpu-clock -c 100000 -g -o "$p" -- \
	sh -c "'$bin/pd_spin' 0.2; ls -R /usr/lib >/dev/null 2>&1; '$bin/pd_spin' 0.1"
perf script -i "$p" -F comm,pid,tid,cpu,time >"$t/fields"

# what to filter on, from the file: pd_spin's first pid, ls's tid, the CPU
# of that pd_spin's first sample (so that --pid and --cpu together keep some
# samples wherever the scheduler put it), the times a third and two thirds
# in, ls's heaviest kernel function
spin_pid=$(awk '$1 == "pd_spin" { split($2, a, "/"); print a[1]; exit }' "$t/fields")
ls_tid=$(awk '$1 == "ls" { split($2, a, "/"); print a[2]; exit }' "$t/fields")
cpu=$(awk -v pid="$spin_pid" '$1 == "pd_spin" && index($2, pid "/") == 1 {
	gsub(/[][]/, "", $3); print $3 + 0; exit }' "$t/fields")
n=$(wc -l <"$t/fields")
t1=$(awk -v k=$((n / 3)) 'NR == k { sub(/:$/, "", $4); print $4 }' "$t/fields")
t2=$(awk -v k=$((2 * n / 3)) 'NR == k { sub(/:$/, "", $4); print $4 }' "$t/fields")
ksym=$(perf report --stdio -i "$p" -g none --no-children --comms ls --sort sym 2>/dev/null |
	awk '$2 == "[k]" { print $3; exit }')
test -n "$spin_pid" && test -n "$ls_tid" && test -n "$cpu" && test -n "$t1" && test -n "$t2" && test -n "$ksym"

# report with a filter: pmutool's rows = perf's (WHAT KEYS OPTIONS...); a
# list of two, as perf leaves out the column of a list of one
report() {
	what=$1 keys=$2
	shift 2
	"$bin/pmutool" report --json -i "$p" --no-children --sort "$keys" "$@" >"$t/ours.json"
	perf report --stdio -i "$p" -g none --no-children --sort "$keys" \
		-F "overhead,sample,period,$keys" -w 0,0,0,16,0,0 "$@" >"$t/perf.txt" 2>"$t/perf.err" ||
		{ cat "$t/perf.err" >&2; exit 1; }
	python3 "$here/compare.py" filtered "$t/ours.json" "$t/perf.txt" "$what"
}
report --comms comm,dso,sym --comms ls,pd_spin
report --dsos comm,dso,sym --dsos "[kernel.kallsyms],pd_spin"
report --symbols comm,dso,sym --symbols "spin_alpha,$ksym"
report --pid pid,dso,sym --pid "1,$spin_pid"
report --tid pid,dso,sym --tid "$ls_tid,2"
report --cpu comm,dso,sym --cpu "$cpu"
report "--time seconds" comm,dso,sym --time "$t1,$t2"
report "--time open" comm,dso,sym --time ",$t1"
report "--time shares" comm,dso,sym --time 10%-40%,60%-90%
report "--time slice" comm,dso,sym --time 25%/2
report "--comms --dsos" comm,dso,sym --comms ls,sh --dsos "[kernel.kallsyms],libc.so.6"

# script: the lines perf script prints with the same filters
script() {
	"$bin/pmutool" script -i "$p" "$@" >"$t/ours.script"
	perf script -i "$p" "$@" >"$t/perf.script" 2>"$t/perf.err" || { cat "$t/perf.err" >&2; exit 1; }
	test -s "$t/perf.script" || { echo "filters: perf script $* printed no sample" >&2; exit 1; }
	diff "$t/perf.script" "$t/ours.script"
}
script -G --comms ls,pd_spin --time "$t1,$t2"
script -G --pid "$spin_pid" --cpu "$cpu"
script --comms pd_spin --max-stack 3
script --tid "$ls_tid" --dsos "[kernel.kallsyms],ls"

# the call graphs: another threshold and order, a shorter stack
graph() {
	n=$1
	shift
	"$bin/pmutool" report -i "$p" --comms pd_spin,ls "$@" >"$t/ours-graph.txt"
	perf report --stdio -i "$p" --comms pd_spin,ls "$@" >"$t/perf-graph.txt" 2>"$t/perf.err" ||
		{ cat "$t/perf.err" >&2; exit 1; }
	python3 "$here/compare.py" graph "$t/ours-graph.txt" "$t/perf-graph.txt" "$n"
}
graph 1 --no-children -g graph,0.1,caller
graph 1 --no-children -g callee,2
graph 1 --no-children --max-stack 3 -g callee
graph 1 --no-children --max-stack 2 -g caller

# -s, the key "symbol" and its prefixes, --stdio: the same report
"$bin/pmutool" report -i "$p" --sort comm,dso,sym >"$t/sym.txt"
for spelling in "-s comm,dso,symbol" "--sort c,d,s --stdio" "--sort COMM,dso,SYM"; do
	# shellcheck disable=SC2086 # the options are words
	"$bin/pmutool" report -i "$p" $spelling >"$t/spelled.txt"
	cmp "$t/sym.txt" "$t/spelled.txt"
done

# refused, with the reason: --cpu on a file whose samples have no CPU (perf:
# "File does not contain CPU events"), a time that is none, a share of a
# file with no sample times
refused() {
	want=$1
	shift
	if "$bin/pmutool" "$@" >"$t/out" 2>"$t/err"; then
		echo "filters: pmutool $* succeeded" >&2
		exit 1
	fi
	grep -q -- "$want" "$t/err" || { cat "$t/err" >&2; exit 1; }
}
perf record -q -e cpu-clock -o "$t/nocpu.data" -- "$bin/pd_spin" 0.01
refused "do not say their CPU" report -i "$t/nocpu.data" --cpu 0
refused "do not say their CPU" script -i "$t/nocpu.data" -C 0
refused "not START,STOP" report -i "$p" --time 12x,13
refused "not START,STOP" report -i "$p" --time 50%-20
refused "not a list of numbers" report -i "$p" --pid 12,ab
refused "print limit" report -i "$p" -g graph,0.5,3
refused "perf's default graph" report -i "$p" -g flat
refused "unknown key 'x'" report -i "$p" -s x
echo "filters: all agree with perf"
