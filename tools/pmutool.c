/*
 * pmutool.c - the pmutool command line: options, loading the description
 * (--pmu), and dispatch to the list, describe and check subcommands.
 * Everything it knows about the PMU comes from libpmurt.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmutool.h"
#include "describe/describe_opts.h"
#include "report/report_opts.h"
#include "stat/stat.h"

#ifndef PMUTOOL_VERSION
#define PMUTOOL_VERSION "0.0.0"
#endif

/* Long-only options' values: pmutool's own from 0x100; each family's table
 * has its own range (stat's from 0x200, stat/stat.h; report's from 0x300,
 * report/report_opts.h; describe's from 0x400, describe/describe_opts.h). */
enum { OPT_PMU = 0x100, OPT_SYSFS, OPT_TRACEFS, OPT_PVR, OPT_SHOW_PICK };

/* Each subcommand family's options, filled from its own table: stat;
 * report and script; list, describe and check.  record and dtl parse their
 * own after their name. */
struct family_opts {
	struct stat_opts stat;
	struct report_opts report;
	struct describe_opts describe;
};

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: pmutool [OPTION]... list [GLOB]\n"
		"       pmutool [OPTION]... describe EVENT\n"
		"       pmutool [OPTION]... check EVENT[,EVENT]...\n"
		"       pmutool [OPTION]... check --batch FILE\n"
		"       pmutool [OPTION]... stat -e EVENTS [-a] [-C CPUS] [-I MS] [-r N] [-x SEP] -- CMD\n"
		"       pmutool [OPTION]... stat -e EVENTS -p PID [-- CMD]\n"
		"       pmutool [OPTION]... stat --dry-run [--json] -e EVENTS\n"
		"       pmutool [OPTION]... record [-e EVENT]... [-a|-C CPUS|-p PID] [-- CMD]\n"
		"       pmutool report [-i FILE] [-s KEYS] [FILTER]... [--percent-limit P]\n"
		"                      [--no-children] [-g [graph,]P,caller|callee|none]\n"
		"                      [--group|--no-group] [--json]\n"
		"       pmutool report [-i FILE] [FILTER]... --pprof OUT\n"
		"       pmutool script [-i FILE] [-G] [-F FIELDS] [FILTER]...\n"
		"       pmutool [--sysfs DIR] dtl record|decode|dump|script|report ...\n"
		"                            (see pmutool dtl --help)\n"
		"Inspect a PMU description: its events, what an event code means, and\n"
		"whether a group of events fits the PMU (counters and MMCR values).\n\n"
		"  -p, --pmu=SPEC       the description: a built-in name, a .dtb file, a\n"
		"                       device-tree directory or a YAML file (default: the\n"
		"                       host's, else power10; after stat or record, -p is a\n"
		"                       PID, as in perf)\n"
		"      --show-pick      list, describe, check: say on stderr which\n"
		"                       description was used and what picked it\n"
		"      --pvr=HEX        list, describe, check: the processor revision (the\n"
		"                       PVR, 0x004e1202 for POWER9 DD2.2) that chooses the\n"
		"                       revision-dependent checks (default: the description's)\n"
		"  -j, --json           JSON output (list, check)\n"
		"  -b, --batch=FILE     check: one JSON group per line of FILE ('-': stdin),\n"
		"                       one JSON result per line\n"
		"      --hv-mode        check, describe: the kernel runs in hypervisor mode\n"
		"      --no-lpar        check, describe: not under a hypervisor (exclude_hv\n"
		"                       ignored)\n"
		"      --no-per-task    check: events not attached to a task (CPU-wide), so\n"
		"                       per-task-only alternatives are not tried\n"
		"      --per-task       check: events attached to a task (the default)\n"
		"  -e, --event=EVENTS   stat: perf's event list (repeatable): {A,B} groups,\n"
		"                       PMU/TERMS/, SYS:TRACEPOINT, NAME[:MODIFIERS]\n"
		"  -a, --all-cpus       stat: count every CPU\n"
		"  -C, --cpu=CPUS       stat: count these CPUs (0,2-3)\n"
		"  -I, --interval-print=MS  stat: print the counts every MS milliseconds\n"
		"  -r, --repeat=N       stat: run CMD N times, show the mean and spread\n"
		"  -x, --field-separator=SEP  stat: CSV output with SEP\n"
		"  -o, --output=FILE    stat: the counts (text, CSV, JSON) into FILE\n"
		"      --dry-run        stat: print the perf_event_attrs, open nothing\n"
		"      --openmetrics    stat: the counts as OpenMetrics text (Prometheus)\n"
		"      --sysfs=DIR      the sysfs root (default $PMURT_SYSFS or /sys)\n"
		"      --tracefs=DIR    the tracefs root (default DIR/kernel/tracing)\n"
		"  -i, --input=FILE     report, script: the perf.data file (default perf.data)\n"
		"  -s, --sort=KEYS      report: comm,pid,tid,cpu,dso,symbol (default comm,dso,sym)\n"
		"  FILTER               report, script: -c, --comms=LIST  --pid=LIST  --tid=LIST\n"
		"                       -d, --dsos=LIST  -S, --symbols=LIST  -C, --cpu=CPUS\n"
		"                       --time=START,STOP|A%%-B%%  --max-stack=N (see report --help)\n"
		"      --percent-limit=P  report: hide the rows under P percent\n"
		"      --no-children    report: no Children column for call graphs\n"
		"  -g, --call-graph=ORDER  report: caller, callee or none\n"
		"      --pprof=OUT      report: the samples as a gzipped pprof profile in OUT\n"
		"  -G, --hide-call-graph  script: one line per sample, without its call graph\n"
		"  -F, --fields=FIELDS  script: the fields printed, as perf script -F\n"
		"  -h, --help           show this help\n"
		"  -V, --version        show the version\n\n"
		"Exit status: 0 done (check: the group fits), 1 the group does not fit\n"
		"(list: nothing matches), 2 usage or input error, 3 the description could\n"
		"not be loaded, 4 internal error.  pmutool SUBCOMMAND --help shows a\n"
		"subcommand's own options.  See pmutool(1).\n");
}

