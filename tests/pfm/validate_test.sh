#!/bin/sh
# validate_test.sh TESTS LIBDIR EXPECTED - libpfm4's own tests/validate (TESTS: the
# tests/ directory of Debian's libpfm4 4.13.0 source, fetched by tests/qemu/fetch.sh) built
# against our libpfm.so.4 in LIBDIR and run in full (-A: struct layouts, pfm_pmu_validate of
# every PMU, the perf_events rows, the POWER rows).  Every struct and table check must pass;
# the failing rows must be exactly those EXPECTED lists (with why).
set -eu
tests=$1 libdir=$2 expected=$3
here=$(cd "$(dirname "$0")" && pwd)
t=$(mktemp -d "${TMPDIR:-/tmp}/pfm-validate.XXXXXX")
trap 'rm -rf "$t"' EXIT
for f in validate.c validate_power.c validate_perf.c; do
	[ -f "$tests/$f" ] || { echo "FAIL: no $tests/$f (tests/qemu/fetch.sh fetches libpfm4's source)"; exit 1; }
done
${CC:-cc} -w -O1 -I"$here/validate-include" "$tests/validate.c" "$tests/validate_power.c" \
	"$tests/validate_perf.c" -o "$t/validate" -L"$libdir" -lpfm -Wl,-rpath,"$libdir"
"$t/validate" -A >"$t/out" 2>"$t/err" || true
cat "$t/out"
status=0
if grep -E ': Failed|Failed \(' "$t/out"; then
	echo "FAIL: a struct or table check failed"; status=1
fi
grep -q 'checking power10 ([0-9]* events): Passed' "$t/out" || { echo "FAIL: power10's table"; status=1; }
grep -q 'perf_events generic events: 0 errors' "$t/out" || { echo "FAIL: the perf rows"; status=1; }
sed -n 's/^Event[0-9]* \([^,]*\), \(.*\)$/\1 | \2/p' "$t/err" | sort >"$t/failed"
grep -v '^#' "$expected" |
	awk -F' [|] ' '{ print $1 " | " $2 }' | sort >"$t/expected"
if ! diff -u "$t/expected" "$t/failed"; then
	echo "FAIL: the failing rows (+) are not those $expected lists (-)"; status=1
else
	echo "ok: $(wc -l <"$t/failed") rows answer otherwise, each listed with why in $expected"
fi
exit $status
