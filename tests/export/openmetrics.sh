#!/bin/sh
# openmetrics.sh - every OpenMetrics output pmutool writes, judged by the
# strict parser, promtool's import and Prometheus's scrape on loopback
# (check_openmetrics.py): stat of software events on this machine, stat -I
# (timestamped: imported), -M metrics on the simulated kernel (STAT_SIM,
# tests/metrics/stat_sim.c, on a fake POWER10 LPAR's sysfs) with and without
# -I, the same per CPU, core, die and socket, dtl report of a generated log
# and of a perf.data capture.  Its values
# against the same runs' JSON (check_om_values.py); dtl report --pprof read by
# Go's pprof against dtl report --json.
#
# usage: openmetrics.sh BINDIR STAT_SIM FAKESYS PYTHON3 PPROF DTL_PERFDATA
set -eu
bin=$1 stat_sim=$2 fakesys=$3 py=$4 pprof=$5 dtl_data=$6
here=$(dirname "$0")
t=$(mktemp -d "${TMPDIR:-/tmp}/om-test.XXXXXX")
trap 'rm -rf "$t"' EXIT
pmutool="$bin/pmutool"
spin="$bin/pd_spin"
"$pmutool" stat --openmetrics -o "$t/stat.om" -e '{task-clock,page-faults},cpu-clock' \
	-e cpu-clock -- "$spin" 0.1
"$pmutool" stat --openmetrics -I 100 -o "$t/stat-interval.om" -e cpu-clock,context-switches \
	-- "$spin" 0.3
sh "$fakesys" "$t/sys"
"$stat_sim" --sysfs "$t/sys" stat -M run_cpi,ipc --openmetrics -o "$t/metrics.om" -- true
"$stat_sim" --sysfs "$t/sys" stat -M run_cpi,ipc --json-report -o "$t/metrics.json" -- true
"$stat_sim" --sysfs "$t/sys" stat -M run_cpi -I 100 --openmetrics -o "$t/metrics-interval.om" \
	-- sleep 0.35
# -A, --per-core, --per-die, --per-socket on the simulated kernel's CPUs 0
# and 1 in a fake topology (CPU 0: socket 0 die 1 core 3, CPU 1: socket 0
# die 0 core 12: two units but one socket, its counts the two CPUs' sum):
# each unit a series, against -x, of the same fixed counts; by interval,
# each unit's last point equals the run's count
sh "$fakesys" "$t/topo"
topo() { d=$t/topo/devices/system/cpu/cpu$1/topology; mkdir -p "$d"
	echo "$2" >"$d/physical_package_id"; echo "$3" >"$d/die_id"; echo "$4" >"$d/core_id"; }
topo 0 0 1 3; topo 1 0 0 12
for mode in -A --per-core --per-die --per-socket; do
	for out in openmetrics x; do
		"$stat_sim" --sysfs "$t/topo" stat $mode -C 0,1 \
			$([ $out = x ] && echo -x, || echo --openmetrics) -o "$t/aggr$mode.$out" \
			-e '{pm_run_inst_cmpl,pm_run_cyc},pm_ld_miss_l1,duration_time' -- true
	done
done
mv "$t/aggr-A.openmetrics" "$t/aggr-A.om"
for mode in core die socket; do mv "$t/aggr--per-$mode.openmetrics" "$t/aggr--per-$mode.om"; done
"$stat_sim" --sysfs "$t/topo" stat -A -C 0,1 -I 100 --openmetrics -o "$t/aggr-interval.om" \
	-e pm_run_inst_cmpl,duration_time -- sleep 0.25
"$bin/dtl_test" gen "$t/gen.bin" 20000 >/dev/null
"$pmutool" dtl report --openmetrics "$t/gen.bin" >"$t/dtl-gen.om"
"$pmutool" dtl report --json "$t/gen.bin" >"$t/dtl-gen.json"
"$pmutool" dtl report --openmetrics "$dtl_data" >"$t/dtl-perfdata.om"
"$pmutool" dtl report --json "$dtl_data" >"$t/dtl-perfdata.json"
"$py" "$here/check_om_values.py" "$t"
"$py" "$here/check_openmetrics.py" "$t" "$t"/*.om
# dtl report --pprof: Go's pprof totals and reasons against dtl report --json
printf '%s\n' 'c000000000000000 T _stext' 'c000000000400000 T __do_irq' \
	'c000000000800000 T plpar_hcall_norets' 'c000000001000000 T do_idle' \
	'c000000002000000 T _etext' >"$t/kallsyms"
PMUTOOL_KALLSYMS="$t/kallsyms" "$pmutool" dtl report --pprof "$t/dtl.pb.gz" "$t/gen.bin" >/dev/null
"$pprof" -symbolize=none -raw "$t/dtl.pb.gz" >"$t/dtl.raw"
"$pprof" -symbolize=none -top -nodefraction=0 -sample_index=steal -unit=ns "$t/dtl.pb.gz" \
	>"$t/dtl.top" 2>&1
"$py" "$here/check_dtl_pprof.py" "$t/dtl-gen.json" "$t/dtl.raw" "$t/dtl.top"
echo "openmetrics.sh: every output accepted, Prometheus returns what pmutool wrote"
