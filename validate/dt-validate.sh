#!/bin/sh
# dt-validate.sh - CI check of device trees against the ibm,power-pmu binding.
#
#   validate/dt-validate.sh [-n] [-s SCHEMA_DIR] [FILE.dtb|FILE.dts ...]
#
# Checks the binding (schema/ibm,power-pmu*.yaml) with dt-doc-validate and
# validates its examples (-n skips both), then for each FILE: dtc must read
# it with no warning (a .dts is compiled first) and dt-validate must report
# nothing.  dt-validate exits 0 even when it reports violations, so any
# output of the tools counts as a failure.  Exit status: 0 all clean, 1 a violation or warning, 2 usage
# or tool error.  Validation uses only our schemas (dt-validate -l), so the
# dt-schema root-node rule (compatible and model at /) does not apply.
#
# Environment: DTC, DT_DOC_VALIDATE, DT_MK_SCHEMA, DT_VALIDATE and
# DT_EXTRACT_EXAMPLE override the tools.  Run the dt-* scripts directly (their
# #!/usr/bin/python3 has the dtschema module), never through `python3 -m`.

set -u

prog=dt-validate.sh
DTC=${DTC:-dtc}
DT_DOC_VALIDATE=${DT_DOC_VALIDATE:-dt-doc-validate}
DT_MK_SCHEMA=${DT_MK_SCHEMA:-dt-mk-schema}
DT_VALIDATE=${DT_VALIDATE:-dt-validate}
DT_EXTRACT_EXAMPLE=${DT_EXTRACT_EXAMPLE:-dt-extract-example}

# Our schema files all carry this in their names; it is also the -l limit.
SCHEMA_GLOB='ibm,power-pmu*.yaml'
LIMIT='ibm,power-pmu'

usage() {
	echo "usage: $prog [-n] [-s SCHEMA_DIR] [FILE.dtb|FILE.dts ...]" >&2
	exit 2
}

schema_dir=$(dirname "$0")/../schema
check_binding=1
while getopts ns:h opt; do
	case $opt in
	n) check_binding=0 ;;
	s) schema_dir=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))

# require_tool TOOL PACKAGE: a missing tool is an error naming its Debian package.
require_tool() {
	if ! command -v "$1" >/dev/null 2>&1; then
		echo "$prog: FAIL: $1 not found: install the Debian package $2 (.ci/install-deps)" >&2
		exit 2
	fi
}
require_tool "$DTC" device-tree-compiler
for tool in "$DT_DOC_VALIDATE" "$DT_MK_SCHEMA" "$DT_VALIDATE" "$DT_EXTRACT_EXAMPLE"; do
	require_tool "$tool" dt-schema
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/dt-validate.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM

failed=0

# run_clean WHAT CMD...: run CMD; any output or a nonzero status is a failure.
run_clean() {
	what=$1
	shift
	"$@" >"$tmp/out" 2>&1
	rc=$?
	if [ "$rc" -ne 0 ] || [ -s "$tmp/out" ]; then
		cat "$tmp/out" >&2
		echo "$prog: FAIL: $what (exit $rc)" >&2
		failed=1
		return 1
	fi
	return 0
}

# The binding's $id is http://devicetree.org/schemas/perf/<file>#, so the
# files must sit under <root>/perf/ for dt-doc-validate's $id path check.
mkdir -p "$tmp/schemas/perf" || exit 2
found=0
for f in "$schema_dir"/$SCHEMA_GLOB; do
	[ -f "$f" ] || continue
	cp "$f" "$tmp/schemas/perf/" || exit 2
	found=1
done
if [ "$found" -eq 0 ]; then
	echo "$prog: no $SCHEMA_GLOB in $schema_dir" >&2
	exit 2
fi

if [ "$check_binding" -eq 1 ]; then
	for f in "$tmp"/schemas/perf/*.yaml; do
		run_clean "dt-doc-validate $(basename "$f")" \
			"$DT_DOC_VALIDATE" -u "$tmp/schemas" "$f"
	done
fi
if ! run_clean "dt-mk-schema" \
	"$DT_MK_SCHEMA" -j -o "$tmp/processed.json" "$tmp/schemas"; then
	exit 1
fi

# The examples: dt-doc-validate does not check them against the schema.  Each
# is checked against its own schema only (the container's example holds a
# stub pmu node).  The example wrapper's own #address-cells is not ours.
for f in "$tmp"/schemas/perf/*.yaml; do
	[ "$check_binding" -eq 1 ] || break
	name=$(basename "$f" .yaml)
	"$DT_EXTRACT_EXAMPLE" "$f" >"$tmp/$name.example.dts" 2>"$tmp/out" || {
		cat "$tmp/out" >&2
		echo "$prog: FAIL: dt-extract-example $name.yaml" >&2
		failed=1
		continue
	}
	run_clean "dtc of the $name.yaml examples" \
		"$DTC" -W no-avoid_unnecessary_addr_size -I dts -O dtb \
		-o "$tmp/$name.example.dtb" "$tmp/$name.example.dts" || continue
	run_clean "dt-validate of the $name.yaml examples" \
		"$DT_VALIDATE" -l "/perf/$name.yaml" -s "$tmp/processed.json" \
		"$tmp/$name.example.dtb"
done

n=0
for file in "$@"; do
	n=$((n + 1))
	if [ ! -f "$file" ]; then
		echo "$prog: $file: no such file" >&2
		failed=1
		continue
	fi
	# dtc must not warn (it runs the same checks on a .dtb); after a warning
	# the tree is still validated, so that every problem is reported.
	case $file in
	*.dts)
		dtb=$tmp/input-$n.dtb
		run_clean "$file: dtc" "$DTC" -I dts -O dtb -o "$dtb" "$file"
		;;
	*)
		dtb=$file
		run_clean "$file: dtc -I dtb" "$DTC" -I dtb -O dtb -o /dev/null "$dtb"
		;;
	esac
	[ -s "$dtb" ] || continue   # dtc could not read it
	run_clean "$file: dt-validate" \
		"$DT_VALIDATE" -l "$LIMIT" -s "$tmp/processed.json" "$dtb"
done

exit "$failed"
