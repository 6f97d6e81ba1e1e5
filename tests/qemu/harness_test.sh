#!/bin/bash
# run-guest.sh's contract, on Debian 13's 6.12 kernel: /t/run's output byte for byte,
# its exit status, the files it leaves in /o, the mounts /init makes, with the guest started
# under gdb-multiarch through --gdb as documented; and a guest that
# that shows no progress for --timeout seconds is stopped then with a message naming the
# phase that did not answer (5 s: it is still booting, or /t/run went silent).
set -euo pipefail
w=$PMU_QEMU_WORK
rm -rf "$w" && mkdir -p "$w/files" "$w/hang"
fail() { echo "FAIL: $*" >&2; exit 1; }

cat >"$w/files/run" <<'RUN'
#!/bin/sh
printf 'no newline at the end: \\ %% \t|'
echo
uname -m
grep -c '^processor' /proc/cpuinfo
for m in /proc /sys /sys/kernel/tracing; do grep -q " $m " /proc/mounts && echo "mounted $m"; done
echo "to stderr" >&2
printf 'abc\000def' >/o/bin.dat
exit 7
RUN
chmod +x "$w/files/run"
# started under the debugger as run-guest.sh's header says (--gdb): gdb-multiarch attaches,
# reads MMCR0 and lets the guest run to its end
command -v gdb-multiarch >/dev/null || fail "gdb-multiarch not found (Debian package gdb-multiarch)"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$PMU_QEMU_RUN" --cache "$PMU_QEMU_CACHE" --kernel 6.12 --cpu power10 --smp 2 --files "$w/files" \
	--out "$w/out.txt" --outdir "$w/o" --gdb "$port" &
guest=$!
for _ in $(seq 300); do
	(exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
	kill -0 "$guest" 2>/dev/null || break
	sleep 0.1
done
# (bounded by the guest: run-guest.sh stops a silent one, and gdb then sees the stub close)
timeout 1500 gdb-multiarch -batch -nx -ex 'set architecture powerpc:common64' \
	-ex "target remote :$port" -ex 'p/x $mmcr0' -ex continue >"$w/gdb.txt" 2>&1 ||
	fail "gdb-multiarch: $(tail -n 5 "$w/gdb.txt")"
rc=0
wait "$guest" || rc=$?
grep -q '^\$1 = 0x' "$w/gdb.txt" || fail "gdb read no MMCR0: $(cat "$w/gdb.txt")"
[ "$rc" -eq 7 ] || fail "run-guest.sh returned $rc, not /t/run's 7"
printf '%s\n' 'no newline at the end: \ % 	|' ppc64le 2 'mounted /proc' 'mounted /sys' \
	'mounted /sys/kernel/tracing' 'to stderr' >"$w/expected.txt"
cmp "$w/expected.txt" "$w/out.txt" || { diff -u "$w/expected.txt" "$w/out.txt"; fail "output differs"; }
printf 'abc\000def' | cmp - "$w/o/bin.dat" || fail "/o/bin.dat not returned byte for byte"
grep -q 'Linux version 6.12' "$w/out.txt.console" || fail "no kernel log beside the output"

cat >"$w/hang/run" <<'RUN'
#!/bin/sh
echo started
while :; do sleep 1; done
RUN
chmod +x "$w/hang/run"
rc=0
"$PMU_QEMU_RUN" --cache "$PMU_QEMU_CACHE" --kernel 6.12 --cpu power10 --files "$w/hang" \
	--out "$w/hang.txt" --timeout 5 2>"$w/hang.err" || rc=$?
[ "$rc" -eq 125 ] || fail "a guest stopped when silent gave $rc, not 125"
grep -Eq 'kernel 6.12, -cpu power10: (no boot: nothing new on the console for 5s|booted but /init never started /t/run: nothing new for 5s|/t/run printed nothing for 5s and did not finish)' \
	"$w/hang.err" || fail "no message naming the phase: $(cat "$w/hang.err")"
# --pvr (boots as Power11 in guest_test.sh's and the group tests' power11 runs): refused
# before any boot when it is no 32-bit hex value or comes with --gdb (the client on the
# gdb port writes the PVR then)
for bad in "--pvr 0x82020g" "--pvr 00820200 --gdb 1"; do
	rc=0
	# shellcheck disable=SC2086 # the options are words
	"$PMU_QEMU_RUN" --cache "$PMU_QEMU_CACHE" --kernel 6.12 --cpu power10 --files "$w/hang" \
		--out "$w/pvr.txt" $bad 2>"$w/pvr.err" || rc=$?
	[ "$rc" -eq 125 ] && grep -Eq 'takes a 32-bit hex value|client on the gdb port writes the PVR' \
		"$w/pvr.err" || fail "run-guest.sh $bad: status $rc, $(cat "$w/pvr.err")"
done
echo "harness: output, status 7, /o files, MMCR0 read through --gdb ($(grep '^\$1' "$w/gdb.txt")), 5 s of silence named: $(cat "$w/hang.err"), bad --pvr refused"
