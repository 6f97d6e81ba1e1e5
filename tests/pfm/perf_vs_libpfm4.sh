#!/bin/sh
# perf_vs_libpfm4.sh OURS DEBIAN - libpfm4's generic perf and perf_raw PMUs as our
# libpfm.so.4 has them against Debian's libpfm4 itself: tests/pfm/pfm_dump built against each
# (OURS, DEBIAN) lists both PMUs (events, descriptions, equivalents, every attribute under each
# OS layer) and encodes a set of strings (codes, perf_event_attr, fully qualified strings,
# errors) under each OS layer; the outputs must be equal.  Debian's libpfm4 for x86 has the
# same two PMUs (they are not POWER's), so the peer runs here.
set -eu
ours=$1 deb=$2
t=$(mktemp -d "${TMPDIR:-/tmp}/pfm-perf.XXXXXX")
trap 'rm -rf "$t"' EXIT
strings="cycles perf::cycles instructions:u PERF_COUNT_HW_CACHE_L1D
PERF_COUNT_HW_CACHE_L1D:WRITE PERF_COUNT_HW_CACHE_L1D:WRITE:MISS PERF_COUNT_HW_CACHE_L1D:READ:WRITE
L1-DCACHE-LOADS L1-DCACHE-LOADS:u L1-DCACHE-LOADS:MISS LLC-STORE-MISSES:k cs:k task-clock:h
perf_raw::r1e r1e:u rzz r R1e perf::r1e rffffffffffffffff r0x10 cycles:precise=2
cycles:precise=4 cycles:period=10:freq=10 cycles:freq=100 cycles:period=1000 cycles:h
cycles:mg cycles:mh=0 cycles:mg:mh cycles:excl cycles:excl=0 cycles:cpu=3:pinned r1e:hw_smpl
cycles:hw_smpl PERF_COUNT_HW_CACHE_L1D:0x3 cycles: cycles:k=y:u=n cycles:k=yes cycles:cpu=0x10
cycles:cpu=1z perf::L1-ICACHE-LOADS perf::ITLB-LOAD-MISSES BRANCH-LOADS cycles.u CYCLES:U
perf::nosuch nosuch::cycles PERF_COUNT_SW_CPU_CLOCK:u:k PERF_COUNT_HW_CACHE_BPU:MISS:READ
NODE-PREFETCH-MISSES IDLE-CYCLES-BACKEND:period=7 r1234567:u=0:k=0:h=0"
status=0
for what in "events perf" "events perf_raw" "pmus" "encode $strings"; do
	# shellcheck disable=SC2086
	"$ours" $what >"$t/ours" 2>&1 || true
	# shellcheck disable=SC2086
	ASAN_OPTIONS=detect_leaks=0 "$deb" $what >"$t/deb" 2>&1 || true
	case $what in
	pmus) # the PMUs both libraries have: perf and perf_raw
		grep -E '^pmu [0-9]+ perf(_raw)? ' "$t/ours" >"$t/o"
		grep -E '^pmu [0-9]+ perf(_raw)? ' "$t/deb" >"$t/d" ;;
	*) cp "$t/ours" "$t/o"; cp "$t/deb" "$t/d" ;;
	esac
	lines=$(wc -l <"$t/o")
	if [ "$lines" -lt 2 ] && [ "$what" != pmus ]; then
		echo "FAIL: pfm_dump ${what%% *}: almost no output"; cat "$t/o"; status=1
	elif ! diff -u "$t/d" "$t/o"; then
		echo "FAIL: pfm_dump ${what%% *}: ours (+) differs from Debian's libpfm4 (-)"; status=1
	else
		echo "ok: pfm_dump ${what%% *}: $lines lines equal"
	fi
done
exit $status
