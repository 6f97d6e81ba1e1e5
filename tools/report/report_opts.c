/*
 * report_opts.c - the options of pmutool report and script: their getopt
 * table and what each sets in struct report_opts.
 */
#include <errno.h>
#include <stdlib.h>

#include "report_opts.h"

const char report_shortopts[] = "ji:GF:g:s:c:d:S:C:";

const struct option report_longopts[] = {
	{"input", required_argument, NULL, 'i'},
	{"json", no_argument, NULL, 'j'},
	{"sort", required_argument, NULL, 's'},
	{"stdio", no_argument, NULL, REPORT_OPT_STDIO},
	{"comms", required_argument, NULL, 'c'},
	{"comm", required_argument, NULL, 'c'},
	{"pid", required_argument, NULL, REPORT_OPT_PID},
	{"tid", required_argument, NULL, REPORT_OPT_TID},
	{"dsos", required_argument, NULL, 'd'},
	{"symbols", required_argument, NULL, 'S'},
	{"cpu", required_argument, NULL, 'C'},
	{"time", required_argument, NULL, REPORT_OPT_TIME},
	{"max-stack", required_argument, NULL, REPORT_OPT_MAX_STACK},
	{"percent-limit", required_argument, NULL, REPORT_OPT_PERCENT_LIMIT},
	{"children", no_argument, NULL, REPORT_OPT_CHILDREN},
	{"no-children", no_argument, NULL, REPORT_OPT_NO_CHILDREN},
	{"call-graph", required_argument, NULL, 'g'},
	{"hide-call-graph", no_argument, NULL, 'G'},
	{"fields", required_argument, NULL, 'F'},
	{"group", no_argument, NULL, REPORT_OPT_GROUP},
	{"no-group", no_argument, NULL, REPORT_OPT_NO_GROUP},
	{"pprof", required_argument, NULL, REPORT_OPT_PPROF},
	{NULL, 0, NULL, 0},
};

/* --percent-limit: a percentage, 0 to 100, as perf's (a fraction allowed,
 * a '%' after it too: builtin-report.c parse_percent_limit) */
static int percent_option(struct report_opts *opts, const struct tool *t, const char *arg)
{
	char *end;
	errno = 0;
	double v = strtod(arg, &end);
	if (*end == '%')
		end++;
	if (end == arg || *end || errno || !(v >= 0 && v <= 100)) {
		tool_error(t, "--percent-limit wants a percentage from 0 to 100, not '%s'", arg);
		return EXIT_USAGE;
	}
	opts->percent_limit = v;
	return EXIT_OK;
}

/* --max-stack: frames, 0 and up (perf's an int) */
static int max_stack_option(struct report_opts *opts, const struct tool *t, const char *arg)
{
	char *end;
	errno = 0;
	long v = strtol(arg, &end, 10);
	if (end == arg || *end || errno || v < 0 || v > 65535) {
		tool_error(t, "--max-stack wants a number of frames, not '%s'", arg);
		return EXIT_USAGE;
	}
	opts->max_stack = (int)v;
	return EXIT_OK;
}

/* The filters both report and script take (report_filter.c). */
static int filter_option(struct filter_spec *f, int c, const char *arg)
{
	switch (c) {
	case 'c': f->comms = arg; return EXIT_OK;
	case REPORT_OPT_PID: f->pids = arg; return EXIT_OK;
	case REPORT_OPT_TID: f->tids = arg; return EXIT_OK;
	case 'd': f->dsos = arg; return EXIT_OK;
	case 'S': f->symbols = arg; return EXIT_OK;
	case 'C': f->cpus = arg; return EXIT_OK;
	case REPORT_OPT_TIME: f->time = arg; return EXIT_OK;
	default: return -1;
	}
}

int report_option(struct report_opts *opts, const struct tool *t, int c, const char *arg)
{
	switch (c) {
	case 'i': opts->input = arg; return EXIT_OK;
	case 'j': opts->json = true; return EXIT_OK;
	case 's': opts->sort = arg; return EXIT_OK;
	case REPORT_OPT_STDIO: opts->stdio = true; return EXIT_OK;
	case REPORT_OPT_MAX_STACK: return max_stack_option(opts, t, arg);
	case REPORT_OPT_PERCENT_LIMIT: return percent_option(opts, t, arg);
	case REPORT_OPT_CHILDREN:
	case REPORT_OPT_NO_CHILDREN:
		opts->no_children = c == REPORT_OPT_NO_CHILDREN;
		opts->children_given = true;
		return EXIT_OK;
	case 'g': opts->call_graph = arg; return EXIT_OK;
	case 'G': opts->hide_call_graph = true; return EXIT_OK;
	case 'F': opts->fields = arg; return EXIT_OK;
	case REPORT_OPT_PPROF: opts->pprof = arg; return EXIT_OK;
	case REPORT_OPT_GROUP:
	case REPORT_OPT_NO_GROUP: opts->group = c == REPORT_OPT_GROUP; return EXIT_OK;
	default: return filter_option(&opts->filter, c, arg);
	}
}

const char *report_only_given(const struct report_opts *opts)
{
	return opts->sort ? "--sort" : opts->stdio ? "--stdio"
	       : opts->percent_limit ? "--percent-limit" : opts->children_given ? "--children"
	       : opts->call_graph ? "-g" : opts->group >= 0 ? "--group"
	       : opts->pprof ? "--pprof" : NULL;
}

const char *script_only_given(const struct report_opts *opts)
{
	return opts->hide_call_graph ? "-G" : opts->fields ? "-F" : NULL;
}

const char *perfdata_only_given(const struct report_opts *opts)
{
	const struct filter_spec *f = &opts->filter;
	return f->comms ? "--comms" : f->pids ? "--pid" : f->tids ? "--tid" : f->dsos ? "--dsos"
	       : f->symbols ? "--symbols" : f->cpus ? "--cpu" : f->time ? "--time"
	       : opts->max_stack != REPORT_MAX_STACK ? "--max-stack" : NULL;
}
