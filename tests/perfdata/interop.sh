#!/bin/sh
# interop.sh - libpmurt's perf.data against Debian's perf (linux-perf 6.1),
# both ways.  Needs root (perf record -a, /proc/kallsyms addresses).
#
#   interop.sh synth BINDIR    perf reads a file our writer built from a real
#                              process: perf script = pmutool script, perf
#                              report rows = pmutool report rows (--comm:
#                              its percentages too), in perf's order, perf
#                              report -D shows its samples and comm
#   interop.sh jit BINDIR      the same with a JIT's code (pd_synth --jit):
#                              anonymous executable memory is
#                              /tmp/perf-PID.map, its functions from that file
#   interop.sh plt BINDIR      the same with samples in the PLT of a file
#                              exporting data only (/usr/bin/dash, package
#                              dash): perf names its PLT entries all the same
#   interop.sh plt-sweep BINDIR  samples every 4 bytes over the .init, .plt,
#                              .plt.got of executables and shared libraries
#                              whose size-0 _init (its end fixed up to the
#                              next symbol) covers their PLT entries too
#                              (pd_plt_main.cc and pd_plt_lib.c built here
#                              with gcc and with clang: perf's symbol tree
#                              differs in shape; libstdc++): pmutool script
#                              = perf script, report = perf report, each
#                              entry named NAME@plt or _init+OFF as perf's
#                              tree walk names it
#   interop.sh plt-record BINDIR  `perf record` of those programs, whose hot
#                              loop runs through PLT entries of the program
#                              and of its library: script and report = perf's
#   interop.sh chains BINDIR   call chains, some with a context marker no
#                              kernel writes (perf 6.1 discards such a
#                              chain whole): pmutool's script with the
#                              chains, report's Children and its call
#                              graphs = perf's
#   interop.sh bounds BINDIR   samples at the first and last byte of a map
#                              and of a function and just outside them:
#                              pmutool's script and report = perf's
#   interop.sh buildid-hits BINDIR  the DSOs our writer's BUILD_ID feature
#                              names in tests/perfdata/buildid's files =
#                              those perf finds hit reading their samples
#   interop.sh record-g BINDIR our reader reads `perf record -e cpu-clock -g`
#                              (pmutool script -G = perf script -G; without
#                              -G both print the call graphs, identically;
#                              report's Children and Self, its rows in order
#                              and the call graphs under them = perf
#                              report's);
#                              its copy through our writer reads the same in perf
#   interop.sh record-a BINDIR the same for `perf record -a`
#   interop.sh record-pipe BINDIR  the same as record-g for perf's pipe
#                              format (perf record -o -), from the file, -i -
#                              and a pipe; a tracepoint's fields in a pipe
#   interop.sh record-z BINDIR the same as record-g for `perf record -z -g
#                              -m 1` (PERF_RECORD_COMPRESSED, a one-page
#                              ring: many compressed records, records split
#                              over two of them)
#   interop.sh record-dwarf BINDIR  `perf record --call-graph dwarf` of a
#                              program without frame pointers: pmutool's
#                              script prints the frames perf script
#                              --no-inline prints, the user stacks unwound
#                              through main to _start; report's Children,
#                              Self, rows and call graphs = perf report's
#   interop.sh record-dwarf-ours BINDIR  the same for `pmutool record
#                              --call-graph dwarf`, its attr's dwarf fields
#                              (and for dwarf,100) perf record's
#   interop.sh header BINDIR   perf report --header-only -I lists for a file
#                              pmutool record wrote (a group) what it lists for
#                              one perf record wrote, values alike but for those
#                              that differ by nature, the host's description
#                              byte for byte; perf evlist -g shows the
#                              group; the workload's and the vDSO's build ids
#                              as perf records them; the workload replaced at
#                              its path: perf and pmutool find the recorded
#                              one in the build-id cache; pmutool record's
#                              cache in perf's layout, read by perf; not in
#                              the cache: the new file unused by both,
#                              pmutool warns
#   interop.sh read BINDIR     leader sampling (PERF_SAMPLE_READ, a group's
#                              counters read by its leader's samples): pd_synth
#                              --read's hand-known values, each member's
#                              samples and periods as perf 6.1 delivers them
#                              (script and report = perf's; counts and
#                              periods = pd_synth's; a value of an unknown
#                              id dropped with perf's warning), then a file
#                              `perf record -e '{cpu-clock,page-faults}:S'`
#                              wrote: script and report = perf's
#   interop.sh read-record BINDIR  `pmutool record -e '{cpu-clock,page-faults}:S'`
#                              and -e 'cpu-clock:S': the attrs perf 6.1's
#                              record gives (perf evlist -v: sample_type READ,
#                              read_format ID|GROUP|LOST, a member without a
#                              period, not inherited), and perf's script and
#                              report of the file = pmutool's
#   interop.sh kcache BINDIR   the kernel-symbol cache: written on first use,
#                              the same answers from it, a damaged one ignored
#                              and rewritten
set -eu
mode=$1 bin=$2
here=$(dirname "$0")
command -v perf >/dev/null 2>&1 || {
	echo "interop: perf not found: install the Debian package linux-perf (.ci/install-deps)" >&2
	exit 1
}
t=$(mktemp -d "${TMPDIR:-/tmp}/pd-interop.XXXXXX")
jit_map=
trap 'rm -rf "$t" $jit_map' EXIT

