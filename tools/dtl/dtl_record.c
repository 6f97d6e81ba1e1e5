/*
 * dtl_record.c - `pmutool dtl record`: the vpa_dtl PMU's Dispatch Trace Log
 * captured through its AUX area into perf.data, as `perf record -e
 * vpa_dtl/dtl_all/ -a` writes it (tools/perf/arch/powerpc/util/auxtrace.c:
 * the vpa_dtl event first, an AUX area (1 MiB here, perf's 128 KiB loses
 * far more at the driver's wraps: perf_int.h) and a data ring of
 * 256 KiB per CPU), with the sched tracepoints beside it so that `dtl
 * script` can put dispatches next to the scheduler's switches.
 *
 *   pmutool dtl record [-a | -C CPUS] [-e vpa_dtl/dtl_all/] [-c NS] [-o FILE]
 *                      [-m PAGES] [--aux-pages PAGES] [--no-sched]
 *                      [--sysfs DIR] [--tracefs DIR] [-- CMD...]
 *
 * vpa_dtl is per CPU only: without -a or -C every online CPU is recorded
 * while CMD runs (or until SIGINT).  -c is the driver's poll interval in
 * ns (its hrtimer; sample_period), at least 1 ms as the driver enforces.
 *
 * The kernel is tool->sys: the real one in the installed pmutool; the test
 * program tests/dtl/pmutool_sim.c runs this same code on the simulated
 * vpa_dtl driver (tests/support/sim_dtl.c).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dtl_perf.h"
#include "record/record_tool.h"

#define AUXTRACE_VPA_DTL 7               /* tools/perf/util/auxtrace.h */
#define SCHED_EVENTS "sched:sched_switch,sched:sched_wakeup"

enum { OPT_AUX_PAGES = 256, OPT_NO_SCHED, OPT_SYSFS, OPT_TRACEFS };

struct dtl_record_args {
	struct record_args r;
	const char *event;
	uint64_t period;      /* -c: the vpa_dtl event's own (r.period would
	                         set every event's) */
	bool no_sched;
	const char *sysfs, *tracefs;
};

static void usage(FILE *out)
{
	fputs("Usage: pmutool dtl record [-a | -C CPUS] [-e vpa_dtl/dtl_all/] [-c NS] [-o FILE]\n"
	      "                          [-m PAGES] [--aux-pages PAGES] [--no-sched]\n"
	      "                          [--sysfs DIR] [--tracefs DIR] [-- CMD [ARG]...]\n"
	      "Capture the vpa_dtl Dispatch Trace Log into perf.data (AUXTRACE records),\n"
	      "with sched:sched_switch and sched:sched_wakeup beside it.\n\n"
	      "  -a, --all-cpus       every online CPU (the default: vpa_dtl is per CPU)\n"
	      "  -C, --cpu=CPUS       these CPUs (0-3,8)\n"
	      "  -e, --event=EVENT    vpa_dtl/dtl_cede/, dtl_preempt, dtl_fault or dtl_all\n"
	      "                       (the default)\n"
	      "  -c, --count=NS       the driver's poll interval in ns, at least 1000000\n"
	      "                       (default 1000000)\n"
	      "  -o, --output=FILE    the perf.data file (default perf.data)\n"
	      "  -m, --mmap-pages=N   data pages per CPU, a power of two (default 256 KiB)\n"
	      "      --aux-pages=N    AUX pages per CPU, a power of two (default 1 MiB)\n"
	      "      --no-sched       without the sched tracepoints\n"
	      "      --sysfs=DIR      the sysfs root (default $PMURT_SYSFS or /sys)\n"
	      "      --tracefs=DIR    the tracefs root\n"
	      "Without CMD, it records until SIGINT.  See pmutool(1).\n", out);
}

