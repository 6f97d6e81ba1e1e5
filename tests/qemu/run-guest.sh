#!/bin/bash
# Boots one of Debian's ppc64el kernels (tests/qemu/fetch.sh) in QEMU's pseries machine with
# a busybox initramfs, runs the caller's /t/run in it and hands back its output and status.
#
#   run-guest.sh --cache DIR --kernel 6.1|6.12|7 --cpu power10|power9|power8 --files DIR --out FILE
#                [--timeout S] [--gdb PORT | --pvr HEX] [--smp N] [--outdir DIR] [--root DIR]
#
# --files DIR   copied to /t in the guest; DIR/run (executable) is run there, in /t, with
#               proc, sysfs, devtmpfs, tracefs and debugfs mounted, stdin /dev/null.
# --out FILE    /t/run's stdout and stderr, byte for byte.  Beside it: FILE.console (the
#               kernel's console, hvc0) and FILE.qemu (QEMU's own messages).
# --outdir DIR  what /t/run leaves in /o (e.g. a perf.data) is copied to DIR.
# --root DIR    copied onto the guest's root as it is (e.g. Debian's ppc64el C library, loader
#               and shared libraries for dynamic programs: tests/qemu/peers_root.sh).
# --timeout S   how long the guest may show no progress (default 240 s): QEMU is stopped
#               when neither its console (hvc0) nor /t/run's output (hvc1) has grown for
#               S seconds.  A bound on silence, not on the run's length, so that a machine
#               busy with other work, which slows the emulation, never fails a run that
#               is making progress.
# --gdb PORT    QEMU starts stopped with its gdb stub on tcp::PORT (-gdb tcp::PORT -S):
#               start this script in the background, wait until PORT listens, then
#                 gdb-multiarch -batch -ex 'set architecture powerpc:common64' \
#                   -ex 'target remote :PORT' -ex 'hbreak *ADDR' ... -ex continue
#               the guest runs from `continue` on; when it powers off QEMU exits and gdb sees
#               the remote end close.  Silence counts from QEMU's start, gdb's time included.
# --pvr HEX     the guest's processor version register, written through QEMU's gdb stub
#               before the first instruction (groups/qg_mmcr_read.py --pvr): --cpu power10
#               --pvr 00820200 boots a Power11, which QEMU 7.2 has no model of.  With --gdb,
#               the caller's client writes it instead (qg_mmcr_read.py --pvr).
# --smp N       guest CPUs (default 1).
#
# Exit status: /t/run's status when the guest ran it to the end and the console shows no
# Oops, BUG, UBSAN report or panic; 125 with a message naming what did not answer (no boot,
# no start marker, timeout) or what the kernel logged otherwise.
# The guest writes /t/run's output on a second console (hvc1) between markers, so kernel
# messages on hvc0 never mix with it.
set -euo pipefail

fail() { echo "run-guest.sh: $*" >&2; exit 125; }
usage() { fail "usage: run-guest.sh --cache DIR --kernel 6.1|6.12|7 --cpu power10|power9|power8 --files DIR --out FILE [--timeout S] [--gdb PORT | --pvr HEX] [--smp N] [--outdir DIR] [--root DIR]"; }

cache= kernel= cpu= files= out= outdir= timeout_s=240 gdb_port= smp=1 pvr= extra_root=
while [ $# -gt 0 ]; do
	[ $# -ge 2 ] || usage
	case $1 in
	--cache) cache=$2 ;; --kernel) kernel=$2 ;; --cpu) cpu=$2 ;; --files) files=$2 ;;
	--out) out=$2 ;; --outdir) outdir=$2 ;; --timeout) timeout_s=$2 ;; --gdb) gdb_port=$2 ;;
	--smp) smp=$2 ;; --pvr) pvr=$2 ;; --root) extra_root=$2 ;; *) usage ;;
	esac
	shift 2
