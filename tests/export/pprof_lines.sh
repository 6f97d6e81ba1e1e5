#!/bin/sh
# pprof_lines.sh - `pmutool report --pprof` writes source files and lines
# where the mapped file has DWARF: a program built here with -g, recorded
# by pmutool record -g, read back by Go's pprof (-raw: every location with
# its function, file:line and the function's start line s=).  Its hot
# function's locations name its source file, at lines within its body, the
# loop's line (HOT-LINE) among them, and its start line is the line
# declaring it (HOT-DECL); main's call of it is at HOT-CALL, the call
# instruction's line, not the next line's where it returns; the frames of a library
# stripped of its debug info (libcold.so) and of the kernel have no line.
#
# usage: pprof_lines.sh BINDIR PPROF
set -eu
bin=$1 pprof=$2
here=$(dirname "$0")
command -v gcc >/dev/null || { echo "pprof_lines.sh: gcc not found: install the Debian package gcc" >&2; exit 1; }
command -v strip >/dev/null ||
	{ echo "pprof_lines.sh: strip not found: install the Debian package binutils" >&2; exit 1; }
t=$(mktemp -d "${TMPDIR:-/tmp}/pprof-lines.XXXXXX")
trap 'rm -rf "$t"' EXIT
fail() { echo "pprof_lines.sh: $*" >&2; cat "$t/raw" >&2; exit 1; }
cp "$here/lines/hot.c" "$here/lines/cold.c" "$t/"
# -O0: each statement its own instructions, a line per sampled address
gcc -O0 -g -fno-omit-frame-pointer -fPIC -shared -o "$t/libcold.so" "$t/cold.c"
strip --strip-debug "$t/libcold.so"
gcc -O0 -g -fno-omit-frame-pointer -o "$t/hot" "$t/hot.c" -L"$t" -lcold -Wl,-rpath,"$t"
line_of() { grep -n "$1" "$t/hot.c" | cut -d: -f1; }
decl=$(line_of HOT-DECL) hot=$(line_of HOT-LINE) end=$(line_of HOT-END) call=$(line_of HOT-CALL)
"$bin/pmutool" record -e cpu-clock -c 100000 -g -o "$t/hot.data" -- "$t/hot" 20 2>"$t/err" ||
	{ cat "$t/err" >&2; exit 1; }
"$bin/pmutool" report -i "$t/hot.data" --pprof "$t/hot.pb.gz"
"$pprof" -symbolize=none -raw "$t/hot.pb.gz" >"$t/raw" 2>&1
# "  ID: 0xADDR M=N FUNCTION FILE:LINE s=START", one line per location
awk -v src="$t/hot.c" -v decl="$decl" -v hot="$hot" -v end="$end" -v call="$call" '
	FNR == NR { if (/^Mappings/) maps = 1
		    else if (maps && $3 ~ /^\[/) kernel["M=" substr($1, 1, length($1) - 1)] = 1
		    next }
	/^Locations/ { on = 1; next }
	/^Mappings/ { on = 0 }
	!on || NF < 5 { next }
	{ n = split($(NF - 1), fl, ":"); line = fl[n]; file = substr($(NF - 1), 1, length($(NF - 1)) - length(line) - 1)
	  start = substr($NF, 3) }
	$4 == "hot_loop" {
		hots++
		if (file != src || start != decl || line < decl || line > end) {
			print "hot_loop location not in " src ":" decl "-" end ": " $0; bad = 1 }
		if (line == hot) at_hot++
	}
	$4 == "main" && line == call && file == src { calls++ }
	$4 == "cold_spin" { colds++; if (line != 0 || file != "") { print "stripped libcold.so has a line: " $0; bad = 1 } }
	($3 in kernel) && line != 0 { print "a frame of the kernel (or vdso) has a line: " $0; bad = 1 }
	END {
		if (!hots) { print "no hot_loop location"; bad = 1 }
		if (!at_hot) { print "no hot_loop location at line " hot; bad = 1 }
		if (!calls) { print "no main location at the call, line " call; bad = 1 }
		if (!colds) { print "no cold_spin location"; bad = 1 }
		exit bad
	}' "$t/raw" "$t/raw" >"$t/why" || fail "$(cat "$t/why")"
echo "pprof_lines.sh: hot_loop at $t/hot.c:$hot (declared at $decl), main's call at $call, no lines in libcold.so or the kernel"
