/*
 * stat_opts.c - pmutool stat's own options: its getopt table and what each
 * option sets in struct stat_opts.  pmutool.c merges this table with the
 * other families' so that an option of stat's given to another subcommand
 * is refused by name rather than silently ignored.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>

#include "stat.h"

const char stat_shortopts[] = "je:M:aAC:I:r:x:o:";

const struct option stat_longopts[] = {
	{"event", required_argument, NULL, 'e'},
	{"metrics", required_argument, NULL, 'M'},
	{"metric-only", no_argument, NULL, STAT_OPT_METRIC_ONLY},
	{"all-cpus", no_argument, NULL, 'a'},
	{"cpu", required_argument, NULL, 'C'},
	{"interval-print", required_argument, NULL, 'I'},
	{"repeat", required_argument, NULL, 'r'},
	{"field-separator", required_argument, NULL, 'x'},
	{"output", required_argument, NULL, 'o'},
	{"dry-run", no_argument, NULL, STAT_OPT_DRY_RUN},
	{"json", no_argument, NULL, 'j'},
	{"json-report", no_argument, NULL, STAT_OPT_JSON_REPORT},
	{"append", no_argument, NULL, STAT_OPT_APPEND},
	{"openmetrics", no_argument, NULL, STAT_OPT_OPENMETRICS},
	{"pid", required_argument, NULL, STAT_OPT_PID},
	{"no-aggr", no_argument, NULL, 'A'},
	{"per-core", no_argument, NULL, STAT_OPT_PER_CORE},
	{"per-die", no_argument, NULL, STAT_OPT_PER_DIE},
	{"per-socket", no_argument, NULL, STAT_OPT_PER_SOCKET},
	{NULL, 0, NULL, 0},
};

static int add_event(struct stat_opts *opts, const struct tool *t, const char *arg)
{
	const char **v = realloc(opts->events, (size_t)(opts->nevents + 1) * sizeof(*v));
	if (!v) {
		tool_error(t, "out of memory");
		return EXIT_INTERNAL;
	}
	opts->events = v;
	opts->events[opts->nevents++] = arg;
	return EXIT_OK;
}

static int number_option(const struct tool *t, const char *opt, const char *arg, long lo, long hi,
			 long *out)
{
	char *end;
	errno = 0;
	long v = strtol(arg, &end, 10);
	if (end == arg || *end || errno || v < lo || v > hi) {
		tool_error(t, "%s wants a number from %ld to %ld, not '%s'", opt, lo, hi, arg);
		return EXIT_USAGE;
	}
	*out = v;
	return EXIT_OK;
}

/* -A, --per-core, ...: the last given wins, as in perf (one aggr_mode). */
static int aggr_option(struct stat_opts *opts, enum stat_aggr_mode mode, const char *name)
{
	opts->aggr = (int)mode;
	opts->aggr_option = name;
	return EXIT_OK;
}

int stat_option(struct stat_opts *opts, const struct tool *t, int c, const char *arg)
{
	long pid;
	int rc;
	switch (c) {
	case 'e': return add_event(opts, t, arg);
	case 'M': opts->metric_names = arg; return EXIT_OK;
	case STAT_OPT_METRIC_ONLY: opts->metric_only = true; return EXIT_OK;
	case 'a': opts->all_cpus = true; return EXIT_OK;
	case 'C': opts->cpu_list = arg; return EXIT_OK;
	case 'I': return number_option(t, "-I", arg, 10, 3600000, &opts->interval_ms);
	case 'r': return number_option(t, "-r", arg, 1, 100000, &opts->repeat);
	case 'x': opts->sep = arg; return EXIT_OK;
	case 'o': opts->output = arg; return EXIT_OK;
	case STAT_OPT_DRY_RUN: opts->dry_run = true; return EXIT_OK;
	case 'j': opts->json = true; return EXIT_OK;
	case STAT_OPT_JSON_REPORT: opts->json_report = true; return EXIT_OK;
	case STAT_OPT_APPEND: opts->append = true; return EXIT_OK;
	case STAT_OPT_OPENMETRICS: opts->openmetrics = true; return EXIT_OK;
	case 'A': return aggr_option(opts, STAT_AGGR_CPU, "-A");
	case STAT_OPT_PER_CORE: return aggr_option(opts, STAT_AGGR_CORE, "--per-core");
	case STAT_OPT_PER_DIE: return aggr_option(opts, STAT_AGGR_DIE, "--per-die");
	case STAT_OPT_PER_SOCKET: return aggr_option(opts, STAT_AGGR_SOCKET, "--per-socket");
	case STAT_OPT_PID:
		rc = number_option(t, "-p", arg, 1, INT_MAX, &pid);
		if (rc == EXIT_OK)
			opts->pid = (int)pid;
		return rc;
	default: return -1;
	}
}

const char *stat_opts_given(const struct stat_opts *opts)
{
	return opts->nevents ? "-e" : opts->all_cpus ? "-a" : opts->cpu_list ? "-C"
	       : opts->interval_ms ? "-I" : opts->repeat ? "-r" : opts->sep ? "-x"
	       : opts->dry_run ? "--dry-run" : opts->output ? "-o" : opts->metric_names ? "-M"
	       : opts->metric_only ? "--metric-only" : opts->json_report ? "--json-report"
	       : opts->openmetrics ? "--openmetrics"
	       : opts->append ? "--append" : opts->aggr_option;
}

void stat_opts_free(struct stat_opts *opts)
{
	free(opts->events);
	opts->events = NULL;
	opts->nevents = 0;
}
