#!/bin/sh
# pprof.sh - `pmutool report --pprof` on perf.data files of every kind, each
# profile read by Go's pprof and protoc and held against pmutool report
# (check_pprof.py): recorded here by pmutool record -g (frame pointers), by
# Debian's perf 6.1 with -g and with --call-graph dwarf (pmutool unwinds no
# DWARF stacks: the kernel's part of the call graph and the sampled ip, in
# the profile as in report), a group of two events, a file without call
# graphs, and the corpus's files (pd_synth's known content, a group and a
# perf -g file recorded elsewhere).  Needs root (perf record).
#
# usage: pprof.sh BINDIR PPROF PROTO CORPUS
set -eu
bin=$1 pprof=$2 proto=$3 corpus=$4
here=$(dirname "$0")
command -v protoc >/dev/null ||
	{ echo "pprof.sh: protoc not found: install the Debian package protobuf-compiler" >&2; exit 1; }
command -v perf >/dev/null ||
	{ echo "pprof.sh: perf not found: install the Debian package linux-perf" >&2; exit 1; }
t=$(mktemp -d "${TMPDIR:-/tmp}/pprof-test.XXXXXX")
trap 'rm -rf "$t"' EXIT
check() {
	python3 "$here/check_pprof.py" "$bin/pmutool" "$pprof" "$proto" "$1" "$t"
}
spin="$bin/pd_spin"
"$bin/pmutool" record -e cpu-clock -c 100000 -g -o "$t/pmutool-g.data" -- "$spin" 0.3
check "$t/pmutool-g.data"
"$bin/pmutool" record -e '{cpu-clock,task-clock}' -c 100000 -g -o "$t/group.data" -- "$spin" 0.3
check "$t/group.data"
"$bin/pmutool" record -e cpu-clock -c 100000 -o "$t/flat.data" -- "$spin" 0.2
check "$t/flat.data"
perf record -q -e cpu-clock -c 100000 -g -o "$t/perf-g.data" -- "$spin" 0.3 2>/dev/null
check "$t/perf-g.data"
perf record -q -e cpu-clock -c 200000 --call-graph dwarf,4096 -o "$t/perf-dwarf.data" \
	-- "$spin" 0.2 2>/dev/null
check "$t/perf-dwarf.data"
"$bin/pd_synth" "$t/synth.data" >"$t/synth.expect"
check "$t/synth.data"
for f in pmutool-group.data perf-record-g-true.data; do
	check "$corpus/$f"
done
# pd_synth's known content, exactly: 7 cpu-clock samples in synth_alpha
# (100000 each), 4 task-clock samples in synth_beta (200000 each)
"$pprof" -symbolize=none -top -nodefraction=0 -sample_index=cpu-clock_samples \
	"$t/synth.data.pb.gz" >"$t/synth.top" 2>&1
grep -Eq '^ +7 +[0-9.]+% .* synth_alpha$' "$t/synth.top" ||
	{ echo "pprof.sh: synth_alpha's 7 samples not in pprof -top:"; cat "$t/synth.top"; exit 1; } >&2
"$pprof" -symbolize=none -top -nodefraction=0 -sample_index=task-clock -unit=ns \
	"$t/synth.data.pb.gz" >"$t/synth.top" 2>&1
grep -Eq '^ *800000ns +100% .* synth_beta$' "$t/synth.top" ||
	{ echo "pprof.sh: synth_beta's 800000 ns not in pprof -top:"; cat "$t/synth.top"; exit 1; } >&2
# refusals: an unwritable output, table options
if "$bin/pmutool" report -i "$t/synth.data" --pprof /nonexistent/x.pb.gz 2>"$t/err"; then
	echo "pprof.sh: an unwritable --pprof succeeded" >&2; exit 1
fi
grep -q "nonexistent/x.pb.gz" "$t/err" || { echo "pprof.sh: $(cat "$t/err")" >&2; exit 1; }
if "$bin/pmutool" report -i "$t/synth.data" --pprof "$t/x" --sort comm 2>"$t/err"; then
	echo "pprof.sh: --pprof with --sort succeeded" >&2; exit 1
fi
grep -q -- "--sort changes nothing with --pprof" "$t/err" || { cat "$t/err" >&2; exit 1; }
echo "pprof.sh: every profile read alike by pprof, protoc and report"
