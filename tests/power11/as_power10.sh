#!/bin/sh
# as_power10.sh PMUTOOL PMUGEN VECTORS SRCDIR WORKDIR - pmutool answers with Power11
# exactly as with POWER10 (issue 24 items 2 and 4): list, describe, check, check --batch
# over the kernel's 500 POWER10 vectors, metrics and stat --dry-run print byte for byte
# the same, exit alike, from the built-in power11, pmus/power11.yaml and its DTB; where
# the two share an event (every one) nothing is said on stderr (a note on another
# generation's code names the loaded description, the one word that differs); and on a Power11 LPAR's
# sysfs (tests/fakesys/power11-lpar.sh) the pick is power11's, by pmu_name, and
# --pmu power10 there opens the same attrs without a word, the same PMU.
set -u
tool=$1 pmugen=$2 vectors=$3 src=$4 w=$5
rm -rf "$w" && mkdir -p "$w" || exit 1
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

"$pmugen" -q --all-events -W no-kernel-limits -f dtb -o "$w/power11.dtb" "$src/pmus/power11.yaml" ||
	exit 1
"$vectors" tobatch "$src/tests/data/kernel/p10_mmcr_sample.json" >"$w/vectors.jsonl" || exit 1
[ -s "$w/vectors.jsonl" ] || { echo "FAIL: no vectors"; exit 1; }

# run NAME SPEC ARGS...: pmutool --pmu SPEC ARGS, its output in $w/NAME.{out,err,rc}
run() {
	name=$1 spec=$2
	shift 2
	"$tool" --pmu "$spec" "$@" >"$w/$name.out" 2>"$w/$name.err"
	echo $? >"$w/$name.rc"
}

n=0
# same QUIET ARGS...: POWER10's answer and each Power11 source's are one; QUIET 1: and
# nothing on stderr
same() {
	quiet=$1
	shift
	n=$((n + 1))
	run "p10-$n" power10 "$@"
	for spec in power11 "$src/pmus/power11.yaml" "$w/power11.dtb"; do
		run "p11-$n" "$spec" "$@"
		# a note about another generation's code names the loaded description
		# ("counts no named event on power11, ... PM_RUN_CYC on power8"): the
		# one word that may differ; POWER10 is never named as another
		# generation on Power11 (the same PMU)
		grep -q power10 "$w/p11-$n.err" &&
			fail "pmutool --pmu $spec $*: names power10 beside power11: $(head -n 3 "$w/p11-$n.err")"
		sed 's/power11/power10/g' "$w/p11-$n.err" >"$w/p11-$n.err-as-p10"
		for part in out err-as-p10 rc; do
			cmp -s "$w/p10-$n.${part%-as-p10}" "$w/p11-$n.$part" ||
				fail "pmutool --pmu $spec $*: its ${part%-as-p10} differs from power10's:
$(diff "$w/p10-$n.${part%-as-p10}" "$w/p11-$n.$part" | head -n 6)"
		done
		[ "$quiet" = 0 ] || [ ! -s "$w/p11-$n.err" ] ||
			fail "pmutool --pmu $spec $*: says $(head -n 3 "$w/p11-$n.err")"
	done
}

same 1 list
same 1 list --json
same 1 list 'pm_l2_*'
same 1 list 'papi_*'
for ev in PM_MRK_INST_CMPL PM_CYC PM_RUN_INST_CMPL PAPI_STL_ICY cycles instructions \
	L1-dcache-load-misses 0x35340401e0 0x600f4 0x2 'cpu/event=0x100fc/'; do
	same 1 describe "$ev"
done
same 0 describe PM_NO_SUCH
same 0 describe mem-loads
same 1 check PM_LD_MISS_L1,PM_BR_MPRED_CMPL,cycles:u
same 1 check --json 'PM_LD_REF_L1,PM_LD_MISS_L1,PM_ST_MISS_L1,PM_BR_CMPL,PM_DATA_FROM_L3MISS'
same 1 check 0x35340401e0,0x353c0101ec
same 1 --hv-mode check PM_LD_MISS_L1:k,PM_CYC:u
same 1 check --json --batch "$w/vectors.jsonl"
same 1 list metrics
# 0x600f4 is POWER8's PM_RUN_CYC: the note of issue 24 item 4, as on POWER10
same 0 stat --dry-run --json -e 'PM_LD_MISS_L1:u,cycles' -e '{PM_RUN_INST_CMPL,PM_CYC}' \
	-e L1-dcache-load-misses -e 'cpu/event=0x600f4/k' -e instructions:k
grep -qx 'pmutool: note: raw code 0x600f4 counts no named event on power11, no named event on power9, PM_RUN_CYC on power8' \
	"$w/p11-$n.err" || fail "Power11's note on POWER8's 0x600f4: $(cat "$w/p11-$n.err")"
grep -q '"config"' "$w/p10-$n.out" || fail "stat --dry-run --json printed no attr: $(cat "$w/p10-$n.err")"

# the fake LPARs: the pick, and POWER10's description on a Power11 host
sh "$src/tests/fakesys/power10-lpar.sh" "$w/sys10" && sh "$src/tests/fakesys/power11-lpar.sh" "$w/sys11" ||
	exit 1
dry="stat --dry-run --json -e PM_LD_MISS_L1,PM_CYC -e {PM_RUN_INST_CMPL,PM_CYC}:u -e mem-loads"
PMURT_SYSFS=$w/sys11 "$tool" --show-pick check PM_CYC >/dev/null 2>"$w/pick11.err"
grep -qx "pmutool: description power11 from power11.yaml, picked by the cpu PMU's pmu_name 'Power11' ($w/sys11/bus/event_source/devices/cpu/caps/pmu_name)" \
	"$w/pick11.err" || fail "the pick on a Power11 LPAR: $(cat "$w/pick11.err")"
# shellcheck disable=SC2086 # the options are words
"$tool" --sysfs "$w/sys10" $dry >"$w/dry10.out" 2>"$w/dry10.err" &&
	"$tool" --sysfs "$w/sys11" $dry >"$w/dry11.out" 2>"$w/dry11.err" &&
	"$tool" --sysfs "$w/sys11" --pmu power10 $dry >"$w/dry11-p10.out" 2>"$w/dry11-p10.err" ||
	fail "stat --dry-run on the fake LPARs: $(cat "$w"/dry1*.err)"
cmp -s "$w/dry10.out" "$w/dry11.out" && cmp -s "$w/dry10.out" "$w/dry11-p10.out" ||
	fail "stat --dry-run's attrs differ between the POWER10 and the Power11 LPAR"
cat "$w/dry11.err" "$w/dry11-p10.err" | grep . && fail "stat --dry-run on the Power11 LPAR said the above"

if [ "$fails" -ne 0 ]; then
	echo "$fails failure(s) in $n commands x 3 Power11 sources"
	exit 1
fi
echo "Power11 (built-in, YAML, DTB) answers as POWER10 to $n pmutool commands, 500 kernel vectors among them; the Power11 LPAR picks power11 and takes POWER10's attrs"
