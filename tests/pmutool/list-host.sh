#!/bin/sh
# list-host.sh BINDIR - pmutool list shows the host's software events, other
# PMUs' events and tracepoints after the description's, as perf list does:
# on this machine, each kind's lines equal perf 6.1's (`perf list sw`, `perf
# list pmu`, `perf list tracepoint`), a GLOB matching names and aliases; on a
# simulated POWER10 LPAR (tests/fakesys), vpa_dtl's and hv_24x7's events and
# its three tracepoints, the core PMU's left to the description.  Needs root
# (perf list reads tracefs, mounting it if needed, as pmutool does).
set -eu
bin=$1
here=$(dirname "$0")
command -v perf >/dev/null 2>&1 || {
	echo "list-host: perf not found: install the Debian package linux-perf (.ci/install-deps)" >&2
	exit 1
}
t=$(mktemp -d "${TMPDIR:-/tmp}/list-host.XXXXXX")
trap 'rm -rf "$t"' EXIT
export LC_ALL=C

"$bin/pmutool" list >"$t/ours"
for kind in "Software event:sw" "Kernel PMU event:pmu" "Tracepoint event:tracepoint"; do
	label=${kind%:*}
	perf list "${kind#*:}" 2>/dev/null | grep -F "[$label]" | grep -v '^  cpu/' >"$t/perf.$label" || true
	grep -F "[$label]" "$t/ours" >"$t/ours.$label" || true
	test -s "$t/perf.$label" || [ "$label" = "Kernel PMU event" ] || {
		echo "list-host: perf list shows no $label" >&2
		exit 1
	}
	diff "$t/perf.$label" "$t/ours.$label"
	echo "list-host: $(wc -l <"$t/ours.$label") ${label}s as perf list's"
done
# a glob on an alias, on a tracepoint subsystem; JSON with the kind
test "$("$bin/pmutool" list cs)" = "$(grep -F 'context-switches OR cs ' "$t/ours")"
"$bin/pmutool" list 'sched:*' >"$t/sched"
test "$(wc -l <"$t/sched")" = "$(grep -c '^  sched:' "$t/ours")"
"$bin/pmutool" list --json 'task-clock' >"$t/json"
grep -q '"name":"task-clock","type":"software"' "$t/json"

# a simulated POWER10 LPAR: its PMUs' events, not the core PMU's, and its
# tracepoints, from --sysfs
sh "$here/../fakesys/power10-lpar.sh" "$t/sys"
"$bin/pmutool" --sysfs "$t/sys" list '*[:/]*' >"$t/lpar"
grep -F '[Kernel PMU event]' "$t/lpar" | awk '{ print $1 }' >"$t/lpar.pmu"
want_pmu=$(cd "$t/sys/bus/event_source/devices" &&
	for p in *; do
		[ "$p" = cpu ] || [ ! -d "$p/events" ] && continue
		for e in "$p"/events/*; do
			case $e in *.*) ;; *) echo "$p/${e##*/}/" ;; esac
		done
	done | sort)
test "$(cat "$t/lpar.pmu")" = "$want_pmu"
grep -q '^  vpa_dtl/dtl_all/ ' "$t/lpar"
! grep -q '^  cpu/' "$t/lpar"
test "$(grep -F '[Tracepoint event]' "$t/lpar" | awk '{ print $1 }' | tr '\n' ' ')" = \
	"powerpc:hcall_entry sched:sched_switch sched:sched_wakeup "
echo "list-host: the simulated LPAR's $(wc -l <"$t/lpar.pmu") PMU events and 3 tracepoints"
