#!/bin/sh
# power11-lpar.sh DIR [--test-pmu] - the sysfs (and tracefs) of a Power11
# shared-processor LPAR under DIR, as a Power11-aware kernel (Linux 6.10 and
# later: Debian's 6.12 and 7.x) shows it: power10-lpar.sh's tree with the cpu
# PMU's caps/pmu_name "Power11".  init_power11_pmu()
# (arch/powerpc/perf/power10-pmu.c) registers a copy of power10_pmu under
# that name, so its format/, events/ and every other attribute are
# POWER10's.  Checked against the real kernels booted as Power11 under QEMU
# (tests/qemu/guest_test.sh ... power11), which list each difference.
set -eu
[ $# -ge 1 ] || { echo "usage: $0 DIR [--test-pmu]" >&2; exit 2; }
sh "$(dirname "$0")/power10-lpar.sh" "$@"
printf '%s\n' Power11 >"$1/bus/event_source/devices/cpu/caps/pmu_name"
