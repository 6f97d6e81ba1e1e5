#!/bin/sh
# pmutool_per_task.sh PMUTOOL SRCDIR TMPDIR
# --no-per-task and --per-task change check's answer.  POWER10 lists its
# cycles/instructions alternatives both plainly and per-task-only (as
# isa207_get_alternatives adds the same codes again under PPMU_ONLY_COUNT_RUN),
# so there the option cannot show; this copy of the description keeps only the
# per-task-only ones.  0x1e plus four pmc-0 events needs 0x1e -> 0x600f4
# (PMC6): per task it fits, CPU-wide it does not.
tool=$1 src=$2 dir=$3
set -e
rm -rf "$dir" && mkdir -p "$dir"
cp "$src/pmus/power10-events.yaml" "$dir/"
grep -v -x -F -e '  - codes: [0x00002, 0x500fa]' -e '  - codes: [0x0001e, 0x600f4]' \
	"$src/pmus/power10.yaml" > "$dir/power10.yaml"
test "$(grep -c 'per-task-only: true' "$dir/power10.yaml")" = 2
test "$(grep -c '^  - codes:' "$dir/power10.yaml")" = 0
group=0x1e,0xf0,0xf2,0xf4,0xf6
expect() { # STATUS OUTPUT-PATTERN ARGS...
	status=$1 pattern=$2
	shift 2
	set +e
	out=$("$tool" --pmu "$dir/power10.yaml" "$@" 2>&1)
	rc=$?
	set -e
	if [ "$rc" != "$status" ] || ! printf '%s\n' "$out" | grep -q "$pattern"; then
		echo "FAIL: pmutool $* -> exit $rc (expected $status), output:"
		printf '%s\n' "$out"
		exit 1
	fi
	echo "ok: pmutool $*"
}
expect 0 '"final_events":\["0x600f4"' check --json $group
expect 0 '"final_events":\["0x600f4"' --per-task check --json $group
expect 1 '"reason":"constraint_conflict"' --no-per-task check --json $group
expect 0 '"final_events":\["0x600f4"' --no-per-task --per-task check --json $group
expect 1 '"reason":"constraint_conflict"' --per-task --no-per-task check --json $group
