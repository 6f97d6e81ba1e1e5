#!/bin/sh
# multi_output.sh PMUGEN DESCRIPTION.yaml FAILING.yaml DIR
# `pmugen -f dts,dtb,c,json --out-dir DIR` writes, in one run, files
# byte-identical to four one-format runs, with --all-events and without; a
# run that fails leaves every target as it was and no temporary file.
pmugen=$1 desc=$2 failing=$3 dir=$4
set -e
rm -rf "$dir" && mkdir -p "$dir"
fail() { echo "FAIL: $*"; exit 1; }
no_temporaries() { ! ls "$1" | grep -q '\.tmp' || fail "temporary files left in $1: $(ls "$1")"; }

for mode in default all-events; do
	all=; [ $mode = all-events ] && all=--all-events
	mkdir "$dir/$mode" "$dir/$mode-reordered"
	"$pmugen" -q $all -W no-kernel-limits -f dts,dtb,c,json --out-dir "$dir/$mode" "$desc"
	"$pmugen" -q $all -W no-kernel-limits -f json,c,dtb,dts --out-dir "$dir/$mode-reordered" "$desc"
	for fmt in dts dtb c json; do
		single=$all; [ $fmt = c ] || [ $fmt = json ] && single= # refused there
		"$pmugen" -q $single -W no-kernel-limits -f $fmt -o "$dir/$mode/single.$fmt" "$desc"
		cmp "$dir/$mode/power10.$fmt" "$dir/$mode/single.$fmt" ||
			fail "$mode: multi-output $fmt differs from the one-format run"
		cmp "$dir/$mode/power10.$fmt" "$dir/$mode-reordered/power10.$fmt" ||
			fail "$mode: $fmt depends on the order of -f"
	done
	no_temporaries "$dir/$mode"
	echo "ok: $mode: dts, dtb, c, json each equal to its one-format run"
done
# --all-events changes the tree and only the tree
for fmt in dts dtb; do
	! cmp -s "$dir/default/power10.$fmt" "$dir/all-events/power10.$fmt" ||
		fail "--all-events did not change $fmt"
done
for fmt in c json; do
	cmp "$dir/default/power10.$fmt" "$dir/all-events/power10.$fmt" ||
		fail "--all-events changed $fmt"
done
echo "ok: --all-events changes dts and dtb, not c and json"

# The first rename fails (power10.dts is a directory): no target changes.
mkdir -p "$dir/fail-first/power10.dts" && echo old > "$dir/fail-first/power10.dtb"
if "$pmugen" -q -f dts,dtb,c,json --out-dir "$dir/fail-first" "$desc" 2> "$dir/fail-first.err"; then
	fail "a run whose DTS cannot be renamed into place succeeded"
fi
grep -q "power10.dts" "$dir/fail-first.err" || fail "the error does not name power10.dts: $(cat "$dir/fail-first.err")"
[ "$(cat "$dir/fail-first/power10.dtb")" = old ] || fail "power10.dtb was replaced by a failed run"
[ ! -e "$dir/fail-first/power10.c" ] && [ ! -e "$dir/fail-first/power10.json" ] ||
	fail "a failed run wrote C or JSON"
no_temporaries "$dir/fail-first"
echo "ok: a failed rename leaves every target as it was"

# The last rename fails: the outputs renamed before it are complete.
mkdir -p "$dir/fail-last/power10.json"
if "$pmugen" -q -f dts,dtb,c,json --out-dir "$dir/fail-last" "$desc" 2>/dev/null; then
	fail "a run whose JSON cannot be renamed into place succeeded"
fi
for fmt in dts dtb c; do
	cmp "$dir/fail-last/power10.$fmt" "$dir/default/power10.$fmt" ||
		fail "fail-last: $fmt is not the complete output"
done
no_temporaries "$dir/fail-last"
echo "ok: outputs renamed before a failed rename are complete"

# A description with errors writes nothing at all.
mkdir "$dir/bad"
if "$pmugen" -q -f dts,dtb,c,json --out-dir "$dir/bad" "$failing" 2>/dev/null; then
	fail "a description with errors was accepted"
fi
[ -z "$(ls "$dir/bad")" ] || fail "a failed run left files: $(ls "$dir/bad")"
echo "ok: a description with errors writes no output"
