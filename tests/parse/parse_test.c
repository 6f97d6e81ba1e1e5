/*
 * parse_test.c - table-driven test of pmurt_parse_event over the built-in
 * POWER10 description and a toy description unlike it (tests/parse/toy.yaml):
 * every form with its exact spec, every error with its exact errno and
 * message, the struct-size convention, and a smoke run over the fuzz seed
 * corpus.
 *
 * usage: parse_test TOY.yaml CORPUS-DIR
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmurt.h"

/* perf_event_attr.type values */
#define HW 0u
#define CACHE 3u
#define RAW 4u

#define XU PMURT_EXCLUDE_USER
#define XK PMURT_EXCLUDE_KERNEL
#define XH PMURT_EXCLUDE_HV
#define XI PMURT_EXCLUDE_IDLE

struct ok_case {
	const char *str;
	uint32_t type;
	uint64_t config, config1, code;
	unsigned exclude;
	int precise;
	uint64_t period;
	const char *event; /* the event event_index names; NULL: -1 */
	const char *name;
};

struct err_case {
	const char *str;
	int rc;
	const char *message;
};

/* --- POWER10: successes ------------------------------------------------------ */
static const struct ok_case p10_ok[] = {
	/* named events, any case; firmware names with '-' */
	{"PM_CYC", RAW, 0x100f0, 0, 0x100f0, 0, 0, 0, "PM_CYC", "PM_CYC"},
	{"pm_cyc", RAW, 0x100f0, 0, 0x100f0, 0, 0, 0, "PM_CYC", "PM_CYC"},
	{"Pm_Run_Cyc", RAW, 0x200f4, 0, 0x200f4, 0, 0, 0, "PM_RUN_CYC", "PM_RUN_CYC"},
	{"PM_MRK_INST_CMPL", RAW, 0x401e0, 0, 0x401e0, 0, 0, 0, "PM_MRK_INST_CMPL", "PM_MRK_INST_CMPL"},
	{"l1-load-misses", RAW, 0x400f0, 0, 0x400f0, 0, 0, 0, "l1-load-misses", "l1-load-misses"},
	{"dtlb-misses", RAW, 0x300fc, 0, 0x300fc, 0, 0, 0, "dtlb-misses", "dtlb-misses"},
	{"branch-finished", RAW, 0x2f04a, 0, 0x2f04a, 0, 0, 0, "branch-finished", "branch-finished"},
	/* perf's legacy spellings are exact-case: other cases reach the PMU's event */
	{"CYCLES", RAW, 0x600f4, 0, 0x600f4, 0, 0, 0, "cycles", "cycles"},
	{"BRANCH-MISSES", RAW, 0x400f6, 0, 0x400f6, 0, 0, 0, "branch-misses", "branch-misses"},

	/* generic events: PERF_TYPE_HARDWARE, config = PERF_COUNT_HW_* */
	{"cycles", HW, 0, 0, 0x600f4, 0, 0, 0, NULL, "cycles"},
	{"cpu-cycles", HW, 0, 0, 0x600f4, 0, 0, 0, NULL, "cycles"},
	{"instructions", HW, 1, 0, 0x500fa, 0, 0, 0, NULL, "instructions"},
	{"cache-references", HW, 2, 0, 0x100fc, 0, 0, 0, NULL, "cache-references"},
	{"cache-misses", HW, 3, 0, 0x400f0, 0, 0, 0, NULL, "cache-misses"},
	{"branch-instructions", HW, 4, 0, 0x2f04a, 0, 0, 0, NULL, "branch-instructions"},
	{"branches", HW, 4, 0, 0x2f04a, 0, 0, 0, NULL, "branch-instructions"},
	{"branch-misses", HW, 5, 0, 0x3e098, 0, 0, 0, NULL, "branch-misses"},

	/* cache events: PERF_TYPE_HW_CACHE, config = cache | op << 8 | result << 16 */
	{"L1-dcache-loads", CACHE, 0x0, 0, 0x100fc, 0, 0, 0, NULL, "L1-dcache-loads"},
	{"L1-dcache-load-misses", CACHE, 0x10000, 0, 0x3e054, 0, 0, 0, NULL, "L1-dcache-load-misses"},
	{"L1-dcache", CACHE, 0x0, 0, 0x100fc, 0, 0, 0, NULL, "L1-dcache-loads"},
	{"L1-dcache-misses", CACHE, 0x10000, 0, 0x3e054, 0, 0, 0, NULL, "L1-dcache-load-misses"},
	{"L1-dcache-misses-load", CACHE, 0x10000, 0, 0x3e054, 0, 0, 0, NULL, "L1-dcache-load-misses"},
	{"L1-dcache-load-store", CACHE, 0x0, 0, 0x100fc, 0, 0, 0, NULL, "L1-dcache-loads"},
	{"L1-dcache-load-ops", CACHE, 0x0, 0, 0x100fc, 0, 0, 0, NULL, "L1-dcache-loads"},
	{"L1-dcache-read-Reference", CACHE, 0x0, 0, 0x100fc, 0, 0, 0, NULL, "L1-dcache-loads"},
	{"l1d-read-access", CACHE, 0x0, 0, 0x100fc, 0, 0, 0, NULL, "L1-dcache-loads"},
	{"L1-data-loads", CACHE, 0x0, 0, 0x100fc, 0, 0, 0, NULL, "L1-dcache-loads"},
	{"l1-d-load-miss", CACHE, 0x10000, 0, 0x3e054, 0, 0, 0, NULL, "L1-dcache-load-misses"},
	{"L1-dcache-store-misses", CACHE, 0x10100, 0, 0x300f0, 0, 0, 0, NULL, "L1-dcache-store-misses"},
	{"L1-dcache-write-miss", CACHE, 0x10100, 0, 0x300f0, 0, 0, 0, NULL, "L1-dcache-store-misses"},
	{"L1-dcache-prefetches", CACHE, 0x200, 0, 0x1002c, 0, 0, 0, NULL, "L1-dcache-prefetches"},
	{"L1-dcache-speculative-read", CACHE, 0x200, 0, 0x1002c, 0, 0, 0, NULL, "L1-dcache-prefetches"},
	{"L1-dcache-speculative-load-refs", CACHE, 0x200, 0, 0x1002c, 0, 0, 0, NULL, "L1-dcache-prefetches"},
	{"L1-icache-load-misses", CACHE, 0x10001, 0, 0x200fc, 0, 0, 0, NULL, "L1-icache-load-misses"},
	{"l1i-loads", CACHE, 0x1, 0, 0x4080, 0, 0, 0, NULL, "L1-icache-loads"},
	{"l1-i-misses", CACHE, 0x10001, 0, 0x200fc, 0, 0, 0, NULL, "L1-icache-load-misses"},
	{"L1-instruction-prefetches", CACHE, 0x201, 0, 0x40a0, 0, 0, 0, NULL, "L1-icache-prefetches"},
	{"LLC-loads", CACHE, 0x2, 0, 0x01340000001c040, 0, 0, 0, NULL, "LLC-loads"},
	{"L2-load-misses", CACHE, 0x10002, 0, 0x300fe, 0, 0, 0, NULL, "LLC-load-misses"},
	{"LLC-stores", CACHE, 0x102, 0, 0x010000046080, 0, 0, 0, NULL, "LLC-stores"},
	{"LLC-store-misses", CACHE, 0x10102, 0, 0x26880, 0, 0, 0, NULL, "LLC-store-misses"},
	{"LLC-prefetches", CACHE, 0x202, 0, 0x100000016080, 0, 0, 0, NULL, "LLC-prefetches"},
	{"dTLB-load-misses", CACHE, 0x10003, 0, 0x300fc, 0, 0, 0, NULL, "dTLB-load-misses"},
	{"d-tlb-misses", CACHE, 0x10003, 0, 0x300fc, 0, 0, 0, NULL, "dTLB-load-misses"},
	{"Data-TLB-load-miss", CACHE, 0x10003, 0, 0x300fc, 0, 0, 0, NULL, "dTLB-load-misses"},
	{"iTLB-load-misses", CACHE, 0x10004, 0, 0x400fc, 0, 0, 0, NULL, "iTLB-load-misses"},
	{"Instruction-TLB-misses", CACHE, 0x10004, 0, 0x400fc, 0, 0, 0, NULL, "iTLB-load-misses"},
	{"i-tlb-misses", CACHE, 0x10004, 0, 0x400fc, 0, 0, 0, NULL, "iTLB-load-misses"},
	{"branch", CACHE, 0x5, 0, 0x4d05e, 0, 0, 0, NULL, "branch-loads"},
	{"branch-loads", CACHE, 0x5, 0, 0x4d05e, 0, 0, 0, NULL, "branch-loads"},
	{"bpu-load-misses", CACHE, 0x10005, 0, 0x400f6, 0, 0, 0, NULL, "branch-load-misses"},
	{"btb-misses", CACHE, 0x10005, 0, 0x400f6, 0, 0, 0, NULL, "branch-load-misses"},
	{"bpc-read-miss", CACHE, 0x10005, 0, 0x400f6, 0, 0, 0, NULL, "branch-load-misses"},

	/* raw codes */
	{"0x600f4", RAW, 0x600f4, 0, 0x600f4, 0, 0, 0, NULL, "0x600f4"},
	{"0X600F4", RAW, 0x600f4, 0, 0x600f4, 0, 0, 0, NULL, "0x600f4"},
	{"r600f4", RAW, 0x600f4, 0, 0x600f4, 0, 0, 0, NULL, "0x600f4"},
	{"r1E", RAW, 0x1e, 0, 0x1e, 0, 0, 0, NULL, "0x1e"},
	{"0x0", RAW, 0, 0, 0, 0, 0, 0, NULL, "0x0"},
	{"0x00000000000000000600f4", RAW, 0x600f4, 0, 0x600f4, 0, 0, 0, NULL, "0x600f4"},
	{"0xffffffffffffffff", RAW, UINT64_MAX, 0, UINT64_MAX, 0, 0, 0, NULL, "0xffffffffffffffff"},
	{"0x100f0", RAW, 0x100f0, 0, 0x100f0, 0, 0, 0, NULL, "0x100f0"}, /* PM_CYC's code, still raw */

	/* field terms, bare and in perf's PMU wrapper */
	{"pmcxsel=0xf4,pmc=6", RAW, 0x600f4, 0, 0x600f4, 0, 0, 0, NULL, "0x600f4"},
	{"cpu/pmcxsel=0xf4,pmc=6/", RAW, 0x600f4, 0, 0x600f4, 0, 0, 0, NULL, "0x600f4"},
	{"power10/pmcxsel=0xf4,pmc=6/", RAW, 0x600f4, 0, 0x600f4, 0, 0, 0, NULL, "0x600f4"},
	{"pmc=1,pmcxsel=0xe0,mark=1", RAW, 0x101e0, 0, 0x101e0, 0, 0, 0, NULL, "0x101e0"},
	{"cpu/mark,pmc=1,pmcxsel=0xe0/", RAW, 0x101e0, 0, 0x101e0, 0, 0, 0, NULL, "0x101e0"},
	{"pmc=1,pmcxsel=255", RAW, 0x100ff, 0, 0x100ff, 0, 0, 0, NULL, "0x100ff"},
	{"ebb=1,pmc=1,pmcxsel=0xf0", RAW, 0x80000000000100f0, 0, 0x80000000000100f0, 0, 0, 0, NULL,
	 "0x80000000000100f0"},
	{"src_sel=3,pmc=1", RAW, 0x600000010000, 0, 0x600000010000, 0, 0, 0, NULL, "0x600000010000"},
	{"l2l3_sel=0x1f,unit=6,pmc=2,pmcxsel=0x80", RAW, 0x1f0000026080, 0, 0x1f0000026080, 0, 0, 0,
	 NULL, "0x1f0000026080"},
	{"thresh_sel=7,thresh_start=0xe,thresh_stop=2,pmc=1", RAW, 0xe2e0010000, 0, 0xe2e0010000, 0,
	 0, 0, NULL, "0xe2e0010000"},
	{"event=0x100f0,thresh_cmp=0x3ff", RAW, 0x100f0, 0x3ff, 0x100f0, 0, 0, 0, NULL, "0x100f0"},
	{"config=0x100f0,config1=12", RAW, 0x100f0, 12, 0x100f0, 0, 0, 0, NULL, "0x100f0"},
	{"config1=0xf0000,thresh_cmp=1,pmc=1", RAW, 0x10000, 0xc0001, 0x10000, 0, 0, 0, NULL, "0x10000"},
	{"event=0x100f0,pmcxsel=0xf4", RAW, 0x100f4, 0, 0x100f4, 0, 0, 0, NULL, "0x100f4"},
	{"pmcxsel=0xf4,event=0x100f0", RAW, 0x100f4, 0, 0x100f4, 0, 0, 0, NULL, "0x100f4"},
	{"pmc=1,pmc=2", RAW, 0x20000, 0, 0x20000, 0, 0, 0, NULL, "0x20000"},
	{"cpu/PM_CYC/", RAW, 0x100f0, 0, 0x100f0, 0, 0, 0, "PM_CYC", "PM_CYC"},
	{"PM_CYC,pmc=1", RAW, 0x100f0, 0, 0x100f0, 0, 0, 0, "PM_CYC", "PM_CYC"},
	{"PM_CYC,pmc=2", RAW, 0x200f0, 0, 0x200f0, 0, 0, 0, NULL, "0x200f0"},
	{"cpu/PM_CYC,thresh_sel=1/", RAW, 0x200100f0, 0, 0x200100f0, 0, 0, 0, NULL, "0x200100f0"},
	{"cpu/cycles/", RAW, 0x600f4, 0, 0x600f4, 0, 0, 0, "cycles", "cycles"},
	{"cpu/branch-misses/", RAW, 0x400f6, 0, 0x400f6, 0, 0, 0, "branch-misses", "branch-misses"},
	{"cpu/cycles,mark/", RAW, 0x601f4, 0, 0x601f4, 0, 0, 0, NULL, "0x601f4"},
	{"cpu/branch-instructions/", HW, 4, 0, 0x2f04a, 0, 0, 0, NULL, "branch-instructions"},
	{"cpu/branch-instructions,period=5/", HW, 4, 0, 0x2f04a, 0, 0, 5, NULL, "branch-instructions"},
	{"cpu/L1-dcache-load-miss/kp", CACHE, 0x10000, 0, 0x3e054, XU | XH, 1, 0, NULL,
	 "L1-dcache-load-misses"},
	{"cpu/event=0x600f4,period=10000,name=mycyc/", RAW, 0x600f4, 0, 0x600f4, 0, 0, 10000, NULL,
	 "mycyc"},
	{"cpu/cycles,period=1000/", RAW, 0x600f4, 0, 0x600f4, 0, 0, 1000, "cycles", "cycles"},
	{"name=x,pmc=1", RAW, 0x10000, 0, 0x10000, 0, 0, 0, NULL, "x"},

	/* perf's modifiers (get_event_modifier): the first of u/k/h excludes all
	 * three, each clears its own; p adds to precise_ip */
	{"PM_CYC:u", RAW, 0x100f0, 0, 0x100f0, XK | XH, 0, 0, "PM_CYC", "PM_CYC"},
	{"PM_CYC:k", RAW, 0x100f0, 0, 0x100f0, XU | XH, 0, 0, "PM_CYC", "PM_CYC"},
	{"PM_CYC:h", RAW, 0x100f0, 0, 0x100f0, XU | XK, 0, 0, "PM_CYC", "PM_CYC"},
	{"PM_CYC:uk", RAW, 0x100f0, 0, 0x100f0, XH, 0, 0, "PM_CYC", "PM_CYC"},
	{"PM_CYC:ku", RAW, 0x100f0, 0, 0x100f0, XH, 0, 0, "PM_CYC", "PM_CYC"},
	{"PM_CYC:uh", RAW, 0x100f0, 0, 0x100f0, XK, 0, 0, "PM_CYC", "PM_CYC"},
	{"PM_CYC:hu", RAW, 0x100f0, 0, 0x100f0, XK, 0, 0, "PM_CYC", "PM_CYC"},
	{"PM_CYC:kh", RAW, 0x100f0, 0, 0x100f0, XU, 0, 0, "PM_CYC", "PM_CYC"},
	{"PM_CYC:ukh", RAW, 0x100f0, 0, 0x100f0, 0, 0, 0, "PM_CYC", "PM_CYC"},
	{"PM_CYC:hku", RAW, 0x100f0, 0, 0x100f0, 0, 0, 0, "PM_CYC", "PM_CYC"},
	{"PM_CYC:p", RAW, 0x100f0, 0, 0x100f0, 0, 1, 0, "PM_CYC", "PM_CYC"},
	{"PM_CYC:pp", RAW, 0x100f0, 0, 0x100f0, 0, 2, 0, "PM_CYC", "PM_CYC"},
	{"PM_CYC:ppp", RAW, 0x100f0, 0, 0x100f0, 0, 3, 0, "PM_CYC", "PM_CYC"},
	{"PM_CYC:up", RAW, 0x100f0, 0, 0x100f0, XK | XH, 1, 0, "PM_CYC", "PM_CYC"},
	{"PM_CYC:pu", RAW, 0x100f0, 0, 0x100f0, XK | XH, 1, 0, "PM_CYC", "PM_CYC"},
	{"PM_CYC:upp", RAW, 0x100f0, 0, 0x100f0, XK | XH, 2, 0, "PM_CYC", "PM_CYC"},
	{"PM_CYC:pkp", RAW, 0x100f0, 0, 0x100f0, XU | XH, 2, 0, "PM_CYC", "PM_CYC"},
	{"PM_CYC:I", RAW, 0x100f0, 0, 0x100f0, XI, 0, 0, "PM_CYC", "PM_CYC"},
	{"PM_CYC:uI", RAW, 0x100f0, 0, 0x100f0, XK | XH | XI, 0, 0, "PM_CYC", "PM_CYC"},
	{"PM_CYC:Ikhp", RAW, 0x100f0, 0, 0x100f0, XU | XI, 1, 0, "PM_CYC", "PM_CYC"},
	{"cycles:u", HW, 0, 0, 0x600f4, XK | XH, 0, 0, NULL, "cycles"},
	{"L1-dcache-load-misses:k", CACHE, 0x10000, 0, 0x3e054, XU | XH, 0, 0, NULL,
	 "L1-dcache-load-misses"},
	{"0x600f4:h", RAW, 0x600f4, 0, 0x600f4, XU | XK, 0, 0, NULL, "0x600f4"},
	{"r600f4:pp", RAW, 0x600f4, 0, 0x600f4, 0, 2, 0, NULL, "0x600f4"},
	{"pmcxsel=0xf4,pmc=1:ppp", RAW, 0x100f4, 0, 0x100f4, 0, 3, 0, NULL, "0x100f4"},
	{"cpu/pmcxsel=0xf4,pmc=6/u", RAW, 0x600f4, 0, 0x600f4, XK | XH, 0, 0, NULL, "0x600f4"},
	{"cpu/pmcxsel=0xf4,pmc=6/:uk", RAW, 0x600f4, 0, 0x600f4, XH, 0, 0, NULL, "0x600f4"},

	/* the DTrace cpc form NAME-MODE[-MASK]-COUNT */
	{"PM_CYC-user-10000", RAW, 0x100f0, 0, 0x100f0, XK, 0, 10000, "PM_CYC", "PM_CYC"},
	{"PM_CYC-kernel-1", RAW, 0x100f0, 0, 0x100f0, XU, 0, 1, "PM_CYC", "PM_CYC"},
	{"PM_CYC-all-5000", RAW, 0x100f0, 0, 0x100f0, 0, 0, 5000, "PM_CYC", "PM_CYC"},
	{"pm_cyc-all-100", RAW, 0x100f0, 0, 0x100f0, 0, 0, 100, "PM_CYC", "PM_CYC"},
	{"PM_CYC-all-ff-5000", RAW, 0x100f0, 0xff, 0x100f0, 0, 0, 5000, "PM_CYC", "PM_CYC"},
	{"PM_CYC-user-0x3ff-100", RAW, 0x100f0, 0x3ff, 0x100f0, XK, 0, 100, "PM_CYC", "PM_CYC"},
	{"PM_CYC-user-18446744073709551615", RAW, 0x100f0, 0, 0x100f0, XK, 0, UINT64_MAX, "PM_CYC",
	 "PM_CYC"},
	{"cycles-user-1000", HW, 0, 0, 0x600f4, XK, 0, 1000, NULL, "cycles"},
	{"L1-dcache-load-misses-kernel-100", CACHE, 0x10000, 0, 0x3e054, XU, 0, 100, NULL,
	 "L1-dcache-load-misses"},
	{"0x600f4-user-1000", RAW, 0x600f4, 0, 0x600f4, XK, 0, 1000, NULL, "0x600f4"},
	{"r600f4-all-7-1000", RAW, 0x600f4, 7, 0x600f4, 0, 0, 1000, NULL, "0x600f4"},
	{"l1-load-misses-user-1000", RAW, 0x400f0, 0, 0x400f0, XK, 0, 1000, "l1-load-misses",
	 "l1-load-misses"},
	{"dispatch-stall-cycles-all-1000000", RAW, 0x100f8, 0, 0x100f8, 0, 0, 1000000,
	 "dispatch-stall-cycles", "dispatch-stall-cycles"},
};

