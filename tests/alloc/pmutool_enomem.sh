#!/bin/sh
# pmutool_enomem.sh PMUTOOL_ALLOC ARGS... - runs one pmutool command with
# each of its allocations failing in turn (PMUTOOL_FAIL_AT=1, 2, ...; see
# pmutool_alloc.c): every run must end with status 4 (EXIT_INTERNAL) and
# "out of memory" on stderr, without a crash; stops when a run makes fewer
# allocations than the one to fail, which must then end as a run with no
# failure does (0, or 1 for a rejected group).
prog=$1
shift
err=$(mktemp "${TMPDIR:-/tmp}/pmutool-enomem.XXXXXX") || exit 1
trap 'rm -f "$err"' EXIT
"$prog" "$@" >/dev/null 2>&1
want=$?
n=1
while :; do
	PMUTOOL_FAIL_AT=$n "$prog" "$@" >/dev/null 2>"$err"
	rc=$?
	made=$(sed -n 's/^pmutool_alloc: \([0-9]*\) allocations$/\1/p' "$err")
	if [ -z "$made" ]; then
		echo "FAIL: $*: allocation $n: no count (crashed? status $rc)"; cat "$err"; exit 1
	fi
	if [ "$made" -lt "$n" ]; then
		[ "$rc" -eq "$want" ] || { echo "FAIL: $*: status $rc with no allocation failed, not $want"; cat "$err"; exit 1; }
		break
	fi
	if [ "$rc" -ne 4 ] || ! grep -q "out of memory" "$err"; then
		echo "FAIL: $*: allocation $n of $made failed: status $rc, stderr:"; cat "$err"; exit 1
	fi
	n=$((n + 1))
done
echo "$*: each of $((n - 1)) allocations failed in turn: out of memory, status 4"
