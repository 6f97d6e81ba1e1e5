/*
 * dtl_stats.h - what `pmutool dtl report` computes from Dispatch Trace Log
 * entries, per CPU and overall: dispatches, the dispatch and preempt reason
 * mix, the distributions of the three wait times (exact p50/p90/p99 and max,
 * log2 histograms in microseconds) and the steal each vCPU saw.
 */
#ifndef PMUTOOL_DTL_STATS_H
#define PMUTOOL_DTL_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "dtl_check.h"
#include "pmurt.h"

/* The three wait times of an entry, in the entry's order. */
enum { DTL_ENQUEUE_TO_DISPATCH, DTL_READY_TO_ENQUEUE, DTL_WAITING_TO_READY, DTL_NTIMES };
extern const char *const dtl_time_names[DTL_NTIMES];

#define DTL_HIST_BUCKETS 34 /* [0,1) us, then [2^(k-1), 2^k) us up to 2^32 */

struct dtl_dist {
	uint64_t count;
	uint64_t sum;       /* ticks */
	uint32_t max;       /* ticks */
	uint32_t p50, p90, p99; /* ticks, nearest rank */
	uint64_t hist[DTL_HIST_BUCKETS]; /* by microseconds */
};

struct dtl_cpu {
	int cpu;
	uint64_t dispatches;  /* entries used */
	uint64_t skipped;     /* entries perf skips (zero or negative timebase) */
	uint64_t stale_bytes; /* stale tails split off at wraps */
	uint64_t dispatch_mix[256], preempt_mix[256];
	uint64_t steal;       /* ticks: enqueue_to_dispatch + ready_to_enqueue */
	uint64_t first_tb, last_tb;
	struct dtl_dist dist[DTL_NTIMES];
	/* per entry, in arrival order: the three times, and with keep_timeline
	 * the timebase and the dispatch and preempt reasons (two bytes an entry) */
	uint64_t *tb;
	uint32_t *times[DTL_NTIMES];
	uint32_t max[DTL_NTIMES];     /* the largest of each time so far */
	uint8_t *reasons;
	size_t n, cap;
};

/* Another event's sample, shown beside the DTL in the trace output. */
struct dtl_mark {
	uint64_t time;      /* ns, perf's sample time (the DTL's clock) */
	int cpu;
	const char *name;   /* the event's name, owned by the caller */
};

struct dtl_stats {
	bool keep_timeline;     /* set before adding: the HTML and trace outputs need it */
	uint64_t slot_base;     /* set before adding: the input's offset of slot offset 0 */
	struct dtl_warnings warn;
	struct pmurt_dtl_header header; /* the first header seen */
	bool have_header;
	struct dtl_cpu *cpus;   /* sorted by cpu after dtl_stats_finish */
	size_t ncpus;
	size_t last;            /* the CPU the last entry went to */
	uint64_t *radix;        /* dtl_stats_finish's selection counters */
	struct dtl_cpu overall; /* cpu -1; no per-entry arrays */
	struct dtl_mark *marks; /* in file order */
	size_t nmarks, capmarks;
	char **names;           /* the marks' event names, freed with the stats */
	size_t nnames;
};

/* 0 or -ENOMEM. */
int dtl_stats_reserve(struct dtl_stats *s, int cpu, size_t entries);
int dtl_stats_add(struct dtl_stats *s, int cpu, const struct pmurt_dtl_slot *slot);
int dtl_stats_mark(struct dtl_stats *s, const struct dtl_mark *m);
/* A header slot on cpu (its tb_freq checked); offset is the slot's. */
void dtl_stats_header(struct dtl_stats *s, int cpu, uint64_t offset,
		      const struct pmurt_dtl_header *h);
/* Percentiles, histograms and the overall figures; 0 or -ENOMEM. */
int dtl_stats_finish(struct dtl_stats *s);
void dtl_stats_free(struct dtl_stats *s);

uint64_t dtl_tb_freq(const struct dtl_stats *s);
/* where dtl_tb_freq comes from: "header", or "default" (none, or zero) */
const char *dtl_tb_freq_from(const struct dtl_stats *s);
/* ticks to microseconds at the stream's tb_freq */
double dtl_us(const struct dtl_stats *s, uint64_t ticks);

/* The outputs (dtl_output.c); each returns 0 or -errno. */
int dtl_report_text(const struct dtl_stats *s, FILE *out);
int dtl_report_json(const struct dtl_stats *s, FILE *out);
int dtl_report_html(const struct dtl_stats *s, FILE *out);
int dtl_report_perfetto(const struct dtl_stats *s, FILE *out);

#endif /* PMUTOOL_DTL_STATS_H */
