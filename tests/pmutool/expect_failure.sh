#!/bin/sh
# expect_failure.sh MESSAGE COMMAND [ARG]...
# Passes only when COMMAND exits 1 (a failed check, not a crash or a usage
# error) and its output holds MESSAGE: the negative tests of the runners.
message=$1
shift
out=$("$@" 2>&1)
rc=$?
printf '%s\n' "$out"
if [ "$rc" -ne 1 ]; then
	echo "expect_failure.sh: exit status $rc, expected 1"
	exit 1
fi
if ! printf '%s\n' "$out" | grep -qF -- "$message"; then
	echo "expect_failure.sh: the output lacks: $message"
	exit 1
fi
echo "expect_failure.sh: failed as expected"