/* --- POWER10: errors ----------------------------------------------------------- */
static const struct err_case p10_err[] = {
	{"", -EINVAL, "empty event string"},
	/* unknown names, with the nearest name */
	{"PM_CYCX", -ENOENT, "unknown event 'PM_CYCX' at offset 0; did you mean 'PM_CYC'?"},
	{"cylces", -ENOENT, "unknown event 'cylces' at offset 0; did you mean 'cycles'?"},
	{"l1-dcache-loads", -ENOENT,
	 "unknown event 'l1-dcache-loads' at offset 0; did you mean 'L1-dcache-loads'?"},
	{"L1-dcache-lod-misses", -ENOENT,
	 "unknown event 'L1-dcache-lod-misses' at offset 0; did you mean 'L1-dcache-load-misses'?"},
	{"L1-dcache-load-misses-x", -ENOENT, "unknown event 'L1-dcache-load-misses-x' at offset 0; "
	 "did you mean 'L1-dcache-load-misses'?"},
	{"xyzzy", -ENOENT, "unknown event 'xyzzy' at offset 0"},
	{"rxyz", -ENOENT, "unknown event 'rxyz' at offset 0"},
	/* generic events the description does not support */
	{"bus-cycles", -EOPNOTSUPP, "generic event 'bus-cycles' at offset 0 is not supported by POWER10 PMU"},
	{"stalled-cycles-frontend", -EOPNOTSUPP,
	 "generic event 'stalled-cycles-frontend' at offset 0 is not supported by POWER10 PMU"},
	{"idle-cycles-backend", -EOPNOTSUPP,
	 "generic event 'idle-cycles-backend' at offset 0 is not supported by POWER10 PMU"},
	{"ref-cycles", -EOPNOTSUPP, "generic event 'ref-cycles' at offset 0 is not supported by POWER10 PMU"},
	{"ref-cycles:u", -EOPNOTSUPP, "generic event 'ref-cycles' at offset 0 is not supported by POWER10 PMU"},
	/* the cache table: 0 -> EOPNOTSUPP, -1 -> EINVAL; ops perf itself refuses */
	{"L1-dcache-store-refs", -EOPNOTSUPP, "cache event 'L1-dcache-store-refs' at offset 0 "
	 "(L1-dcache write access) is not supported by POWER10 PMU"},
	{"L1-dcache-stores", -EOPNOTSUPP, "cache event 'L1-dcache-stores' at offset 0 "
	 "(L1-dcache write access) is not supported by POWER10 PMU"},
	{"L1-dcache-prefetch-misses", -EOPNOTSUPP, "cache event 'L1-dcache-prefetch-misses' at offset 0 "
	 "(L1-dcache prefetch miss) is not supported by POWER10 PMU"},
	{"LLC-prefetch-misses", -EOPNOTSUPP, "cache event 'LLC-prefetch-misses' at offset 0 "
	 "(LLC prefetch miss) is not supported by POWER10 PMU"},
	{"dTLB-loads", -EOPNOTSUPP, "cache event 'dTLB-loads' at offset 0 (dTLB read access) is not "
	 "supported by POWER10 PMU"},
	{"dTLB-store-misses", -EINVAL, "cache event 'dTLB-store-misses' at offset 0 (dTLB write miss) "
	 "is invalid on POWER10 PMU"},
	{"dTLB-prefetches", -EINVAL, "cache event 'dTLB-prefetches' at offset 0 (dTLB prefetch access) "
	 "is invalid on POWER10 PMU"},
	{"node-loads", -EINVAL, "cache event 'node-loads' at offset 0 (node read access) is invalid "
	 "on POWER10 PMU"},
	{"node", -EINVAL, "cache event 'node' at offset 0 (node read access) is invalid on POWER10 PMU"},
	{"L1-icache-stores", -EINVAL,
	 "cache event 'L1-icache-stores' at offset 0: perf accepts no store operation on L1-icache"},
	{"L1-icache-misses-store", -EINVAL, "cache event 'L1-icache-misses-store' at offset 0: perf "
	 "accepts no store operation on L1-icache"},
	{"iTLB-prefetches", -EINVAL,
	 "cache event 'iTLB-prefetches' at offset 0: perf accepts no prefetch operation on iTLB"},
	{"branch-store-misses", -EINVAL,
	 "cache event 'branch-store-misses' at offset 0: perf accepts no store operation on branch"},
	/* raw codes */
	{"0xZZ", -EINVAL, "bad hexadecimal code '0xZZ' at offset 0"},
	{"0x", -EINVAL, "bad hexadecimal code '0x' at offset 0"},
	{"0x1ffffffffffffffff", -EINVAL, "code '0x1ffffffffffffffff' at offset 0 is larger than 64 bits"},
	{"r1ffffffffffffffff", -EINVAL, "code 'r1ffffffffffffffff' at offset 0 is larger than 64 bits"},
	/* terms */
	{"pmcxsel=256,pmc=1", -EINVAL,
	 "value '256' for 'pmcxsel' at offset 8 does not fit its 8 bits (at most 0xff)"},
	{"pmc=16", -EINVAL, "value '16' for 'pmc' at offset 4 does not fit its 4 bits (at most 0xf)"},
	{"cpu/pmc=0x10/", -EINVAL, "value '0x10' for 'pmc' at offset 8 does not fit its 4 bits (at most 0xf)"},
	{"thresh_cmp=0x40000", -EINVAL,
	 "value '0x40000' for 'thresh_cmp' at offset 11 does not fit its 18 bits (at most 0x3ffff)"},
	{"pmcsel=1", -EINVAL, "unknown term 'pmcsel' at offset 0; did you mean 'pmcxsel'?"},
	{"cpu/pmc=1,evnt=0x10/", -EINVAL, "unknown term 'evnt' at offset 10; did you mean 'event'?"},
	{"cpu/pmc=1,xyzzyq=1/", -EINVAL, "unknown term 'xyzzyq' at offset 10"},
	{"PM_CYX,pmc=1", -ENOENT, "unknown event or term 'PM_CYX' at offset 0; did you mean 'PM_CYC'?"},
	{"pmc=abc", -EINVAL, "bad value 'abc' for 'pmc' at offset 4 (decimal or 0x hex)"},
	{"pmc=-1", -EINVAL, "bad value '-1' for 'pmc' at offset 4 (decimal or 0x hex)"},
	{"pmc=", -EINVAL, "term 'pmc' at offset 0 has no value"},
	{"=1", -EINVAL, "term at offset 0 has no name"},
	{"pmc=1,,mark", -EINVAL, "empty term at offset 6"},
	{"pmc=1,", -EINVAL, "empty term at offset 6"},
	{"config=0x1ffffffffffffffff", -EINVAL,
	 "value '0x1ffffffffffffffff' for 'config' at offset 7 is larger than 64 bits"},
	{"event=18446744073709551616", -EINVAL,
	 "value '18446744073709551616' for 'event' at offset 6 is larger than 64 bits"},
	{"thresh_cmp=5", -EINVAL, "terms 'thresh_cmp=5' at offset 0 name no event (give an event name, "
	 "event=, config= or a field)"},
	{"cpu/period=10/", -EINVAL, "terms 'period=10' at offset 4 name no event (give an event name, "
	 "event=, config= or a field)"},
	{"cpu/PM_CYC,PM_RUN_CYC/", -EINVAL, "second event 'PM_RUN_CYC' at offset 11 in one term list"},
	{"cpu/cycles,L1-dcache-loads/", -EINVAL,
	 "second event 'L1-dcache-loads' at offset 11 in one term list"},
	{"cpu/branch-instructions,mark/", -EINVAL, "terms in 'branch-instructions,mark' at offset 4 "
	 "change the code of generic event 'branch-instructions'"},
	{"cpu/L1-dcache-loads,config1=1/", -EINVAL, "terms in 'L1-dcache-loads,config1=1' at offset 4 "
	 "change the code of cache event 'L1-dcache-loads'"},
	{"cpu/bus-cycles/", -EOPNOTSUPP,
	 "generic event 'bus-cycles' at offset 4 is not supported by POWER10 PMU"},
	{"cpu/pmc=1,name=a b/", -EINVAL,
	 "bad value 'a b' for 'name' at offset 15 (1 to 63 printing characters)"},
	/* the PMU wrapper */
	{"cpu//", -EINVAL, "empty term list at offset 4"},
	{"cpu/pmc=1", -EINVAL, "no closing '/' for the term list opened at offset 3"},
	{"/pmc=1/", -EINVAL, "no PMU name before the '/' at offset 0"},
	{"c?u/pmc=1/", -EINVAL, "bad PMU name 'c?u' at offset 0"},
	{"cpu/pmc=1/x", -EINVAL, "unknown modifier 'x' at offset 10"},
	{"cpu/pmc=1/:", -EINVAL, "empty modifier list at offset 11"},
	{"cpu/pmc=1//", -EINVAL, "unknown modifier '/' at offset 10"},
	/* modifiers */
	{"PM_CYC:pppp", -EINVAL, "maximum precise value is 3 (the 'p' at offset 10)"},
	{"PM_CYC:puppp", -EINVAL, "maximum precise value is 3 (the 'p' at offset 11)"},
	{"PM_CYC:kuk", -EINVAL, "duplicate modifier 'k' (kernel) at offset 9"},
	{"PM_CYC:uu", -EINVAL, "duplicate modifier 'u' (user) at offset 8"},
	{"PM_CYC:hh", -EINVAL, "duplicate modifier 'h' (hypervisor) at offset 8"},
	{"PM_CYC:II", -EINVAL, "duplicate modifier 'I' (non_idle) at offset 8"},
	{"PM_CYC:S", -EOPNOTSUPP,
	 "perf modifier 'S' (sample_read) at offset 7 is not supported (only u, k, h, I, p; S in an event list)"},
	{"PM_CYC:uG", -EOPNOTSUPP,
	 "perf modifier 'G' (guest) at offset 8 is not supported (only u, k, h, I, p; S in an event list)"},
	{"PM_CYC:P", -EOPNOTSUPP,
	 "perf modifier 'P' (precise_max) at offset 7 is not supported (only u, k, h, I, p; S in an event list)"},
	{"PM_CYC:x", -EINVAL, "unknown modifier 'x' at offset 7"},
	{"PM_CYC:U", -EINVAL, "unknown modifier 'U' at offset 7"},
	{"PM_CYC:", -EINVAL, "empty modifier list at offset 7"},
	{"PM_CYC:u:k", -EINVAL, "unknown modifier ':' at offset 8"},
	{":u", -EINVAL, "no event before ':' at offset 0"},
	{"PM_CYCX:u", -ENOENT, "unknown event 'PM_CYCX' at offset 0; did you mean 'PM_CYC'?"},
	/* the cpc form */
	{"PM_CYC-usr-100", -EINVAL, "cpc mode 'usr' at offset 7 must be user, kernel or all"},
	{"PM_CYC-User-100", -EINVAL, "cpc mode 'User' at offset 7 must be user, kernel or all"},
	{"PM_CYC-ff-100", -EINVAL, "cpc mode 'ff' at offset 7 must be user, kernel or all"},
	{"PM_CYC-user-0", -EINVAL, "cpc count '0' at offset 12 must be at least 1"},
	{"PM_CYC-user-18446744073709551616", -EINVAL,
	 "cpc count '18446744073709551616' at offset 12 is larger than 64 bits"},
	{"PM_CYC-user-1ffffffffffffffff-1", -EINVAL,
	 "cpc mask '1ffffffffffffffff' at offset 12 is larger than 64 bits"},
	{"cycles-all-ff-1000", -EINVAL, "cpc mask 'ff' at offset 11: only the PMU's own events take a "
	 "mask, not generic event 'cycles'"},
	{"L1-dcache-load-misses-all-ff-100", -EINVAL, "cpc mask 'ff' at offset 26: only the PMU's own "
	 "events take a mask, not cache event 'L1-dcache-load-misses'"},
	{"foo-user-1000", -ENOENT, "unknown event 'foo' at offset 0 in the cpc probe name 'foo-user-1000'"},
	{"PM_CYCC-all-ff-100", -ENOENT, "unknown event 'PM_CYCC' at offset 0 in the cpc probe name "
	 "'PM_CYCC-all-ff-100'; did you mean 'PM_CYC'?"},
	{"PM_CYC-user-1000:u", -EINVAL,
	 "perf modifiers cannot follow the cpc form 'PM_CYC-user-1000' at offset 0"},
	{"bus-cycles-user-100", -EOPNOTSUPP,
	 "generic event 'bus-cycles' at offset 0 is not supported by POWER10 PMU"},
	{"dTLB-loads-all-100", -EOPNOTSUPP, "cache event 'dTLB-loads' at offset 0 (dTLB read access) is "
	 "not supported by POWER10 PMU"},
	{"user-1000", -ENOENT, "unknown event 'user-1000' at offset 0"},
	{"PM_CYC-user-", -ENOENT, "unknown event 'PM_CYC-user-' at offset 0"},
	{"0xZZ-user-1000", -EINVAL, "bad hexadecimal code '0xZZ' at offset 0"},
};

