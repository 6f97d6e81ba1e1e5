/*
 * stat.h - what pmutool stat's files share: the dry run (stat_dry.c), the
 * runs and their output (cmd_stat.c, stat_print.c).
 */
#ifndef PMUTOOL_STAT_H
#define PMUTOOL_STAT_H

#include <jansson.h>
#include <stdint.h>
#include <sys/types.h>

#include "evlist.h"
#include "pmutool.h"

/* The "version" key of stat's JSON: bumped when a key changes meaning. */
#define STAT_JSON_VERSION 1


/* One event over the runs: each run's count. */
struct stat_event {
	const char *name, *unit, *pmu;
	uint32_t type;         /* its attr's: what perf's derived figure is */
	uint64_t config;
	double scale;
	double *values;        /* per run: scaled count * scale */
	uint64_t enabled, running;  /* the last run's */
	bool not_counted;      /* never ran in some run */
	bool not_supported;    /* the host cannot count it (its open failed as
	                          perf stat's <not supported>) */
};

/* A derived PAPI preset: computed from the counts of its events
 * (ev[first .. first + n)) with pmurt_preset_eval. */
struct stat_derived {
	char name[64], formula[160];
	int index;             /* the preset's index in the description */
	int first, n;
	double *values;        /* per run */
	bool failed;           /* pmurt_preset_eval refused (why says why) */
	char why[128];
};

struct stat_report {
	const char *command;   /* the command line, quoted as perf does; NULL for
	                          -p without one */
	int pid;               /* -p PID, else 0 */
	int nevents, runs;
	struct stat_event *ev;
	struct stat_derived *derived;
	int nderived;
	double *elapsed;       /* per run, seconds */
	struct stat_metrics *metrics; /* -M (stat_metrics.c), else NULL */
	struct stat_om *om;    /* --openmetrics's intervals (stat_openmetrics.c) */
	bool rusage;           /* user and sys times of the command (perf's
	                          ru_display: one run of a command it ran) */
	double user_s, sys_s;
	int status;            /* the last run's exit status */
};

/* stat_shadow.c: perf's derived figure after an event's count. */
struct stat_shadow_event {
	uint32_t type;
	uint64_t config;
	double value;          /* the mean count, scaled (in its unit) */
	double count;          /* the mean count (a clock's nanoseconds) */
	bool counted;
};
struct stat_shadow {
	double clock_ns;       /* mean of the clock events' counts, 0: none */
	double cycles, branches, cache_refs;  /* their means, 0: none */
	double wall_ns;        /* the elapsed time (-I: the interval) */
};
struct stat_shadow_figure {
	const char *fmt;       /* NULL: none (perf's blank columns) */
	double value;
	char unit[24];
};
bool stat_shadow_is_clock(uint32_t type, uint64_t config);
void stat_shadow_collect(struct stat_shadow *sh, const struct stat_shadow_event *ev, int n,
			 double wall_ns);
void stat_shadow_metric(const struct stat_shadow *sh, const struct stat_shadow_event *e,
			struct stat_shadow_figure *m);

/* Mean and the relative spread (perf's stddev of the mean, in percent). */
void stat_spread(const double *v, int n, double *mean, double *rel);

/* The run's counts go to t->stat_out (-o FILE), else standard error. */
void stat_print_text(const struct tool *t, const struct stat_report *r);
void stat_print_csv(const struct tool *t, const struct stat_report *r);
json_t *stat_report_json(const struct stat_report *r);
/* One interval's lines (-I): time since start, counts since the last;
 * the events' types from r; index counts the intervals (perf's header
 * line before the first and every 25th). */
void stat_print_interval(const struct tool *t, const struct stat_report *r, int index,
			 double when, const struct pmurt_count *now,
			 const struct pmurt_count *prev, int n, json_t *intervals);
/* Prints o (taking it) indented, with a newline. */
void stat_print_json(json_t *o, FILE *out);

/* The -e strings parsed onto list (each top-level item in turn, a derived
 * preset as the group of its events, recorded in r->derived); *events the
 * list to open, malloc'd.  Returns an exit code. */
int stat_events(struct tool *t, struct pmu_evlist *list, char **events, struct stat_report *r);
int stat_dry_run(struct tool *t, const struct pmu_evlist *list, const struct stat_report *r);
/* The derived presets' values of run from the events' counts. */
void stat_compute_derived(const struct tool *t, struct stat_report *r,
			  const struct pmurt_count *counts, int run);

/* stat_metrics.c: -M's metrics packed into groups (their event string,
 * after -e's), computed from each run's counts and printed. */
int stat_metrics_plan(struct tool *t, struct stat_report *r);
const char *stat_metrics_events(const struct stat_report *r);
/* The evlist's nevents, the plan's events last. */
void stat_metrics_located(struct stat_report *r, int nevents);
void stat_metrics_compute(const struct tool *t, struct stat_report *r,
			  const struct pmurt_count *now, int run);
void stat_metrics_print(const struct tool *t, const struct stat_report *r);
void stat_metrics_interval(const struct tool *t, const struct stat_report *r, double when,
			   const struct pmurt_count *now, const struct pmurt_count *prev);
json_t *stat_metrics_json(const struct stat_report *r);
/* Each metric's value from the counts between prev and now (NaN: none),
 * in stat_metrics_json's order, into out. */
void stat_metrics_values(const struct tool *t, const struct stat_report *r,
			 const struct pmurt_count *now, const struct pmurt_count *prev, double *out);
void stat_metrics_dry(const struct tool *t, const struct stat_report *r, json_t *o);
void stat_metrics_free(struct stat_report *r);
/* stat_dry.c: a group check's answer as JSON. */
json_t *stat_check_json(const struct pmurt_pmu *pmu, const struct pmurt_group_result *r);

/* stat_attach.c: the counters of one run, one set or one per thread of a
 * process (-p), read as one. */
struct stat_counters {
	struct pmurt_counter **sets;
	int nsets, nevents;
};
/* Takes set (closed on failure); an exit code. */
int stat_counters_add(const struct tool *t, struct stat_counters *c, struct pmurt_counter *set);
/* The sum over the sets, scaled as perf scales a process's threads. */
int stat_counters_read(const struct tool *t, struct stat_counters *c, struct pmurt_count *out);
void stat_counters_close(struct stat_counters *c);
/* -p: every thread of t->pid, counters open and enabled; an exit code. */
int stat_attach(struct tool *t, const char *events, struct stat_counters *c);
/* A pidfd of pid, readable once it ends; -1 (said) on failure. */
int stat_pidfd(const struct tool *t, pid_t pid);
/* The message of a failed pmurt_counter_open or enable, and its exit code. */
int stat_open_error(const struct tool *t, int rc, const struct pmurt_error *err);

/* stat_openmetrics.c: --openmetrics.  The options it cannot honour (an
 * exit code), one -I interval's cumulative counts and metrics kept (0 or
 * -ENOMEM), the whole output (an exit code). */
int stat_om_check(const struct tool *t);
int stat_om_interval(const struct tool *t, struct stat_report *r, const struct pmurt_count *now,
		     const struct pmurt_count *prev, int n);
int stat_om_print(const struct tool *t, const struct stat_report *r);
void stat_om_free(struct stat_report *r);

#endif /* PMUTOOL_STAT_H */
