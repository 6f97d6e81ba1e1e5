/*
 * report_opts.c - the options of pmutool report and script: their getopt
 * table and what each sets in struct report_opts.
 */
#include <errno.h>
#include <stdlib.h>

#include "report_opts.h"

const char report_shortopts[] = "ji:GF:g:";

const struct option report_longopts[] = {
	{"input", required_argument, NULL, 'i'},
	{"json", no_argument, NULL, 'j'},
	{"sort", required_argument, NULL, REPORT_OPT_SORT},
	{"comm", required_argument, NULL, REPORT_OPT_COMM},
	{"percent-limit", required_argument, NULL, REPORT_OPT_PERCENT_LIMIT},
	{"children", no_argument, NULL, REPORT_OPT_CHILDREN},
	{"no-children", no_argument, NULL, REPORT_OPT_NO_CHILDREN},
	{"call-graph", required_argument, NULL, 'g'},
	{"hide-call-graph", no_argument, NULL, 'G'},
	{"fields", required_argument, NULL, 'F'},
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

int report_option(struct report_opts *opts, const struct tool *t, int c, const char *arg)
{
	switch (c) {
	case 'i': opts->input = arg; return EXIT_OK;
	case 'j': opts->json = true; return EXIT_OK;
	case REPORT_OPT_SORT: opts->sort = arg; return EXIT_OK;
	case REPORT_OPT_COMM: opts->comm = arg; return EXIT_OK;
	case REPORT_OPT_PERCENT_LIMIT: return percent_option(opts, t, arg);
	case REPORT_OPT_CHILDREN:
	case REPORT_OPT_NO_CHILDREN:
		opts->no_children = c == REPORT_OPT_NO_CHILDREN;
		opts->children_given = true;
		return EXIT_OK;
	case 'g': opts->call_graph = arg; return EXIT_OK;
	case 'G': opts->hide_call_graph = true; return EXIT_OK;
	case 'F': opts->fields = arg; return EXIT_OK;
	default: return -1;
	}
}

const char *report_only_given(const struct report_opts *opts)
{
	return opts->sort ? "--sort" : opts->comm ? "--comm"
	       : opts->percent_limit ? "--percent-limit" : opts->children_given ? "--children"
	       : opts->call_graph ? "-g" : NULL;
}

const char *script_only_given(const struct report_opts *opts)
{
	return opts->hide_call_graph ? "-G" : opts->fields ? "-F" : NULL;
}