# pmutool's and perf's script and report of one file agree (workload $2,
# options for perf report alone $3)
# shellcheck disable=SC2086 # the options are words
agree() {
	"$bin/pmutool" script -G -i "$1" >"$t/ours.script"
	perf script -G -i "$1" >"$t/perf.script" 2>"$t/perf.err" || { cat "$t/perf.err" >&2; exit 1; }
	python3 "$here/compare.py" script "$t/ours.script" "$t/perf.script" "$2"
	"$bin/pmutool" report --json -i "$1" >"$t/ours.json"
	# -w: perf sizes the command column by each thread's last comm, so a
	# sample under "perf-exec" shows as "perf-ex" when every last comm is
	# shorter; 16 (TASK_COMM_LEN) never cuts one
	# --no-group: a group's events in tables of their own (perf's default
	# for a file with groups is one table, a column per member)
	perf report --stdio -i "$1" --no-group -g none --sort comm,dso,sym \
		-F sample,period,comm,dso,sym \
		-w 0,0,16,0,0 ${3:-} >"$t/perf.report" 2>"$t/perf.err" || { cat "$t/perf.err" >&2; exit 1; }
	python3 "$here/compare.py" report "$t/ours.json" "$t/perf.report" "$2"
	# one command's rows, their percentages of the whole file, those under
	# 1% hidden
	"$bin/pmutool" report --json -i "$1" --comm "$2" --sort dso,sym --percent-limit 1 \
		>"$t/ours-comm.json"
	perf report --stdio -i "$1" --no-group -g none --comm "$2" --sort dso,sym --percent-limit 1 ${3:-} \
		-F overhead,sample,period,dso,sym >"$t/perf-comm.report" 2>"$t/perf.err" ||
		{ cat "$t/perf.err" >&2; exit 1; }
	python3 "$here/compare.py" comm "$t/ours-comm.json" "$t/perf-comm.report" "$2" "$t/ours.json"
}

# pd_plt_main.cc and its library pd_plt_lib.c, built with gcc (pd_plt_gcc,
# libpdplt_gcc.so) and with clang (pd_plt_clang, libpdplt_clang.so) in $t:
# PLT entries of their own, no debug information
plt_workloads() {
	for cc in gcc clang; do
		command -v $cc >/dev/null 2>&1 || {
			echo "interop: $cc not found: install the Debian package $([ $cc = gcc ] &&
				echo build-essential || echo clang) (.ci/install-deps)" >&2
			exit 1
		}
		cxx=g++
		[ $cc = clang ] && cxx=clang++
		$cc -O2 -fPIC -shared -o "$t/libpdplt_$cc.so" "$here/pd_plt_lib.c"
		$cxx -O2 -o "$t/pd_plt_$cc" "$here/pd_plt_main.cc" -L"$t" -lpdplt_$cc -Wl,-rpath,"$t"
	done
}

# pmutool report's text rows in perf report --stdio's order (a file of
# this process alone: nothing perf names otherwise)
in_order() {
	"$bin/pmutool" report -i "$1" >"$t/ours-order.txt"
	perf report --stdio -i "$1" -w 0,16,0,0 >"$t/perf-order.txt" 2>"$t/perf.err" ||
		{ cat "$t/perf.err" >&2; exit 1; }
	python3 "$here/compare.py" graph "$t/ours-order.txt" "$t/perf-order.txt" 1
}

# perf report's default view of a file with call graphs (workload $2,
# options for perf alone $3): Children and Self per row, and the call
# graphs under the rows, both orders, with and without Children
# shellcheck disable=SC2086 # the options are words
graphs_agree() {
	f=$1 comm=$2 extra=${3:-}
	"$bin/pmutool" report --json -i "$f" >"$t/ours-children.json"
	perf report --stdio -i "$f" -g none --sort comm,dso,sym $extra \
		-F overhead_children,overhead,comm,dso,sym -w 0,0,16,0,0 \
		>"$t/perf-children.report" 2>"$t/perf.err" || { cat "$t/perf.err" >&2; exit 1; }
	python3 "$here/compare.py" children "$t/ours-children.json" "$t/perf-children.report" "$comm"
	for g in "2" "2 -g callee" "1 --no-children" "1 --no-children -g caller"; do
		set -- $g
		n=$1
		shift
		"$bin/pmutool" report -i "$f" "$@" >"$t/ours-graph.txt"
		perf report --stdio -i "$f" "$@" $extra >"$t/perf-graph.txt" 2>"$t/perf.err" ||
			{ cat "$t/perf.err" >&2; exit 1; }
		# (the Children view names the file of every frame: which
		# branches of equal weight perf may order by its memory)
		python3 "$here/compare.py" graph "$t/ours-graph.txt" "$t/perf-graph.txt" "$n" \
			"$t/perf-children.report"
	done
}

