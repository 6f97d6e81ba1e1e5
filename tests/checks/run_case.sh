#!/bin/sh
# Runs `pmugen --check` on one case of tests/checks and compares the exit status
# and every diagnostic line on standard error with the case's golden
# NAME.expected file, whose first line is "exit: N"; standard output must stay
# empty.  Usage: run_case.sh PMUGEN NAME [PMUGEN-FLAGS...]
set -u
pmugen=$1
name=$2
shift 2
cd "$(dirname "$0")" || exit 2
tmp=$(mktemp "${TMPDIR:-/tmp}/check-case.XXXXXX") || exit 2
trap 'rm -f "$tmp"' EXIT
actual=$("$pmugen" --check -q "$@" "$name.yaml" 2>&1 >"$tmp")
rc=$?
got=$(printf 'exit: %s\n%s' "$rc" "$actual")
fail=0
if [ "$got" != "$(cat "$name.expected")" ]; then
	echo "--- expected"; cat "$name.expected"
	echo "--- got (standard error)"; printf '%s\n' "$got"
	fail=1
fi
if [ -s "$tmp" ]; then
	echo "--- standard output, expected empty:"; cat "$tmp"
	fail=1
fi
exit $fail