static int parse_period(const struct tool *t, const char *s, uint64_t *v)
{
	if (!tool_read_u64(s, v)) {
		tool_error(t, "dtl record: -c: '%s' is not a number of ns", s);
		return EXIT_USAGE;
	}
	if (*v < PMURT_DTL_MIN_PERIOD_NS) {
		tool_error(t, "dtl record: -c %llu: the poll interval is in ns and vpa_dtl polls "
			   "at most every 1 ms (vpa-dtl.c: max(1 ms, sample_period)); give at least "
			   "1000000", (unsigned long long)*v);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

static int parse_option(const struct tool *t, struct dtl_record_args *a, int c, const char *arg)
{
	switch (c) {
	case 'a': a->r.all_cpus = true; return EXIT_OK;
	case 'C': a->r.cpu_list = arg; return EXIT_OK;
	case 'e': a->event = arg; return EXIT_OK;
	case 'c': return parse_period(t, arg, &a->period);
	case 'o': a->r.output = arg; return EXIT_OK;
	case 'm': return tool_parse_pages(t, "dtl record: ", "-m", arg, &a->r.data_pages);
	case OPT_AUX_PAGES:
		return tool_parse_pages(t, "dtl record: ", "--aux-pages", arg, &a->r.aux_pages);
	case OPT_NO_SCHED: a->no_sched = true; return EXIT_OK;
	case OPT_SYSFS: a->sysfs = arg; return EXIT_OK;
	case OPT_TRACEFS: a->tracefs = arg; return EXIT_OK;
	}
	return EXIT_USAGE;
}

static int parse_args(const struct tool *t, int argc, char **argv, struct dtl_record_args *a,
		      bool *done)
{
	static const struct option longopts[] = {
		{"all-cpus", no_argument, NULL, 'a'},
		{"cpu", required_argument, NULL, 'C'},
		{"event", required_argument, NULL, 'e'},
		{"count", required_argument, NULL, 'c'},
		{"output", required_argument, NULL, 'o'},
		{"mmap-pages", required_argument, NULL, 'm'},
		{"aux-pages", required_argument, NULL, OPT_AUX_PAGES},
		{"no-sched", no_argument, NULL, OPT_NO_SCHED},
		{"sysfs", required_argument, NULL, OPT_SYSFS},
		{"tracefs", required_argument, NULL, OPT_TRACEFS},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	*a = (struct dtl_record_args){.event = "vpa_dtl/dtl_all/", .period = PMURT_DTL_DEFAULT_PERIOD_NS};
	a->r = (struct record_args){.pid = -1, .output = "perf.data", .min_period = 1,
				    .auxtrace_type = AUXTRACE_VPA_DTL,
				    .aux_pages = PMURT_DTL_AUX_DEFAULT_BYTES > page ? PMURT_DTL_AUX_DEFAULT_BYTES / page : 1,
				    .data_pages = PMURT_DTL_DATA_DEFAULT_BYTES > page ? PMURT_DTL_DATA_DEFAULT_BYTES / page
									    : 1};
	optind = 1;
	opterr = 0;
	int c;
	while ((c = getopt_long(argc, argv, "+:aC:e:c:o:m:h", longopts, NULL)) != -1) {
		if (c == 'h') {
			usage(stdout);
			*done = true;
			return EXIT_OK;
		}
		if (c == ':' || c == '?') {
			tool_error(t, c == ':' ? "dtl record: option '%s' needs an argument"
					       : "dtl record: unknown option '%s' (see pmutool dtl "
						 "record --help)", argv[optind - 1]);
			return EXIT_USAGE;
		}
		int rc = parse_option(t, a, c, optarg);
		if (rc)
			return rc;
	}
	a->r.cmd = optind < argc ? argv + optind : NULL;
	if (a->r.all_cpus && a->r.cpu_list) {
		tool_error(t, "dtl record: -a and -C exclude each other");
		return EXIT_USAGE;
	}
	if (!a->r.all_cpus && !a->r.cpu_list && !a->r.cmd) {
		tool_error(t, "dtl record: nothing to record: give -a, -C CPUS or a command");
		return EXIT_USAGE;
	}
	a->r.all_cpus = !a->r.cpu_list; /* per CPU only */
	return EXIT_OK;
}

/* The vpa_dtl event first (the AUX area is on it), its poll interval as
 * its period; the tracepoints one sample per hit. */
static int build_list(const struct tool *t, const struct dtl_record_args *a,
		      struct pmurt_host *host, struct pmurt_evlist **list)
{
	struct pmurt_error err = {0};
	struct pmurt_evsel_info e = PMURT_OPTS_INIT(pmurt_evsel_info);
	int rc = pmurt_evlist_parse(list, host, a->event, NULL, &err);
	if (rc == 0 && (pmurt_evlist_nevents(*list) != 1 ||
			pmurt_evlist_event(*list, 0, &e) < 0 || strcmp(e.pmu, "vpa_dtl") != 0)) {
		tool_error(t, "dtl record: -e '%s': one vpa_dtl event (vpa_dtl/dtl_all/, "
			   "vpa_dtl/dtl_cede/, ...)", a->event);
		return EXIT_USAGE;
	}
	if (rc == 0)
		rc = pmurt_evlist_set_period(*list, 0, a->period);
	if (rc == 0 && !a->no_sched)
		rc = pmurt_evlist_add(*list, SCHED_EVENTS, &err);
	for (int i = 1; rc == 0 && i < pmurt_evlist_nevents(*list); i++)
		rc = pmurt_evlist_set_period(*list, i, 1);
	if (rc < 0) {
		tool_error(t, "dtl record: %s", err.message[0] ? err.message : strerror(-rc));
		return rc == -ENOMEM ? EXIT_INTERNAL : EXIT_USAGE;
	}
	return EXIT_OK;
}

/* --- the run ------------------------------------------------------------------------ */

/* What the driver refuses of the event (a config, an exclude bit), said
 * before anything is opened. */
static int check_refusal(const struct tool *t, const struct dtl_record_args *a,
			 const struct pmurt_evlist *list)
{
	struct pmurt_error err = {0};
	struct pmurt_record_opts o = PMURT_OPTS_INIT(pmurt_record_opts, .pid = -1);
	if (pmurt_record_refusal(list, &o, &err) == 0)
		return EXIT_OK;
	tool_error(t, "dtl record: -e '%s': %s", a->event, err.message);
	return EXIT_USAGE;
}

static int record_on(const struct tool *t, struct dtl_record_args *a, struct pmurt_host *host)
{
	struct pmurt_error err = {0};
	if (pmurt_host_pmu_present(host, "vpa_dtl", &err) < 0) {
		tool_error(t, "dtl record: %s", err.message);
		return EXIT_OPEN_FAILED;
	}
	struct pmurt_evlist *list = NULL;
	int rc = build_list(t, a, host, &list);
	if (rc == EXIT_OK)
		rc = check_refusal(t, a, list);
	if (rc == EXIT_OK)
		rc = record_run(t, &a->r, list);
	pmurt_evlist_free(list);
	return rc;
}

int dtl_record(const struct tool *t, int argc, char **argv)
{
	struct dtl_record_args a;
	bool done = false;
	int rc = parse_args(t, argc, argv, &a, &done);
	if (rc || done)
		return rc;
	struct pmurt_host *host = NULL;
	struct pmurt_error err = {0};
	/* t->sys: a test program's simulated kernel, else the real one */
	struct pmurt_host_opts ho = PMURT_OPTS_INIT(pmurt_host_opts, .sysfs = a.sysfs,
						    .tracefs = a.tracefs, .sys = t->sys);
	if (pmurt_host_open(&host, &ho, &err) < 0) {
		tool_error(t, "dtl record: cannot open the host: %s", err.message);
		return EXIT_NOPMU;
	}
	rc = record_on(t, &a, host);
	pmurt_host_close(host);
	return rc;
}
