#!/bin/sh
# cli.sh CASE PMUTOOL - pmutool's command line where a golden file cannot
# hold the output (it names this host: its CPU count, its architecture) or
# where a property rather than the whole text is the point.  Each case says
# what it expects.
set -u
case_name=$1 pmutool=$2
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
*)
	fail "unknown case '$case_name'" ;;
esac