/* `pmutool SUBCOMMAND --help`: its synopsis and the options it takes. */
struct sub_help {
	const char *name, *text;
};

static const struct sub_help sub_helps[] = {
	{"list",
	 "Usage: pmutool [OPTION]... list [GLOB]\n"
	 "The description's events whose names match GLOB (fnmatch(3), without case;\n"
	 "all without it): name, code, category and description; its PAPI presets;\n"
	 "then, as perf list, the host's software events, other PMUs' events and\n"
	 "tracepoints that match.\n\n"
	 "  -p, --pmu=SPEC       the description (default power10)\n"
	 "      --pvr=HEX        the processor revision choosing revision checks\n"
	 "      --sysfs=DIR      the sysfs root for the host's events (default /sys)\n"
	 "      --tracefs=DIR    the tracefs root (default DIR/kernel/tracing)\n"
	 "  -j, --json           one JSON array, one event object per line\n"
	 "Exit status: 0 found, 1 nothing matches, 2 usage, 3 no description.\n"},
	{"describe",
	 "Usage: pmutool [OPTION]... describe EVENT\n"
	 "EVENT decoded against the description: each event-code field, the register\n"
	 "field it lands in, the privilege filters, the constraint word, the checks.\n\n"
	 "  -p, --pmu=SPEC       the description (default power10)\n"
	 "      --pvr=HEX        the processor revision choosing revision checks\n"
	 "      --hv-mode        the kernel runs in hypervisor mode\n"
	 "      --no-lpar        not under a hypervisor (exclude_hv ignored)\n"
	 "Exit status: 0 done, 2 usage or unknown event, 3 no description.\n"},
	{"check",
	 "Usage: pmutool [OPTION]... check EVENT[,EVENT]...\n"
	 "       pmutool [OPTION]... check --batch FILE\n"
	 "Whether the group (leader first) fits the PMU, as perf_event_open(2) and the\n"
	 "kernel's scheduler see it: counters, alternatives, MMCR values.\n\n"
	 "  -p, --pmu=SPEC       the description (default power10)\n"
	 "      --pvr=HEX        the processor revision choosing revision checks\n"
	 "  -j, --json           JSON output\n"
	 "  -b, --batch=FILE     one JSON group per line of FILE ('-': stdin)\n"
	 "      --hv-mode        the kernel runs in hypervisor mode\n"
	 "      --no-lpar        not under a hypervisor (exclude_hv ignored)\n"
	 "      --no-per-task    CPU-wide events: no per-task-only alternatives\n"
	 "      --per-task       events attached to a task (the default)\n"
	 "Exit status: 0 the group fits, 1 it does not, 2 usage, 3 no description.\n"},
	{"stat",
	 "Usage: pmutool [OPTION]... stat -e EVENTS [STAT-OPTION]... [--] CMD [ARG]...\n"
	 "       pmutool [OPTION]... stat -e EVENTS -p PID [STAT-OPTION]... [-- CMD]\n"
	 "       pmutool [OPTION]... stat --dry-run [--json] -e EVENTS\n"
	 "       pmutool [OPTION]... stat -M METRICS [--metric-only] [STAT-OPTION]... -- CMD\n"
	 "Count EVENTS while CMD runs, as perf stat does; stat's options end at CMD.\n\n"
	 "  -e, --event=EVENTS   perf's event list (repeatable): {A,B} groups,\n"
	 "                       PMU/TERMS/, SYS:TRACEPOINT, NAME[:MODIFIERS]\n"
	 "  -a, --all-cpus       count every CPU\n"
	 "  -C, --cpu=CPUS       count these CPUs (0,2-3)\n"
	 "  -A, --no-aggr        with -a or -C: a count per CPU\n"
	 "      --per-core       with -a or -C: a count per core (sysfs topology)\n"
	 "      --per-die        ... per die\n"
	 "      --per-socket     ... per socket\n"
	 "  -I, --interval-print=MS  print the counts every MS milliseconds\n"
	 "  -r, --repeat=N       run CMD N times, show the mean and spread\n"
	 "  -x, --field-separator=SEP  CSV output with SEP\n"
	 "  -j, --json           perf stat -j's lines, one JSON object per count (a\n"
	 "                       dry run: its attrs as one document)\n"
	 "      --json-report    one JSON document: runs, counts, intervals, metrics\n"
	 "  -o, --output=FILE    the counts into FILE, not standard error\n"
	 "      --append         add to -o's FILE instead of replacing it\n"
	 "      --dry-run        print the perf_event_attrs, open nothing\n"
	 "  -M, --metrics=NAMES  perf's metrics or metric groups (any case), their\n"
	 "                       events packed into the fewest groups the PMU takes\n"
	 "      --metric-only    print the metrics, not the counts\n"
	 "      --openmetrics    OpenMetrics 1.0 text (a run's on standard error, or in\n"
	 "                       -o's FILE): each event a counter family, -M's metrics\n"
	 "                       gauges, -I's intervals as timestamped points\n"
	 "  -p, --pid=PID        count the running process PID (all its threads) until\n"
	 "                       it ends, Ctrl-C or CMD ends (stat -p PID -- sleep 5)\n"
	 "      --pmu=SPEC       the core PMU's description (default: the host's)\n"
	 "      --sysfs=DIR      the sysfs root (default $PMURT_SYSFS or /sys)\n"
	 "      --tracefs=DIR    the tracefs root (default DIR/kernel/tracing)\n"
	 "Exit status: CMD's; 2 usage, 5 the kernel refused an event.\n"},
	{"report",
	 "Usage: pmutool report [-i FILE] [-s KEYS] [FILTER]... [--percent-limit P]\n"
	 "                      [--no-children] [-g [graph,]P,caller|callee|none]\n"
	 "                      [--group|--no-group] [--json]\n"
	 "       pmutool report [-i FILE] [FILTER]... --pprof OUT\n"
	 "Samples and period per key in a perf.data file, one table per event, as\n"
	 "perf report --stdio --sort KEYS lists them.\n\n"
	 "  -i, --input=FILE     the perf.data file (default perf.data)\n"
	 "  -s, --sort=KEYS      comm,pid,tid,cpu,dso,symbol (default comm,dso,sym; a key\n"
	 "                       may be cut short as perf's: sym, s)\n"
	 "  -c, --comms=LIST     only the samples of these commands (a,b); their\n"
	 "      --pid=LIST       processes, threads, files (short or whole names),\n"
	 "      --tid=LIST       functions (names or start addresses 0x...): the\n"
	 "  -d, --dsos=LIST      others' count in the percentages (perf's absolute\n"
	 "  -S, --symbols=LIST   percentages)\n"
	 "  -C, --cpu=CPUS       only the samples of these CPUs (0-3,8) and\n"
	 "      --time=RANGES    of these times: START,STOP in seconds (either may be\n"
	 "                       left out; several separated by spaces), or shares of\n"
	 "                       the recording: 0%-10%,30%-40%, 10%/2 (the second 10%),\n"
	 "                       25%; the others not counted at all\n"
	 "      --max-stack=N    the N outermost frames of each call chain (127)\n"
	 "      --percent-limit=P  hide the rows under P percent\n"
	 "      --no-children    no Children column for a file with call graphs (-g):\n"
	 "                       each row's own samples only, as perf report --no-children\n"
	 "  -g, --call-graph=ORDER  a -g file's call graphs under the rows, as perf report\n"
	 "                       draws them: caller (default with Children), callee\n"
	 "                       (default without), none; a threshold, perf's words\n"
	 "                       (graph,0.5,caller: branches under 0.5% not drawn)\n"
	 "      --group          a group's events in one table, a column each (the\n"
	 "                       default for a file with groups); all events of a file\n"
	 "                       without groups in one; --no-group: a table each\n"
	 "      --stdio          accepted, as perf's (the only interface)\n"
	 "  -j, --json           JSON output\n"
	 "      --pprof=OUT      a gzipped pprof profile in OUT instead of the table: per\n"
	 "                       event samples and period, call stacks with their files\n"
	 "                       and functions, comm/pid/tid/cpu labels (see doc/fleet.md)\n"
	 "Exit status: 0 done, 2 usage or a bad file, 4 internal error.\n"},
	{"script",
	 "Usage: pmutool script [-i FILE] [-G] [-F FIELDS] [FILTER]...\n"
	 "The samples of a perf.data file in time order, as perf script prints them,\n"
	 "tracepoints' fields decoded by libtraceevent.\n\n"
	 "  -i, --input=FILE     the perf.data file (default perf.data)\n"
	 "  -G, --hide-call-graph  one line per sample, without its call graph\n"
	 "  -F, --fields=FIELDS  [TYPE:][+-]comm,tid,pid,time,cpu,event,trace,ip,sym,\n"
	 "                       symoff,dso,period (TYPE: hw, sw, trace, raw, break)\n"
	 "  FILTER               only the samples report's filters keep: -c, --comms,\n"
	 "                       --pid, --tid, -d, --dsos, -S, --symbols, -C, --cpu,\n"
	 "                       --time; --max-stack=N: N frames of each call chain\n"
	 "Exit status: 0 done, 2 usage or a bad file, 4 internal error.\n"},
};