case $mode in
synth)
	"$bin/pd_synth" "$t/s.data" >"$t/expect"
	read -r _ alpha _ beta _ kernel ksym <"$t/expect"
	agree "$t/s.data" pd_synth
	in_order "$t/s.data"
	# the exact samples, comm, symbols and event names, as perf shows them
	diff "$t/ours.script" "$t/perf.script"
	test "$(grep -c ' cpu-clock: .* synth_alpha+0x1 (.*/pd_synth)$' "$t/perf.script")" = "$alpha"
	test "$(grep -c 'task-clock: .* synth_beta+0x2 (.*/pd_synth)$' "$t/perf.script")" = "$beta"
	test "$(grep -c " cpu-clock: .* $ksym+0x10 (\[kernel.kallsyms\])$" "$t/perf.script")" = "$kernel"
	test "$(grep -c '^ *pd_synth ' "$t/perf.script")" = $((alpha + beta + kernel))
	perf report -D -i "$t/s.data" >"$t/dump" 2>&1
	test "$(grep -c 'PERF_RECORD_SAMPLE' "$t/dump")" = $((alpha + beta + kernel))
	grep -q 'PERF_RECORD_COMM: pd_synth:' "$t/dump"
	grep -q 'PERF_RECORD_MMAP2 .*pd_synth$' "$t/dump"
	test "$(grep -c 'PERF_RECORD_FINISHED_ROUND' "$t/dump")" -ge 1
	perf report --header-only -i "$t/s.data" | grep -q "event : name = task-clock"
	;;
jit)
	"$bin/pd_synth" "$t/s.data" --jit >"$t/expect"
	{ read -r _ alpha _ beta _ kernel _; read -r _ gamma _ delta _ unnamed jit_map; } <"$t/expect"
	agree "$t/s.data" pd_synth
	in_order "$t/s.data"
	diff "$t/ours.script" "$t/perf.script"
	test "$(grep -c " jit_gamma+0x8 ($jit_map)\$" "$t/perf.script")" = "$gamma"
	test "$(grep -c " jit_delta(int)+0x4 ($jit_map)\$" "$t/perf.script")" = "$delta"
	test "$(grep -c " \[unknown\] ($jit_map)\$" "$t/perf.script")" = "$unnamed"
	test "$(grep -c '^ *pd_synth ' "$t/perf.script")" = $((alpha + beta + kernel + gamma + delta + unnamed))
	grep -q "^ .*  \[JIT\] tid [0-9]*  *\[\.\] jit_gamma" "$t/perf.report"
	;;
plt)
	"$bin/pd_synth" "$t/s.data" --plt /usr/bin/dash >"$t/expect"
	{ read -r _ alpha _ beta _ kernel _; read -r _ plt; } <"$t/expect"
	agree "$t/s.data" pd_synth
	in_order "$t/s.data"
	diff "$t/ours.script" "$t/perf.script"
	test "$(grep -c ' cpu-clock: .* [a-z_0-9]*@plt+0x4 (/usr/bin/dash)$' "$t/perf.script")" = "$plt"
	;;
plt-sweep)
	plt_workloads
	libstdcxx=$(readlink -f "$(g++ -print-file-name=libstdc++.so.6)")
	for f in "$t/pd_plt_gcc" "$t/pd_plt_clang" "$t/libpdplt_gcc.so" "$t/libpdplt_clang.so" \
		"$libstdcxx"; do
		"$bin/pd_synth" "$t/s.data" --plt-sweep "$f" >"$t/expect"
		test "$(sed -n 's/^sweep \([0-9]*\) .*/\1/p' "$t/expect")" -gt 16
		agree "$t/s.data" pd_synth
		diff "$t/perf.script" "$t/ours.script"
		# the sweep crossed PLT entries perf names as such
		grep -q "@plt+0x[0-9a-f]* ($f)\$" "$t/perf.script"
	done
	;;
