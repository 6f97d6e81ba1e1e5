#!/bin/sh
# cli.sh - pmutool report and script on a file of known content (pd_synth:
# 7 cpu-clock samples in synth_alpha, 4 task-clock samples in synth_beta,
# 3 cpu-clock samples in a kernel function): the tables and JSON per sort
# key, --comm, and the errors (bad key, missing file, damaged file, operand).
#
# usage: cli.sh BINDIR
set -eu
bin=$1
t=$(mktemp -d "${TMPDIR:-/tmp}/pd-cli.XXXXXX")
trap 'rm -rf "$t"' EXIT
fail() {
	echo "cli: $*" >&2
	exit 1
}
"$bin/pd_synth" "$t/s.data" >"$t/expect"
read -r _ _ _ _ _ _ ksym <"$t/expect"
pmutool="$bin/pmutool"

# JSON by symbol: exact counts and periods, per event
"$pmutool" report -i "$t/s.data" --sort sym --json >"$t/sym.json"
python3 - "$t/sym.json" "$ksym" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["version"] == 1 and doc["samples"] == 14 and doc["lost"] == 0, doc
assert doc["sort"] == ["sym"], doc["sort"]
ev = {e["name"]: e for e in doc["events"]}
rows = {(r["sym"], r["mode"]): (r["samples"], r["period"]) for r in ev["cpu-clock"]["rows"]}
assert rows == {("synth_alpha", "user"): (7, 700000), (sys.argv[2], "kernel"): (3, 300000)}, rows
assert ev["task-clock"]["rows"] == [{"samples": 4, "period": 800000, "percent": 100.0,
                                     "sym": "synth_beta", "mode": "user"}], ev["task-clock"]
assert list(ev["cpu-clock"]["rows"][0]) == ["samples", "period", "percent", "sym", "mode"]
PY

# the stdio table: one line per key, samples and period first
"$pmutool" report -i "$t/s.data" --sort comm,dso >"$t/comm.txt"
grep -Eq '^ +7 +700000 +70\.00% +pd_synth +pd_synth$' "$t/comm.txt" || fail "comm,dso: $(cat "$t/comm.txt")"
grep -Eq '^ +3 +300000 +30\.00% +pd_synth +\[kernel\.kallsyms\]$' "$t/comm.txt" || fail "kernel row"
grep -q "^# Event 'task-clock': 4 samples, period 800000" "$t/comm.txt" || fail "task-clock title"

# --comm keeps one command; another has no rows
"$pmutool" report -i "$t/s.data" --comm pd_synth --sort pid --json >"$t/pid.json"
grep -q "\"pid\": $(python3 -c "import json;print(json.load(open('$t/pid.json'))['events'][0]['rows'][0]['pid'])")" "$t/pid.json"
"$pmutool" report -i "$t/s.data" --comm nosuch --json >"$t/none.json"
python3 -c "import json,sys; d=json.load(open('$t/none.json')); sys.exit(any(e['rows'] for e in d['events']))"

# errors: exit 2 and a message naming the problem
expect_error() {
	want=$1
	shift
	if "$pmutool" "$@" >"$t/out" 2>"$t/err"; then
		fail "$* succeeded"
	else
		rc=$?
	fi
	test $rc = 2 || fail "$*: exit $rc, not 2"
	grep -q -- "$want" "$t/err" || fail "$*: '$(cat "$t/err")' lacks '$want'"
}
expect_error "unknown key 'bogus' (comm, pid, tid, cpu, dso, symbol)" report -i "$t/s.data" --sort comm,bogus
expect_error "key 'sym' given twice" report -i "$t/s.data" --sort sym,sym
expect_error "$t/missing.data: No such file or directory" report -i "$t/missing.data"
head -c 1000 "$t/s.data" >"$t/short.data"
expect_error "short.data: offset 0x" script -i "$t/short.data"
expect_error "script takes no operand" script "$t/s.data"
expect_error "\-\-sort changes nothing for script" script -i "$t/s.data" --sort sym
expect_error "\-\-json changes nothing for script" script -i "$t/s.data" --json
expect_error "\-i changes nothing for list" list -i "$t/s.data"
(cd "$t" && cp s.data perf.data && "$pmutool" script | grep -c synth_alpha | grep -qx 7) ||
	fail "script without -i reads ./perf.data"
echo "cli: ok"
