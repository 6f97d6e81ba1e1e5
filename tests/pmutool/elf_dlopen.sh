#!/bin/sh
# elf_dlopen.sh - pmutool loads elfutils only for report and script: its
# DT_NEEDED names neither libelf nor libdw (nor, with PMUTOOL_STATIC_LIBS,
# libyaml, jansson or libfdt), `check` loads none of them (the dynamic
# linker's LD_DEBUG=files account), `report` dlopens libelf and libdw and
# names a user function with them, and a copy of pmutool asking for a
# soname that does not exist fails with exit 4, naming the library and its
# Debian package, before printing any report.
#
# usage: elf_dlopen.sh BINDIR STATIC_LIBS(ON|OFF) LIBELF_SONAME LIBDW_SONAME
set -u
bin=$1 static=$2 elf_so=$3 dw_so=$4
pmutool=$bin/pmutool
command -v readelf >/dev/null || { echo "readelf is missing: install the Debian package binutils"; exit 1; }
command -v python3 >/dev/null || { echo "python3 is missing: install the Debian package python3"; exit 1; }
t=$(mktemp -d "${TMPDIR:-/tmp}/pmurt-elfdl.XXXXXX") || exit 1
trap 'rm -rf "$t"' EXIT
fail() { echo "FAIL: $*"; for f in "$t"/*.txt; do [ -f "$f" ] && { echo "--- $f"; head -20 "$f"; }; done; exit 1; }

readelf -d "$pmutool" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' >"$t/needed.txt"
[ -s "$t/needed.txt" ] || fail "no DT_NEEDED read from $pmutool"
banned="libelf libdw libz liblzma libbz2"
[ "$static" = ON ] && banned="$banned libyaml libjansson libfdt"
for lib in $banned; do
	grep -q "^$lib[.-]" "$t/needed.txt" && fail "pmutool links $lib"
done

LD_DEBUG=files "$pmutool" check cycles,instructions >"$t/check-out.txt" 2>"$t/check-debug.txt" ||
	fail "check failed"
grep -q 'file=libc\.so' "$t/check-debug.txt" || fail "LD_DEBUG=files shows no library at all"
grep -q "file=$elf_so\|file=$dw_so" "$t/check-debug.txt" && fail "check loaded elfutils"

"$bin/pd_synth" "$t/s.data" >"$t/synth.txt" || fail "pd_synth failed"
LD_DEBUG=files "$pmutool" report -i "$t/s.data" --sort sym >"$t/report.txt" 2>"$t/report-debug.txt" ||
	fail "report failed"
for so in "$elf_so" "$dw_so"; do
	grep -q "file=$so .*dynamically loaded by" "$t/report-debug.txt" || fail "report did not dlopen $so"
done
grep -q '\[\.\] synth_alpha' "$t/report.txt" || fail "report named no user function"

# a copy whose soname cannot be found: the error names it and the package
for pair in "$elf_so:libelf1" "$dw_so:libdw1"; do
	so=${pair%%:*} pkg=${pair#*:}
	missing=$(echo "$so" | sed 's/\.so\.[0-9]*$/.so.9/')
	python3 - "$pmutool" "$t/pmutool" "$so" "$missing" <<'PY' || fail "cannot patch the copy"
import sys
data = open(sys.argv[1], "rb").read()
old, new = sys.argv[3].encode() + b"\0", sys.argv[4].encode() + b"\0"
assert len(old) == len(new) and data.count(old) == 1, (old, data.count(old))
open(sys.argv[2], "wb").write(data.replace(old, new))
PY
	chmod 755 "$t/pmutool"
	"$t/pmutool" report -i "$t/s.data" >"$t/missing-out.txt" 2>"$t/missing-err.txt"
	rc=$?
	[ "$rc" = 4 ] || fail "missing $missing: exit $rc, not 4"
	[ -s "$t/missing-out.txt" ] && fail "missing $missing: a report was printed"
	grep -q "cannot load $missing, which report and script read ELF files with: .*(install the Debian package $pkg)" \
		"$t/missing-err.txt" || fail "missing $missing: not named with $pkg"
	"$t/pmutool" check cycles >/dev/null || fail "missing $missing: check failed too"
done
echo "DT_NEEDED: $(tr '\n' ' ' <"$t/needed.txt"); check loads no elfutils; report dlopens $elf_so and $dw_so"