done
[ -n "$cache" ] && [ -n "$kernel" ] && [ -n "$cpu" ] && [ -n "$files" ] && [ -n "$out" ] || usage
case $kernel in 6.1 | 6.12 | 7) ;; *) fail "--kernel must be 6.1, 6.12 or 7, not '$kernel'" ;; esac
case $cpu in power10 | power9 | power8) ;; *) fail "--cpu must be power10, power9 or power8, not '$cpu'" ;; esac
[[ $timeout_s =~ ^[0-9]+$ ]] || fail "--timeout takes seconds, not '$timeout_s'"
[[ $smp =~ ^[1-8]$ ]] || fail "--smp takes 1 to 8, not '$smp'"
[ -z "$gdb_port" ] || [[ $gdb_port =~ ^[0-9]+$ ]] || fail "--gdb takes a port, not '$gdb_port'"
[ -z "$pvr" ] || [[ $pvr =~ ^(0x)?[0-9a-fA-F]{1,8}$ ]] || fail "--pvr takes a 32-bit hex value, not '$pvr'"
[ -z "$pvr" ] || [ -z "$gdb_port" ] || fail "--pvr with --gdb: the client on the gdb port writes the PVR (qg_mmcr_read.py --pvr)"

need() { command -v "$1" >/dev/null || fail "'$1' not found (Debian package $2)"; }
need qemu-system-ppc64 qemu-system-ppc
need cpio cpio
need python3 python3
vmlinux=$cache/kernel-$kernel/vmlinux
[ -s "$vmlinux" ] || fail "no kernel at $vmlinux (run tests/qemu/fetch.sh $cache)"
[ -x "$cache/busybox" ] || fail "no busybox at $cache/busybox (run tests/qemu/fetch.sh $cache)"
[ -x "$files/run" ] || fail "$files/run is missing or not executable"
[ -z "$extra_root" ] || [ -d "$extra_root" ] || fail "--root $extra_root is not a directory"

work=$(mktemp -d "${TMPDIR:-/tmp}/run-guest.XXXXXX")
[ -n "${PMU_QEMU_KEEP:-}" ] || trap 'rm -rf "$work"' EXIT
root=$work/root
mkdir -p "$root/bin" "$root/t" "$root/o"
[ -z "$extra_root" ] || cp -a "$extra_root/." "$root/"
cp "$cache/busybox" "$root/bin/busybox"
cp -a "$files/." "$root/t/"
cat >"$root/init" <<'INIT'
#!/bin/busybox sh
# The guest's init (tests/qemu/run-guest.sh): mount, run /t/run with its output on hvc1
# between markers, return /o as a base64 tar, power off.
/bin/busybox --install -s /bin
mkdir -p /proc /sys /dev /tmp
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
# raw output (no \n -> \r\n); set on the open file, as hvc resets it at the last close
exec 3<>/dev/hvc1
stty -opost -echo <&3
echo "==PMU-QEMU-BEGIN==" >&3
cd /t
PMU_OUT=/o ./run </dev/null >&3 2>&3
rc=$?
printf '\n==PMU-QEMU-END rc=%d==\n' "$rc" >&3
if [ -n "$(ls /o)" ]; then
	echo "==PMU-QEMU-FILES-BEGIN==" >&3
	tar -C /o -cf - . | base64 >&3
	echo "==PMU-QEMU-FILES-END==" >&3
fi
exec 3>&-
poweroff -f
INIT
chmod +x "$root/init"
(cd "$root" && find . | cpio -o -H newc -R 0:0 --quiet) >"$work/initrd" ||
	fail "cpio could not pack the initramfs"

console=$out.console
qemu_log=$out.qemu
hvc1=$work/hvc1
rm -f "$console" "$qemu_log"
: >"$hvc1"
args=(-M pseries -cpu "$cpu" -m 1024 -smp "$smp" -nographic -nodefaults
	-serial "file:$console" -chardev "file,id=out,path=$hvc1" -device spapr-vty,chardev=out
	-kernel "$vmlinux" -initrd "$work/initrd" -append "console=hvc0")
[ -z "$gdb_port" ] || args+=(-gdb "tcp::$gdb_port" -S)
pvr_pid=
if [ -n "$pvr" ]; then
	# halted until the client has written the PVR and continued it
	pvr_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	args+=(-gdb "tcp:127.0.0.1:$pvr_port" -S)
	python3 "$(dirname "$0")/groups/qg_mmcr_read.py" --port "$pvr_port" --pvr "$pvr" \
		--timeout "$timeout_s" >"$out.pvr" 2>&1 &
	pvr_pid=$!
