#!/bin/sh
# cli.sh CASE PMUTOOL [PMUGEN POWER10.yaml] - pmutool's command line where a
# golden file cannot hold the output (it names this host: its CPU count, its
# architecture, a temporary path) or where a property rather than the whole
# text is the point.  Each case says what it expects.
set -u
case_name=$1 pmutool=$2 pmugen=${3:-} p10yaml=${4:-}
t=$(mktemp -d "${TMPDIR:-/tmp}/pmutool-cli.XXXXXX") || exit 1
trap 'rm -rf "$t"' EXIT
fail() { echo "FAIL: $*" >&2; for f in out err; do [ -s "$t/$f" ] && sed "s/^/  $f: /" "$t/$f" >&2; done; exit 1; }
# run EXPECTED-STATUS ARGS...: stdout in $t/out, stderr in $t/err
run() {
	want=$1; shift
	"$pmutool" "$@" >"$t/out" 2>"$t/err" </dev/null; got=$?
	[ "$got" = "$want" ] || fail "pmutool $*: exit $got, want $want"
}
has() { grep -q -- "$2" "$t/$1" || fail "$1 lacks '$2'"; }
empty() { [ ! -s "$t/$1" ] || fail "$1 is not empty"; }

case $case_name in
dtl-global-sysfs)
	# --sysfs before dtl reaches dtl record (its vpa_dtl looked up there),
	# as it does after `record`
	for form in before after; do
		if [ $form = before ]; then
			run 5 --sysfs "$t/none" dtl record -a -o "$t/x.data"
		else
			run 5 dtl record --sysfs "$t/none" -a -o "$t/x.data"
		fi
		has err "dtl record: no PMU 'vpa_dtl' in $t/none/bus/event_source/devices"
	done ;;
record-cpu)
	# a CPU past the host's: named before anything opens, as stat names it;
	# the number is this host's count, whatever it is
	n=$(getconf _NPROCESSORS_CONF) || fail "getconf _NPROCESSORS_CONF"
	run 2 record -C "$n" -e cpu-clock -o "$t/r.data" -- true
	has err "record: -C '$n': CPU $n does not exist (this host has $n)"
	[ -e "$t/r.data" ] && fail "record wrote $t/r.data"
	run 2 record -C "0,$((n + 3))" -e cpu-clock -o "$t/r.data" -- true
	has err "CPU $((n + 3)) does not exist (this host has $n)"
	run 2 stat -C "$n" -e cpu-clock -- true
	has err "^pmutool: error: -C '$n': CPU $n does not exist (this host has $n)" ;;
help)
	# each subcommand's own help, named before or after --help, on stdout
	for sub in list describe check stat report script record dtl; do
		run 0 "$sub" --help
		has out "^Usage: pmutool .*$sub"
		empty err
		cp "$t/out" "$t/after"
		run 0 --help "$sub"
		cmp -s "$t/out" "$t/after" || fail "--help $sub differs from $sub --help"
		grep -q '^Inspect a PMU description' "$t/out" && fail "$sub --help printed the global help"
	done
	# the global help without a subcommand; a command's own --help after stat's
	run 0 --help
	has out '^Inspect a PMU description'
	run 0 stat -e task-clock -- sh -c 'echo "$1"' sh --help
	has out '^--help$' ;;
record-args)
	# -F 0 and -c 0 refused as perf refuses them, before anything opens;
	# -p of a process that does not exist is a usage error (2), not an
	# internal one; the file is its owner's only (0600), as perf makes it
	run 2 record -F 0 -e cpu-clock -o "$t/r.data" -- true
	has err "^pmutool: error: record: -F 0: a frequency must be at least 1$"
	run 2 record -c 0 -e cpu-clock -o "$t/r.data" -- true
	has err "^pmutool: error: record: -c 0: a period must be at least 1$"
	max=$(cat /proc/sys/kernel/pid_max)
	run 2 record -p "$max" -e cpu-clock -o "$t/r.data"
	has err "^pmutool: error: record: process $max: no such process$"
	[ -e "$t/r.data" ] && fail "a refused record wrote $t/r.data"
	# ring sizes: one rule and one message for record and dtl record
	run 2 record -m 3 -e cpu-clock -o "$t/r.data" -- true
	has err "^pmutool: error: -m: '3' pages is not a power of two up to 1048576$"
	run 2 record -m -4 -e cpu-clock -o "$t/r.data" -- true
	has err "^pmutool: error: -m: '-4' pages is not a power of two up to 1048576$"
	run 2 dtl record -a -m 2097152 -o "$t/r.data"
	has err "^pmutool: error: dtl record: -m: '2097152' pages is not a power of two up to 1048576$"
	run 2 dtl record -a --aux-pages 0 -o "$t/r.data"
	has err "^pmutool: error: dtl record: --aux-pages: '0' pages is not a power of two up to 1048576$"
	[ -e "$t/r.data" ] && fail "a refused record wrote $t/r.data"
	# --call-graph as perf 6.1 takes it (util/callchain.c
	# parse_callchain_record), its messages: a mode, not the command;
	# dwarf's size from 1 to 65528 (65529 rounds up past it)
	for size in 0 65529 70000 abc; do
		run 2 record --call-graph "dwarf,$size" -e cpu-clock -o "$t/r.data" -- true
		has err "^pmutool: error: record: callchain: Incorrect stack dump size (max 65528): $size$"
	done
	for mode in foo fp,1 dwarfish; do
		run 2 record --call-graph "$mode" -e cpu-clock -o "$t/r.data" -- true
		has err "^pmutool: error: record: callchain: Unknown --call-graph option value: $mode (fp or dwarf\[,SIZE\])$"
	done
	[ -e "$t/r.data" ] && fail "a refused record wrote $t/r.data"
	# a sign is no number (strtoull would read -2^63 as 2^63, a power of two)
	run 2 dtl report --aux-size -9223372036854775808 /etc/passwd
	has err "^pmutool: error: --aux-size '-9223372036854775808': not a power of two of at least 128$"
	# stat's options before record's name would be ignored: each refused
	# (-M, --metric-only and -o were ignored until stat had its own table),
	# and before dtl alike
	for opt in "-e cpu-clock" -a "-C 0" "-I 100" "-r 2" "-x ," --dry-run "-o $t/s.out" \
		   "-M IPC" --metric-only --json; do
		run 2 $opt record -e cpu-clock -o "$t/r.data" -- true
		has err "^pmutool: error: record takes its options after its name"
	done
	[ -e "$t/r.data" ] && fail "a refused record wrote $t/r.data"
	for opt in "-M IPC" --metric-only; do
		run 2 $opt dtl report /etc/passwd
		has err "^pmutool: error: ${opt% *} before dtl: it does not apply to dtl report"
	done
	(umask 022 && "$pmutool" record -e cpu-clock -o "$t/r.data" -- true >"$t/out" 2>"$t/err") ||
		fail "record failed"
	mode=$(stat -c %a "$t/r.data")
	[ "$mode" = 600 ] || fail "perf.data written with mode $mode, not 600 (umask 022)" ;;
