#!/bin/sh
# deterministic.sh PMUGEN YAML
# Same input, same bytes: pmugen writes every output format (dts, dtb, c,
# json) twice, for the default (firmware) event set and for --all-events, and
# each pair must be identical and not empty.
set -u
pmugen=$1 yaml=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pmugen-deterministic.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
fail=0
for set in default all-events; do
	flag=
	[ "$set" = all-events ] && flag=--all-events
	for fmt in dts dtb c json; do
		for run in 1 2; do
			# shellcheck disable=SC2086 # $flag is empty or one word
			"$pmugen" -q $flag -f "$fmt" -o "$tmp/$set.$fmt.$run" "$yaml" ||
				{ echo "FAIL: pmugen $flag -f $fmt exited $?"; fail=1; }
		done
		if [ ! -s "$tmp/$set.$fmt.1" ]; then
			echo "FAIL: $set $fmt: empty output"
			fail=1
		elif cmp "$tmp/$set.$fmt.1" "$tmp/$set.$fmt.2"; then
			echo "same bytes: $set $fmt"
		else
			fail=1
		fi
	done
done
exit $fail