/* --- the toy description: nothing of POWER10 ------------------------------------ */
static const struct ok_case toy_ok[] = {
	{"cycles", HW, 0, 0, 0x1001e, 0, 0, 0, NULL, "cpu-cycles"},
	{"cpu-cycles:k", HW, 0, 0, 0x1001e, XU | XH, 0, 0, NULL, "cpu-cycles"},
	{"evsel=0x1e,ctr=1,filter=3", RAW, 0x1001e, 3, 0x1001e, 0, 0, 0, NULL, "0x1001e"},
	{"cpu/TOY_CYC,filter=2/", RAW, 0x1001e, 2, 0x1001e, 0, 0, 0, "TOY_CYC", "TOY_CYC"},
	{"toy_cyc:u", RAW, 0x1001e, 0, 0x1001e, XK | XH, 0, 0, "TOY_CYC", "TOY_CYC"},
	{"TOY_CYC-user-ff-10", RAW, 0x1001e, 0xff, 0x1001e, XK, 0, 10, "TOY_CYC", "TOY_CYC"},
	/* an event named like perf's raw syntax keeps its name; other rHEX are raw */
	{"r12", RAW, 0x20012, 0, 0x20012, 0, 0, 0, "r12", "r12"},
	{"R12", RAW, 0x20012, 0, 0x20012, 0, 0, 0, "r12", "r12"},
	{"r13", RAW, 0x13, 0, 0x13, 0, 0, 0, NULL, "0x13"},
	/* names of 8 to 70 bytes (the name hash's fixed words and the ones
	 * between), as spelled and in another case */
	{"TOY_EIGH", RAW, 0x10031, 0, 0x10031, 0, 0, 0, "TOY_EIGH", "TOY_EIGH"},
	{"toy_eigh:u", RAW, 0x10031, 0, 0x10031, XK | XH, 0, 0, "TOY_EIGH", "TOY_EIGH"},
	{"TOY_NAME_OF_EXACTLY_THIRTY_TWO_B:k", RAW, 0x10032, 0, 0x10032, XU | XH, 0, 0,
	 "TOY_NAME_OF_EXACTLY_THIRTY_TWO_B", "TOY_NAME_OF_EXACTLY_THIRTY_TWO_B"},
	{"TOY_FORTY_EIGHT_BYTES_WORD_3_DIFFERS_____THE_END:u", RAW, 0x10033, 0, 0x10033, XK | XH, 0,
	 0, "TOY_FORTY_EIGHT_BYTES_WORD_3_DIFFERS_____THE_END",
	 "TOY_FORTY_EIGHT_BYTES_WORD_3_DIFFERS_____THE_END"},
	{"TOY_FORTY_EIGHT_BYTES_WORD_4_DIFFERS_____THE_END", RAW, 0x10034, 0, 0x10034, 0, 0, 0,
	 "TOY_FORTY_EIGHT_BYTES_WORD_4_DIFFERS_____THE_END",
	 "TOY_FORTY_EIGHT_BYTES_WORD_4_DIFFERS_____THE_END"},
	{"toy_forty_eight_bytes_word_4_differs_____the_end:p", RAW, 0x10034, 0, 0x10034, 0, 1, 0,
	 "TOY_FORTY_EIGHT_BYTES_WORD_4_DIFFERS_____THE_END",
	 "TOY_FORTY_EIGHT_BYTES_WORD_4_DIFFERS_____THE_END"},
	{"TOY_A_NAME_OF_SEVENTY_BYTES_THAT_THE_SPEC_CUTS_TO_SIXTY_THREE_OF_THEM_:ppp", RAW, 0x10035,
	 0, 0x10035, 0, 3, 0, "TOY_A_NAME_OF_SEVENTY_BYTES_THAT_THE_SPEC_CUTS_TO_SIXTY_THREE_OF_THEM_",
	 "TOY_A_NAME_OF_SEVENTY_BYTES_THAT_THE_SPEC_CUTS_TO_SIXTY_THREE_O"},
};

