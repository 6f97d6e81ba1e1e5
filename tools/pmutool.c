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
#include <sys/auxv.h>

#include "perf_int.h"
#include "pmutool.h"

#ifndef PMUTOOL_VERSION
#define PMUTOOL_VERSION "0.0.0"
#endif

enum { OPT_PMU = 256, OPT_PID, OPT_HV_MODE, OPT_NO_PER_TASK, OPT_PER_TASK, OPT_NO_LPAR, OPT_SYSFS,
       OPT_TRACEFS, OPT_DRY_RUN, OPT_SORT, OPT_COMM, OPT_PVR, OPT_SHOW_PICK, OPT_METRIC_ONLY,
       OPT_PERCENT_LIMIT, OPT_CHILDREN, OPT_NO_CHILDREN, OPT_PPROF, OPT_OPENMETRICS };

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
		"       pmutool [OPTION]... record -e EVENT... [-a|-C CPUS|-p PID] [-- CMD]\n"
		"       pmutool report [-i FILE] [--sort KEYS] [--comm NAME] [--percent-limit P]\n"
		"                      [--no-children] [-g caller|callee|none] [--json]\n"
		"       pmutool report [-i FILE] [--comm NAME] --pprof OUT\n"
		"       pmutool script [-i FILE] [-G] [-F FIELDS]\n"
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
		"      --sort=KEYS      report: comm,pid,tid,cpu,dso,sym (default comm,dso,sym)\n"
		"      --comm=NAME      report: only the samples of command NAME\n"
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
	 "all without it): name, code, category and description.\n\n"
	 "  -p, --pmu=SPEC       the description (default power10)\n"
	 "      --pvr=HEX        the processor revision choosing revision checks\n"
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
	 "  -I, --interval-print=MS  print the counts every MS milliseconds\n"
	 "  -r, --repeat=N       run CMD N times, show the mean and spread\n"
	 "  -x, --field-separator=SEP  CSV output with SEP\n"
	 "  -j, --json           JSON output (a run's on standard error, or in -o's FILE)\n"
	 "  -o, --output=FILE    the counts into FILE, not standard error\n"
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
	 "Usage: pmutool report [-i FILE] [--sort KEYS] [--comm NAME] [--percent-limit P]\n"
	 "                      [--no-children] [-g caller|callee|none] [--json]\n"
	 "       pmutool report [-i FILE] [--comm NAME] --pprof OUT\n"
	 "Samples and period per key in a perf.data file, one table per event, as\n"
	 "perf report --stdio --sort KEYS lists them.\n\n"
	 "  -i, --input=FILE     the perf.data file (default perf.data)\n"
	 "      --sort=KEYS      comm,pid,tid,cpu,dso,sym (default comm,dso,sym)\n"
	 "      --comm=NAME      only the samples of command NAME (percentages of all)\n"
	 "      --percent-limit=P  hide the rows under P percent\n"
	 "      --no-children    no Children column for a file with call graphs (-g):\n"
	 "                       each row's own samples only, as perf report --no-children\n"
	 "  -g, --call-graph=ORDER  a -g file's call graphs under the rows, as perf report\n"
	 "                       draws them: caller (default with Children), callee\n"
	 "                       (default without), none\n"
	 "  -j, --json           JSON output\n"
	 "      --pprof=OUT      a gzipped pprof profile in OUT instead of the table: per\n"
	 "                       event samples and period, call stacks with their files\n"
	 "                       and functions, comm/pid/tid/cpu labels (see doc/fleet.md)\n"
	 "Exit status: 0 done, 2 usage or a bad file, 4 internal error.\n"},
	{"script",
	 "Usage: pmutool script [-i FILE] [-G] [-F FIELDS]\n"
	 "The samples of a perf.data file in time order, as perf script prints them,\n"
	 "tracepoints' fields decoded by libtraceevent.\n\n"
	 "  -i, --input=FILE     the perf.data file (default perf.data)\n"
	 "  -G, --hide-call-graph  one line per sample, without its call graph\n"
	 "  -F, --fields=FIELDS  [TYPE:][+-]comm,tid,pid,time,cpu,event,trace,ip,sym,\n"
	 "                       symoff,dso,period (TYPE: hw, sw, trace, raw, break)\n"
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

/* A check option: its value, and the first such option given (for refusing
 * it where it would change nothing). */
static void set_flag(bool *flag, bool value, const char **first, const char *opt)
{
	*flag = value;
	if (!*first)
		*first = opt;
}

static int add_event(struct tool *t, const char *arg)
{
	const char **v = realloc(t->events, (size_t)(t->nevents + 1) * sizeof(*v));
	if (!v) {
		tool_error(t, "out of memory");
		return -1;
	}
	t->events = v;
	t->events[t->nevents++] = arg;
	return 0;
}

static int number_option(const struct tool *t, const char *opt, const char *arg, long lo, long hi,
			 long *out)
{
	char *end;
	errno = 0;
	long v = strtol(arg, &end, 10);
	if (end == arg || *end || errno || v < lo || v > hi) {
		tool_error(t, "%s wants a number from %ld to %ld, not '%s'", opt, lo, hi, arg);
		return -1;
	}
	*out = v;
	return 0;
}

/* report --percent-limit: a percentage, 0 to 100, as perf's (a fraction
 * allowed, a '%' after it too: builtin-report.c parse_percent_limit) */
static int percent_option(struct tool *t, const char *arg)
{
	char *end;
	errno = 0;
	double v = strtod(arg, &end);
	if (*end == '%')
		end++;
	if (end == arg || *end || errno || !(v >= 0 && v <= 100)) {
		tool_error(t, "--percent-limit wants a percentage from 0 to 100, not '%s'", arg);
		return -1;
	}
	t->percent_limit = v;
	return 0;
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

/* pmutool's own options: up to the first operand (first), or all of
 * them wherever they are (getopt permutes). */
static int parse_global_options(struct tool *t, int argc, char **argv, bool *done, bool first,
				bool stat_pass)
{
	static const struct option longopts[] = {
		{"pmu", required_argument, NULL, OPT_PMU},
		{"pid", required_argument, NULL, OPT_PID},
		{"pvr", required_argument, NULL, OPT_PVR},
		{"show-pick", no_argument, NULL, OPT_SHOW_PICK},
		{"json", no_argument, NULL, 'j'},
		{"batch", required_argument, NULL, 'b'},
		{"hv-mode", no_argument, NULL, OPT_HV_MODE},
		{"no-per-task", no_argument, NULL, OPT_NO_PER_TASK},
		{"per-task", no_argument, NULL, OPT_PER_TASK},
		{"no-lpar", no_argument, NULL, OPT_NO_LPAR},
		{"event", required_argument, NULL, 'e'},
		{"all-cpus", no_argument, NULL, 'a'},
		{"cpu", required_argument, NULL, 'C'},
		{"interval-print", required_argument, NULL, 'I'},
		{"repeat", required_argument, NULL, 'r'},
		{"field-separator", required_argument, NULL, 'x'},
		{"output", required_argument, NULL, 'o'},
		{"dry-run", no_argument, NULL, OPT_DRY_RUN},
		{"metrics", required_argument, NULL, 'M'},
		{"metric-only", no_argument, NULL, OPT_METRIC_ONLY},
		{"sysfs", required_argument, NULL, OPT_SYSFS},
		{"tracefs", required_argument, NULL, OPT_TRACEFS},
		{"input", required_argument, NULL, 'i'},
		{"sort", required_argument, NULL, OPT_SORT},
		{"comm", required_argument, NULL, OPT_COMM},
		{"percent-limit", required_argument, NULL, OPT_PERCENT_LIMIT},
		{"children", no_argument, NULL, OPT_CHILDREN},
		{"no-children", no_argument, NULL, OPT_NO_CHILDREN},
		{"hide-call-graph", no_argument, NULL, 'G'},
		{"fields", required_argument, NULL, 'F'},
		{"call-graph", required_argument, NULL, 'g'},
		{"pprof", required_argument, NULL, OPT_PPROF},
		{"openmetrics", no_argument, NULL, OPT_OPENMETRICS},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{NULL, 0, NULL, 0},
	};
	int c;
	long pid;
	opterr = 0;
	optind = 0; /* glibc: start afresh, also for the second pass */
	const char *optstring = first ? "+:p:jb:e:M:aC:I:r:x:o:i:GF:g:hV" : ":p:jb:e:M:aC:I:r:x:o:i:GF:g:hV";
	while ((c = getopt_long(argc, argv, optstring, longopts, NULL)) != -1) {
		switch (c) {
		case 'p': /* after stat, a PID as in perf (and record); before, --pmu */
			if (!stat_pass) {
				t->pmu_spec = optarg;
				t->pmu_given = true;
				break;
			}
			/* fall through */
		case OPT_PID:
			if (!stat_pass) {
				tool_error(t, "--pid applies to stat, after its name (record has its own)");
				return EXIT_USAGE;
			}
			if (number_option(t, "-p", optarg, 1, INT_MAX, &pid))
				return EXIT_USAGE;
			t->pid = (int)pid;
			break;
		case OPT_PMU: t->pmu_spec = optarg; t->pmu_given = true; break;
		case 'e':
			if (add_event(t, optarg))
				return EXIT_INTERNAL;
			break;
		case 'a': t->all_cpus = true; break;
		case 'C': t->cpu_list = optarg; break;
		case 'I':
			if (number_option(t, "-I", optarg, 10, 3600000, &t->interval_ms))
				return EXIT_USAGE;
			break;
		case 'r':
			if (number_option(t, "-r", optarg, 1, 100000, &t->repeat))
				return EXIT_USAGE;
			break;
		case 'x': t->sep = optarg; break;
		case 'o': t->output = optarg; break;
		case OPT_DRY_RUN: t->dry_run = true; break;
		case 'M': t->metric_names = optarg; break;
		case OPT_METRIC_ONLY: t->metric_only = true; break;
		case OPT_SYSFS: t->sysfs = optarg; break;
		case OPT_PVR:
			if (pvr_option(t, optarg))
				return EXIT_USAGE;
			break;
		case OPT_TRACEFS: t->tracefs = optarg; break;
		case OPT_SHOW_PICK: t->show_pick = true; break;
		case 'j': t->json = true; break;
		case 'b': t->batch = optarg; break;
		case 'i': t->input = optarg; break;
		case OPT_SORT: t->sort = optarg; break;
		case OPT_COMM: t->comm = optarg; break;
		case OPT_CHILDREN:
		case OPT_NO_CHILDREN:
			t->no_children = c == OPT_NO_CHILDREN;
			t->children_given = true;
			break;
		case OPT_PERCENT_LIMIT:
			if (percent_option(t, optarg))
				return EXIT_USAGE;
			break;
		case 'G': t->hide_call_graph = true; break;
		case 'F': t->fields = optarg; break;
		case 'g': t->call_graph = optarg; break;
		case OPT_PPROF: t->pprof = optarg; break;
		case OPT_OPENMETRICS: t->openmetrics = true; break;
		case OPT_HV_MODE: set_flag(&t->check.hv_mode, true, &t->kernel_opt, "--hv-mode"); break;
		case OPT_NO_LPAR: set_flag(&t->check.lpar, false, &t->kernel_opt, "--no-lpar"); break;
		case OPT_NO_PER_TASK:
			set_flag(&t->check.per_task, false, &t->task_opt, "--no-per-task");
			break;
		case OPT_PER_TASK: set_flag(&t->check.per_task, true, &t->task_opt, "--per-task"); break;
		case 'h': t->help = true; break;
		case 'V':
			printf("pmutool %s (libpmurt %d.%d.%d)\n", PMUTOOL_VERSION,
			       PMURT_VERSION_MAJOR, PMURT_VERSION_MINOR, PMURT_VERSION_PATCH);
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
						   .pmu = t->pmu_given ? t->pmu_spec : NULL);
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

/* Options may come before or after the subcommand (getopt permutes), except
 * after one that takes its own options or runs a command. */
static int parse_options(struct tool *t, int argc, char **argv, bool *done)
{
	int rc = parse_global_options(t, argc, argv, done, true, false);
	if (rc || *done || (t->nargs > 0 && takes_own_options(t->args[0])))
		return rc;
	if (t->nargs > 0 && runs_a_command(t->args[0])) {
		t->subcommand = t->args[0];   /* getopt takes it for argv[0] */
		return parse_global_options(t, t->nargs, t->args, done, true, true);
	}
	t->nevents = 0; /* the second pass sees the first's -e again */
	return parse_global_options(t, argc, argv, done, false, false);
}

/* Without --pmu, the host's description as stat's host picks it
 * (perf/host.c: the device tree's pmus node, AT_PLATFORM, the cpu PMU's
 * pmu_name, the PVR; sysfs from $PMURT_SYSFS), else the built-in power10
 * (a host that is not POWER).  0 with t->pmu set, or a negative errno. */
static int pick_pmu(struct tool *t, struct pmurt_error *err)
{
	const char *sysfs = getenv("PMURT_SYSFS");
	struct pmu_pick_inputs in = {.sysfs = sysfs && *sysfs ? sysfs : "/sys",
				     .at_platform = (const char *)getauxval(AT_PLATFORM),
				     .cpuinfo = "/proc/cpuinfo", .pvr = t->pvr};
	int rc = pmu_host_pick(&in, &t->pmu, t->picked, sizeof(t->picked), err);
	if (rc > 0) {
		rc = pmurt_pmu_open(&t->pmu, t->pmu_spec,
				    &PMURT_OPTS_INIT(pmurt_open_opts, .pvr = t->pvr), err);
		snprintf(t->picked, sizeof(t->picked), "the default (the host offers none)");
	}
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
	int rc = t->pmu_given ? pmurt_pmu_open(&t->pmu, t->pmu_spec,
					       &PMURT_OPTS_INIT(pmurt_open_opts, .pvr = t->pvr),
					       &err)
			      : pick_pmu(t, &err);
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
	int (*run)(struct tool *t);
	bool kernel_opts;  /* --hv-mode, --no-lpar change its answer */
	bool task_opts;    /* --per-task, --no-per-task change its answer */
	enum subcommand_needs needs;
};

/* describe shows one event alone, which never needs an alternative, so the
 * per-task alternatives (PPMU_ONLY_COUNT_RUN) change nothing there. */
static const struct subcommand subcommands[] = {
	{"list", cmd_list, false, false, NEEDS_PMU},
	{"describe", cmd_describe, true, false, NEEDS_PMU},
	{"check", cmd_check, true, true, NEEDS_PMU},
	{"record", cmd_record, false, false, NEEDS_HOST},
	{"stat", cmd_stat, false, false, NEEDS_HOST},
	{"report", cmd_report, false, false, NEEDS_NOTHING},
	{"script", cmd_script, false, false, NEEDS_NOTHING},
};

/* An option the subcommand would ignore is an error, not a silent no-op. */
static int refuse_unused(const struct tool *t, const struct subcommand *sub)
{
	const char *opt = !sub->kernel_opts && t->kernel_opt ? t->kernel_opt
			  : !sub->task_opts && t->task_opt   ? t->task_opt
							       : NULL;
	bool live_opts = t->nevents || t->metric_names || t->metric_only || t->all_cpus || t->cpu_list || t->interval_ms || t->repeat ||
			 t->sep || t->output || t->dry_run || t->sysfs || t->tracefs;
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
			   t->kernel_opt == opt ? " and describe" : "");
	else
		tool_error(t, "%s changes nothing for %s: one event alone never needs "
			   "an alternative (it applies to check)", opt, sub->name);
	return EXIT_USAGE;
}

/* -i, --sort, --comm belong to report (-i also to script, -G to script); --batch and
 * --json to the description's subcommands (--json also to report). */
static int refuse_unused_perfdata(const struct tool *t, const struct subcommand *sub)
{
	bool report = !strcmp(sub->name, "report"), script = !strcmp(sub->name, "script");
	const char *opt = t->input && !report && !script ? "-i"
			  : t->sort && !report          ? "--sort"
			  : t->comm && !report          ? "--comm"
			  : t->percent_limit && !report ? "--percent-limit"
			  : t->children_given && !report ? "--children"
			  : t->call_graph && !report    ? "-g"
			  : t->pprof && !report         ? "--pprof"
			  : t->openmetrics && strcmp(sub->name, "stat") ? "--openmetrics"
			  : t->hide_call_graph && !script ? "-G"
			  : t->fields && !script        ? "-F"
			  : t->batch && (report || script) ? "--batch"
			  : t->json && script            ? "--json"
							 : NULL;
	if (opt)
		tool_error(t, "%s changes nothing for %s", opt, sub->name);
	return opt ? EXIT_USAGE : EXIT_OK;
}

/* The first pmutool option given before `dtl` that dtl has no use for:
 * only --sysfs and --tracefs reach it (dtl record's roots). */
static const char *unused_by_dtl(const struct tool *t)
{
	return t->pmu_given ? "--pmu" : t->pvr ? "--pvr" : t->json ? "--json"
	       : t->batch ? "--batch" : t->kernel_opt ? t->kernel_opt : t->task_opt ? t->task_opt
	       : t->input ? "-i" : t->sort ? "--sort" : t->comm ? "--comm"
	       : t->percent_limit ? "--percent-limit" : t->children_given ? "--children"
	       : t->call_graph ? "-g" : t->pprof ? "--pprof" : t->openmetrics ? "--openmetrics"
	       : t->hide_call_graph ? "-G" : t->fields ? "-F" : t->nevents ? "-e" : t->all_cpus ? "-a"
	       : t->cpu_list ? "-C" : t->interval_ms ? "-I" : t->repeat ? "-r" : t->sep ? "-x"
	       : t->dry_run ? "--dry-run" : t->output ? "-o" : NULL;
}

/* `pmutool [--sysfs DIR] [--tracefs DIR] dtl SUB ...`: dtl parses its own
 * options; --sysfs and --tracefs given before it go to dtl record, as if
 * given after `record` (where a later one still wins). */
static int run_dtl(struct tool *t, int argc, char **argv)
{
	const char *opt = unused_by_dtl(t);
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

static int dispatch(struct tool *t)
{
	if (!t->subcommand && t->nargs < 1) {
		tool_error(t, "no subcommand (list, describe, check, stat, record, report, script or "
			   "dtl; see %s --help)", t->prog);
		return EXIT_USAGE;
	}
	if (!t->subcommand && strcmp(t->args[0], "dtl") == 0)
		return run_dtl(t, t->nargs, t->args);
	if (!t->subcommand) {
		t->subcommand = t->args[0];
		t->args++;
		t->nargs--;
	}
	const char *name = t->subcommand;
	for (size_t i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++) {
		if (strcmp(name, subcommands[i].name) != 0)
			continue;
		int rc = refuse_unused(t, &subcommands[i]);
		if (!rc)
			rc = refuse_unused_perfdata(t, &subcommands[i]);
		if (rc)
			return rc;
		rc = subcommands[i].needs == NEEDS_HOST ? tool_open_host(t)
		     : subcommands[i].needs == NEEDS_PMU ? open_pmu(t)
							    : EXIT_OK;
		return rc ? rc : subcommands[i].run(t);
	}
	tool_error(t, "unknown subcommand '%s' (list, describe, check, stat, record, report, script "
		   "or dtl)", name);
	return EXIT_USAGE;
}

int pmutool_main(int argc, char **argv, const struct pmu_sys *sys)
{
	struct tool t = {
		.prog = base_name(argc > 0 ? argv[0] : "pmutool"),
		.pmu_spec = "power10",
		.check = PMURT_OPTS_INIT(pmurt_check_opts, .per_task = true, .lpar = true),
		.sys = sys,
	};
	bool done = false;
	int rc;
	rc = parse_options(&t, argc, argv, &done);
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
		free(t.events);
		return rc;
	}
	rc = dispatch(&t);
	pmurt_pmu_close(t.pmu);
	pmurt_host_close(t.host);
	free(t.events);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		tool_error(&t, "writing the output failed");
		return EXIT_INTERNAL;
	}
	return rc;
}
