#!/bin/sh
# Runs `pmugen --check` on one case of tests/checks and compares the exit status
# and every diagnostic line with the case's golden NAME.expected file, whose
# first line is "exit: N".  Usage: run_case.sh PMUGEN NAME [PMUGEN-FLAGS...]
set -u
pmugen=$1
name=$2
shift 2
cd "$(dirname "$0")" || exit 2
actual=$("$pmugen" --check -q "$@" "$name.yaml" 2>&1)
rc=$?
got=$(printf 'exit: %s\n%s' "$rc" "$actual")
if [ "$got" != "$(cat "$name.expected")" ]; then
	echo "--- expected"; cat "$name.expected"
	echo "--- got"; printf '%s\n' "$got"
	exit 1
fi
