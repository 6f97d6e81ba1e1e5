#!/bin/sh
# p9_revisions.sh PMUTOOL POWER9.yaml - the refused-code lists by processor
# revision (init_power9_pmu): pmus/power9.yaml with its pvr changed to DD2.1,
# DD2.2, Cumulus DD2.2 and DD2.3; 0x10134 (PM_MRK_ST_DONE_L2) is refused on
# DD2.1 only, 0x2c056 (PM_DTLB_MISS_4K) on DD2.2 only, 0x4003c
# (PM_DISP_HELD_SYNC_HOLD) on both, nothing on Cumulus or DD2.3.  Each case
# runs twice: the YAML's pvr edited, and the built-in power9 given --pvr.
tool=$1 yaml=$2
t=$(mktemp -d "${TMPDIR:-/tmp}/p9-revisions.XXXXXX") || exit 1
trap 'rm -rf "$t"' EXIT
cp "$(dirname "$yaml")/power9-events.yaml" "$t/" || exit 1
fails=0
# expect PVR CODE REASON-or-ok
expect() {
	sed "s/^  pvr: 0x004e1202 /  pvr: $1 /" "$yaml" >"$t/power9.yaml"
	grep -q "^  pvr: $1 " "$t/power9.yaml" || { echo "FAIL: could not set pvr $1"; exit 1; }
	out=$(echo "{\"events\":[\"$2\"]}" | "$tool" --pmu "$t/power9.yaml" check --batch -)
	case $3 in
	ok) want='"ok":true' ;;
	*) want="\"reason\":\"$3\"" ;;
	esac
	case $out in
	*"$want"*) echo "ok: pvr $1 code $2: $3" ;;
	*) echo "FAIL: pvr $1 code $2: expected $3, got $out"; fails=$((fails + 1)) ;;
	esac
	# the same revision given to the built-in description with --pvr
	out=$(echo "{\"events\":[\"$2\"]}" | "$tool" --pmu power9 --pvr "$1" check --batch -)
	case $out in
	*"$want"*) echo "ok: built-in --pvr $1 code $2: $3" ;;
	*) echo "FAIL: built-in --pvr $1 code $2: expected $3, got $out"; fails=$((fails + 1)) ;;
	esac
}
expect 0x004e1201 0x10134 blacklisted_event
expect 0x004e1201 0x2c056 ok
expect 0x004e1201 0x4003c blacklisted_event
expect 0x004e1202 0x10134 ok
expect 0x004e1202 0x2c056 blacklisted_event
expect 0x004e1202 0x4003c blacklisted_event
expect 0x004e3202 0x2c056 ok
expect 0x004e3202 0x4003c ok
expect 0x004e1203 0x2c056 ok
expect 0x004e1203 0x10134 ok
[ "$fails" -eq 0 ]