static const struct err_case toy_err[] = {
	{"instructions", -EOPNOTSUPP, "generic event 'instructions' at offset 0 is not supported by TOY PMU"},
	{"branch-misses", -EINVAL, "generic event 'branch-misses' at offset 0 is invalid on TOY PMU"},
	{"cache-misses", -EOPNOTSUPP, "generic event 'cache-misses' at offset 0 is not supported by TOY PMU"},
	{"L1-dcache-loads", -EINVAL, "cache event 'L1-dcache-loads' at offset 0: TOY PMU has no cache "
	 "event map"},
	{"evsl=1", -EINVAL, "unknown term 'evsl' at offset 0; did you mean 'evsel'?"},
	{"pmcxsel=1", -EINVAL, "unknown term 'pmcxsel' at offset 0"},
	{"filter=16", -EINVAL, "value '16' for 'filter' at offset 7 does not fit its 4 bits (at most 0xf)"},
	{"PM_CYC", -ENOENT, "unknown event 'PM_CYC' at offset 0; did you mean 'TOY_CYC'?"},
	{"xyzzy", -ENOENT, "unknown event 'xyzzy' at offset 0"},
	{"TOY_CYK", -ENOENT, "unknown event 'TOY_CYK' at offset 0; did you mean 'TOY_CYC'?"},
	{"TOY_FORTY_EIGHT_BYTES_WORD_5_DIFFERS_____THE_END:u", -ENOENT,
	 "unknown event 'TOY_FORTY_EIGHT_BYTES_WORD_5_DIFFERS_____THE_END' at offset 0; did you "
	 "mean 'TOY_FORTY_EIGHT_BYTES_WORD_3_DIFFERS_____THE_END'?"},
	/* an event named like a term is still read as terms (the plain-name
	 * fast path leaves names holding ':' '/' '=' ',' to the full parser) */
	{"toy=1", -EINVAL, "unknown term 'toy' at offset 0"},
	{"TOY=1:u", -EINVAL, "unknown term 'TOY' at offset 0"},
};

