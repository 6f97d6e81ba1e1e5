#!/bin/bash
# Bad input has bounded cost: runs one hostile-input case of gen_input.c at
# 4 x SIZE bytes and checks the exit status and the message; then its cost.
# In an optimised build (LIMIT "instructions") the cost is counted, not
# timed, so that a busy machine never fails it (a 1 s CPU cap failed 3 runs
# in 12 on a machine shared with a fuzzer): valgrind counts the
# instructions at SIZE and at a quarter of it; the larger must stay within
# INSTR_PER_BYTE a byte (1000: about one second for 10 MB on the x86 CI
# machine, the issue's "within one second") and cost less than 10 times the
# smaller (linear work gives 4, square work 16).  Under the sanitizers,
# which valgrind cannot run, LIMIT is CPU seconds for the 4 x SIZE run (the
# best of up to 3), a bound on gross blow-ups, and the same ratio.
# Usage: run.sh GEN_INPUT PMUGEN PMUTOOL MINI_YAML LIMIT KIND SIZE EXIT PATTERN
set -u
gen=$1 pmugen=$2 pmutool=$3 mini=$4 limit=$5 kind=$6 size=$7 want_exit=$8 pattern=$9
dir=$(mktemp -d)
INSTR_PER_BYTE=1000
trap 'rm -rf "$dir"' EXIT

# mini.yaml and its events split over included files (each under the YAML
# node limit), compiled to a DTB for libpmurt's loader.
make_dtb() {
	rm -f "$dir"/ev*.yaml
	"$gen" events "$1" | awk -v d="$dir" '
		NR % 8000 == 1 { f = sprintf("%s/ev%03d.yaml", d, NR / 8000)
			print "format: pmu-description/1\nevents:" > f }
		{ print > f }' || { echo "gen_input events failed"; exit 1; }
	{ cat "$mini"; echo "include:"; for f in "$dir"/ev*.yaml; do echo "  - $f"; done; } >"$dir/in.yaml"
	"$pmugen" -q -W no-duplicate-event-code --all-events -f dtb -o "$dir/in" "$dir/in.yaml" ||
		{ echo "pmugen -f dtb failed"; exit 1; }
}

make_input() {
	case $kind in
	events|event-keys|long-scalar|import) cat "$mini" ;;
	fields) sed '/^checks:/,$d' "$mini" ;;      # mini's field list last
	constraints) sed '/^events:/,$d' "$mini" ;; # mini's constraint list last
	dtb-events) make_dtb "$1"; return ;;
	esac >"$dir/in"
	"$gen" "$kind" "$1" >>"$dir/in" || { echo "gen_input $kind failed"; exit 1; }
}

# The command under test, in cmd[].
case $kind in
jsonl-*) cmd=("$pmutool" check --batch "$dir/in") ;;
dtb-*) cmd=("$pmutool" --pmu "$dir/in" list) ;;
*) cmd=("$pmugen" --check "$dir/in") ;;
esac
run_once() { "${cmd[@]}"; }

# Instructions one run executes, counted by valgrind (exp-bbv, the lightest
# of its counting tools): the same for the same input whatever else the
# machine does.
count_instructions() {
	valgrind --tool=exp-bbv --bb-out-file=/dev/null --log-file="$dir/vg" "${cmd[@]}" >/dev/null 2>&1
	awk '/Total instructions:/ { print $NF }' "$dir/vg" | tail -n 1
}

# Best CPU seconds (user + sys) of 3 runs, or of fewer when one is within
# the limits given (LIMIT, and 10 x SMALL); leaves the output in $dir/out.
best_cpu() {
	local best= enough=${1:-}
	for _ in 1 2 3; do
		TIMEFORMAT='%3U %3S'
		{ time run_once >"$dir/out" 2>&1; echo $? >"$dir/rc"; } 2>"$dir/time"
		best=$(awk -v b="$best" '{t = $1 + $2; print (b == "" || t < b) ? t : b}' "$dir/time")
		[ -n "$enough" ] && within "$best" "$enough" && break
	done
	echo "$best"
}

# within LARGE SMALL: the larger run's CPU time is within the limit and
# less than 10 x the smaller's (linear, not square)
within() {
	awk -v b="$1" -v a="$2" -v l="$limit" 'BEGIN { exit !(b <= l && (b < 0.15 || b < 10 * a)) }'
}

# The answer at 4 x SIZE: exit status and message.
make_input $((size * 4))
run_once >"$dir/out" 2>&1
rc=$?
echo "$kind: $(wc -c <"$dir/in") bytes: exit $rc"
head -c 300 "$dir/out"; echo
status=0
[ "$rc" = "$want_exit" ] || { echo "FAIL: exit $rc, expected $want_exit"; status=1; }
grep -q -e "$pattern" "$dir/out" || { echo "FAIL: no '$pattern' in the output"; status=1; }

if [ "$limit" = instructions ]; then
	# the cost, counted: at SIZE and a quarter of it, the larger within
	# INSTR_PER_BYTE instructions a byte and less than 10 times the smaller
	command -v valgrind >/dev/null || { echo "FAIL: valgrind not found (Debian package valgrind)"; exit 1; }
	make_input $((size / 4))
	small=$(count_instructions)
	make_input "$size"
	bytes=$(wc -c <"$dir/in")
	large=$(count_instructions)
	[ -n "$small" ] && [ -n "$large" ] || { echo "FAIL: valgrind counted nothing: $(tail -n 3 "$dir/vg")"; exit 1; }
	echo "cost: $large instructions at $bytes bytes ($((large / bytes)) a byte), $small at a quarter"
	[ "$large" -le $((INSTR_PER_BYTE * bytes)) ] ||
		{ echo "FAIL: more than $INSTR_PER_BYTE instructions a byte"; status=1; }
	awk -v a="$small" -v b="$large" 'BEGIN { exit !(b < 10 * a) }' ||
		{ echo "FAIL: 4 x the input cost $large / $small instructions: more than linear"; status=1; }
else
	# under the sanitizers (valgrind cannot run them): CPU seconds, the
	# best of up to 3 runs, a bound on gross blow-ups only
	make_input "$size"
	small=$(best_cpu)
	make_input $((size * 4))
	large=$(best_cpu "$small")
	echo "cost: ${large} s CPU; at a quarter of the size ${small} s"
	awk -v t="$large" -v l="$limit" 'BEGIN { exit !(t <= l) }' ||
		{ echo "FAIL: ${large} s CPU, more than the ${limit} s allowed"; status=1; }
	awk -v a="$small" -v b="$large" 'BEGIN { exit !(b < 0.15 || b < 10 * a) }' ||
		{ echo "FAIL: 4 x the input cost ${large} / ${small} s: more than linear"; status=1; }
fi
exit $status
