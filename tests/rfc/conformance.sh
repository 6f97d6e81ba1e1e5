#!/bin/sh
# conformance.sh RFC_GROUPS TREE.dtb DESCRIPTION CASES
# Prints, for each case of CASES, "== label" and rfc_groups show's answer.
tool=$1 dtb=$2 desc=$3 cases=$4
grep -v '^#' "$cases" | while read -r label members; do
	[ -n "$label" ] || continue
	echo "== $label: $members"
	# shellcheck disable=SC2086
	"$tool" show "$dtb" "$desc" $members || exit 1
done