/* The subcommand's own help, or the global one. */
static void usage_of(const char *sub, FILE *out)
{
	for (size_t i = 0; sub && i < sizeof(sub_helps) / sizeof(sub_helps[0]); i++)
		if (!strcmp(sub, sub_helps[i].name)) {
			fputs(sub_helps[i].text, out);
			fputs("See pmutool(1).\n", out);
			return;
		}
	usage(out);
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

/* --pvr: a 32-bit PVR in hex, 0x optional */
static int pvr_option(struct tool *t, const char *arg)
{
	char *end;
	errno = 0;
	unsigned long v = strtoul(arg, &end, 16);
	if (end == arg || *end || errno || v == 0 || v > 0xffffffffUL || arg[0] == '-') {
		tool_error(t, "--pvr wants a non-zero 32-bit PVR in hex such as 0x004e1202, not '%s'",
			   arg);
		return -1;
	}
	t->pvr = (uint32_t)v;
	return 0;
}

/* pmutool's options and its families' in one table for getopt_long: an
 * option may come before the subcommand's name, so any family's option is
 * recognised anywhere and refused by name where it changes nothing. */
struct merged_options {
	char shorts[64];
	struct option longs[64];
	int nlongs;
};

/* Whether m has a long option called name (compared from the first
 * letter: some hundred names, every run of pmutool). */
static bool has_long(const struct merged_options *m, const char *name)
{
	for (int i = 0; i < m->nlongs; i++)
		if (m->longs[i].name[0] == name[0] && !strcmp(m->longs[i].name, name))
			return true;
	return false;
}

static void merge_options(struct merged_options *m, const char *shorts,
			  const struct option *longs)
{
	size_t len = strlen(m->shorts);
	snprintf(m->shorts + len, sizeof(m->shorts) - len, "%s", shorts);
	for (; longs->name; longs++)
		if (!has_long(m, longs->name) &&
		    m->nlongs + 1 < (int)(sizeof(m->longs) / sizeof(m->longs[0])))
			m->longs[m->nlongs++] = *longs;
}

/* Which subcommand's options a pass reads first: stat's (-p, --pid and
 * --cpu are stat's), report's and script's (--pid, --cpu and -C are
 * their filters, as perf report's), or any (before the subcommand). */
enum pass { PASS_ANY, PASS_STAT, PASS_PERFDATA };

/* An option some family's table takes: -1 when none does, else an exit
 * code.  -j belongs to three families: each table that has it takes it. */
static int family_option(struct tool *t, struct family_opts *f, int c, const char *arg,
			 enum pass pass)
{
	if (c == 'p' && pass == PASS_STAT)
		c = STAT_OPT_PID;  /* after stat, -p is a PID as in perf (and record) */
	if (c == STAT_OPT_PID && pass != PASS_STAT) {
		tool_error(t, "--pid applies to stat, report and script, after their name (record "
			   "has its own)");
		return EXIT_USAGE;
	}
	int rc = pass == PASS_PERFDATA ? report_option(&f->report, t, c, arg) : -1;
	if (rc < 0 || c == 'j')
		rc = stat_option(&f->stat, t, c, arg);
	if ((rc < 0 || c == 'j') && pass != PASS_PERFDATA)
		rc = report_option(&f->report, t, c, arg);
	if (rc < 0 || c == 'j')
		rc = describe_option(&f->describe, c, arg);
	return rc;
}

/* pmutool's own options: up to the first operand (first), or all of
 * them wherever they are (getopt permutes). */
static int parse_global_options(struct tool *t, struct family_opts *f, int argc, char **argv,
				bool *done, bool first, enum pass pass)
{
	static const struct option longopts[] = {
		{"pmu", required_argument, NULL, OPT_PMU},
		{"pvr", required_argument, NULL, OPT_PVR},
		{"show-pick", no_argument, NULL, OPT_SHOW_PICK},
		{"sysfs", required_argument, NULL, OPT_SYSFS},
		{"tracefs", required_argument, NULL, OPT_TRACEFS},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{NULL, 0, NULL, 0},
	};
	struct merged_options m = {.shorts = ""};
	merge_options(&m, first ? "+:p:hV" : ":p:hV", longopts);
	if (pass == PASS_PERFDATA)   /* its --pid and --cpu before stat's */
		merge_options(&m, report_shortopts, report_longopts);
	merge_options(&m, stat_shortopts, stat_longopts);
	if (pass != PASS_PERFDATA)
		merge_options(&m, report_shortopts, report_longopts);
	merge_options(&m, describe_shortopts, describe_longopts);
	int c, rc;
	opterr = 0;
	optind = 0; /* glibc: start afresh, also for the second pass */
	while ((c = getopt_long(argc, argv, m.shorts, m.longs, NULL)) != -1) {
		if ((rc = family_option(t, f, c, optarg, pass)) >= 0) {
			if (rc)
				return rc;
			continue;
		}
		switch (c) {
		case 'p': /* before stat, --pmu (after it, stat's PID: family_option) */
		case OPT_PMU: t->pmu_spec = optarg; t->pmu_given = true; break;
		case OPT_SYSFS: t->sysfs = optarg; break;
		case OPT_PVR:
			if (pvr_option(t, optarg))
				return EXIT_USAGE;
			break;
		case OPT_TRACEFS: t->tracefs = optarg; break;
		case OPT_SHOW_PICK: t->show_pick = true; break;
		case 'h': t->help = true; break;
		case 'V':
			printf("pmutool %s (libpmurt %u.%u.%u)\n", PMUTOOL_VERSION,
			       (unsigned)(pmurt_version() >> 16),
			       (unsigned)(pmurt_version() >> 8 & 0xff),
			       (unsigned)(pmurt_version() & 0xff));
			*done = true;
			return EXIT_OK;
		case ':':
			tool_error(t, "option '%s' needs an argument", argv[optind - 1]);
			return EXIT_USAGE;
		default:
			tool_error(t, "unknown option '%s' (see %s --help)", argv[optind - 1], t->prog);
			return EXIT_USAGE;
		}
	}
	t->args = argv + optind;
	t->nargs = argc - optind;
	return EXIT_OK;
}

/* --help: the subcommand's (named before or after it), else the global one. */
static void print_help(const struct tool *t)
{
	usage_of(t->subcommand ? t->subcommand : t->nargs > 0 ? t->args[0] : NULL, stdout);
}

int tool_open_host(struct tool *t)
{
	struct pmurt_error err = {0};
	struct pmurt_host_opts o = PMURT_OPTS_INIT(pmurt_host_opts, .sysfs = t->sysfs,
						   .tracefs = t->tracefs,
						   .pmu = t->pmu_given ? t->pmu_spec : NULL,
						   .sys = t->sys);
	int rc = pmurt_host_open(&t->host, &o, &err);
	if (rc < 0) {
		tool_error(t, "cannot open the host: %s", err.message[0] ? err.message : strerror(-rc));
		return rc == -ENOMEM ? EXIT_INTERNAL : EXIT_NOPMU;
	}
	return EXIT_OK;
}

/* Subcommands that parse their own options (a workload's command line
 * follows them, perf's way): pmutool's options come before their name. */
static bool takes_own_options(const char *name)
{
	return strcmp(name, "record") == 0 || strcmp(name, "dtl") == 0;
}

/* Subcommands that run a command: their options end at the command's name,
 * as perf stat's do (parse-options.c, PARSE_OPT_STOP_AT_NON_OPTION), so that
 * `stat -e E ls -l /` runs `ls -l /`. */
static bool runs_a_command(const char *name)
{
	return strcmp(name, "stat") == 0;
}

/* Subcommands that read a perf.data file: after their name, --pid, --cpu
 * and -C are their filters (perf report's and script's), not stat's. */
static bool reads_perf_data(const char *name)
{
	return strcmp(name, "report") == 0 || strcmp(name, "script") == 0;
}

/* Options may come before or after the subcommand (getopt permutes), except
 * after one that takes its own options or runs a command; after report's
 * and script's name, theirs first. */
static int parse_options(struct tool *t, struct family_opts *f, int argc, char **argv, bool *done)
{
	int rc = parse_global_options(t, f, argc, argv, done, true, PASS_ANY);
	if (rc || *done || (t->nargs > 0 && takes_own_options(t->args[0])))
		return rc;
	if (t->nargs > 0 && runs_a_command(t->args[0])) {
		t->subcommand = t->args[0];   /* getopt takes it for argv[0] */
		return parse_global_options(t, f, t->nargs, t->args, done, true, PASS_STAT);
	}
	if (t->nargs > 0 && reads_perf_data(t->args[0])) {
		t->subcommand = t->args[0];
		return parse_global_options(t, f, t->nargs, t->args, done, false, PASS_PERFDATA);
	}
	f->stat.nevents = 0; /* the second pass sees the first's -e again */
	return parse_global_options(t, f, argc, argv, done, false, PASS_ANY);
}

/* Without --pmu, the host's description as stat's host picks it
 * (pmurt_host_open: the device tree's pmus node, the cpu PMU's pmu_name,
 * the PVR, AT_PLATFORM; sysfs from $PMURT_SYSFS), else the built-in power10
 * (a host that is not POWER).  0 with t->pmu set (the host's, which
 * t->host keeps, or t->own_pmu), or a negative errno. */
static int pick_pmu(struct tool *t, struct pmurt_error *err)
{
	struct pmurt_host_info info = PMURT_OPTS_INIT(pmurt_host_info);
	int rc = pmurt_host_open(&t->host, &PMURT_OPTS_INIT(pmurt_host_opts, .pvr = t->pvr), err);
	if (rc)
		return rc;
	t->pmu = pmurt_host_pmu(t->host);
	pmurt_host_info(t->host, &info);
	if (t->pmu) {
		snprintf(t->picked, sizeof(t->picked), "%s", info.picked);
		return 0;
	}
	rc = pmurt_pmu_open(&t->own_pmu, t->pmu_spec,
			    &PMURT_OPTS_INIT(pmurt_open_opts, .pvr = t->pvr), err);
	t->pmu = t->own_pmu;
	snprintf(t->picked, sizeof(t->picked), "the default (the host offers none)");
	return rc;
}

/* --show-pick: which description list, describe or check use, and why. */
static void show_pick(const struct tool *t)
{
	struct pmurt_pmu_info info = {.sz = sizeof(info)};
	if (pmurt_pmu_info(t->pmu, &info) == 0)
		fprintf(stderr, "%s: description %s from %s, picked by %s\n", t->prog,
			info.platform ? info.platform : "(no platform)",
			info.source ? info.source : "(unknown)", t->pmu_given ? "--pmu" : t->picked);
}

static int open_pmu(struct tool *t)
{
	struct pmurt_error err = {0};
	int rc = t->pmu_given ? pmurt_pmu_open(&t->own_pmu, t->pmu_spec,
					       &PMURT_OPTS_INIT(pmurt_open_opts, .pvr = t->pvr),
					       &err)
			      : pick_pmu(t, &err);
	if (t->pmu_given)
		t->pmu = t->own_pmu;
	if (rc < 0) {
		if (err.message[0])
			tool_error(t, "cannot load the PMU description: %s", err.message);
		else
			tool_error(t, "cannot load the PMU description '%s': %s", t->pmu_spec,
				   strerror(-rc));
		return rc == -ENOMEM ? EXIT_INTERNAL : EXIT_NOPMU;
	}
	if (t->show_pick)
		show_pick(t);
	return EXIT_OK;
}

/* What a subcommand works on. */
enum subcommand_needs {
	NEEDS_PMU,      /* the description (--pmu) */
	NEEDS_HOST,     /* the live host (tool_open_host) */
	NEEDS_NOTHING,  /* a file of its own (-i) */
};

struct subcommand {
	const char *name;
	int (*run)(const struct tool *t, struct family_opts *f);
	bool kernel_opts;  /* --hv-mode, --no-lpar change its answer */
	bool task_opts;    /* --per-task, --no-per-task change its answer */
	enum subcommand_needs needs;
};

/* The subcommands as the table runs them: each with its family's options. */
static int run_list(const struct tool *t, struct family_opts *f)
{
	return cmd_list(t, &f->describe);
}

static int run_describe(const struct tool *t, struct family_opts *f)
{
	return cmd_describe(t, &f->describe);
}

static int run_check(const struct tool *t, struct family_opts *f)
{
	return cmd_check(t, &f->describe);
}

static int run_record(const struct tool *t, struct family_opts *f)
{
	(void)f;   /* record parses its own options, after its name */
	return cmd_record(t);
}

static int run_stat(const struct tool *t, struct family_opts *f)
{
	return cmd_stat(t, &f->stat);
}

static int run_report(const struct tool *t, struct family_opts *f)
{
	return cmd_report(t, &f->report);
}

static int run_script(const struct tool *t, struct family_opts *f)
{
	return cmd_script(t, &f->report);
}

/* describe shows one event alone, which never needs an alternative, so the
 * per-task alternatives (PPMU_ONLY_COUNT_RUN) change nothing there. */
static const struct subcommand subcommands[] = {
	{"list", run_list, false, false, NEEDS_PMU},
	{"describe", run_describe, true, false, NEEDS_PMU},
	{"check", run_check, true, true, NEEDS_PMU},
	{"record", run_record, false, false, NEEDS_HOST},
	{"stat", run_stat, false, false, NEEDS_HOST},
	{"report", run_report, false, false, NEEDS_NOTHING},
	{"script", run_script, false, false, NEEDS_NOTHING},
};

/* An option the subcommand would ignore is an error, not a silent no-op. */
static int refuse_unused(const struct tool *t, const struct family_opts *f,
			 const struct subcommand *sub)
{
	const struct describe_opts *d = &f->describe;
	const char *opt = !sub->kernel_opts && d->kernel_opt ? d->kernel_opt
			  : !sub->task_opts && d->task_opt   ? d->task_opt
							       : NULL;
	/* list shows the host's tracepoints and PMUs' events: its roots */
	bool live_opts = stat_opts_given(&f->stat) ||
			 ((t->sysfs || t->tracefs) && strcmp(sub->name, "list") != 0);
	if (sub->needs != NEEDS_HOST && live_opts) {
		tool_error(t, "-e, -M, -a, -C, -I, -r, -x, -o, --dry-run, --sysfs and --tracefs change "
			   "nothing for %s (they apply to stat)", sub->name);
		return EXIT_USAGE;
	}
	if (t->show_pick && sub->needs != NEEDS_PMU) {
		tool_error(t, "--show-pick changes nothing for %s (it applies to list, describe "
			   "and check)", sub->name);
		return EXIT_USAGE;
	}
	if (t->pvr && sub->needs != NEEDS_PMU) {
		tool_error(t, "--pvr changes nothing for %s (it applies to list, describe and check; "
			   "%s", sub->name, sub->needs == NEEDS_HOST
			   ? "on a live host the PVR in /proc/cpuinfo chooses)" : "it reads a file)");
		return EXIT_USAGE;
	}
	if (!opt)
		return EXIT_OK;
	if (!sub->kernel_opts)
		tool_error(t, "%s changes nothing for %s (it applies to check%s)", opt, sub->name,
			   d->kernel_opt == opt ? " and describe" : "");
	else
		tool_error(t, "%s changes nothing for %s: one event alone never needs "
			   "an alternative (it applies to check)", opt, sub->name);
	return EXIT_USAGE;
}

/* -i and the filters belong to report and script, --sort to report, -G to script; --batch and
 * --json to the description's subcommands (--json also to report). */
static const char *either(const char *a, const char *b)
{
	return a ? a : b;
}

static int refuse_unused_perfdata(const struct tool *t, const struct family_opts *f,
				  const struct subcommand *sub)
{
	bool report = !strcmp(sub->name, "report"), script = !strcmp(sub->name, "script");
	const char *opt = f->report.input && !report && !script ? "-i"
			  : !report && !script && perfdata_only_given(&f->report)
				  ? perfdata_only_given(&f->report)
			  : !report && report_only_given(&f->report) ? report_only_given(&f->report)
			  : !script && script_only_given(&f->report) ? script_only_given(&f->report)
			  : f->describe.batch && (report || script) ? "--batch"
			  : f->describe.json && script ? "--json"
							 : NULL;
	if (opt)
		tool_error(t, "%s changes nothing for %s", opt, sub->name);
	return opt ? EXIT_USAGE : EXIT_OK;
}

/* The first pmutool option given before `dtl` that dtl has no use for:
 * only --sysfs and --tracefs reach it (dtl record's roots). */
static const char *unused_by_dtl(const struct tool *t, const struct family_opts *f)
{
	const struct describe_opts *d = &f->describe;
	return t->pmu_given ? "--pmu" : t->pvr ? "--pvr" : d->json ? "--json"
	       : d->batch ? "--batch" : d->kernel_opt ? d->kernel_opt : d->task_opt ? d->task_opt
	       : f->report.input ? "-i" : perfdata_only_given(&f->report)
	       ? perfdata_only_given(&f->report)
	       : either(report_only_given(&f->report),
			either(script_only_given(&f->report), stat_opts_given(&f->stat)));
}

/* `pmutool [--sysfs DIR] [--tracefs DIR] dtl SUB ...`: dtl parses its own
 * options; --sysfs and --tracefs given before it go to dtl record, as if
 * given after `record` (where a later one still wins). */
static int run_dtl(struct tool *t, const struct family_opts *f, int argc, char **argv)
{
	const char *opt = unused_by_dtl(t, f);
	bool record = argc > 1 && strcmp(argv[1], "record") == 0;
	if (!opt && !record && (t->sysfs || t->tracefs))
		opt = t->sysfs ? "--sysfs" : "--tracefs";
	if (opt) {
		tool_error(t, "%s before dtl: it does not apply to dtl%s%s, whose options follow "
			   "its subcommand (see %s dtl --help)", opt, argc > 1 ? " " : "",
			   argc > 1 ? argv[1] : "", t->prog);
		return EXIT_USAGE;
	}
	if (!t->sysfs && !t->tracefs)
		return cmd_dtl(t, argc, argv);
	char **v = calloc((size_t)argc + 5, sizeof(*v));
	if (!v) {
		tool_error(t, "out of memory");
		return EXIT_INTERNAL;
	}
	int n = 0;
	v[n++] = argv[0];
	v[n++] = argv[1];
	if (t->sysfs) {
		v[n++] = "--sysfs";
		v[n++] = (char *)t->sysfs;
	}
	if (t->tracefs) {
		v[n++] = "--tracefs";
		v[n++] = (char *)t->tracefs;
	}
	for (int i = 2; i < argc; i++)
		v[n++] = argv[i];
	int rc = cmd_dtl(t, n, v);
	free(v);
	return rc;
}

/* record takes its options after its name: stat's (and check's --json and
 * --batch) before it would be ignored. */
static int refuse_before_record(const struct tool *t, const struct family_opts *f)
{
	if (!stat_opts_given(&f->stat) && !f->describe.json && !f->describe.batch)
		return EXIT_OK;
	tool_error(t, "record takes its options after its name (pmutool record -e EVENT ...); "
		   "before it go --pmu, --sysfs and --tracefs only");
	return EXIT_USAGE;
}

static int dispatch(struct tool *t, struct family_opts *f)
{
	if (!t->subcommand && t->nargs < 1) {
		tool_error(t, "no subcommand (list, describe, check, stat, record, report, script or "
			   "dtl; see %s --help)", t->prog);
		return EXIT_USAGE;
	}
	if (!t->subcommand && strcmp(t->args[0], "dtl") == 0)
		return run_dtl(t, f, t->nargs, t->args);
	if (!t->subcommand) {
		t->subcommand = t->args[0];
		t->args++;
		t->nargs--;
	}
	const char *name = t->subcommand;
	for (size_t i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++) {
		if (strcmp(name, subcommands[i].name) != 0)
			continue;
		int rc = refuse_unused(t, f, &subcommands[i]);
		if (!rc)
			rc = refuse_unused_perfdata(t, f, &subcommands[i]);
		if (!rc && subcommands[i].run == run_record)
			rc = refuse_before_record(t, f);
		if (rc)
			return rc;
		rc = subcommands[i].needs == NEEDS_HOST ? tool_open_host(t)
		     : subcommands[i].needs == NEEDS_PMU ? open_pmu(t)
							    : EXIT_OK;
		return rc ? rc : subcommands[i].run(t, f);
	}
	tool_error(t, "unknown subcommand '%s' (list, describe, check, stat, record, report, script "
		   "or dtl)", name);
	return EXIT_USAGE;
}

int pmutool_main(int argc, char **argv, const struct pmurt_sys *sys)
{
	struct tool t = {
		.prog = base_name(argc > 0 ? argv[0] : "pmutool"),
		.pmu_spec = "power10",
		.sys = sys,
	};
	struct family_opts f = {.report = REPORT_OPTS_INIT, .describe = DESCRIBE_OPTS_INIT};
	bool done = false;
	int rc;
	rc = parse_options(&t, &f, argc, argv, &done);
	char *own_help[] = {NULL, "--help", NULL};
	if (!rc && !done && t.help && t.nargs > 0 && takes_own_options(t.args[0])) {
		own_help[0] = t.args[0];   /* `pmutool --help record`: record's own */
		t.args = own_help;
		t.nargs = 2;
	} else if (!rc && !done && t.help) {
		print_help(&t);
		done = true;
	}
	if (rc || done) {
		stat_opts_free(&f.stat);
		return rc;
	}
	rc = dispatch(&t, &f);
	pmurt_pmu_close(t.own_pmu);
	pmurt_host_close(t.host);
	stat_opts_free(&f.stat);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		tool_error(&t, "writing the output failed");
		return EXIT_INTERNAL;
	}
	return rc;
}
