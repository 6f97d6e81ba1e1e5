/*
 * cmd_record.c - `pmutool record`: sample events into a perf.data file, as
 * `perf record` does, with the DTrace cpc provider's rules (minimum period,
 * counters first come first served, cpc probe names as events).
 *
 *   pmutool record -e SPEC [-e SPEC]... [-a | -C CPUS | -p PID] [-c N | -F HZ]
 *                  [-g | --call-graph fp|dwarf[,SIZE]] [-o FILE] [-m PAGES]
 *                  [--min-period N] [--dry-run] [-- CMD...]
 *
 * A workload is forked and held before its exec until every event is open
 * (the events start at its exec, enable_on_exec), as perf's
 * evlist__prepare_workload does.  SIGINT and SIGTERM stop the recording;
 * whatever the rings hold is still written, and the file is finished.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmutool.h"
#include "record_tool.h"

#define POLL_MS 100

enum { OPT_MIN_PERIOD = 256, OPT_DRY_RUN, OPT_CALL_GRAPH };

/* --call-graph dwarf's user stack per sample when no SIZE is given, and
 * the largest (util/callchain.c: default_stack_dump_size, get_stack_size) */
#define STACK_DUMP_DEFAULT 8192
#define STACK_DUMP_MAX 65528

/* The recording a signal stops: the handler may touch nothing else. */
static struct pmurt_record *volatile stop_target;

static void on_signal(int sig)
{
	(void)sig;
	struct pmurt_record *r = stop_target;
	if (r)
		pmurt_record_stop(r);
}

static void usage_record(FILE *out)
{
	fprintf(out,
		"Usage: pmutool [OPTION]... record [-e EVENT]... [-a | -C CPUS | -p PID]\n"
		"              [-c PERIOD | -F HZ] [-g | --call-graph=MODE] [-o FILE] [-m PAGES]\n"
		"              [--min-period N]\n"
		"              [--dry-run] [-- CMD [ARG]...]\n"
		"Sample events into a perf.data file.  EVENT is any event perf takes, or a\n"
		"cpc probe name NAME-MODE[-MASK]-COUNT (COUNT the period).\n\n"
		"  -e, --event=EVENT    an enabling (an event or a {group}); repeatable;\n"
		"                       none: cycles, else cpu-clock (perf's default)\n"
		"  -a, --all-cpus       every CPU, every task\n"
		"  -C, --cpu=CPUS       these CPUs (0-3,8), every task\n"
		"  -p, --pid=PID        the running process PID (all its threads); with\n"
		"                       CMD, while CMD runs (CMD not recorded)\n"
		"  -c, --count=PERIOD   a sample every PERIOD events\n"
		"  -F, --freq=HZ        about HZ samples a second (default 4000 without a period)\n"
		"  -g                   record the callchain (kernel and user stack), as\n"
		"                       --call-graph=fp\n"
		"      --call-graph=MODE  fp: the kernel walks the frame pointers; dwarf[,SIZE]:\n"
		"                       SIZE bytes of user stack (default 8192, at most 65528)\n"
		"                       and the user registers per sample, unwound by report\n"
		"                       and script with the binaries' DWARF CFI (elfutils)\n"
		"  -o, --output=FILE    the perf.data file (default perf.data)\n"
		"  -m, --mmap-pages=N   data pages per CPU ring, a power of two (default 128)\n"
		"  -i, --no-inherit     the task only, not the children it starts\n"
		"  -N, --no-buildid-cache  do not keep the sampled binaries in perf's\n"
		"                       build-id cache (perf's buildid.dir, else ~/.debug)\n"
		"      --min-period=N   the smallest period allowed (default 5000, the cpc\n"
		"                       provider's dcpc_min_overflow)\n"
		"      --dry-run        check the events and the counters, open nothing\n");
}