fi
# QEMU runs while its consoles grow; silent for timeout_s seconds, it is stopped (status
# 124, as timeout(1) reports it)
bytes_out() { { stat -c %s "$console" "$hvc1" 2>/dev/null || true; } | awk '{ n += $1 } END { print n + 0 }'; }
qemu-system-ppc64 "${args[@]}" </dev/null >"$qemu_log" 2>&1 &
qemu_pid=$!
seen=-1 quiet_since=$SECONDS stalled=0
while kill -0 "$qemu_pid" 2>/dev/null; do
	now=$(bytes_out)
	[ "$now" = "$seen" ] || { seen=$now; quiet_since=$SECONDS; }
	if (( SECONDS - quiet_since >= timeout_s )); then
		stalled=1
		kill "$qemu_pid" 2>/dev/null
		for _ in 1 2 3 4 5; do kill -0 "$qemu_pid" 2>/dev/null && sleep 1; done
		kill -9 "$qemu_pid" 2>/dev/null || true
		break
	fi
	sleep 1
done
qemu_rc=0
wait "$qemu_pid" || qemu_rc=$?
[ "$stalled" -eq 0 ] || qemu_rc=124
[ -f "$console" ] || : >"$console"
if [ -n "$pvr_pid" ] && ! wait "$pvr_pid"; then
	fail "kernel $kernel, -cpu $cpu: the PVR was not set to $pvr through QEMU's gdb stub: $(cat "$out.pvr")"
fi

# split hvc1 into the output, the status and the returned files
python3 - "$hvc1" "$out" "$work/status" "$work/files.tar" <<'PY'
import base64, re, sys
data = open(sys.argv[1], 'rb').read()
begin = data.find(b'==PMU-QEMU-BEGIN==\n')
if begin < 0:
    sys.exit(0)
body = data[begin + len(b'==PMU-QEMU-BEGIN==\n'):]
m = re.search(rb'\n==PMU-QEMU-END rc=(\d+)==\n', body)
open(sys.argv[2], 'wb').write(body[:m.start()] if m else body)
if not m:
    open(sys.argv[3], 'w').write('begun\n')
    sys.exit(0)
open(sys.argv[3], 'w').write(m.group(1).decode() + '\n')
rest = body[m.end():]
f = re.search(rb'==PMU-QEMU-FILES-BEGIN==\n(.*?)==PMU-QEMU-FILES-END==', rest, re.S)
if f:
    open(sys.argv[4], 'wb').write(base64.b64decode(f.group(1)))
PY

what="kernel $kernel, -cpu $cpu"
if [ ! -f "$work/status" ]; then
	: >"$out"
	if [ "$qemu_rc" -eq 124 ] || [ "$qemu_rc" -eq 137 ]; then
		grep -q 'Linux version' "$console" ||
			fail "$what: no boot: nothing new on the console for ${timeout_s}s (no 'Linux version' on the console $console)"
		fail "$what: booted but /init never started /t/run: nothing new for ${timeout_s}s (no BEGIN marker; console $console)"
	fi
	fail "$what: QEMU ended (status $qemu_rc) before /t/run started (no BEGIN marker; see $qemu_log and $console)"
fi
status=$(cat "$work/status")
if [ "$status" = begun ]; then
	[ "$qemu_rc" -eq 124 ] || [ "$qemu_rc" -eq 137 ] &&
		fail "$what: /t/run printed nothing for ${timeout_s}s and did not finish (no END marker; partial output in $out)"
	fail "$what: QEMU ended (status $qemu_rc) before /t/run finished (no END marker; console $console)"
fi
if grep -nE 'Oops|BUG:|UBSAN|Kernel panic|kernel BUG' "$console" >&2; then
	fail "$what: the kernel logged the above (console $console)"
fi
if [ -n "$outdir" ] && [ -f "$work/files.tar" ]; then
	mkdir -p "$outdir"
	tar -C "$outdir" -xf "$work/files.tar"
fi
exit "$status"
