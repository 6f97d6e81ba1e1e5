#!/bin/sh
# conformance.sh RFC_GROUPS CASES NAME TREE.dtb DESCRIPTION [NAME TREE.dtb DESCRIPTION]...
# Prints, for each case of CASES, "== label" and rfc_groups show's answer
# from the first PMU's tree, or from PMU NAME's after a line "pmu NAME"
# (printed as "== pmu NAME").
tool=$1 cases=$2
shift 2
[ $# -ge 3 ] || { echo "conformance.sh: no PMU given" >&2; exit 2; }
first=$1
pmus=$*
# The tree and description of PMU $1, from the NAME TREE DESC triples.
lookup() {
	# shellcheck disable=SC2086
	set -- $pmus
	want=$lookup_name
	while [ $# -ge 3 ]; do
		if [ "$1" = "$want" ]; then
			dtb=$2 desc=$3
			return 0
		fi
		shift 3
	done
	echo "conformance.sh: no PMU '$want' given" >&2
	return 1
}
lookup_name=$first
lookup || exit 2
grep -v '^#' "$cases" | while read -r label members; do
	[ -n "$label" ] || continue
	if [ "$label" = pmu ]; then
		lookup_name=$members
		lookup || exit 1
		echo "== pmu $members"
		continue
	fi
	echo "== $label: $members"
	# shellcheck disable=SC2086
	"$tool" show "$dtb" "$desc" $members || exit 1
done
