#!/bin/sh
# stress_real.sh - record/stress-real: `pmutool record -a -g` through one-
# and two-page rings on this machine's kernel, many times, every file read
# back whole by pmutool (report, script) and by Debian's perf (script), with
# as many samples as record's summary said it wrote.  The workload's call
# chains come in every size, so records wrap the rings' ends and end exactly
# at them, and full rings lose records (issue 23 item 1: such a file was
# once unreadable one run in three, while record said all was well).
# usage: stress_real.sh PMUTOOL LADDER_SPIN [RUNS]
set -u
pmutool=$1 ladder=$2 runs=${3:-10}
command -v perf >/dev/null || { echo "perf is missing: install the Debian package linux-perf"; exit 1; }
t=$(mktemp -d "${TMPDIR:-/tmp}/pmurt-stress.XXXXXX") || exit 1
trap 'rm -rf "$t"' EXIT
fail() { echo "FAIL: $*"; for f in "$t"/*.txt; do [ -f "$f" ] && { echo "--- $f"; head -20 "$f"; }; done; exit 1; }
# pmutool report over the file; once more when what failed was LeakSanitizer's
# own stop-the-world tracer at exit (the sanitizer build: "Tracer caught signal
# 11 ... LeakSanitizer has encountered a fatal error", an intermittent fault of
# the sanitizer runtime under load, google/sanitizers#1353), not the report
read_back() {
	"$pmutool" "$1" -i "$t/s.data" >/dev/null 2>"$t/$1.txt" && return 0
	grep -q '^Tracer caught signal' "$t/$1.txt" &&
		grep -q 'LeakSanitizer has encountered a fatal error' "$t/$1.txt" || return 1
	echo "note: LeakSanitizer's tracer crashed at the exit of pmutool $1 (run $i): once more"
	"$pmutool" "$1" -i "$t/s.data" >/dev/null 2>"$t/$1.txt"
}
for pages in 1 2; do
	i=0
	while [ "$i" -lt "$runs" ]; do
		i=$((i + 1))
		"$pmutool" record -e cpu-clock -a -g -c 20000 -m "$pages" -o "$t/s.data" -- \
			"$ladder" 3000 >/dev/null 2>"$t/record.txt" || fail "-m $pages run $i: record exited $?"
		said=$(sed -n 's/^\[ pmutool record: \([0-9]*\) samples.*/\1/p' "$t/record.txt")
		[ -n "$said" ] || fail "-m $pages run $i: no summary"
		read_back report || fail "-m $pages run $i: pmutool report cannot read the file"
		ours=$("$pmutool" script -i "$t/s.data" -F comm 2>"$t/script.txt" | wc -l) ||
			fail "-m $pages run $i: pmutool script cannot read the file"
		perfs=$(perf script -i "$t/s.data" -F comm 2>"$t/perf.txt" | wc -l)
		grep -q 'failed to process' "$t/perf.txt" && fail "-m $pages run $i: perf cannot read the file"
		[ "$ours" -eq "$said" ] && [ "$perfs" -eq "$said" ] ||
			fail "-m $pages run $i: record said $said samples, pmutool script read $ours, perf script $perfs"
	done
done
echo "ok: $((2 * runs)) recordings through 1- and 2-page rings, each read back whole"