static int failures;

#define CHECK(cond, ...)                                                  \
	do {                                                              \
		if (!(cond)) {                                            \
			fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
			fprintf(stderr, __VA_ARGS__);                     \
			fputc('\n', stderr);                              \
			failures++;                                       \
		}                                                         \
	} while (0)

static int index_of(const struct pmurt_pmu *pmu, const char *name)
{
	if (!name)
		return -1;
	struct pmurt_event_info info = {.sz = sizeof(info)};
	struct pmurt_error err = {0};
	int i = pmurt_event_find(pmu, name, &info, &err);
	CHECK(i >= 0, "test table names no event '%s'", name);
	return i;
}

static void run_ok(const struct pmurt_pmu *pmu, const struct ok_case *t)
{
	struct pmurt_event_spec s = {.sz = sizeof(s), .branch_sample_type = 7};
	struct pmurt_error err = {0};
	int rc = pmurt_parse_event(pmu, t->str, &s, &err);
	CHECK(rc == 0, "'%s': rc %d (%s)", t->str, rc, err.message);
	if (rc)
		return;
	CHECK(err.code == 0 && !err.message[0], "'%s': error set on success", t->str);
	CHECK(s.sz == sizeof(s), "'%s': sz %zu", t->str, s.sz);
	CHECK(s.type == t->type, "'%s': type %u, want %u", t->str, s.type, t->type);
	CHECK(s.config == t->config, "'%s': config 0x%" PRIx64 ", want 0x%" PRIx64, t->str, s.config,
	      t->config);
	CHECK(s.config1 == t->config1, "'%s': config1 0x%" PRIx64 ", want 0x%" PRIx64, t->str,
	      s.config1, t->config1);
	CHECK(s.code == t->code, "'%s': code 0x%" PRIx64 ", want 0x%" PRIx64, t->str, s.code, t->code);
	CHECK(s.exclude == t->exclude, "'%s': exclude 0x%x, want 0x%x", t->str, s.exclude, t->exclude);
	CHECK(s.precise == t->precise, "'%s': precise %d, want %d", t->str, s.precise, t->precise);
	CHECK(s.sample_period == t->period, "'%s': period %" PRIu64 ", want %" PRIu64, t->str,
	      s.sample_period, t->period);
	int want = index_of(pmu, t->event);
	CHECK(s.event_index == want, "'%s': event_index %d, want %d", t->str, s.event_index, want);
	CHECK(strcmp(s.name, t->name) == 0, "'%s': name '%s', want '%s'", t->str, s.name, t->name);
	CHECK(s.branch_sample_type == 0, "'%s': branch_sample_type not cleared", t->str);
}

