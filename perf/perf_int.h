/*
 * perf_int.h - what the perf side's files share beyond the evsel.h
 * contract: the host and its description pick (host.c), counting
 * (count.c) and errno explanations (explain.c).  Not installed.
 */
#ifndef PMU_PERF_INT_H
#define PMU_PERF_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "evsel.h"
#include "internal.h"
#include "sys.h"

/* What the description pick reads (host.c): each may be NULL. */
struct pmu_pick_inputs {
	const char *sysfs;        /* the cpu PMU's caps/pmu_name ("POWER10") */
	const char *devtree;      /* a /proc/device-tree root with a pmus node */
	const char *at_platform;  /* getauxval(AT_PLATFORM): "power10" */
	const char *cpuinfo;      /* /proc/cpuinfo: its "pvr 0080 0200" */
	uint32_t pvr;             /* nonzero: this PVR, not cpuinfo's, chooses the
	                             revision-dependent checks (pmutool --pvr) */
};

/* The host's core description: the device tree's pmus node when present,
 * else the built-in whose platform matches the sysfs cpu PMU's pmu_name,
 * whose processor versions hold the PVR's, or whose platform matches
 * AT_PLATFORM.  0 with *pmu set and looked[] saying which source picked it
 * ("the cpu PMU's pmu_name 'Power11' (...)"); 1 with *pmu NULL and looked[]
 * saying what was looked for; a negative errno when a description found
 * does not load. */
PMURT_HIDDEN int pmu_host_pick(const struct pmu_pick_inputs *in, struct pmurt_pmu **pmu,
			       char *looked, size_t len, struct pmurt_error *err);

/* -ENOENT with err saying why when list has an event of the host's core
 * description but the host's core PMU is another (an x86 host asked for
 * POWER10 raw codes): refused before any system call, as the kernel would
 * count the code as its own event.  0 otherwise. */
PMURT_HIDDEN int pmu_refuse_foreign_core(const struct pmu_host *host,
					 const struct pmu_evlist *list, struct pmurt_error *err);

/* vpa_dtl is never opened per task, whatever sysfs says (evsel.h
 * pmu_is_vpa_dtl): -EINVAL with err explaining it when list has a vpa_dtl
 * event, before any system call (counting and stat's dry run), not skipped
 * as unsupported.  pid: the task's, 0 for the caller or a command not yet
 * started. */
PMURT_HIDDEN int pmu_refuse_dtl_per_task(const struct pmu_host *host,
					 const struct pmu_evlist *list, pid_t pid,
					 struct pmurt_error *err);

/* Why perf_event_open(attr of list->v[i], pid, cpu) failed with -errno
 * code, in words a user can act on, into err (code kept). */
PMURT_HIDDEN void pmu_explain_open(const struct pmu_host *host, const struct pmu_evlist *list,
				   int i, pid_t pid, int cpu, int code, struct pmurt_error *err);

/* vpa_dtl_event_init takes these configs only (arch/powerpc/perf/vpa-dtl.c);
 * its poll interval and the default areas are pmurt.h's PMURT_DTL_*. */
#define PMU_DTL_CONFIGS "dtl_cede (0x1), dtl_preempt (0x2), dtl_fault (0x4) or dtl_all (0x7)"
static inline bool pmu_dtl_config_valid(uint64_t config)
{
	return config == 1 || config == 2 || config == 4 || config == 7;
}

/* A vpa_dtl event of list with a config or an exclude bit its driver
 * refuses (vpa_dtl_event_init, PERF_PMU_CAP_NO_EXCLUDE): -EINVAL with the
 * open's explanation, before any system call; else 0. */
PMURT_HIDDEN int pmu_refuse_dtl_attr(const struct pmu_evlist *list, struct pmurt_error *err);

/* There is no vpa_dtl in host's sysfs: where it exists, in err (-ENOENT). */
PMURT_HIDDEN void pmu_explain_dtl_missing(const struct pmu_host *host, struct pmurt_error *err);

/* The read_format every counting event uses. */
#define PMU_COUNT_READ_FORMAT (PERF_FORMAT_GROUP | PERF_FORMAT_ID | \
			       PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING)

/* An open event list (count.c): fds[cpu * n + i], cpu index into cpus. */
struct pmurt_counter {
	const struct pmu_host *host;
	const struct pmu_evlist *list;  /* borrowed: the caller's list, or owned */
	struct pmurt_evlist *owned;     /* the string form's (pmurt_counter_open) */
	pid_t pid;
	int ncpus;
	int *cpus;          /* {-1} when counting a task */
	int *fds;
	uint64_t *ids;
	uint64_t *buf;      /* one group's read(), the largest */
	size_t buf_len;
	struct {
		uint64_t value, enabled, running;
	} *sum;
	int *skipped;       /* per event: 0, or the errno that left it out */
	bool dtl_disabled;  /* disabled once: a vpa_dtl event stays so */
	/* the tool events' (count.c): duration_time's start (CLOCK_MONOTONIC
	 * ns; the first enable moves it there), the children's CPU times at
	 * the open (ns) */
	uint64_t tool_start, tool_user, tool_system;
	bool tool_enabled;
};

/* The attr an event of the list is opened with for counting. */
PMURT_HIDDEN void pmu_count_attr(const struct pmu_evlist *list, int i, bool per_task,
				 bool inherit, bool enable_on_exec, struct perf_event_attr *attr);

#endif /* PMU_PERF_INT_H */
