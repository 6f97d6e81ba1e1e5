#!/bin/sh
# options.sh PMUGEN DESCRIPTION.yaml DIR
# Every pmugen option either changes the run or is refused: each refusal
# exits 2 with its message and writes nothing; each accepted option is seen
# to have its effect.
pmugen=$(realpath "$1") desc=$(realpath "$2") dir=$3
rm -rf "$dir" && mkdir -p "$dir/run" && cd "$dir/run" || exit 1
fail() { echo "FAIL: $*"; exit 1; }

refused() { # MESSAGE ARGS...
	msg=$1
	shift
	"$pmugen" "$@" "$desc" > ../out 2> ../err
	rc=$?
	[ $rc = 2 ] || fail "pmugen $*: exit $rc, expected 2 ($(cat ../err))"
	grep -qF -- "$msg" ../err || fail "pmugen $*: message '$(cat ../err)' lacks '$msg'"
	[ -z "$(ls)" ] || fail "pmugen $*: wrote $(ls)"
	echo "ok: refused: pmugen $*"
}
tree="--all-events selects the device tree's events (dts, dtb); c and json always hold every event"
refused "$tree" --all-events -f c
refused "$tree" --all-events -f json
refused "$tree" -f c,json --all-events
refused "-o names one file but -f gives several formats; use --out-dir DIR" -f dts,dtb -o x
refused "-o and --out-dir both name where to write; give one" -o x --out-dir .
refused "--check writes nothing; drop -f, -o and --out-dir" --check -f dtb
refused "--check writes nothing; drop -f, -o and --out-dir" --check -o x
refused "--check writes nothing; drop -f, -o and --out-dir" --check --out-dir .
refused "format 'dts' given twice in 'dts,dtb,dts'" -f dts,dtb,dts
refused "unknown format 'xml' (dts, dtb, c or json)" -f dts,xml
refused "unknown format '' (dts, dtb, c or json)" -f dts,
refused "--out-dir no-such-dir: not an existing directory" --out-dir no-such-dir
refused "unknown check 'bogus'" -W bogus

# --all-events: with a tree format it is accepted; with --check it checks the
# tree that would hold every event (kernel-limits counts them).
"$pmugen" --all-events -f dts,c "$desc" 2>/dev/null || fail "--all-events -f dts,c refused"
[ -s power10.dts ] && [ -s power10.c ] || fail "--all-events -f dts,c wrote $(ls)"
rm -f power10.*
"$pmugen" --check --all-events "$desc" > ../out 2> ../err || fail "--check --all-events failed"
grep -q "680 events in the tree" ../err || fail "--check --all-events did not count every event"
"$pmugen" --check "$desc" > ../out 2> ../err || fail "--check failed"
! grep -q "events in the tree" ../err || fail "--check without --all-events counted every event"
echo "ok: --all-events with --check checks the full tree"

# -q: the summary (--check) and the 'wrote' lines go away, nothing else.
"$pmugen" --check "$desc" > ../out 2>/dev/null && grep -q ": ok$" ../out || fail "--check: no summary"
"$pmugen" -q --check "$desc" > ../out 2>/dev/null && [ ! -s ../out ] || fail "-q --check printed $(cat ../out)"
"$pmugen" -f dts,dtb --out-dir .. "$desc" 2> ../err && grep -c "^pmugen: wrote" ../err | grep -qx 2 ||
	fail "no 'wrote' line per output: $(cat ../err)"
"$pmugen" -q -f dts,dtb --out-dir .. "$desc" 2> ../err && [ ! -s ../err ] || fail "-q printed $(cat ../err)"
echo "ok: -q silences the summary and the 'wrote' lines"

# -W/-E: kernel-limits is a warning by default, an error with -E, silent with -W no-.
"$pmugen" --check --all-events -E kernel-limits "$desc" > ../out 2> ../err && fail "-E kernel-limits did not fail"
grep -q "error: .*\[-Ekernel-limits\]" ../err || fail "-E: no error: $(head -2 ../err)"
"$pmugen" --check --all-events -W no-kernel-limits "$desc" > ../out 2> ../err && [ ! -s ../err ] ||
	fail "-W no-kernel-limits still reports: $(head -2 ../err)"
echo "ok: -E makes a check an error, -W no- turns it off"