static int parse_u64(const struct tool *t, const char *opt, const char *s, uint64_t *v)
{
	if (!tool_read_u64(s, v)) {
		tool_error(t, "%s: '%s' is not a number", opt, s);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* --call-graph MODE as perf 6.1 parses it for record (util/callchain.c
 * parse_callchain_record): fp, or dwarf with an optional size rounded up
 * to a multiple of 8, 1 to 65528; messages as perf's. */
static int parse_call_graph(const struct tool *t, struct record_args *a, const char *arg)
{
	const char *comma = strchr(arg, ',');
	size_t len = comma ? (size_t)(comma - arg) : strlen(arg);
	a->callchain = true;
	if (len == 2 && !strncmp(arg, "fp", 2) && !comma)
		return EXIT_OK;
	if (len != 5 || strncmp(arg, "dwarf", 5)) {
		tool_error(t, "record: callchain: Unknown --call-graph option value: %s "
			   "(fp or dwarf[,SIZE])", arg);
		return EXIT_USAGE;
	}
	uint64_t size = STACK_DUMP_DEFAULT;
	if (comma && (!tool_read_u64(comma + 1, &size) || size == 0 ||
		      size > STACK_DUMP_MAX)) {
		tool_error(t, "record: callchain: Incorrect stack dump size (max %d): %s",
			   STACK_DUMP_MAX, comma + 1);
		return EXIT_USAGE;
	}
	/* (65529 to 65535, past the largest multiple of 8, are refused too) */
	a->stack_user = (uint32_t)((size + 7) / 8 * 8);
	return EXIT_OK;
}

static int parse_record_option(const struct tool *t, struct record_args *a, int c,
			       const char *arg)
{
	uint64_t v;
	int rc = EXIT_OK;
	switch (c) {
	case 'e':
		if (a->nevents == (int)(sizeof a->events / sizeof a->events[0])) {
			tool_error(t, "record: at most 64 -e options");
			return EXIT_USAGE;
		}
		a->events[a->nevents++] = arg;
		break;
	case 'a': a->all_cpus = true; break;
	case 'C': a->cpu_list = arg; break;
	case 'p':
		rc = parse_u64(t, "-p", arg, &v);
		if (rc == EXIT_OK && (v == 0 || v > INT_MAX)) {
			tool_error(t, "-p: '%s' is not a process id", arg);
			rc = EXIT_USAGE;
		}
		a->pid = (pid_t)v;
		break;
	case 'c':
	case 'F':
		rc = parse_u64(t, c == 'c' ? "-c" : "-F", arg, c == 'c' ? &a->period : &a->freq);
		/* perf refuses both at 0 ("frequency and count are zero, aborting",
		 * builtin-record.c record_opts__config_freq) */
		if (rc == EXIT_OK && (c == 'c' ? !a->period : !a->freq)) {
			tool_error(t, "record: %s 0: a %s must be at least 1", c == 'c' ? "-c" : "-F",
				   c == 'c' ? "period" : "frequency");
			rc = EXIT_USAGE;
		}
		break;
	case 'g': a->callchain = true; break;
	case 'o': a->output = arg; break;
	case 'i': a->no_inherit = true; break;
	case 'N': a->no_buildid_cache = true; break;
	case 'm': rc = tool_parse_pages(t, "", "-m", arg, &a->data_pages); break;
	case OPT_MIN_PERIOD: rc = parse_u64(t, "--min-period", arg, &a->min_period); break;
	case OPT_DRY_RUN: a->dry_run = true; break;
	case OPT_CALL_GRAPH: rc = parse_call_graph(t, a, arg); break;
	}
	return rc;
}

/* Options up to "--" or the first operand, which starts the workload. */
static int parse_record_args(const struct tool *t, int argc, char **argv, struct record_args *a,
			     bool *done)
{
	static const struct option longopts[] = {
		{"event", required_argument, NULL, 'e'},
		{"all-cpus", no_argument, NULL, 'a'},
		{"cpu", required_argument, NULL, 'C'},
		{"pid", required_argument, NULL, 'p'},
		{"count", required_argument, NULL, 'c'},
		{"freq", required_argument, NULL, 'F'},
		{"call-graph", required_argument, NULL, OPT_CALL_GRAPH},
		{"output", required_argument, NULL, 'o'},
		{"mmap-pages", required_argument, NULL, 'm'},
		{"no-inherit", no_argument, NULL, 'i'},
		{"no-buildid-cache", no_argument, NULL, 'N'},
		{"min-period", required_argument, NULL, OPT_MIN_PERIOD},
		{"dry-run", no_argument, NULL, OPT_DRY_RUN},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	*a = (struct record_args){.pid = -1, .min_period = PMURT_CPC_MIN_PERIOD,
				  .output = "perf.data"};
	optind = 1;
	opterr = 0;
	int c;
	while ((c = getopt_long(argc, argv, "+:e:aC:p:c:F:go:m:iNh", longopts, NULL)) != -1) {
		if (c == 'h') {
			usage_record(stdout);
			*done = true;
			return EXIT_OK;
		}
		if (c == ':' || c == '?') {
			tool_error(t, c == ':' ? "record: option '%s' needs an argument"
					       : "record: unknown option '%s' (see pmutool record --help)",
				   argv[optind - 1]);
			return EXIT_USAGE;
		}
		int rc = parse_record_option(t, a, c, optarg);
		if (rc)
			return rc;
	}
	a->cmd = optind < argc ? argv + optind : NULL;
	return EXIT_OK;
}

/* The combinations perf record refuses, and the cpc rules' own. */
static int check_record_args(const struct tool *t, const struct record_args *a)
{
	const char *why = NULL;
	int targets = a->all_cpus + (a->cpu_list != NULL) + (a->pid > 0);
	if (targets > 1)
		why = "-a, -C and -p exclude each other";
	else if (targets == 0 && !a->cmd && !a->dry_run)
		why = "nothing to record: give a command, -a, -C or -p";
	else if (a->period && a->freq)
		why = "-c and -F exclude each other";
	else if (a->min_period == 0)
		why = "--min-period must be at least 1";
	if (!why)
		return EXIT_OK;
	tool_error(t, "record: %s", why);
	return EXIT_USAGE;
}

/* Without -e, perf record's default: cycles, where the host has a
 * hardware PMU, else cpu-clock, as perf falls back to it when cycles
 * cannot be opened (evsel__fallback). */
static const char *default_event(const struct tool *t)
{
	return tool_host_has_counters(t) ? "cycles" : "cpu-clock";
}

/* Every -e string into one event list. */
static int build_evlist(const struct tool *t, const struct record_args *a,
			struct pmurt_evlist **list)
{
	struct pmurt_error err = {0};
	int rc = pmurt_evlist_new(list, t->host, NULL, &err);
	if (rc == 0 && a->nevents == 0)
		rc = pmurt_evlist_add(*list, default_event(t), &err);
	for (int i = 0; rc == 0 && i < a->nevents; i++)
		rc = pmurt_evlist_add(*list, a->events[i], &err);
	if (rc == 0)
		return EXIT_OK;
	tool_error(t, "%s", err.message[0] ? err.message : strerror(-rc));
	return rc == -ENOMEM ? EXIT_INTERNAL : EXIT_USAGE;
}

static int check_cpc_rules(const struct tool *t, const struct record_args *a,
			   const struct pmurt_evlist *list, struct pmurt_group_result *held)
{
	struct pmurt_error err = {0};
	struct pmurt_cpc_opts o = PMURT_OPTS_INIT(pmurt_cpc_opts, .period = a->period,
						  .min_period = a->min_period,
						  .per_cpu = a->all_cpus || a->cpu_list);
	int rc = pmurt_evlist_cpc_check(list, &o, held, &err);
	if (rc == 0)
		return EXIT_OK;
	tool_error(t, "record: %s", err.message);
	return rc == -EBUSY ? EXIT_REJECTED : EXIT_USAGE;
}

/* --dry-run: what would be opened, an event a line (members indented): its
 * type, config, period or frequency, the counter each core event holds,
 * and with :S what its samples read (the group's counters, or its own) or
 * that the leader's read it. */
static void print_dry_run(const struct pmurt_evlist *list, const struct pmurt_record_opts *o,
			  const struct pmurt_group_result *held)
{
	int core = 0;
	for (int i = 0; i < pmurt_evlist_nevents(list); i++) {
		struct pmurt_evsel_info e = PMURT_OPTS_INIT(pmurt_evsel_info);
		struct perf_event_attr at;
		if (pmurt_evlist_event(list, i, &e) < 0 ||
		    pmurt_record_attr(list, i, o, &at, sizeof(at)) < 0)
			continue;
		char pmc[16] = "";
		if (e.kind == PMURT_EVSEL_CORE && core < held->n)
			snprintf(pmc, sizeof pmc, " PMC%d", held->pmc[core++]);
		const char *read = !(at.sample_type & PERF_SAMPLE_READ) ? ""
				   : e.leader != i && !at.sample_period ? ", read by the leader's samples"
				   : at.read_format & PERF_FORMAT_GROUP ? ", samples read the group"
				   : ", samples read the count";
		tool_line("%s%s: type %u config 0x%" PRIx64 " %s %" PRIu64 "%s%s",
			  e.leader == i ? "" : "  ", e.name, at.type, (uint64_t)at.config,
			  at.freq ? "freq" : "period", (uint64_t)at.sample_period, pmc, read);
	}
}

/* --- recording ------------------------------------------------------------------------ */

static void install_handlers(struct pmurt_record *r, bool workload)
{
	stop_target = r;
	struct sigaction sa = {.sa_handler = on_signal}; /* no SA_RESTART: poll returns */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (workload)
		sigaction(SIGCHLD, &sa, NULL); /* perf record stops when its workload ends */
}

static void remove_handlers(void)
{
	struct sigaction sa = {.sa_handler = SIG_DFL};
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGCHLD, &sa, NULL);
	stop_target = NULL;
}

/* Poll and drain until stopped (a signal, the workload's end, every task
 * event hung up). */
static int record_loop(struct pmurt_record *r, const struct pmurt_workload *wl,
		       struct pmurt_error *err)
{
	int rc = 0;
	while (rc == 0 && !pmurt_record_stopped(r)) {
		rc = pmurt_record_poll(r, POLL_MS, err);
		if (pmurt_workload_exited(wl))
			pmurt_record_stop(r);
	}
	return rc;
}

static void print_summary(const struct tool *t, const struct pmurt_record_stats *st,
			  const char *path)
{
	if (st->lost || st->lost_samples)
		fprintf(stderr, "%s: warning: lost %" PRIu64 " records in %" PRIu64 " PERF_RECORD_LOST "
			"and %" PRIu64 " samples in PERF_RECORD_LOST_SAMPLES (a larger -m or period "
			"helps)\n", t->prog, st->lost, st->lost_records, st->lost_samples);
	fprintf(stderr, "[ pmutool record: %" PRIu64 " samples, %" PRIu64 " lost, %" PRIu64
		" lost samples; %.3f MB written to %s ]\n", st->samples, st->lost,
		st->lost_samples, (double)st->bytes / 1e6, path);
}

/* The AUX side: what was drained, skipped and lost (pmurt_record_stats). */
static void print_aux_summary(const struct tool *t, const struct pmurt_record_stats *st)
{
	if (st->aux_lost_entries || st->aux_lost_headers || st->aux_overruns || st->aux_torn_bytes)
		fprintf(stderr, "%s: warning: the AUX area filled %" PRIu64 " times (the reader was "
			"slow: a larger --aux-pages helps): %" PRIu64 " DTL entries "
			"overwritten before they were read%s, %" PRIu64 " bytes possibly torn; the "
			"kernel disables the event when the area is full, so entries of those "
			"intervals are lost too\n", t->prog, st->aux_overruns, st->aux_lost_entries,
			st->aux_lost_headers ? " (and the header)" : "", st->aux_torn_bytes);
	if (st->aux_wrap_polls)
		fprintf(stderr, "%s: warning: the vpa_dtl driver lost %" PRIu64 " to %" PRIu64 " DTL "
			"entries at its wraps (%" PRIu64 " polls whose entries it never reported), and "
			"up to %" PRIu64 " more from batches that reached a wrap (vpa-dtl.c; a larger "
			"--aux-pages makes wraps rarer, a shorter -c makes each poll smaller)\n",
			t->prog, st->aux_wrap_lost_min, st->aux_wrap_lost_max, st->aux_wrap_polls,
			st->aux_cut_lost_max);
	if (st->aux_full_polls)
		fprintf(stderr, "%s: warning: %" PRIu64 " polls of the vpa_dtl driver took 84 "
			"entries, all it takes between two polls: the hypervisor's buffer may have "
			"dropped more, unseen (a shorter -c helps)\n", t->prog, st->aux_full_polls);
	if (st->aux_reopens)
		fprintf(stderr, "%s: warning: vpa_dtl was closed and opened anew %" PRIu64 " times "
			"(its area filled and the kernel disabled it; enabling it again would crash "
			"the kernel): the dispatches in between are not in the file\n", t->prog,
			st->aux_reopens);
	if (st->aux_truncated || st->aux_partial || st->aux_collision)
		fprintf(stderr, "%s: warning: PERF_RECORD_AUX flags: %" PRIu64 " truncated, %" PRIu64
			" partial, %" PRIu64 " collision\n", t->prog, st->aux_truncated,
			st->aux_partial, st->aux_collision);
	fprintf(stderr, "[ AUX: %" PRIu64 " PERF_RECORD_AUX, %" PRIu64 " AUXTRACE records, %"
		PRIu64 " bytes (%" PRIu64 " slots), %" PRIu64 " stale bytes skipped at wraps, %"
		PRIu64 " entries lost ]\n", st->aux_records, st->aux_chunks, st->aux_bytes,
		st->aux_bytes / PMURT_DTL_SLOT_SIZE, st->aux_stale_bytes, st->aux_lost_entries);
}

/* The library's options from the command line's; the workload, when there
 * is one and no CPUs are recorded, is the task. */
static int record_opts(const struct tool *t, const struct record_args *a, pid_t workload,
		       struct pmurt_record_opts *o, int **cpus)
{
	*o = PMURT_OPTS_INIT(pmurt_record_opts, .pid = a->pid, .period = a->period,
			     .freq = a->freq, .callchain = a->callchain,
			     .stack_user = a->stack_user, .data_pages = a->data_pages, .aux_pages = a->aux_pages,
			     .auxtrace_type = a->auxtrace_type, .no_inherit = a->no_inherit,
			     .buildid_cache = !a->no_buildid_cache);
	if (a->cpu_list) {
		struct pmurt_error err = {0};
		int rc = pmurt_cpulist_parse(a->cpu_list, cpus, &o->ncpus, &err);
		if (rc < 0) {
			tool_error(t, "record: -C: %s", err.message);
			return EXIT_USAGE;
		}
		if (tool_check_cpus(t, "record: ", a->cpu_list, *cpus, o->ncpus))
			return EXIT_USAGE;
		o->cpus = *cpus;
		o->pid = -1;
	}
	/* with -p the command only times the recording, as perf's
	 * (record -p PID -- sleep 5) */
	if (workload > 0 && !a->all_cpus && !a->cpu_list && a->pid <= 0) {
		o->pid = workload;
		o->enable_on_exec = true;
	}
	return EXIT_OK;
}

static int fail(const struct tool *t, const struct pmurt_error *err, int rc)
{
	tool_error(t, "record: %s", err->message);
	return rc;
}

/* Enable (or let the workload exec), loop, and stop, signals caught
 * meanwhile. */
static int record_active(const struct tool *t, struct pmurt_record *r,
			 struct pmurt_workload *wl, bool per_workload)
{
	struct pmurt_error err = {0};
	int rc = EXIT_OK;
	install_handlers(r, wl != NULL);
	if (!per_workload && pmurt_record_enable(r, &err) < 0)
		rc = fail(t, &err, EXIT_INTERNAL);
	if (rc == EXIT_OK && wl && pmurt_workload_start(wl, &err) < 0)
		rc = fail(t, &err, EXIT_USAGE);
	if (rc == EXIT_OK && record_loop(r, wl, &err) < 0)
		rc = fail(t, &err, EXIT_INTERNAL);
	remove_handlers();
	return rc;
}

/* The exit code of a refused open: -p of a process that does not exist is
 * a usage error, a refused perf_event_open its own code. */
static int open_failure(const struct tool *t, const struct pmurt_error *err, int rc)
{
	return fail(t, err, rc == -ESRCH ? EXIT_USAGE
			    : strncmp(err->message, "cannot open", 11) == 0 ? EXIT_OPEN_FAILED
									    : EXIT_INTERNAL);
}

/* Open, start, loop, finish: the recording proper (pmurt_record_*, which
 * writes the file as perf record does, the build ids cached at the end). */
int record_run(const struct tool *t, const struct record_args *a,
	       const struct pmurt_evlist *list)
{
	struct pmurt_workload *wl = NULL;
	struct pmurt_record *r = NULL;
	struct pmurt_error err = {0};
	struct pmurt_record_opts o;
	int *cpus = NULL;
	int rc = EXIT_OK;
	if (a->cmd && pmurt_workload_prepare(&wl, a->cmd, &err) < 0)
		rc = fail(t, &err, EXIT_INTERNAL);
	if (rc == EXIT_OK)
		rc = record_opts(t, a, pmurt_workload_pid(wl), &o, &cpus);
	int open_rc = rc == EXIT_OK ? pmurt_record_open(&r, list, a->output, &o, &err) : 0;
	if (open_rc < 0)
		rc = open_failure(t, &err, open_rc);
	if (rc == EXIT_OK)
		rc = record_active(t, r, wl, o.enable_on_exec);
	int status = pmurt_workload_finish(wl);
	if (r && pmurt_record_finish(r, &err) < 0 && rc == EXIT_OK)
		rc = fail(t, &err, EXIT_INTERNAL);
	struct pmurt_record_stats st = PMURT_OPTS_INIT(pmurt_record_stats);
	if (rc == EXIT_OK && pmurt_record_stats(r, &st) == 0) {
		print_summary(t, &st, a->output);
		if (a->aux_pages)
			print_aux_summary(t, &st);
	}
	pmurt_record_close(r);
	free(cpus);
	return rc != EXIT_OK ? rc : status;
}

/* --dry-run: the attrs the options give, nothing opened; refused as the run
 * would refuse them before opening anything (a command stands for the
 * workload it would fork: per task). */
static int dry_run(const struct tool *t, const struct record_args *a,
		   const struct pmurt_evlist *list, const struct pmurt_group_result *held)
{
	struct pmurt_record_opts o;
	struct pmurt_error err = {0};
	int *cpus = NULL;
	int rc = record_opts(t, a, 0, &o, &cpus);
	if (a->cmd && !a->all_cpus && !a->cpu_list)
		o.pid = 0; /* the command's task */
	if (rc == EXIT_OK && pmurt_record_refusal(list, &o, &err) < 0)
		rc = fail(t, &err, EXIT_OPEN_FAILED);
	if (rc == EXIT_OK)
		print_dry_run(list, &o, held);
	free(cpus);
	return rc;
}

int cmd_record(const struct tool *t)
{
	struct record_args a;
	bool done = false;
	int rc = parse_record_args(t, t->nargs + 1, t->args - 1, &a, &done);
	if (rc == EXIT_OK && !done)
		rc = check_record_args(t, &a);
	if (rc || done)
		return rc;
	struct pmurt_evlist *list = NULL;
	struct pmurt_group_result held = PMURT_OPTS_INIT(pmurt_group_result);
	rc = build_evlist(t, &a, &list);
	if (rc == EXIT_OK)
		rc = check_cpc_rules(t, &a, list, &held);
	if (rc == EXIT_OK)
		rc = a.dry_run ? dry_run(t, &a, list, &held) : record_run(t, &a, list);
	pmurt_evlist_free(list);
	return rc;
}
