/*
 * stat.h - what pmutool stat's files share: the dry run (stat_dry.c), the
 * runs and their output (cmd_stat.c, stat_print.c).
 */
#ifndef PMUTOOL_STAT_H
#define PMUTOOL_STAT_H

#include <jansson.h>
#include <stdint.h>

#include "evlist.h"
#include "pmutool.h"

/* The "version" key of stat's JSON: bumped when a key changes meaning. */
#define STAT_JSON_VERSION 1

/* Exit status when the kernel refuses to open an event (pmutool.1). */
#define EXIT_OPEN_FAILED 5

int stat_dry_run(struct tool *t, const struct pmu_evlist *list);

/* One event over the runs: each run's count. */
struct stat_event {
	const char *name, *unit, *pmu;
	double scale;
	double *values;        /* per run: scaled count * scale */
	uint64_t enabled, running;  /* the last run's */
	bool not_counted;      /* never ran in some run */
};

/* A derived PAPI preset in the event list, counted as its events
 * (stat_presets.c). */
struct stat_derived {
	int preset;            /* pmurt_preset_get index */
	int nevents;
	int first;             /* its first event in the parsed list, -1 unknown */
	size_t offset;         /* where its events start in the expanded string */
	bool inside;           /* they went into a group */
};

struct stat_presets {
	struct stat_derived *d;
	int n;
};

struct stat_report {
	const char *command;   /* the command line, quoted as perf does */
	const struct stat_presets *presets; /* computed after the runs */
	int nevents, runs;
	struct stat_event *ev;
	double *elapsed;       /* per run, seconds */
	int status;            /* the last run's exit status */
};

/* Mean and the relative spread (perf's stddev of the mean, in percent). */
void stat_spread(const double *v, int n, double *mean, double *rel);

void stat_print_text(const struct tool *t, const struct stat_report *r);
void stat_print_csv(const struct tool *t, const struct stat_report *r);
json_t *stat_report_json(const struct stat_report *r);
/* One interval's lines (-I): time since start, counts since the last. */
void stat_print_interval(const struct tool *t, double when, const struct pmurt_count *now,
			 const struct pmurt_count *prev, int n, json_t *intervals);
/* events with each derived preset replaced by a group of its events (out
 * says where); NULL when memory ran out. */
char *stat_expand_presets(const struct tool *t, const char *events, struct stat_presets *out);
/* The derived presets' values per run appended to r's events (pmu
 * "preset"); not counted when a member was not or the value is out of
 * range.  0, or -1 when memory ran out. */
int stat_add_presets(const struct tool *t, const struct stat_presets *ps, struct stat_report *r);
void stat_presets_free(struct stat_presets *ps);

/* Prints o (taking it) indented, with a newline. */
void stat_print_json(json_t *o);

#endif /* PMUTOOL_STAT_H */