plt-record)
	plt_workloads
	for cc in gcc clang; do
		perf record -q -e cpu-clock -c 50000 -o "$t/p.data" -- "$t/pd_plt_$cc" 20000000 >/dev/null
		agree "$t/p.data" "pd_plt_$cc"
		"$bin/pmutool" script -i "$t/p.data" >"$t/ours.full" ||
			{ echo "interop: pmutool script of pd_plt_$cc's recording failed" >&2; exit 1; }
		perf script -i "$t/p.data" >"$t/perf.full" 2>"$t/perf.err" || { cat "$t/perf.err" >&2; exit 1; }
		diff "$t/perf.full" "$t/ours.full"
		# samples in the program's own PLT entries (two of its loop's
		# three calls go through one: thousands of samples, some there)
		grep -q "@plt+0x[0-9a-f]* ($t/pd_plt_$cc)\$" "$t/perf.full" || {
			echo "interop: no sample of pd_plt_$cc in its own PLT entries;" \
				"perf script's lines naming a PLT entry:" >&2
			grep -o '[^ ]*@plt+0x[0-9a-f]* ([^)]*)' "$t/perf.full" | sort | uniq -c | sort -rn | head -5 >&2
			exit 1
		}
	done
	;;
chains)
	# a chain with a marker no kernel writes is dropped whole, the sample
	# kept (machine.c add_callchain_ip: "Discard all"), in script and report,
	# when perf's walk reaches the marker
	"$bin/pd_synth" "$t/s.data" --chains >"$t/expect"
	test "$(sed -n 's/^corrupt //p' "$t/expect")" -gt 0
	"$bin/pmutool" script -i "$t/s.data" >"$t/ours.full"
	perf script -i "$t/s.data" >"$t/perf.full" 2>"$t/perf.err" || { cat "$t/perf.err" >&2; exit 1; }
	diff "$t/perf.full" "$t/ours.full"
	"$bin/pmutool" report --json -i "$t/s.data" >"$t/ours-children.json"
	perf report --stdio -i "$t/s.data" -g none --sort comm,dso,sym \
		-F overhead_children,overhead,comm,dso,sym -w 0,0,16,0,0 \
		>"$t/perf-children.report" 2>"$t/perf.err" || { cat "$t/perf.err" >&2; exit 1; }
	python3 "$here/compare.py" children "$t/ours-children.json" "$t/perf-children.report" pd_synth
	# --max-stack 1: in callee order perf walks the sample's own frame
	# only, never meets the marker after it, so keeps those chains
	"$bin/pmutool" script -i "$t/s.data" --max-stack 1 >"$t/ours.full"
	perf script -i "$t/s.data" --max-stack 1 >"$t/perf.full" 2>"$t/perf.err" ||
		{ cat "$t/perf.err" >&2; exit 1; }
	diff "$t/perf.full" "$t/ours.full"
	for g in "2" "2 -g callee" "1 --no-children" "1 --no-children -g caller" \
		"2 -g callee --max-stack 1" "1 --no-children --max-stack 1"; do
		# shellcheck disable=SC2086 # the options are words
		set -- $g
		n=$1
		shift
		"$bin/pmutool" report -i "$t/s.data" "$@" >"$t/ours-graph.txt"
		perf report --stdio -i "$t/s.data" "$@" >"$t/perf-graph.txt" 2>"$t/perf.err" ||
			{ cat "$t/perf.err" >&2; exit 1; }
		python3 "$here/compare.py" graph "$t/ours-graph.txt" "$t/perf-graph.txt" "$n" \
			"$t/perf-children.report"
	done
	;;
bounds)
	# samples at the edges of the executable's map and of synth_alpha:
	# in the map from its first byte to its last, not the bytes around it;
	# in synth_alpha to its last byte (perf 6.1's maps__find and
	# symbols__find: start <= ip < end), pmutool's script and report as
	# perf's
	"$bin/pd_synth" "$t/s.data" --bounds >"$t/expect"
	{ read -r _; read -r _ start end alpha size; } <"$t/expect"
	agree "$t/s.data" pd_synth
	in_order "$t/s.data"
	diff "$t/ours.script" "$t/perf.script"
	at() { printf '%x' $((0x$1 + $2)); }
	in_file() { grep -q " $1 .* (.*/pd_synth)\$" "$t/perf.script"; }
	in_none() { grep -q " $1 \[unknown\] (\[unknown\])\$" "$t/perf.script"; }
	in_file "$(at "$start" 0)"
	in_file "$(at "$end" -1)"
	in_none "$(at "$start" -1)"
	in_none "$(at "$end" 0)"
	grep -q " $(at "$alpha" 0) synth_alpha+0x0 " "$t/perf.script"
	grep -q " $(at "$alpha" $((0x$size - 1))) synth_alpha+0x$(at "$size" -1) " "$t/perf.script"
	grep " $(at "$alpha" $((0x$size))) " "$t/perf.script" | grep -qv synth_alpha
	;;
