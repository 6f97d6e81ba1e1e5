#!/bin/sh
# power10-lpar.sh DIR - build the sysfs (and tracefs) of a POWER10 shared-
# processor LPAR under DIR, which then stands for /sys: pmutool --sysfs DIR,
# PMURT_SYSFS=DIR.  Files hold what the kernel's attributes show:
#   cpu       arch/powerpc/perf/power10-pmu.c (type 4 = PERF_TYPE_RAW, its
#             format/ terms, some events/, caps/pmu_name "POWER10")
#   vpa_dtl   arch/powerpc/perf/vpa-dtl.c (format event=config:0-7, events
#             dtl_cede/dtl_preempt/dtl_fault/dtl_all; no cpumask, as the
#             real one has none: it is per CPU only by its name)
#   hv_24x7   arch/powerpc/perf/hv-24x7.c (terms spread over config and
#             config1, a cpumask)
#   software, tracepoint, breakpoint (types 1, 2, 5)
#   kernel/tracing/events/{sched/sched_switch,sched_wakeup,powerpc/hcall_entry}/id,
#   header_page, header_event and the two sched formats
#   devices/system/cpu/online  0-7
# With --test-pmu, also "splitpmu" (type 42): a format split over two ranges
# (config:0-7,32-35) and config1/config2 terms, for the format tests.
# cpu and vpa_dtl are checked against real kernels under QEMU
# (tests/qemu/guest_test.sh, which lists each deliberate difference).
# Other tests and tools reuse this tree; keep what it holds documented here.
set -eu
[ $# -ge 1 ] || { echo "usage: $0 DIR [--test-pmu]" >&2; exit 2; }
root=$1
dev=$root/bus/event_source/devices

put() { # put FILE VALUE
	mkdir -p "$(dirname "$1")"
	printf '%s\n' "$2" > "$1"
}

pmu() { # pmu NAME TYPE
	put "$dev/$1/type" "$2"
	put "$dev/$1/perf_event_mux_interval_ms" 4
}

pmu cpu 4
put "$dev/cpu/caps/pmu_name" POWER10
for f in event:config:0-59 pmcxsel:config:0-7 mark:config:8 radix_scope:config:9 \
	combine:config:10-11 unit:config:12-15 pmc:config:16-19 cache_sel:config:20-21 \
	sdar_mode:config:22-23 sample_mode:config:24-28 thresh_sel:config:29-31 \
	thresh_stop:config:32-35 thresh_start:config:36-39 l2l3_sel:config:40-44 \
	src_sel:config:45-46 invert_bit:config:47 src_mask:config:48-53 \
	src_match:config:54-59 thresh_cmp:config1:0-17; do
	put "$dev/cpu/format/${f%%:*}" "${f#*:}"
done
# events/: exactly what Linux 6.1, 6.12 and 7.2 show under QEMU's -cpu power10
# (tests/qemu/guest_test.sh compares): perf's generic and cache names only
for e in L1-dcache-load-misses:0x3e054 L1-dcache-loads:0x100fc L1-dcache-prefetches:0x1002c \
	L1-dcache-store-misses:0x300f0 L1-icache-load-misses:0x200fc L1-icache-loads:0x4080 \
	L1-icache-prefetches:0x40a0 LLC-load-misses:0x300fe LLC-loads:0x1340000001c040 \
	LLC-prefetches:0x100000016080 LLC-store-misses:0x26880 LLC-stores:0x10000046080 \
	branch-instructions:0x2f04a branch-load-misses:0x400f6 branch-loads:0x4d05e \
	branch-misses:0x3e098 cache-misses:0x400f0 cache-references:0x100fc cpu-cycles:0x600f4 \
	dTLB-load-misses:0x300fc iTLB-load-misses:0x400fc instructions:0x500fa \
	mem-loads:0x35340401e0 mem-stores:0x353c0401e0; do
	put "$dev/cpu/events/${e%%:*}" "event=${e#*:}"
done

pmu vpa_dtl 14
put "$dev/vpa_dtl/format/event" config:0-7
for e in dtl_cede:0x01 dtl_preempt:0x02 dtl_fault:0x04 dtl_all:0x07; do
	put "$dev/vpa_dtl/events/${e%%:*}" "event=${e#*:}"
done

pmu hv_24x7 12
put "$dev/hv_24x7/cpumask" 0
put "$dev/hv_24x7/format/domain" config:0-3
put "$dev/hv_24x7/format/offset" config:16-31
put "$dev/hv_24x7/format/core" config:32-47
put "$dev/hv_24x7/format/lpar" config1:0-15
put "$dev/hv_24x7/events/PM_PB_CYC" "domain=0x1,offset=0x1c0"
put "$dev/hv_24x7/events/PM_PB_CYC.scale" 1
put "$dev/hv_24x7/events/PM_PB_CYC.unit" cycles

pmu software 1
pmu tracepoint 2
pmu breakpoint 5

put "$root/devices/system/cpu/online" 0-7

tr=$root/kernel/tracing/events
put "$tr/sched/sched_switch/id" 316
put "$tr/sched/sched_wakeup/id" 318
put "$tr/powerpc/hcall_entry/id" 147

# what perf's tracing-data feature reads (tools/perf/util/trace-event-info.c):
# the ring buffer's headers and the recorded tracepoints' formats, as a
# 64-bit kernel shows them (copied from Linux 6.1's tracefs)
cat > "$tr/header_page" <<'END'
	field: u64 timestamp;	offset:0;	size:8;	signed:0;
	field: local_t commit;	offset:8;	size:8;	signed:1;
	field: int overwrite;	offset:8;	size:1;	signed:1;
	field: char data;	offset:16;	size:4080;	signed:0;
END
cat > "$tr/header_event" <<'END'
# compressed entry header
	type_len    :    5 bits
	time_delta  :   27 bits
	array       :   32 bits

	padding     : type == 29
	time_extend : type == 30
	time_stamp : type == 31
	data max type_len  == 28
END
cat > "$tr/sched/sched_switch/format" <<'END'
name: sched_switch
ID: 316
format:
	field:unsigned short common_type;	offset:0;	size:2;	signed:0;
	field:unsigned char common_flags;	offset:2;	size:1;	signed:0;
	field:unsigned char common_preempt_count;	offset:3;	size:1;	signed:0;
	field:int common_pid;	offset:4;	size:4;	signed:1;

	field:char prev_comm[16];	offset:8;	size:16;	signed:0;
	field:pid_t prev_pid;	offset:24;	size:4;	signed:1;
	field:int prev_prio;	offset:28;	size:4;	signed:1;
	field:long prev_state;	offset:32;	size:8;	signed:1;
	field:char next_comm[16];	offset:40;	size:16;	signed:0;
	field:pid_t next_pid;	offset:56;	size:4;	signed:1;
	field:int next_prio;	offset:60;	size:4;	signed:1;

print fmt: "prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s ==> next_comm=%s next_pid=%d next_prio=%d", REC->prev_comm, REC->prev_pid, REC->prev_prio, (REC->prev_state & ((((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) - 1)) ? __print_flags(REC->prev_state & ((((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) - 1), "|", { 0x00000001, "S" }, { 0x00000002, "D" }, { 0x00000004, "T" }, { 0x00000008, "t" }, { 0x00000010, "X" }, { 0x00000020, "Z" }, { 0x00000040, "P" }, { 0x00000080, "I" }) : "R", REC->prev_state & (((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) ? "+" : "", REC->next_comm, REC->next_pid, REC->next_prio
END
cat > "$tr/sched/sched_wakeup/format" <<'END'
name: sched_wakeup
ID: 318
format:
	field:unsigned short common_type;	offset:0;	size:2;	signed:0;
	field:unsigned char common_flags;	offset:2;	size:1;	signed:0;
	field:unsigned char common_preempt_count;	offset:3;	size:1;	signed:0;
	field:int common_pid;	offset:4;	size:4;	signed:1;

	field:char comm[16];	offset:8;	size:16;	signed:0;
	field:pid_t pid;	offset:24;	size:4;	signed:1;
	field:int prio;	offset:28;	size:4;	signed:1;
	field:int target_cpu;	offset:32;	size:4;	signed:1;

print fmt: "comm=%s pid=%d prio=%d target_cpu=%03d", REC->comm, REC->pid, REC->prio, REC->target_cpu
END

if [ "${2:-}" = --test-pmu ]; then
	pmu splitpmu 42
	put "$dev/splitpmu/format/event" config:0-7,32-35
	put "$dev/splitpmu/format/umask" config:8-15
	put "$dev/splitpmu/format/filter" config1:0-17
	put "$dev/splitpmu/format/extra" config2:60-63
	put "$dev/splitpmu/format/flag" config:63
	put "$dev/splitpmu/events/split_evt" "event=0xabc,umask=0x5"
	put "$dev/splitpmu/events/energy" "event=0x2"
	put "$dev/splitpmu/events/energy.scale" 2.3283064365386962890625e-10
	put "$dev/splitpmu/events/energy.unit" Joules
fi
