/*
 * evsel.h - what an event list means to the kernel, inside libpmurt.
 *
 * An event list is what `-e` strings resolve to, parsed once: one struct
 * pmu_evsel per event, each with the perf_event_attr it is opened with, its
 * PMU (the core PMU of the loaded description, a sysfs PMU, software,
 * hardware, cache, tracepoint), its group and where it came from.  The
 * public struct pmurt_evlist (evlist.c) is one with the host it was parsed
 * on.  This header is the contract between parsing (evparse.c), the public
 * list (evlist.c), counting (perf/count.c) and sampling (perf/record.c).
 * Not installed.
 */
#ifndef PMU_EVSEL_H
#define PMU_EVSEL_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "pmurt.h"

struct pmurt_sys;   /* the syscall layer (perf/sys.h) */

/* Where the kernel side lives: the sysfs and tracefs roots (tests point them
 * at trees they build), the syscall layer, and the core PMU's description. */
struct pmu_host {
	char sysfs[256];    /* stands for /sys: DIR/bus/event_source/devices */
	char tracefs[256];  /* stands for /sys/kernel/tracing ("": none found
	                       at open; see pmu_host_tracefs) */
	bool tracefs_mountable; /* the running system's /sys and no tracefs
	                           given: a tracepoint may mount it */
	const struct pmurt_sys *sys;
	const struct pmurt_pmu *core;  /* may be NULL: no core events */
	char pick[320];     /* what picked the core description, or without
	                       one what the pick looked for (host.c) */
};

/* The public host handle: the contract's struct pmu_host and the
 * description it owns (perf/host.c opens it). */
struct pmurt_host {
	struct pmu_host h;
	struct pmurt_pmu *owned;
};

/* perf's software event i (parse-events.c event_symbols_sw) and its alias
 * (NULL when none); NULL past the last (evparse.c). */
const char *pmu_software_event(int i, const char **alias);

enum pmu_evsel_kind {
	PMU_EVSEL_CORE,       /* an event of the description (cpu/../, bare name, raw) */
	PMU_EVSEL_HARDWARE,   /* perf's generic hardware events */
	PMU_EVSEL_CACHE,      /* perf's generic cache events */
	PMU_EVSEL_SOFTWARE,   /* cpu-clock, task-clock, page-faults, ... */
	PMU_EVSEL_TRACEPOINT, /* sched:sched_switch */
	PMU_EVSEL_SYSFS,      /* any other sysfs PMU with its format terms */
	PMU_EVSEL_BREAKPOINT, /* mem:ADDR[/LEN][:rwx] */
	PMU_EVSEL_TOOL,       /* duration_time, user_time, system_time: no fd */
};

struct pmu_evsel {
	struct perf_event_attr attr;  /* type, config*, exclude bits, period ... */
	enum pmu_evsel_kind kind;
	char name[256];       /* as the user wrote it (perf prints this) */
	char pmu[64];         /* "cpu", "software", "tracepoint", "msr", ... */
	int leader;           /* index of the group leader (itself if it leads) */
	int group_size;       /* on the leader: members including itself */
	double scale;         /* sysfs .scale, 1.0 when none */
	char unit[32];        /* sysfs .unit, "" when none */
	bool per_cpu_only;    /* the PMU has no task context: a cpumask, or
	                         vpa_dtl (which has none; pmu_is_vpa_dtl) */
	char cpumask[128];    /* that cpumask ("0", "0-7"), "" when none: counted
	                         CPU-wide on these CPUs only, as perf does */
	struct pmurt_event_spec spec;  /* PMU_EVSEL_CORE: the parsed event */
	/* where it came from */
	int string;           /* the string added (0, 1, ...), -1: a pack */
	size_t offset, length; /* its bytes in that string */
	int preset;           /* a derived preset's index whose event it is, -1 */
	int pack_group;       /* the pmurt_pack group it came from, -1 */
	bool sample_read;     /* perf's :S: its samples read its group's
	                         counters (leader sampling, pmu_record_attr) */
	enum pmurt_tool_event tool; /* PMU_EVSEL_TOOL's, else PMURT_TOOL_NONE */
};

struct pmu_evlist {
	struct pmu_evsel *v;
	int n, cap;
	int nstrings;         /* strings parsed onto it */
	bool derived_presets; /* a derived preset alone is its events' group */
};

/* The public list: the events and the host they were parsed on (which it
 * borrows). */
struct pmurt_evlist {
	struct pmu_evlist l;
	struct pmurt_host *host;
};

/* The vpa_dtl PMU, by the name its driver registers (arch/powerpc/perf/
 * vpa-dtl.c: .name = "vpa_dtl", task_ctx_nr = perf_invalid_context).  It has
 * no cpumask file, yet it is per CPU only, and a per-task open with cpu -1
 * crashes kernels up to at least 7.2 (vpa_dtl_event_init calls
 * vpa_dtl_mem_alloc(event->cpu) before the core refuses the task context):
 * libpmurt never opens it per task. */
static inline bool pmu_is_vpa_dtl(const char *pmu)
{
	return __builtin_strcmp(pmu, "vpa_dtl") == 0;
}

/* Any exclude bit, as kernel/events/core.c event_has_any_exclude_flag reads
 * them (the bits a PERF_PMU_CAP_NO_EXCLUDE PMU refuses). */
static inline bool pmu_attr_excludes_any(const struct perf_event_attr *a)
{
	return a->exclude_idle || a->exclude_user || a->exclude_kernel || a->exclude_hv ||
	       a->exclude_guest || a->exclude_host;
}

/* Parse one -e string ("A,B", "{A,B,C}", "cpu/event=0x1e/u", "msr/tsc/",
 * "sched:sched_switch", "cycles:k", ...) and append its events to list (a
 * derived PAPI preset alone as the group of its events when
 * list->derived_presets).  Returns 0, or a negative errno with err naming
 * the part of the string at fault and its offset (the list unchanged). */
int pmu_evlist_parse(struct pmu_evlist *list, const struct pmu_host *host,
		     const char *str, struct pmurt_error *err);
void pmu_evlist_free(struct pmu_evlist *list);

/* The spec of core event e with the exclude bits its attr ended with
 * (group modifiers set them after parsing). */
struct pmurt_event_spec pmu_evsel_spec(const struct pmu_evsel *e);
/* Whether e counts on the host's core PMU (the group check's business). */
bool pmu_evsel_is_core(const struct pmu_host *host, const struct pmu_evsel *e);
/* The core events of the group led by list->v[leader] through
 * pmurt_group_check with opts; 0 with res filled (res->n 0 and no reason
 * when the group has no core events), or a negative errno. */
int pmu_evlist_group_check(const struct pmu_host *host, const struct pmu_evlist *list, int leader,
			   const struct pmurt_check_opts *opts, struct pmurt_group_result *res,
			   struct pmurt_error *err);

#endif /* PMU_EVSEL_H */