record-g | record-a | record-z)
	if [ "$mode" = record-z ]; then
		perf record -q -z -m 1 -e cpu-clock -g -o "$t/p.data" -- "$bin/pd_spin" 0.3
		perf report --header-only -i "$t/p.data" 2>/dev/null | grep -q '^# compressed : Zstd'
		# the file's records: more than one compressed record
		test "$(perf report -D -i "$t/p.data" 2>/dev/null |
			awk '/^0x[0-9a-f]+@.* event: 9$/ { print $1 }' | sort -u | wc -l)" -ge 10
		mode=record-g
	elif [ "$mode" = record-g ]; then
		perf record -q -e cpu-clock -g -o "$t/p.data" -- "$bin/pd_spin" 0.3
	else
		perf record -q -a -e cpu-clock -o "$t/p.data" -- "$bin/pd_spin" 0.3
	fi
	agree "$t/p.data" pd_spin
	grep -q ' spin_alpha+0x' "$t/ours.script"
	grep -q ' spin_beta+0x' "$t/ours.script"
	"$bin/pd_copy" "$t/p.data" "$t/copy.data"
	perf script -i "$t/p.data" >"$t/orig.full"
	perf script -i "$t/copy.data" >"$t/copy.full"
	diff "$t/orig.full" "$t/copy.full"
	# with the call graphs: exactly perf's (-a also holds whatever else ran,
	# C++ that perf demangles and pmutool does not)
	if [ "$mode" = record-g ]; then
		"$bin/pmutool" script -i "$t/p.data" >"$t/ours.full"
		diff "$t/orig.full" "$t/ours.full"
		graphs_agree "$t/p.data" pd_spin
	fi
	agree "$t/copy.data" pd_spin
	;;
record-pipe)
	# perf's pipe format: a file of perf record -o - reads as perf reads
	# it (attrs, names and features from records, records not 8-byte
	# padded), from the file, from -i - and from a pipe without -i
	perf record -q -e cpu-clock -g -o - -- "$bin/pd_spin" 0.3 >"$t/p.data"
	test "$(od -An -tu8 -j8 -N8 "$t/p.data" | tr -d ' ')" = 16
	agree "$t/p.data" pd_spin
	# perf's view of a pipe file: call graphs, callers first, and no
	# Children column (set up before perf knows of the call chains)
	for g in "" "-g callee"; do
		# shellcheck disable=SC2086 # the options are words
		"$bin/pmutool" report -i "$t/p.data" $g >"$t/ours-graph.txt"
		# shellcheck disable=SC2086
		perf report --stdio -i "$t/p.data" $g >"$t/perf-graph.txt" 2>"$t/perf.err" ||
			{ cat "$t/perf.err" >&2; exit 1; }
		python3 "$here/compare.py" graph "$t/ours-graph.txt" "$t/perf-graph.txt" 1
	done
	perf script -i "$t/p.data" >"$t/perf.full"
	"$bin/pmutool" script -i - <"$t/p.data" >"$t/stdin.full"
	diff "$t/perf.full" "$t/stdin.full"
	"$bin/pmutool" report -i "$t/p.data" >"$t/file.txt"
	cat "$t/p.data" | "$bin/pmutool" report >"$t/pipe.txt"
	test "$(sed 1d "$t/file.txt" | md5sum)" = "$(sed 1d "$t/pipe.txt" | md5sum)"
	# straight from perf record: not a file at all
	perf record -q -e cpu-clock -o - -- "$bin/pd_spin" 0.1 | "$bin/pmutool" report -i - \
		--sort comm | grep -q ' pd_spin *$'
	# a tracepoint's formats after HEADER_TRACING_DATA, its fields decoded
	perf record -q -e sched:sched_switch -o - -- sh -c 'sleep 0.01; sleep 0.01' >"$t/tp.data"
	perf script -i "$t/tp.data" >"$t/perf.tp" 2>"$t/perf.err" || { cat "$t/perf.err" >&2; exit 1; }
	"$bin/pmutool" script -i "$t/tp.data" >"$t/ours.tp"
	diff "$t/perf.tp" "$t/ours.tp"
	grep -q 'prev_comm=sleep' "$t/ours.tp"
	;;
