#!/bin/sh
# p9_instructions.sh VALGRIND "CALLGRIND-OPTIONS" BENCH [A B [CASE...]]: callgrind's
# instruction count (Ir) of exactly one `BENCH --one A CASE` and `BENCH --one B CASE`
# for each case, and their ratio.  By default A is power9 and B power10, and the cases
# are bench_p9's: one group check + MMCR computation of 1-6 events that fit as given
# and of 2-4 that need alternatives.  LD_BIND_NOW keeps the dynamic linker's lazy
# binding out of the count.
valgrind=$1 select=$2 bench=$3
a=${4:-power9} b=${5:-power10}
[ $# -gt 5 ] && shift 5 || set -- 1 2 3 4 5 6 "2 alt" "3 alt" "4 alt"
t=$(mktemp -d "${TMPDIR:-/tmp}/bench-p9.XXXXXX") || exit 1
trap 'rm -rf "$t"' EXIT
ir() { # PMU CASE-WORDS...
	# shellcheck disable=SC2086 # $select is a list of options
	LD_BIND_NOW=1 "$valgrind" --tool=callgrind $select --callgrind-out-file="$t/out" \
		"$bench" --one "$@" >/dev/null 2>"$t/log" || { cat "$t/log" >&2; exit 1; }
	sed -n 's/^\(summary\|totals\): *//p' "$t/out" | head -n 1
}
echo "instructions of one run (callgrind Ir) of $(basename "$bench"), $a / $b:"
for case in "$@"; do
	# shellcheck disable=SC2086 # $case is N and maybe "alt"
	ia=$(ir "$a" $case) ib=$(ir "$b" $case)
	[ -n "$ia" ] && [ -n "$ib" ] || { echo "no count for $case" >&2; exit 1; }
	printf '%-8s %-8s %8d  %-8s %8d  ratio %s\n' "$case" "$a" "$ia" "$b" "$ib" \
		"$(awk -v x="$ia" -v y="$ib" 'BEGIN { printf "%.3f", x / y }')"
done