check-args)
	# an empty event in a check operand is refused as record refuses it;
	# a derived PAPI preset is checked as the group of its events, as stat
	# counts it; a firmware-only DTB names why an event is missing
	run 2 check PM_CYC,,PM_INST_CMPL
	has err "^pmutool: error: empty event at offset 7 of 'PM_CYC,,PM_INST_CMPL'$"
	run 2 check 'PM_CYC,'
	has err "empty event at offset 7 of 'PM_CYC,'"
	run 0 check PAPI_L1_DCM
	has out '^PAPI_L1_DCM = PM_LD_DEMAND_MISS_L1_FIN + PM_ST_MISS_L1: its 2 events checked as a group$'
	has out '^  0  PM_LD_DEMAND_MISS_L1_FIN '
	has out '^  1  PM_ST_MISS_L1 '
	run 0 --json check PAPI_L1_DCM:u
	has out '"final_events":\["0x400f0","0x300f0"\]'
	[ -n "$pmugen" ] || fail "usage: cli.sh check-args PMUTOOL PMUGEN POWER10.yaml"
	"$pmugen" -q -W no-kernel-limits -f dtb -o "$t/fw.dtb" "$p10yaml" || fail "pmugen failed"
	run 2 --pmu "$t/fw.dtb" check PM_CYC
	has err "unknown event 'PM_CYC' at offset 0 (this description holds only its [0-9]* firmware events: a DTB or device tree from pmugen holds the others with --all-events)"
	run 2 check PM_CYCX
	grep -q 'firmware events' "$t/err" && fail "the firmware note on the full description"
	true ;;
event-messages)
	# issue 23 item 15: what a mistyped or unsupported event string gets,
	# with and without a core description
	for pmu in "" "--pmu power10"; do
		# shellcheck disable=SC2086
		run 2 $pmu stat -e tsk-clock -- true
		has err "unknown event 'tsk-clock' at offset 0; did you mean 'task-clock'?"
		# shellcheck disable=SC2086
		run 2 $pmu stat -e cpu-clock,mem:0x10zz -- true
		has err "breakpoint 'mem:0x10zz' at offset 10: not mem:ADDR\[:ACCESS\]"
		# shellcheck disable=SC2086
		run 2 $pmu stat -e r10000000000000000000 -- true
		grep -q "too large\|larger than 64 bits" "$t/err" || fail "no word of the code's size"
	done
	# a list of 400 events (4,399 characters), in one -e and as 400: counted,
	# as dry run and as run (it was refused past 4,095 characters, exit 1 or 2)
	list=$(printf 'task-clock,%.0s' $(seq 400)); list=${list%,}
	run 0 stat -x, -e "$list" -- true
	[ "$(grep -c ',task-clock,' "$t/err")" = 400 ] || fail "400 events: $(wc -l <"$t/err") lines"
	run 0 stat --dry-run -e "$list"
	[ "$(grep -c '^[0-9]* task-clock ' "$t/out")" = 400 ] || fail "400 events: dry run"
	# shellcheck disable=SC2046
	run 0 stat -x, $(printf -- '-e task-clock %.0s' $(seq 400)) -- true
	[ "$(grep -c ',task-clock,' "$t/err")" = 400 ] || fail "400 -e: $(wc -l <"$t/err") lines"
	run 2 --pmu power10 stat -e PM_RUN_INST_CMP -- true
	has err "did you mean 'PM_RUN_INST_CMPL'?"
	"$pmutool" stat --dry-run -e PM_RUN_INST_CMPL >/dev/null 2>"$t/pick"
	if grep -q "no core PMU description is loaded" "$t/pick"; then
		# this host has none (x86 CI): say so, and how to give one
		run 2 stat -M CPI -- true
		has err "-M CPI: metrics come from a core PMU description, and none is loaded"
		has err "give --pmu NAME (built in: power10, power9, power8"
		run 2 stat -e r10000000000000000000 -- true
		has err "raw event 'r10000000000000000000' at offset 0: too large"
	else
		run 0 stat --dry-run -M CPI
	fi ;;
*)
	fail "unknown case '$case_name'" ;;
esac