read)
	"$bin/pd_synth" "$t/s.data" --read >"$t/expect"
	read -r _ _ _ leaders lperiod _ members mperiod <"$t/expect"
	agree "$t/s.data" pd_synth
	diff "$t/ours.script" "$t/perf.script"
	test "$(grep -c ' cpu-clock: ' "$t/perf.script")" = "$leaders"
	test "$(grep -c ' page-faults: ' "$t/perf.script")" = "$members"
	test "$(awk '/ page-faults: / { s += $5 } END { print s }' "$t/perf.script")" = "$mperiod"
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(" ".join("%s %d %d" % (e["name"], e["samples"], e["period"]) for e in d["events"]))' \
		"$t/ours.json" >"$t/ours.sums"
	echo "cpu-clock $leaders $lperiod page-faults $members $mperiod" | diff - "$t/ours.sums"
	"$bin/pmutool" report -i "$t/s.data" 2>"$t/ours.err" >/dev/null
	grep -q '^pmutool: warning: 1 samples with id not present in the header$' "$t/ours.err"
	# recorded by perf: a group's sample_type READ, read_format ID|GROUP|LOST
	perf record -q -e '{cpu-clock,page-faults}:S' -o "$t/p.data" -- "$bin/pd_spin" 0.3
	perf evlist -v -i "$t/p.data" | grep -q 'read_format: ID|GROUP|LOST'
	agree "$t/p.data" pd_spin
	perf script -i "$t/p.data" >"$t/perf.full"
	"$bin/pmutool" script -i "$t/p.data" >"$t/ours.full"
	diff "$t/perf.full" "$t/ours.full"
	grep -q ' page-faults: ' "$t/ours.full"
	;;
read-record)
	"$bin/pmutool" record -e '{cpu-clock,page-faults}:S' -o "$t/o.data" -- "$bin/pd_spin" 0.3 \
		2>/dev/null
	perf record -q -e '{cpu-clock,page-faults}:S' -o "$t/p.data" -- "$bin/pd_spin" 0.01
	# the attrs but for what pmutool record always samples (CPU, IDENTIFIER
	# where perf has ID) and the events perf adds (ksymbol, bpf_event,
	# exclude_guest)
	for f in o p; do
		perf evlist -v -i "$t/$f.data" | sed -E 's/(CPU\||\|IDENTIFIER|ID\|)//g;
			s/, (ksymbol|bpf_event|exclude_guest): 1//g' >"$t/$f.evlist"
	done
	diff "$t/p.evlist" "$t/o.evlist"
	test "$(perf evlist -v -i "$t/o.data" | grep -c 'read_format: ID|GROUP|LOST')" = 2
	agree "$t/o.data" pd_spin
	perf script -i "$t/o.data" >"$t/perf.full"
	"$bin/pmutool" script -i "$t/o.data" >"$t/ours.full"
	diff "$t/perf.full" "$t/ours.full"
	grep -q ' page-faults: ' "$t/ours.full"
	# alone: its samples read its own count
	"$bin/pmutool" record -e cpu-clock:S -o "$t/one.data" -- "$bin/pd_spin" 0.1 2>/dev/null
	perf evlist -v -i "$t/one.data" | grep -q 'sample_type: .*READ.*, read_format: ID|LOST,'
	agree "$t/one.data" pd_spin
	;;
record-dwarf | record-dwarf-ours)
	# --call-graph dwarf: user stacks unwound from each sample's registers
	# and stack copy through the CFI (pd_unwind has no frame pointer to
	# follow); recorded by perf or by pmutool record, read by both
	if [ "$mode" = record-dwarf ]; then
		perf record -q --call-graph dwarf -e cpu-clock -c 1000000 -o "$t/p.data" -- \
			"$bin/pd_unwind" 100
	else
		"$bin/pmutool" record --call-graph dwarf -e cpu-clock -c 1000000 -o "$t/p.data" -- \
			"$bin/pd_unwind" 100 2>"$t/record.err" || { cat "$t/record.err" >&2; exit 1; }
		# the attr's dwarf fields as perf 6.1 sets them (its default size
		# and one rounded up to a multiple of 8)
		perf record -q --call-graph dwarf -e cpu-clock -o "$t/ref.data" -- true
		"$bin/pmutool" record --call-graph dwarf,100 -e cpu-clock -o "$t/p100.data" -- true \
			2>/dev/null
		perf record -q --call-graph dwarf,100 -e cpu-clock -o "$t/ref100.data" -- true
		for f in p ref p100 ref100; do
			perf evlist -v -i "$t/$f.data" | tr ',' '\n' |
				grep -E 'REGS_USER|STACK_USER|exclude_callchain_user|sample_regs_user|sample_stack_user|mmap_data' |
				sed 's/sample_type: .*\(REGS_USER\).*\(STACK_USER\).*/\1 \2/' >"$t/$f.attr"
		done
		test "$(wc -l <"$t/p.attr")" = 5
		diff "$t/ref.attr" "$t/p.attr"
		diff "$t/ref100.attr" "$t/p100.attr"
		grep -q 'sample_stack_user: 104' "$t/p100.attr"
	fi
	# every frame as perf script prints it; perf adds the inlined functions
	# it finds in debug information (libc6-dbg, when installed): it is
	# compared without them, as pmutool shows none
	perf script --no-inline -i "$t/p.data" >"$t/perf.full" 2>"$t/perf.err" ||
		{ cat "$t/perf.err" >&2; exit 1; }
	"$bin/pmutool" script -i "$t/p.data" >"$t/ours.full"
	diff "$t/perf.full" "$t/ours.full"
	# the samples in unwind_leaf, both paths to it seen, each stack
	# unwound through main to _start
	awk -v RS= '{ split($0, line, "\n") } line[2] ~ / unwind_leaf\+/ { leaf++;
		outer += / unwind_outer\+/;
		whole += / main\+/ && / _start\+/ } END { print leaf + 0, outer + 0, whole + 0 }' \
		"$t/ours.full" >"$t/counts"
	read -r leaf outer whole <"$t/counts"
	test "$leaf" -ge 20 && test "$outer" -ge 5 && test "$outer" -lt "$leaf" &&
		test "$whole" = "$leaf" || { echo "leaf samples, outer, to _start: $leaf $outer $whole" >&2; exit 1; }
	graphs_agree "$t/p.data" pd_unwind --no-inline
	agree "$t/p.data" pd_unwind --no-inline
	;;
