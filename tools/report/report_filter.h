/*
 * report_filter.h - the sample filters pmutool report and script share,
 * perf 6.1's: --comms, --pid, --tid, --dsos, --symbols, --cpu and --time
 * (report_filter.c).
 */
#ifndef PMUTOOL_REPORT_FILTER_H
#define PMUTOOL_REPORT_FILTER_H

#include <stdbool.h>
#include <stdint.h>

#include "tool_session.h"

struct report_opts;

/* The filters' text as given (NULL: none), what report_opts holds. */
struct filter_spec {
	const char *comms, *pids, *tids, *dsos, *symbols, *cpus, *time;
};

struct name_list {
	char *text;         /* the list, its commas made NULs */
	const char **names;
	int n;
};

struct time_range {
	uint64_t start, end;   /* 0: open on that side */
};

struct report_filter {
	struct name_list comms, dsos, symbols;
	int *pids, npids, *tids, ntids;
	bool *cpu_wanted;      /* by CPU number, ncpu_wanted of them */
	int ncpu_wanted;
	struct time_range *times;
	int ntimes;
};

/* What a filter makes of a sample, as perf 6.1 does: DROP before anything
 * counts it (--cpu, --time: builtin-report.c process_sample_event's early
 * returns), HIDE when it counts in the whole but shows in no row (--comms,
 * --pid, --tid, --dsos, --symbols: machine__resolve's al->filtered, the
 * percentages staying of the whole, perf's --percentage absolute). */
enum filter_verdict { FILTER_KEEP, FILTER_HIDE, FILTER_DROP };

/* Parse spec's lists and check them against the opened file s (--cpu
 * wants its samples' CPUs, a --time percentage its first and last sample
 * times).  An exit code, the message given through s->tool. */
int report_filter_init(struct report_filter *f, const struct filter_spec *spec,
		       const struct session *s);
enum filter_verdict report_filter_sample(const struct report_filter *f,
					 const struct session_sample *smp);
void report_filter_free(struct report_filter *f);

#endif /* PMUTOOL_REPORT_FILTER_H */
