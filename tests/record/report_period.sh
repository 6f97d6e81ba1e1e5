#!/bin/sh
# report_period.sh - pmutool report on fixed-period files (`record -c`), side
# by side with Debian's perf report: perf's own `perf record -c` file has no
# PERIOD in its sample_type (each sample weighs the attr's sample_period),
# pmutool record's has it.  For both, pmutool report's event period must be
# perf's "Event count (approx.)" (text and --json) and each --sort comm,dso
# row's samples and period must be perf's (`-n --show-total-period`).
#
# usage: report_period.sh PMUTOOL SPIN
set -u
pmutool=$1 spin=$2
command -v perf >/dev/null || { echo "perf is missing: install the Debian package linux-perf"; exit 1; }
command -v python3 >/dev/null || { echo "python3 is missing: install the Debian package python3"; exit 1; }
t=$(mktemp -d "${TMPDIR:-/tmp}/pmurt-period.XXXXXX") || exit 1
trap 'rm -rf "$t"' EXIT
fail() { echo "FAIL: $*"; for f in "$t"/*.txt; do [ -f "$f" ] && { echo "--- $f"; head -30 "$f"; }; done; exit 1; }
period=100000

# compare FILE WHO: pmutool report against perf report on FILE
compare() {
	file=$1 who=$2
	perf report -i "$file" --stdio --sort comm,dso -n --show-total-period \
		>"$t/perf-$who.txt" 2>/dev/null || fail "$who: perf report failed"
	"$pmutool" report -i "$file" --sort comm,dso >"$t/pmu-$who.txt" 2>&1 ||
		fail "$who: pmutool report failed"
	"$pmutool" report -i "$file" --sort comm,dso --json >"$t/pmu-$who.json" 2>&1 ||
		fail "$who: pmutool report --json failed"
	want=$(sed -n 's/^# Event count (approx\.): \([0-9]*\)$/\1/p' "$t/perf-$who.txt")
	[ -n "$want" ] || fail "$who: no Event count in perf report"
	samples=$(sed -n "s/^# Samples: \([0-9]*\) of event.*/\1/p" "$t/perf-$who.txt")
	got=$(sed -n "s/^# Event 'cpu-clock': [0-9]* samples, period \([0-9]*\)$/\1/p" "$t/pmu-$who.txt")
	[ "$got" = "$want" ] || fail "$who: pmutool report period '$got', perf's Event count $want"
	jgot=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["events"][0]["period"])' \
		"$t/pmu-$who.json") || fail "$who: --json unreadable"
	[ "$jgot" = "$want" ] || fail "$who: --json period $jgot, perf's Event count $want"
	# the period is the sample count times the fixed period, not the count
	n=$(sed -n "s/^# Event 'cpu-clock': \([0-9]*\) samples.*/\1/p" "$t/pmu-$who.txt")
	[ "$got" -eq $((n * period)) ] || fail "$who: period $got is not $n samples x $period"
	# rows: "comm dso samples period", perf's columns reordered
	awk '!/^#/ && NF == 5 { print $4, $5, $2, $3 }' "$t/perf-$who.txt" | sort >"$t/rows-perf-$who.txt"
	awk '!/^#/ && NF == 5 { print $4, $5, $1, $2 }' "$t/pmu-$who.txt" | sort >"$t/rows-pmu-$who.txt"
	[ -s "$t/rows-perf-$who.txt" ] || fail "$who: no rows in perf report"
	cmp -s "$t/rows-perf-$who.txt" "$t/rows-pmu-$who.txt" ||
		fail "$who: rows differ: $(diff "$t/rows-perf-$who.txt" "$t/rows-pmu-$who.txt" | head -6)"
	echo "$who: period $got over $n samples, $(wc -l <"$t/rows-pmu-$who.txt") rows as perf's"
}

perf record -q -e cpu-clock -c $period -o "$t/perf.data" -- "$spin" 100000000 \
	>"$t/perf-record.txt" 2>&1 || fail "perf record exited $?"
perf report -i "$t/perf.data" --header-only 2>/dev/null | grep 'sample_type = ' >"$t/perf-attr.txt"
grep -q 'PERIOD' "$t/perf-attr.txt" && fail "perf record -c wrote PERIOD in sample_type: the case is not tested"
compare "$t/perf.data" perf-record

"$pmutool" record -e cpu-clock -c $period -o "$t/pmu.data" -- "$spin" 100000000 \
	>"$t/pmu-record.txt" 2>&1 || fail "pmutool record exited $?"
compare "$t/pmu.data" pmutool-record
