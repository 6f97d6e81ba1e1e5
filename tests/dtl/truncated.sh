#!/bin/sh
# pmutool dtl decode on data that ends inside a slot: every whole slot is
# decoded, the error names the offset of the cut slot, the exit status is 2.
# usage: truncated.sh PMUTOOL DIR (DIR holds sample.bin, 16 slots)
set -u
pmutool=$1 dir=$2
{ cat "$dir/sample.bin"; printf 'abcde'; } > "$dir/truncated.bin"
"$pmutool" dtl decode "$dir/truncated.bin" > "$dir/truncated.out" 2> "$dir/truncated.err"
rc=$?
fail=0
[ "$rc" -eq 2 ] || { echo "exit status $rc, not 2"; fail=1; }
[ "$(wc -l < "$dir/truncated.out")" -eq 16 ] || { echo "not 16 slots decoded"; fail=1; }
grep -q 'truncated.bin: offset 0x300: truncated DTL slot, 5 of 48 bytes' "$dir/truncated.err" ||
	{ echo "error message:"; cat "$dir/truncated.err"; fail=1; }
exit $fail
