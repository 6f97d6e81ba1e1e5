#!/bin/sh
# p9_instructions.sh VALGRIND "CALLGRIND-OPTIONS" BENCH_P9 [PMU]: callgrind's
# instruction count (Ir) of exactly one group check + MMCR computation on
# PMU (default power9; bench-p8: power8) and on POWER10 for each group size,
# and their ratio.  LD_BIND_NOW keeps the dynamic linker's lazy binding out
# of the count.
valgrind=$1 select=$2 bench=$3 pmu=${4:-power9}
t=$(mktemp -d "${TMPDIR:-/tmp}/bench-p9.XXXXXX") || exit 1
trap 'rm -rf "$t"' EXIT
ir() { # PMU N [alt]
	# shellcheck disable=SC2086 # $select is a list of options
	LD_BIND_NOW=1 "$valgrind" --tool=callgrind $select --callgrind-out-file="$t/out" \
		"$bench" --one "$@" >/dev/null 2>"$t/log" || { cat "$t/log" >&2; exit 1; }
	sed -n 's/^\(summary\|totals\): *//p' "$t/out" | head -n 1
}
echo "instructions of one check (callgrind Ir), $pmu / POWER10:"
for case in 1 2 3 4 5 6 "2 alt" "3 alt" "4 alt"; do
	# shellcheck disable=SC2086 # $case is N and maybe "alt"
	p9=$(ir "$pmu" $case) p10=$(ir power10 $case)
	[ -n "$p9" ] && [ -n "$p10" ] || { echo "no count for $case" >&2; exit 1; }
	printf '%-6s events: %s %6d  POWER10 %6d  ratio %s\n' "$case" "$pmu" "$p9" "$p10" \
		"$(awk -v a="$p9" -v b="$p10" 'BEGIN { printf "%.3f", a / b }')"
done
