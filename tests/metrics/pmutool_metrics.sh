#!/bin/sh
# pmutool_metrics.sh PMUTOOL STAT-SIM FAKESYS-BUILDER PYTHON3 - perf's
# metrics in pmutool against a fake POWER10 LPAR sysfs tree: stat -M
# --dry-run (text and JSON: the packed groups, what each measures, their
# group checks, the bound, the metrics no group holds whole), list metrics,
# describe METRIC, the usage errors; and stat -M counting on the simulated
# kernel (STAT-SIM, tests/metrics/stat_sim.c: every event counts at one
# rate, so each ratio is 1 and the multiplexing share is the groups' turn;
# with --phases, rates of their own, for -I changing from one interval to
# the next).
set -u
pmutool=$1 stat_sim=$2 fakesys=$3 python3=$4
t=$(mktemp -d "${TMPDIR:-/tmp}/pmurt-metrics.XXXXXX") || exit 1
trap 'rm -rf "$t"' EXIT
fail() { echo "FAIL: $*" >&2; [ -f "$t/err" ] && sed 's/^/  stderr: /' "$t/err" >&2; exit 1; }
[ -x "$python3" ] || fail "$python3 missing: install the Debian package python3"
run() {
	want=$1; shift
	"$pmutool" "$@" >"$t/out" 2>"$t/err"; got=$?
	[ "$got" = "$want" ] || fail "pmutool $*: exit $got, want $want"
}
has() { grep -q -- "$2" "$t/$1" || fail "$1 lacks '$2'"; }
json() { "$python3" -c "import json; d=json.load(open('$t/out')); $1" || fail "json: $1"; }
sh "$fakesys" "$t/sys" || fail "fake sysfs"

# POWER10's CPI group: 59 metrics (perf's file gives one twice) over 61
# events in 16 groups, the counters' bound (perf opens 59); every group
# accepted; every metric but CYCLES_PER_INSTRUCTION measured in one group,
# and that one refused whole with the check's reason.
run 0 --sysfs "$t/sys" stat --dry-run --json -M cpi
json "
g = d['groups']; assert len(g) == 16 and d['bound'] == 16, (len(g), d['bound'])
assert all(x['check']['ok'] and 1 <= len(x['events']) <= 6 for x in g)
assert all(len(x['check']['pmc']) == len(x['events']) for x in g)
measured = [m for x in g for m in x['metrics']]
assert len(measured) == 58 and len(set(measured)) == 58, len(measured)
assert [x['name'] for x in d['not_whole']] == ['CYCLES_PER_INSTRUCTION'], d['not_whole']
assert d['not_whole'][0]['reason'] == 'constraint_conflict'
assert sum('PM_RUN_INST_CMPL' in x['events'] for x in g) == 16
assert g[0]['events'] == [e['name'] for e in d['events'][:g[0]['size']]]"

run 0 --sysfs "$t/sys" stat --dry-run -M IPC,Run_Cpi
has out "^metric group 0: PM_RUN_CYC/PMC2 PM_RUN_INST_CMPL/PMC5 PM_INST_CMPL/PMC1 mmcr0=0x"
has out "^  measures: RUN_CPI$"
has out "^not whole: IPC: constraint_conflict: event 1 (PM_CYC) needs PMC1"
has out "^2 metric groups for 2 metrics and 4 events; bound 2$"

# POWER9's L2/L3 events need one of their bank on PMC4, checked from the
# leader on: a PMC4 companion leads; PM_RC_USAGE (no PMC4 event in its bank)
# counts in no group, named, and alone it is refused.
run 0 --sysfs "$t/sys" stat --pmu=power9 --dry-run -M l2_st_miss_ratio_percent,l2_rc_usage
has out "^metric group 0: PM_L2_DISP_ALL_L2MISS/PMC4 PM_L2_ST_MISS/PMC2 PM_L2_ST/PMC1 mmcr0=0x"
has out "^  measures: l2_st_miss_ratio_percent$"
has out "^not whole: l2_rc_usage: group_constraint_pmc4: .*; PM_RC_USAGE counts in no group$"
run 2 --sysfs "$t/sys" stat --pmu=power9 --dry-run -M PM_RC_USAGE
has err "no group can count these metrics' events: event 0 (PM_RC_USAGE): the group fails the rule of 'cache-pmc4'"

run 2 --sysfs "$t/sys" stat --dry-run -M no_such_metric
has err "'no_such_metric' is no metric, metric group or event"
run 2 --sysfs "$t/sys" stat --metric-only -e PM_CYC -- true
has err "metric-only needs -M"

run 0 --pmu power10 list metrics 'run_*'
has out "^RUN_CPI  *\[General\]$"
has out "^    = PM_RUN_CYC / PM_RUN_INST_CMPL$"
run 0 --pmu power10 list metrics
has out "^  CPI  *60 metrics$"
run 0 --pmu power10 list --json metrics IPC
json "assert d == [{'metric': 'IPC', 'expr': 'PM_INST_CMPL / PM_CYC', 'groups': 'General', 'description': 'Average number of completed instructions per cycle', 'scale_unit': None, 'pmus': None}], d"
run 0 --pmu power10 describe run_cpi
has out "^RUN_CPI  \[perf metric, groups General\]$"
has out "its events in one group: PMC2 PMC5$"
run 0 --pmu power10 describe ipc
has out "do not fit in one group: constraint_conflict"
run 0 --pmu power10 describe memory_rd_bw_chip
has out "counts events of hv_24x7, not of this PMU"

