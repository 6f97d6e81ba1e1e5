#!/bin/sh
# group.sh - pmutool report's group view (perf report --group: a group's
# events in one table, a column per event) against perf 6.1's (linux-perf)
# on files recorded here:
#
#   {cpu-clock,page-faults}:S (leader sampling) by perf and by pmutool
#   record: shown as a group by default, as perf does when the file has
#   groups; --sort comm,dso,sym and --sort dso;
#   {cpu-clock,page-faults} each sampling, with call graphs: rows only the
#   member has (perf's hists__link), Children and Self per event;
#   two events without a group: --group puts them in one table (perf's
#   evlist__force_leader), without it a table each;
#   --no-group on a grouped file: a table per event; --json names each
#   event's group; a group description naming events the file does not
#   have: none, as perf reads it.
#
# Each table's title, sums and rows (in perf's order: the leader's period,
# then the members' in turn, then the keys) equal perf report's.
# Needs root (perf record, /proc/kallsyms addresses).
set -eu
bin=$1
here=$(dirname "$0")
command -v perf >/dev/null 2>&1 || {
	echo "group: perf not found: install the Debian package linux-perf (.ci/install-deps)" >&2
	exit 1
}
t=$(mktemp -d "${TMPDIR:-/tmp}/pd-group.XXXXXX")
trap 'rm -rf "$t"' EXIT
work="'$bin/pd_spin' 0.1; ls -R /usr/lib >/dev/null 2>&1"

# compare FILE K COLUMNS OPTIONS...: pmutool report's tables of K events
# side by side against perf report's (COLUMNS: children or self)
compare() {
	f=$1 k=$2 cols=$3
	shift 3
	"$bin/pmutool" report -i "$f" -g none "$@" >"$t/ours.txt"
	# -n and --show-total-period, not -F: perf sorts -F's columns too
	perf report --stdio -i "$f" -g none -n --show-total-period "$@" \
		>"$t/perf.txt" 2>"$t/perf.err" ||
		{ cat "$t/perf.err" >&2; exit 1; }
	python3 "$here/compare.py" group "$t/ours.txt" "$t/perf.txt" "$k" "$cols"
}

perf record -q -e '{cpu-clock,page-faults}:S' -c 100000 -o "$t/s.data" -- sh -c "$work"
compare "$t/s.data" 2 self --no-children
compare "$t/s.data" 2 self --no-children --sort dso
grep -q "^# Events 'anon group { cpu-clock, page-faults }': " "$t/ours.txt"
# a table per event when told
compare "$t/s.data" 1 self --no-children --no-group
test "$(grep -c "^# Event '" "$t/ours.txt")" = 2

# a group description whose group runs past the file's events: perf 6.1
# reads the file without groups, so does pmutool
python3 "$here/group_desc_bad.py" "$t/s.data" "$t/bad.data"
compare "$t/bad.data" 1 self --no-children
test "$(grep -c "^# Event '" "$t/ours.txt")" = 2

# recorded by pmutool: its group description read by perf as its own
"$bin/pmutool" record -e '{cpu-clock,page-faults}:S' -c 100000 -o "$t/o.data" -- \
	sh -c "$work" 2>/dev/null
compare "$t/o.data" 2 self --no-children

# both sampling, call graphs: Children and Self of each event
perf record -q -g -e '{cpu-clock/period=100000/,page-faults/period=1/}' -o "$t/g.data" -- \
	"$bin/pd_spin" 0.2
compare "$t/g.data" 2 children
# rows of the member's alone: the leader's columns 0
awk '$1 == 0 && $2 > 0' "$t/ours.txt" | grep -q .

# no group in the file: --group makes one of its events, titled without
# "anon group { }"
perf record -q -e 'cpu-clock/period=100000/,page-faults/period=1/' -o "$t/n.data" -- \
	sh -c "$work"
compare "$t/n.data" 2 self --no-children --group
grep -q "^# Events 'cpu-clock/period=100000/, page-faults/period=1/': " "$t/ours.txt"
compare "$t/n.data" 1 self --no-children

# --json: a table per event, each naming its group
"$bin/pmutool" report -i "$t/s.data" --json >"$t/ours.json"
python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
groups = [e.get("group") for e in d["events"]]
assert groups == ["anon group { cpu-clock, page-faults }"] * 2, groups' "$t/ours.json"
"$bin/pmutool" report -i "$t/n.data" --json | grep -q '"group"' && exit 1
echo "group: all agree with perf"
