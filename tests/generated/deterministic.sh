#!/bin/sh
# deterministic.sh PMUGEN YAML
# Same input, same bytes: pmugen writes every output format (dts, dtb, c,
# json) twice in one multi-output run each, for the default (firmware) event
# set, and the tree formats again for --all-events (pmugen refuses
# --all-events for c and json, which always hold every event); each pair must
# be identical and not empty.
set -u
pmugen=$1 yaml=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pmugen-deterministic.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
base=$(basename "$yaml" .yaml)
fail=0
check_set() { # NAME FORMATS [FLAG]
	set_name=$1 formats=$2 flag=${3:-}
	for run in 1 2; do
		mkdir -p "$tmp/$set_name.$run"
		# shellcheck disable=SC2086 # $flag is empty or one word
		"$pmugen" -q -W no-kernel-limits $flag -f "$formats" \
			--out-dir "$tmp/$set_name.$run" "$yaml" ||
			{ echo "FAIL: pmugen $flag -f $formats exited $?"; fail=1; }
	done
	for fmt in $(echo "$formats" | tr , ' '); do
		a=$tmp/$set_name.1/$base.$fmt b=$tmp/$set_name.2/$base.$fmt
		if [ ! -s "$a" ]; then
			echo "FAIL: $set_name $fmt: empty or missing output"
			fail=1
		elif cmp "$a" "$b"; then
			echo "same bytes: $set_name $fmt"
		else
			fail=1
		fi
	done
}
check_set default dts,dtb,c,json
check_set all-events dts,dtb --all-events
exit $fail