# Counting: RUN_CPI in one group, IPC apart and flagged; each value 1.
run_sim() {
	want=$1; shift
	"$stat_sim" "$@" >"$t/out" 2>"$t/err"; got=$?
	[ "$got" = "$want" ] || fail "stat_sim $*: exit $got, want $want"
}
run_sim 0 --sysfs "$t/sys" stat -M run_cpi,ipc -- true
grep -q "^ *50000 *PM_RUN_INST_CMPL" "$t/err" || fail "the counts are printed"
grep -q "^ *1.00 *RUN_CPI  *(100.00%)$" "$t/err" || fail "RUN_CPI line"
grep -q "^ *1.00 *IPC  *(100.00%)  measured apart: constraint_conflict$" "$t/err" || fail "IPC line"
run_sim 0 --sysfs "$t/sys" stat -M run_cpi,ipc --metric-only -x, -- true
[ "$(cat "$t/err")" = "1.00,,RUN_CPI,100.00,
1.00,,IPC,100.00,constraint_conflict" ] || fail "--metric-only -x,"
# CPI: 61 events in 16 groups on 6 counters, each group its turn
run_sim 0 --sysfs "$t/sys" stat -M cpi --metric-only -x, -- true
[ "$(cut -d, -f1 "$t/err" | sort -u)" = "1.00" ] || fail "CPI values"
[ "$(wc -l < "$t/err")" -eq 59 ] || fail "59 CPI metrics"
grep -q "^1.00,,DISPATCH_STALL_CPI,[0-9.]*,$" "$t/err" || fail "a CPI line"
grep -q ",100.00," "$t/err" && fail "CPI's groups multiplexed: no share is 100%"
cp "$t/err" "$t/out"
run_sim 0 --sysfs "$t/sys" stat -M run_cpi,ipc --json-report -- true
cp "$t/err" "$t/out"
json "
m = {x['name']: x for x in d['metrics']}
assert m['RUN_CPI']['value'] == 1.0 and not m['RUN_CPI']['apart'] and m['RUN_CPI']['group'] == 0
assert m['IPC']['apart'] and m['IPC']['reason'] == 'constraint_conflict' and m['IPC']['group'] == -1"
run_sim 0 --sysfs "$t/sys" stat -M run_cpi -I 100 -x, -- true
grep -q "^[0-9]*\.[0-9]\{9\},1.00,,RUN_CPI,100.00,$" "$t/err" || fail "-I line"

# Events at rates of their own (stat_sim --phases: multiplexed as the
# kernel does; PM_RUN_INST_CMPL 500 a ms in the first 100 ms, PM_CYC 4000,
# every other event 1000): each metric's events where they belong, not
# swapped (RUN_CPI 0.50, IPC 4.00 would be).
run_sim 0 --phases "$t/done" --sysfs "$t/sys" stat -M run_cpi,ipc -- true
grep -q "^ *2.00 *RUN_CPI  *(100.00%)$" "$t/err" || fail "RUN_CPI at its events' rates"
grep -q "^ *0.25 *IPC  *(100.00%)  measured apart: constraint_conflict$" "$t/err" ||
	fail "IPC at its events' rates"
run_sim 0 --phases "$t/done" --sysfs "$t/sys" stat -M cpi --metric-only -x, -- true
grep -q "^2.00,,DISPATCH_STALL_CPI,[0-9.]*,$" "$t/err" || fail "DISPATCH_STALL_CPI"
grep -q "^4.00,,CYCLES_PER_INSTRUCTION,[0-9.]*,constraint_conflict$" "$t/err" ||
	fail "CYCLES_PER_INSTRUCTION"
# -I: each interval's counts and metrics, not running totals, each scaled
# as perf scales an interval (its value times its enabled over its running
# time, util/stat.c evsel__compute_deltas): PM_RUN_INST_CMPL at 500, 2000,
# then 250 a ms, one rate an interval, for at least three intervals.
# Running totals would give RUN_CPI 2.00, 0.80, 1.09.
run_phases() {
	rm -f "$t/done"
	run_sim 0 --phases "$t/done" --sysfs "$t/sys" stat "$@" -I 100 -x, -- \
		sh -c "until [ -e '$t/done' ]; do sleep 0.01; done"
}
# phases NAME FIELD A B C: NAME's lines give A, B, C, then C again
phases() {
	grep ",$1," "$t/err" | cut -d, -f"$2" >"$t/values"
	[ "$(head -3 "$t/values" | tr '\n' ' ')" = "$3 $4 $5 " ] &&
		! tail -n +4 "$t/values" | grep -qvx -- "$5" ||
		fail "-I: $1's values $(tr '\n' ' ' <"$t/values"), want $3 $4 $5 then $5"
}
run_phases -M run_cpi
phases RUN_CPI 2 2.00 0.50 4.00
phases PM_RUN_INST_CMPL 2 50000 200000 25000
# eight events on six counters, each its turn: the counts scaled
run_phases -e PM_RUN_INST_CMPL,PM_RUN_CYC,PM_CYC,PM_INST_CMPL,PM_LD_MISS_L1,PM_BR_MPRED_CMPL,PM_ST_MISS_L1,PM_DATA_FROM_L3MISS
phases PM_RUN_INST_CMPL 2 50000 200000 25000
phases PM_RUN_CYC 2 100000 100000 100000
grep ",PM_RUN_INST_CMPL," "$t/err" | cut -d, -f6 | grep -qvx "100.00" || fail "-I: not multiplexed"
# CPI's 16 groups on six counters
run_phases -M cpi --metric-only
phases DISPATCH_STALL_CPI 2 2.00 0.50 4.00
grep ",DISPATCH_STALL_CPI," "$t/err" | cut -d, -f5 | grep -qvx "100.00" || fail "-I: CPI not multiplexed"
echo ok
