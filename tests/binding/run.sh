#!/bin/sh
# run.sh - driver for the binding tests (tests/binding.cmake): generates trees
# with pmugen and runs them through validate/dt-validate.sh.
#
#   run.sh valid  PMUGEN YAML [PMUGEN-OPTION...]
#       the DTB and the DTS pmugen writes must both pass with zero reports.
#   run.sh reject PMUGEN YAML CASE.sed
#       pmugen's DTS, edited by the sed -E script CASE.sed, must be rejected
#       with every "# expect: TEXT" line of CASE.sed in the report.  A
#       "# options: ..." line gives pmugen options (e.g. --all-events).  The
#       script must change the tree, so a case cannot pass by accident when
#       pmugen's output moves on.  (The binding's own checks are left to
#       binding/doc-validate: dt-validate.sh -n.)
#   run.sh golden FILE.dts EXPECTED
#       the reports for FILE.dts, reduced to "node: message" lines (paths and
#       "From schema" lines dropped), must equal the lines of the file
#       EXPECTED ("#" lines are comments), in any order.  The wording is
#       dt-schema 2022.08's.

set -u
here=$(cd "$(dirname "$0")" && pwd)
check="$here/../../validate/dt-validate.sh"

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/binding-test.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM

mode=${1:-}
[ $# -ge 1 ] && shift
case $mode in
valid)
	[ $# -ge 2 ] || fail "usage: run.sh valid PMUGEN YAML [OPTION...]"
	pmugen=$1 yaml=$2
	shift 2
	"$pmugen" "$@" --format dtb -o "$tmp/pmu.dtb" "$yaml" || fail "pmugen --format dtb $*"
	"$pmugen" "$@" --format dts -o "$tmp/pmu.dts" "$yaml" || fail "pmugen --format dts $*"
	sh "$check" "$tmp/pmu.dtb" "$tmp/pmu.dts" || fail "dt-validate.sh reported problems"
	echo "PASS: the DTB and DTS of pmugen $* validate"
	;;
reject)
	[ $# -eq 3 ] || fail "usage: run.sh reject PMUGEN YAML CASE.sed"
	pmugen=$1 yaml=$2 case=$3
	[ -f "$case" ] || fail "$case: no such file"
	options=$(sed -n 's/^# options: *//p' "$case")
	grep -q '^# expect: ' "$case" || fail "$case has no '# expect:' line"
	# shellcheck disable=SC2086 # $options is a list of words
	"$pmugen" $options --format dts -o "$tmp/base.dts" "$yaml" || fail "pmugen $options"
	sed -E -f "$case" "$tmp/base.dts" >"$tmp/broken.dts" || fail "sed -f $case"
	if cmp -s "$tmp/base.dts" "$tmp/broken.dts"; then
		fail "$case changed nothing in pmugen's output; update the case"
	fi
	echo "--- the edit:"
	diff "$tmp/base.dts" "$tmp/broken.dts"
	sh "$check" -n "$tmp/broken.dts" >"$tmp/report" 2>&1
	rc=$?
	echo "--- dt-validate.sh (exit $rc):"
	cat "$tmp/report"
	[ "$rc" -eq 1 ] || fail "expected exit 1 (rejected), got $rc"
	sed -n 's/^# expect: //p' "$case" >"$tmp/expect"
	while IFS= read -r text; do
		grep -qF -- "$text" "$tmp/report" || fail "report lacks: $text"
		echo "found: $text"
	done <"$tmp/expect"
	echo "PASS: rejected as expected"
	;;
golden)
	[ $# -eq 2 ] || fail "usage: run.sh golden FILE.dts EXPECTED"
	dts=$1 expected=$2
	sh "$check" -n "$dts" >"$tmp/report" 2>&1
	rc=$?
	# "<path>: pmu_dts@0: message" -> "pmu_dts@0: message"
	# (sorted: the order of dt-validate's reports is not part of the result)
	grep -v -e '^[[:space:]]*From schema:' -e '^dt-validate.sh: FAIL' "$tmp/report" |
		sed 's|^[^ ]*\.dtb: ||' | LC_ALL=C sort >"$tmp/got"
	grep -v "^#" "$expected" | LC_ALL=C sort >"$tmp/expected"
	if ! diff -u "$tmp/expected" "$tmp/got"; then
		fail "reports differ from $expected (exit $rc)"
	fi
	echo "PASS: reports equal $expected"
	;;
*)
	fail "usage: run.sh valid|reject|golden ..."
	;;
esac