static void run_err(const struct pmurt_pmu *pmu, const struct err_case *t)
{
	struct pmurt_event_spec s = {.sz = sizeof(s), .config = 0x5a5a, .name = "untouched"};
	struct pmurt_error err = {0};
	int rc = pmurt_parse_event(pmu, t->str, &s, &err);
	CHECK(rc == t->rc, "'%s': rc %d, want %d (%s)", t->str, rc, t->rc, err.message);
	CHECK(err.code == rc, "'%s': err.code %d, rc %d", t->str, err.code, rc);
	CHECK(strcmp(err.message, t->message) == 0, "'%s':\n  message '%s'\n  want    '%s'", t->str,
	      err.message, t->message);
	CHECK(s.config == 0x5a5a && strcmp(s.name, "untouched") == 0, "'%s': spec written on error",
	      t->str);
	/* the same without an error object */
	CHECK(pmurt_parse_event(pmu, t->str, &s, NULL) == t->rc, "'%s': rc differs without err", t->str);
}

/* Arguments, sizes and limits. */
static void run_api(const struct pmurt_pmu *pmu)
{
	struct pmurt_event_spec s = {.sz = sizeof(s)};
	struct pmurt_error err = {0};
	CHECK(pmurt_parse_event(pmu, NULL, &s, &err) == -EINVAL &&
	      strcmp(err.message, "pmurt_parse_event: missing argument") == 0, "NULL string");
	CHECK(pmurt_parse_event(NULL, "PM_CYC", &s, NULL) == -EINVAL, "NULL pmu");
	CHECK(pmurt_parse_event(pmu, "PM_CYC", NULL, NULL) == -EINVAL, "NULL spec");

	struct pmurt_event_spec z = {0};
	err = (struct pmurt_error){0};
	CHECK(pmurt_parse_event(pmu, "PM_CYC", &z, &err) == -EINVAL &&
	      strcmp(err.message, "pmurt_parse_event: spec->sz is 0; set it with PMURT_OPTS_INIT "
		     "or sizeof") == 0, "sz 0: %s", err.message);

	/* a caller built before branch_sample_type: nothing past its size is written */
	struct pmurt_event_spec old = {.sz = offsetof(struct pmurt_event_spec, branch_sample_type),
				       .branch_sample_type = 0x77};
	CHECK(pmurt_parse_event(pmu, "PM_CYC:u", &old, NULL) == 0 && old.code == 0x100f0 &&
	      old.exclude == (XK | XH) && old.branch_sample_type == 0x77 &&
	      old.sz == offsetof(struct pmurt_event_spec, branch_sample_type), "older struct size");

	struct pmurt_event_spec opt = PMURT_OPTS_INIT(pmurt_event_spec);
	CHECK(pmurt_parse_event(pmu, "cycles", &opt, NULL) == 0 && opt.code == 0x600f4,
	      "PMURT_OPTS_INIT");

	char big[1100];
	memset(big, 'A', sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	err = (struct pmurt_error){0};
	CHECK(pmurt_parse_event(pmu, big, &s, &err) == -EINVAL &&
	      strcmp(err.message, "event string longer than 1023 characters") == 0, "long: %s",
	      err.message);
	big[300] = 0;
	err = (struct pmurt_error){0};
	CHECK(pmurt_parse_event(pmu, big, &s, &err) == -ENOENT &&
	      strcmp(err.message, "unknown event 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
			     "AAAA...' at offset 0") == 0, "300 A: %s", err.message);
	err = (struct pmurt_error){0};
	CHECK(pmurt_parse_event(pmu, "PM_\x01\xff", &s, &err) == -ENOENT &&
	      strcmp(err.message, "unknown event 'PM_?" "?' at offset 0") == 0, "bytes: %s", err.message);

	/* every event of the description parses to itself */
	struct pmurt_pmu_info info = {.sz = sizeof(info)};
	pmurt_pmu_info(pmu, &info);
	for (int i = 0; i < info.nevents; i++) {
		struct pmurt_event_info ev = {.sz = sizeof(ev)};
		pmurt_event_get(pmu, i, &ev);
		int rc = pmurt_parse_event(pmu, ev.name, &s, NULL);
		bool legacy = s.type != RAW; /* perf's generic/cache spellings come first */
		CHECK(rc == 0 || rc == -EOPNOTSUPP, "event '%s': rc %d", ev.name, rc);
		CHECK(rc || legacy || (s.event_index == i && s.code == ev.code), "event '%s' -> %d",
		      ev.name, s.event_index);
		char wrapped[128];
		snprintf(wrapped, sizeof(wrapped), "cpu/%s/", ev.name);
		rc = pmurt_parse_event(pmu, wrapped, &s, NULL);
		CHECK(rc == 0 && s.event_index == i && s.code == ev.code, "'%s' -> %d", wrapped, rc);
	}
}

/* One string against another that must mean the same: every field of the
 * spec, at both struct sizes. */
static void same_spec(const struct pmurt_pmu *pmu, const char *str, const char *twin)
{
	size_t sizes[] = {sizeof(struct pmurt_event_spec),
			  offsetof(struct pmurt_event_spec, branch_sample_type)};
	for (int k = 0; k < 2; k++) {
		struct pmurt_event_spec a, b;
		memset(&a, 0x5a, sizeof(a));
		memset(&b, 0x5a, sizeof(b));
		a.sz = b.sz = sizes[k];
		int ra = pmurt_parse_event(pmu, str, &a, NULL);
		int rb = pmurt_parse_event(pmu, twin, &b, NULL);
		CHECK(ra == 0 && rb == 0, "'%s' rc %d, '%s' rc %d", str, ra, twin, rb);
		CHECK(a.sz == b.sz && a.type == b.type && a.config == b.config &&
		      a.config1 == b.config1 && a.code == b.code && a.exclude == b.exclude &&
		      a.precise == b.precise && a.sample_period == b.sample_period &&
		      a.event_index == b.event_index && strncmp(a.name, b.name, sizeof(a.name)) == 0 &&
		      a.branch_sample_type == b.branch_sample_type,
		      "'%s' and '%s' differ (struct size %zu)", str, twin, sizes[k]);
	}
}

/* pmurt_parse_event reads "NAME[:MODS]" of the description's events on a
 * fast path of its own (one for names spelled as the description spells
 * them, one for any case): every event, as spelled and in mixed case, with
 * modifiers, must come out as the full parser's perf wrapper "cpu/NAME/MODS"
 * reads it. */
static void run_plain_names(const struct pmurt_pmu *pmu)
{
	static const char *const mods[] = {"", ":u", ":k", ":h", ":uk", ":ukh", ":I", ":p",
					   ":ppp", ":ukhIppp", ":pkpu"};
	struct pmurt_pmu_info info = {.sz = sizeof(info)};
	pmurt_pmu_info(pmu, &info);
	int n = 0;
	for (int i = 0; i < info.nevents; i++) {
		struct pmurt_event_info ev = {.sz = sizeof(ev)};
		struct pmurt_event_spec s = {.sz = sizeof(s)};
		pmurt_event_get(pmu, i, &ev);
		if (pmurt_parse_event(pmu, ev.name, &s, NULL) || s.type != RAW)
			continue; /* perf's generic and cache spellings come first */
		char name[128], str[160], twin[160];
		for (int spelling = 0; spelling < 2; spelling++) {
			snprintf(name, sizeof(name), "%s", ev.name);
			for (size_t j = 0; spelling && name[j]; j++) /* a case of its own per event */
				if (((i + 1) >> (j % 8)) & 1)
					name[j] = (char)(name[j] ^ (('a' <= (name[j] | 0x20) &&
								     (name[j] | 0x20) <= 'z') ? 0x20 : 0));
			for (size_t m = 0; m < sizeof(mods) / sizeof(mods[0]); m++) {
				snprintf(str, sizeof(str), "%s%s", name, mods[m]);
				snprintf(twin, sizeof(twin), "cpu/%s/%s", name, mods[m]);
				same_spec(pmu, str, twin);
				n++;
			}
		}
	}
	CHECK(n > 0, "no plain names tried");
}

/* The seed corpus: every string parses or fails with a message. */
static void run_corpus(const struct pmurt_pmu *pmu, const char *dir)
{
	DIR *d = opendir(dir);
	CHECK(d, "cannot open %s", dir);
	if (!d)
		return;
	int n = 0;
	for (struct dirent *e; (e = readdir(d));) {
		if (e->d_name[0] == '.')
			continue;
		char path[4096], buf[2048];
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		FILE *f = fopen(path, "rb");
		if (!f)
			continue;
		size_t len = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
		buf[len] = 0;
		struct pmurt_event_spec s = {.sz = sizeof(s)};
		struct pmurt_error err = {0};
		int rc = pmurt_parse_event(pmu, buf, &s, &err);
		CHECK(rc == 0 || (rc < 0 && err.code == rc && err.message[0]), "corpus %s: rc %d",
		      e->d_name, rc);
		n++;
	}
	closedir(d);
	CHECK(n > 0, "empty corpus %s", dir);
}

static struct pmurt_pmu *open_pmu(const char *spec)
{
	struct pmurt_pmu *pmu = NULL;
	struct pmurt_error err = {0};
	if (pmurt_pmu_open(&pmu, spec, NULL, &err)) {
		fprintf(stderr, "FAIL: cannot open %s: %s\n", spec, err.message);
		exit(1);
	}
	return pmu;
}

#define RUN(pmu, fn, table)                                              \
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) \
		fn(pmu, &table[i])

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: %s TOY.yaml CORPUS-DIR\n", argv[0]);
		return 2;
	}
	struct pmurt_pmu *p10 = open_pmu("power10");
	struct pmurt_pmu *toy = open_pmu(argv[1]);
	RUN(p10, run_ok, p10_ok);
	RUN(p10, run_err, p10_err);
	RUN(toy, run_ok, toy_ok);
	RUN(toy, run_err, toy_err);
	run_api(p10);
	run_plain_names(p10);
	run_plain_names(toy);
	run_corpus(p10, argv[2]);
	run_corpus(toy, argv[2]);
	pmurt_pmu_close(p10);
	pmurt_pmu_close(toy);
	size_t n = sizeof(p10_ok) / sizeof(p10_ok[0]) + sizeof(p10_err) / sizeof(p10_err[0]) +
		   sizeof(toy_ok) / sizeof(toy_ok[0]) + sizeof(toy_err) / sizeof(toy_err[0]);
	printf("%zu table cases, %d failures\n", n, failures);
	return failures ? 1 : 0;
}
