/*
 * stat.h - what pmutool stat's files share: the dry run (stat_dry.c), the
 * runs and their output (cmd_stat.c, stat_print.c).
 */
#ifndef PMUTOOL_STAT_H
#define PMUTOOL_STAT_H

#include <getopt.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>
#include <sys/types.h>

#include "pmutool.h"

/* The "version" key of stat's JSON: bumped when a key changes meaning. */
#define STAT_JSON_VERSION 1

/* stat's own options (stat_opts.c parses them); pmutool's shared ones
 * (--pmu, --sysfs, --tracefs, the host) stay in struct tool. */
struct stat_opts {
	const char **events;        /* -e (each, in order; malloc'd) */
	int nevents;
	const char *metric_names;   /* -M NAME[,NAME...] */
	bool metric_only;           /* --metric-only */
	bool all_cpus;              /* -a */
	const char *cpu_list;       /* -C CPUS */
	long interval_ms;           /* -I MS (0: none) */
	long repeat;                /* -r N (0: once) */
	const char *sep;            /* -x SEP */
	const char *output;         /* -o FILE */
	bool dry_run;               /* --dry-run */
	bool json;                  /* -j, --json: perf stat -j's lines (a dry
	                               run: its attrs as one document) */
	bool append;                /* --append: to -o's FILE, not over it */
	bool openmetrics;           /* --openmetrics (stat_openmetrics.c) */
	bool json_report;           /* --json-report: one JSON document of
	                               the runs, intervals and metrics */
	int aggr;                   /* enum stat_aggr_mode: -A, --per-core,
	                               --per-die, --per-socket */
	const char *aggr_option;    /* the option that set it */
	int pid;                    /* -p PID (0: none) */
	FILE *out;                  /* not an option: -o's stream while stat
	                               runs, else NULL (standard error) */
};

/* stat_opts.c: stat's option table, which pmutool's parser merges with the
 * other families' (options may come before the subcommand's name).
 * stat_option takes option c (getopt_long's value) into o: -1 when it is
 * not one of stat's, else an exit code. */
enum { STAT_OPT_PID = 0x200, STAT_OPT_DRY_RUN, STAT_OPT_METRIC_ONLY, STAT_OPT_JSON_REPORT,
       STAT_OPT_APPEND, STAT_OPT_PER_CORE, STAT_OPT_PER_DIE, STAT_OPT_PER_SOCKET,
       STAT_OPT_OPENMETRICS };
extern const char stat_shortopts[];
extern const struct option stat_longopts[];
int stat_option(struct stat_opts *opts, const struct tool *t, int c, const char *arg);
/* The first of stat's options given (in the order pmutool's refusals name
 * them), NULL when none; -j, which list, check and report take too, and -p,
 * which stat alone takes, are not counted. */
const char *stat_opts_given(const struct stat_opts *opts);
void stat_opts_free(struct stat_opts *opts);
/* `pmutool stat`: an exit code (the command's exit status when it ran). */
int cmd_stat(const struct tool *t, struct stat_opts *opts);