buildid-hits)
	# the DSOs the writer's BUILD_ID feature says were hit, in
	# tests/perfdata/buildid's files (MMAP2s and samples in and out of time
	# order, over rounds, at the edges of maps), are those perf finds hit
	# when it reads the samples itself (buildid-list --with-hits: its
	# ordered events, its map lookup), not only what
	# buildid-in-order.txt, which that code wrote, says; the kernel aside
	# (its samples are at a POWER address: no kernel map of this host's
	# holds them)
	"$bin/pd_buildid_test" "$t" "$here/../data/perfdata/buildid-in-order.txt"
	ids=0
	for f in "$t"/*-records.data; do
		perf buildid-list -i "$f" 2>/dev/null | grep -v ' \[kernel.kallsyms\]$' >"$t/ours.ids"
		perf buildid-list -i "$f" --with-hits 2>/dev/null |
			grep -v ' \[kernel.kallsyms\]$' >"$t/perf.ids"
		diff "$t/ours.ids" "$t/perf.ids"
		ids=$((ids + $(wc -l <"$t/ours.ids")))
	done
	test "$ids" -ge 13
	;;
header)
	# perf 6.1 keeps its build-id cache in $HOME/.debug (no perfconfig
	# here): a HOME of the test's own, shared by perf and pmutool
	export HOME="$t/home" PERF_CONFIG=/dev/null
	unset PERF_BUILDID_DIR
	mkdir "$HOME"
	cp "$bin/pd_spin" "$t/spin"
	perf record -q -e '{cpu-clock,task-clock}' -o "$t/p.data" -- "$t/spin" 0.1
	"$bin/pmutool" record -N -e '{cpu-clock,task-clock}' -o "$t/o.data" -- "$t/spin" 0.1 2>/dev/null
	perf report --header-only -I -i "$t/p.data" >"$t/p.header"
	perf report --header-only -I -i "$t/o.data" >"$t/o.header"
	python3 "$here/compare.py" header "$t/o.header" "$t/p.header"
	python3 "$here/compare.py" features "$t/o.data" "$t/p.data"
	perf evlist -g -i "$t/o.data" | grep -qx '{cpu-clock,task-clock}'
	perf buildid-list -i "$t/p.data" | grep -e " $t/spin\$" -e ' \[vdso\]$' | sort >"$t/p.ids"
	perf buildid-list -i "$t/o.data" | grep -e " $t/spin\$" -e ' \[vdso\]$' | sort >"$t/o.ids"
	test "$(wc -l <"$t/p.ids")" = 2
	diff "$t/p.ids" "$t/o.ids"
	"$bin/pmutool" report -i "$t/o.data" >/dev/null 2>"$t/warn"
	test ! -s "$t/warn"
	# another program, another build id, at the path (a new file, as a
	# rebuild writes it: the cache's hard link keeps the old one)
	cp "$bin/pd_copy" "$t/spin.new" && mv "$t/spin.new" "$t/spin"
	perf report --stdio -i "$t/o.data" --sort sym 2>/dev/null | grep -q ' spin_alpha$'
	# pmutool finds the recorded one in perf's cache too
	"$bin/pmutool" report -i "$t/o.data" --sort sym >"$t/ours" 2>"$t/warn"
	test ! -s "$t/warn"
	grep -q ' spin_alpha$' "$t/ours"
	# the cache pmutool record fills itself, in perf's layout, beside the
	# one perf record fills: the entries of the objects both files list
	# the same, nothing of ours about objects ours does not list (which
	# objects 0.1 s of sampling hits, libc or not, varies from run to run;
	# perf's probes and debug files left out), and perf finds the replaced
	# program's symbols in ours
	cp "$bin/pd_spin" "$t/spin.new" && mv "$t/spin.new" "$t/spin"
	mkdir "$t/ours-home" "$t/perf-home"
	HOME=$t/ours-home "$bin/pmutool" record -e cpu-clock -o "$t/o2.data" -- "$t/spin" 0.1 2>/dev/null
	HOME=$t/perf-home perf record -q -e cpu-clock -o "$t/p2.data" -- "$t/spin" 0.1
	(cd "$t/ours-home/.debug" && find . ! -name probes ! -name debug -printf '%y %p %l\n' | sort) >"$t/ours.tree"
	(cd "$t/perf-home/.debug" && find . ! -name probes ! -name debug -printf '%y %p %l\n' | sort) >"$t/perf.tree"
	grep -q "^f ./\\[vdso\\]/[0-9a-f]*/vdso" "$t/ours.tree"
	grep -q "^l ./.build-id/.*\.\./\.\.$t/spin/[0-9a-f]*$" "$t/ours.tree"
	perf buildid-list -i "$t/o2.data" >"$t/o2.ids"
	perf buildid-list -i "$t/p2.data" >"$t/p2.ids"
	python3 "$here/compare.py" cache "$t/ours.tree" "$t/perf.tree" "$t/o2.ids" "$t/p2.ids"
	cp "$bin/pd_copy" "$t/spin.new" && mv "$t/spin.new" "$t/spin"
	HOME=$t/ours-home perf report --stdio -i "$t/o2.data" --sort sym 2>/dev/null | grep -q ' spin_alpha$'
	# without the recorded one in the cache: the new file unused (perf:
	# its samples unresolved), and pmutool says why.  The new file is the
	# same program under another build id (its GNU note's first byte
	# flipped, as a rebuild could leave it): read, it would name every
	# sample where perf names none
	python3 -c '
