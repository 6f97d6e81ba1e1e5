/*
 * report_opts.h - the options of pmutool report and script (the perf.data
 * readers): the struct they fill and their getopt table (report_opts.c),
 * which pmutool.c merges with the other families'.
 */
#ifndef PMUTOOL_REPORT_OPTS_H
#define PMUTOOL_REPORT_OPTS_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>

#include "pmutool.h"
#include "report_filter.h"

struct report_opts {
	const char *input;          /* -i FILE (perf.data) */
	const void *input_bytes;    /* fuzz targets: that file's bytes in memory, */
	size_t input_size;          /* read instead of the file input names */
	bool json;                  /* report: -j, --json */
	const char *sort;           /* report: --sort KEYS */
	struct filter_spec filter;  /* --comms, --pid, --tid, --dsos, --symbols,
	                               --cpu, --time (report and script) */
	bool stdio;                 /* report: --stdio (its only interface) */
	int max_stack;              /* --max-stack N: the call chains' frames
	                               used (report_opts_init: perf's 127) */
	double percent_limit;       /* report: --percent-limit P (0: none) */
	bool no_children;           /* report: the last of --no-children and
	                               --children given */
	bool children_given;
	const char *call_graph;     /* report: -g caller|callee|none */
	bool hide_call_graph;       /* script: -G */
	const char *fields;         /* script: -F FIELDS */
	const char *pprof;          /* report: --pprof OUT (report_pprof.c) */
	int group;                  /* report: --group 1, --no-group 0, neither
	                               -1 (perf's default: the file's groups) */
};

/* report_option takes option c (getopt_long's value) into opts: -1 when
 * it is not one of report's or script's, else an exit code. */
enum { REPORT_OPT_PERCENT_LIMIT = 0x300, REPORT_OPT_CHILDREN,
       REPORT_OPT_NO_CHILDREN, REPORT_OPT_PID, REPORT_OPT_TID, REPORT_OPT_TIME,
       REPORT_OPT_MAX_STACK, REPORT_OPT_STDIO, REPORT_OPT_GROUP, REPORT_OPT_NO_GROUP,
       REPORT_OPT_PPROF };
/* perf report's --max-stack default (PERF_MAX_STACK_DEPTH) */
#define REPORT_MAX_STACK 127
#define REPORT_OPTS_INIT {.max_stack = REPORT_MAX_STACK, .group = -1}
extern const char report_shortopts[];
extern const struct option report_longopts[];
int report_option(struct report_opts *opts, const struct tool *t, int c, const char *arg);
/* The first of report's or script's options given that the other one
 * (script: report) does not take, for refusing it, NULL when none; -j is
 * not counted (list and check take it too).  perfdata_only_given: the
 * first of those both take but no other subcommand. */
const char *report_only_given(const struct report_opts *opts);
const char *script_only_given(const struct report_opts *opts);
const char *perfdata_only_given(const struct report_opts *opts);

int cmd_report(const struct tool *t, const struct report_opts *opts);
int cmd_script(const struct tool *t, const struct report_opts *opts);

#endif /* PMUTOOL_REPORT_OPTS_H */