/* One event over the runs: each run's count. */
struct stat_event {
	const char *name, *unit, *pmu;
	uint32_t type;         /* its attr's: what perf's derived figure is */
	uint64_t config;
	bool duration;         /* perf's duration_time tool event: stat's own
	                          elapsed time (cmd_stat.c stat_fill_duration) */
	double scale;
	double *values;        /* per run: scaled count * scale */
	uint64_t enabled, running;  /* the mean over the runs so far, truncated (perf
	                               prints avg_stats of each as a u64) */
	double enabled_sum, running_sum;
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

/* How the counts are split (perf's aggr_mode): all CPUs as one, or per
 * CPU, core, die or socket (stat_aggr.c). */
enum stat_aggr_mode { STAT_AGGR_GLOBAL, STAT_AGGR_CPU, STAT_AGGR_CORE, STAT_AGGR_DIE,
		      STAT_AGGR_SOCKET };

/* A unit the counts are split into: its id as perf's aggr_cpu_id (what
 * the mode does not split is -1) and its CPUs. */
struct stat_unit {
	int socket, die, core, cpu;
	int ncpus;             /* its CPUs (perf's aggregate-number) */
	bool first_cpu;        /* it holds the first CPU, the tool events' */
};

struct stat_aggr {
	enum stat_aggr_mode mode;
	int nsets, nevents, runs;   /* sets: one per CPU, in the CPU list's order */
	int nunits;
	struct stat_unit *units;    /* in perf's order */
	int *unit_of;               /* per set: its unit */
	struct pmurt_count *now, *prev;  /* per unit and event: the last read,
	                               the one before (-I) */
	struct stat_event *ev;      /* per unit and event: over the runs */
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
	struct stat_aggr *aggr;  /* -A, --per-core, ...: the units' counts, else NULL */
};

/* Run k's count c into e (the mean times, not counted, not supported). */
void stat_event_keep(struct stat_event *e, const struct pmurt_count *c, int k);

/* stat_aggr.c: the units of the CPUs' sets (cpus[0..ncpus), one set
 * each) into r->aggr; an exit code. */
int stat_aggr_plan(const struct tool *t, enum stat_aggr_mode mode, const int *cpus, int ncpus,
		   struct stat_report *r);
/* One read: begin, each set's counts added to its unit, end (scaled). */
void stat_aggr_begin(struct stat_aggr *a);
void stat_aggr_add(struct stat_aggr *a, int set, const struct pmurt_count *counts);
void stat_aggr_end(struct stat_aggr *a);
/* The CPUs of unit u that count c (perf's aggregate-number). */
int stat_aggr_cpus(const struct stat_aggr *a, int u, const struct pmurt_count *c);
/* The last read as run k's counts. */
void stat_aggr_keep(struct stat_aggr *a, int k);
/* Unit u's columns before a count (nr its CPUs), text, CSV (sep) or JSON. */
void stat_aggr_label(const struct stat_aggr *a, int u, int nr, const char *sep, bool json,
		     char *out, size_t len);
const char *stat_aggr_interval_header(const struct stat_aggr *a);
void stat_aggr_free(struct stat_aggr *a);

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

/* The run's counts go to t->stat_out (-o FILE), else standard error.
 * The printers return 0, or -ENOMEM with the units' lines (-A, --per-*)
 * not printed. */
int stat_print_text(const struct stat_opts *opts, const struct stat_report *r);
int stat_print_csv(const struct stat_opts *opts, const struct stat_report *r);
json_t *stat_report_json(const struct stat_report *r);
/* perf stat -j's lines: one JSON object per event (stat_print.c). */
int stat_print_json_lines(const struct stat_opts *opts, const struct stat_report *r);
/* s as a quoted, escaped JSON string. */
void stat_json_string(FILE *out, const char *s);
/* One interval's lines (-I): time since start, counts since the last;
 * the events' types from r; index counts the intervals (perf's header
 * line before the first and every 25th). */
int stat_print_interval(const struct stat_opts *opts, const struct stat_report *r, int index,
			double when, const struct pmurt_count *now,
			const struct pmurt_count *prev, int n, json_t *intervals);
/* An interval's count of an event (prev NULL: since the start) as perf stat
 * -I scales it: the interval's value times its enabled over its running
 * time, not the difference of two scaled totals. */
uint64_t stat_interval_scaled(const struct pmurt_count *now, const struct pmurt_count *prev);
/* Prints o (taking it) indented, with a newline. */
void stat_print_json(json_t *o, FILE *out);

/* The -e strings and -M's groups (r->metrics) parsed once into *list (a
 * derived preset as the group of its events, recorded in r->derived).
 * Returns an exit code. */
int stat_events(const struct tool *t, const struct stat_opts *opts, struct pmurt_evlist **list,
		struct stat_report *r);
int stat_dry_run(const struct tool *t, const struct stat_opts *opts,
		 const struct pmurt_evlist *list, const struct stat_report *r);
/* The derived presets' values of run from the events' counts. */
void stat_compute_derived(const struct tool *t, struct stat_report *r,
			  const struct pmurt_count *counts, int run);

/* stat_metrics.c: -M's metrics packed into groups (after -e's events in
 * the list), computed from each run's counts and printed. */
int stat_metrics_plan(const struct tool *t, const struct stat_opts *opts, struct stat_report *r);
/* The plan's groups onto list (pmurt_evlist_add_pack); 0 or -errno. */
int stat_metrics_add(struct stat_report *r, struct pmurt_evlist *list, struct pmurt_error *err);
void stat_metrics_compute(const struct tool *t, struct stat_report *r,
			  const struct pmurt_count *now, int run);
void stat_metrics_print(const struct stat_opts *opts, const struct stat_report *r);
void stat_metrics_interval(const struct tool *t, const struct stat_opts *opts,
			   const struct stat_report *r, double when,
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
	struct stat_aggr *aggr;   /* each read's counts per unit too, else NULL */
};
/* Takes set (closed on failure); an exit code. */
int stat_counters_add(const struct tool *t, struct stat_counters *c, struct pmurt_counter *set);
/* The sum over the sets, scaled as perf scales a process's threads. */
int stat_counters_read(const struct tool *t, struct stat_counters *c, struct pmurt_count *out);
void stat_counters_close(struct stat_counters *c);
/* -p: every thread of t->pid, counters open and enabled; an exit code. */
int stat_attach(const struct tool *t, const struct stat_opts *opts, const struct pmurt_evlist *list,
		struct stat_counters *c);
/* A pidfd of pid, readable once it ends; -1 (said) on failure. */
int stat_pidfd(const struct tool *t, pid_t pid);
/* The message of a failed pmurt_counter_open or enable, and its exit code. */
int stat_open_error(const struct tool *t, int rc, const struct pmurt_error *err);

/* stat_openmetrics.c: --openmetrics.  The options it cannot honour (an
 * exit code), one -I interval's cumulative counts and metrics kept (0 or
 * -ENOMEM), the whole output (an exit code). */
int stat_om_check(const struct tool *t, const struct stat_opts *opts);
int stat_om_interval(const struct tool *t, struct stat_report *r, const struct pmurt_count *now,
		     const struct pmurt_count *prev, int n);
int stat_om_print(const struct tool *t, const struct stat_opts *opts, const struct stat_report *r);
void stat_om_free(struct stat_report *r);

#endif /* PMUTOOL_STAT_H */