import struct, sys
d = bytearray(open(sys.argv[1], "rb").read())
at = d.find(struct.pack("<III", 4, 20, 3) + b"GNU\0")
assert at >= 0, "no GNU build id in " + sys.argv[1]
d[at + 16] ^= 0xff
open(sys.argv[2], "wb").write(d)' "$bin/pd_spin" "$t/spin.new"
	chmod 755 "$t/spin.new" && mv "$t/spin.new" "$t/spin"
	mkdir "$t/empty"
	HOME=$t/empty "$bin/pmutool" report -i "$t/o.data" --sort dso,sym >"$t/ours" 2>"$t/warn"
	grep -q "^pmutool: warning: $t/spin has build id [0-9a-f]*, the recording's had $(grep " $t/spin\$" "$t/p.ids" | cut -d' ' -f1): rebuilt or replaced since, and the build-id cache does not hold the recorded one" "$t/warn"
	HOME=$t/empty perf report --stdio -i "$t/o.data" --sort dso,sym 2>/dev/null >"$t/perf"
	# the program's rows: addresses alone, the same in both, and there are
	# some (named by the new file's functions, they would not be)
	sed -n 's/^.*  spin  *\[\.\] //p' "$t/ours" | sort -u >"$t/ours.spin"
	sed -n 's/^.*  spin  *\[\.\] //p' "$t/perf" | sort -u >"$t/perf.spin"
	test -s "$t/ours.spin"
	test -z "$(grep -v '^0x[0-9a-f]\{16\}$' "$t/ours.spin")"
	diff "$t/ours.spin" "$t/perf.spin"
	;;
kcache)
	export XDG_CACHE_HOME="$t/cache"
	"$bin/pd_synth" "$t/s.data" >/dev/null
	"$bin/pmutool" script -i "$t/s.data" >"$t/first"
	cache=$(ls "$t/cache/pmutool/"kallsyms-*)
	"$bin/pmutool" script -i "$t/s.data" >"$t/second"
	diff "$t/first" "$t/second"
	grep -q ' schedule+0x10 (\[kernel.kallsyms\])$' "$t/second"
	size=$(wc -c <"$cache")
	for damage in truncate flip; do
		if [ $damage = truncate ]; then
			head -c $((size / 2)) "$cache" >"$t/half" && mv "$t/half" "$cache"
		else
			printf 'XXXXXXXX' | dd of="$cache" bs=1 seek=24 conv=notrunc 2>/dev/null
		fi
		"$bin/pmutool" script -i "$t/s.data" >"$t/again"
		diff "$t/first" "$t/again"
		test "$(wc -c <"$cache")" = "$size"   # rewritten whole
	done
	PMUTOOL_KALLSYMS=/nonexistent "$bin/pmutool" script -i "$t/s.data" >"$t/nokall"
	grep -q ' \[unknown\] (\[kernel.kallsyms\])$' "$t/nokall"
	;;
*)
	echo "usage: interop.sh synth|jit|plt|plt-sweep|plt-record|chains|bounds|read|read-record|record-g|record-a|record-z|record-pipe|record-dwarf|record-dwarf-ours|header|kcache BINDIR" >&2
	exit 2
	;;
esac
echo "interop $mode: ok"
