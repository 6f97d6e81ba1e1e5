#!/bin/bash
# One QEMU group test (tests/qemu-groups.cmake): groups from the description opened by a
# real POWER kernel, and the MMCRs it programmed, against libpmurt.
#
#   run.sh --kernel 6.1|6.12|7 --cpu power10|power9|power8|power11 --pmu NAME --pvr HEX --seed N
#          --count N --mmcr N --gen QG_GEN --compare QG_COMPARE --probe QG_PROBE
#          --reader QG_MMCR_READ --run-guest RUN_GUEST --cache DIR --work DIR
#          [--min-pvr-dependent N] [--kinds legacy|all]
#
# qg_gen writes the groups (--kinds all: the four kinds added for POWER8's rules too;
# libpmurt's answers with --pvr, the PVR of QEMU's CPU model, choose the groups whose
# MMCRs are read).  --cpu power11 is QEMU's power10 model with --pvr written by the reader
# before the guest's first instruction (QEMU 7.2 has no Power11 model; qg_mmcr_read.py
# --pvr).  run-guest.sh boots the kernel halted under
# QEMU's gdb stub; qg_mmcr_read.py stops at each qg_mmcr_point of the guest probe and
# reads the MMCRs while the probe opens every group; qg_compare judges, with libpmurt
# opened at the PVR the guest reports.  Prints the time each part took.
set -euo pipefail

fail() { echo "qemu groups: $*" >&2; exit 1; }
min_pvr_dependent=0 kinds=legacy kernel= cpu= pmu= pvr= seed= count= mmcr= gen= compare= probe= reader= run_guest= cache= work=
while [ $# -ge 2 ]; do
	case $1 in
	--kernel) kernel=$2 ;; --cpu) cpu=$2 ;; --pmu) pmu=$2 ;; --pvr) pvr=$2 ;; --seed) seed=$2 ;;
	--count) count=$2 ;; --mmcr) mmcr=$2 ;; --gen) gen=$2 ;; --compare) compare=$2 ;;
	--probe) probe=$2 ;; --reader) reader=$2 ;; --run-guest) run_guest=$2 ;;
	--cache) cache=$2 ;; --work) work=$2 ;; --min-pvr-dependent) min_pvr_dependent=$2 ;;
	--kinds) kinds=$2 ;;
	*) fail "unknown option $1" ;;
	esac
	shift 2
done
for v in kernel cpu pmu pvr seed count mmcr gen compare probe reader run_guest cache work; do
	[ -n "${!v}" ] || fail "--${v//_/-} is missing"
done
command -v python3 >/dev/null || fail "python3 not found (Debian package python3)"
command -v powerpc64le-linux-gnu-nm >/dev/null ||
	fail "powerpc64le-linux-gnu-nm not found (Debian package binutils-powerpc64le-linux-gnu)"
[ -x "$probe" ] || fail "no guest probe at $probe (built with powerpc64le-linux-gnu-gcc, Debian package gcc-powerpc64le-linux-gnu)"

label="$cpu on $kernel"
qemu_cpu=$cpu pvr_args=()
[ "$cpu" = power11 ] && qemu_cpu=power10 pvr_args=(--pvr "$pvr")
rm -rf "$work"
mkdir -p "$work/files"
start=$(date +%s.%N)
"$gen" --pmu "$pmu" --pvr "$pvr" --seed "$seed" --count "$count" --mmcr "$mmcr" --kinds "$kinds" \
	>"$work/files/groups.txt" 2>"$work/gen.txt" || { cat "$work/gen.txt" >&2; fail "qg_gen failed"; }
cat "$work/gen.txt"
cp "$probe" "$work/files/qg_probe"
printf '#!/bin/sh\nexec ./qg_probe groups.txt\n' >"$work/files/run"
chmod +x "$work/files/run"
addr=$(powerpc64le-linux-gnu-nm "$probe" | awk '$3 == "qg_mmcr_point" { print $1 }')
[ -n "$addr" ] || fail "$probe has no symbol qg_mmcr_point"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

# the guest, halted until the reader connects and continues it.  A run takes
# 60-75 s on a quiet 2-core machine, far longer on a busy one (a fixed 330 s
# ran out at a load of 7.6 on 2 cores; 400 s once with other work running):
# both bounds are on silence, not on the run's length (the guest prints every
# 256 groups, the stub answers at every stop)
"$run_guest" --cache "$cache" --kernel "$kernel" --cpu "$qemu_cpu" --files "$work/files" \
	--out "$work/guest.txt" --timeout 300 --gdb "$port" &
guest_pid=$!
reader_rc=0
python3 "$reader" --port "$port" --addr "$addr" --out "$work/mmcr.txt" --timeout 300 "${pvr_args[@]}" ||
	reader_rc=$?
guest_rc=0
wait "$guest_pid" || guest_rc=$?
[ "$reader_rc" -eq 0 ] || fail "$label: the MMCR reader failed (guest status $guest_rc; console $work/guest.txt.console)"
[ "$guest_rc" -eq 0 ] || fail "$label: the guest failed (status $guest_rc; output $work/guest.txt)"
end=$(date +%s.%N)

"$compare" --pmu "$pmu" --groups "$work/files/groups.txt" --guest "$work/guest.txt" \
	--mmcr "$work/mmcr.txt" --label "$label" --min-groups 5000 --min-mmcr "$mmcr" \
	--min-pvr-dependent "$min_pvr_dependent"
python3 -c "import sys; print('%s: boot, %s groups and their MMCR reads: %.0f s' % (sys.argv[1], sys.argv[2], float(sys.argv[4]) - float(sys.argv[3])))" \
	"$label" "$count" "$start" "$end"
