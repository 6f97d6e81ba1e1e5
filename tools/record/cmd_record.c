/*
 * cmd_record.c - `pmutool record`: sample events into a perf.data file, as
 * `perf record` does, with the DTrace cpc provider's rules (minimum period,
 * counters first come first served, cpc probe names as events).
 *
 *   pmutool record -e SPEC [-e SPEC]... [-a | -C CPUS | -p PID] [-c N | -F HZ]
 *                  [-g] [-o FILE] [-m PAGES] [--min-period N] [--dry-run] [-- CMD...]
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

#include "cpc.h"
#include "evlist.h"
#include "perf_int.h"
#include "perfdata.h"
#include "pmutool.h"
#include "record.h"
#include "record_tool.h"
#include "workload.h"

#define POLL_MS 100

enum { OPT_MIN_PERIOD = 256, OPT_DRY_RUN };

/* The session a signal stops: the handler may touch nothing else. */
static struct pmu_session *volatile stop_target;

static void on_signal(int sig)
{
	(void)sig;
	struct pmu_session *s = stop_target;
	if (s)
		pmu_session_stop(s);
}

static void usage_record(FILE *out)
{
	fprintf(out,
		"Usage: pmutool [OPTION]... record -e EVENT [-e EVENT]... [-a | -C CPUS | -p PID]\n"
		"              [-c PERIOD | -F HZ] [-g] [-o FILE] [-m PAGES] [--min-period N]\n"
		"              [--dry-run] [-- CMD [ARG]...]\n"
		"Sample events into a perf.data file.  EVENT is any event perf takes, or a\n"
		"cpc probe name NAME-MODE[-MASK]-COUNT (COUNT the period).\n\n"
		"  -e, --event=EVENT    an enabling (an event or a {group}); repeatable\n"
		"  -a, --all-cpus       every CPU, every task\n"
		"  -C, --cpu=CPUS       these CPUs (0-3,8), every task\n"
		"  -p, --pid=PID        the running process PID (all its threads)\n"
		"  -c, --count=PERIOD   a sample every PERIOD events\n"
		"  -F, --freq=HZ        about HZ samples a second (default 4000 without a period)\n"
		"  -g, --call-graph     record the callchain (kernel and user stack)\n"
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
		{"call-graph", no_argument, NULL, 'g'},
		{"output", required_argument, NULL, 'o'},
		{"mmap-pages", required_argument, NULL, 'm'},
		{"no-inherit", no_argument, NULL, 'i'},
		{"no-buildid-cache", no_argument, NULL, 'N'},
		{"min-period", required_argument, NULL, OPT_MIN_PERIOD},
		{"dry-run", no_argument, NULL, OPT_DRY_RUN},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	*a = (struct record_args){.pid = -1, .min_period = PMU_CPC_MIN_PERIOD,
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
	if (a->nevents == 0)
		why = "no event: give at least one -e";
	else if (targets > 1)
		why = "-a, -C and -p exclude each other";
	else if (a->pid > 0 && a->cmd)
		why = "-p records a running process: give no command";
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

/* Every -e string into one event list. */
static int build_evlist(const struct tool *t, const struct record_args *a,
			const struct pmu_host *host, struct pmu_evlist *list)
{
	for (int i = 0; i < a->nevents; i++) {
		struct pmurt_error err = {0};
		int rc = pmu_evlist_parse(list, host, a->events[i], &err);
		if (rc < 0) {
			tool_error(t, "%s", err.message[0] ? err.message : strerror(-rc));
			return rc == -ENOMEM ? EXIT_INTERNAL : EXIT_USAGE;
		}
	}
	return EXIT_OK;
}

/* The description says the PMU cannot tell which counter overflowed: one
 * enabling at a time (pmurt_pmu_info's overflow_counter_unknown). */
static bool single_overflow(const struct tool *t)
{
	const struct pmurt_pmu *core = pmurt_host_pmu(t->host);
	struct pmurt_pmu_info info = PMURT_OPTS_INIT(pmurt_pmu_info);
	return core && pmurt_pmu_info(core, &info) == 0 && info.overflow_counter_unknown;
}

static int check_cpc_rules(const struct tool *t, const struct record_args *a,
			   const struct pmu_evlist *list, struct pmurt_group_result *held)
{
	struct pmurt_error err = {0};
	int rc = pmu_cpc_check_periods(list, a->period, a->min_period, &err);
	if (rc == 0)
		rc = pmu_cpc_check_counters(pmurt_host_pmu(t->host), list,
					    !a->all_cpus && !a->cpu_list, single_overflow(t), held,
					    &err);
	if (rc == 0)
		return EXIT_OK;
	tool_error(t, "record: %s", err.message);
	return rc == -EBUSY ? EXIT_REJECTED : EXIT_USAGE;
}

/* --dry-run: what would be opened, an event a line (members indented): its
 * type, config, period or frequency, and the counter each core event
 * holds. */
static void print_dry_run(const struct pmu_evlist *list, const struct pmu_record_opts *o,
			  const struct pmurt_group_result *held)
{
	int core = 0;
	for (int i = 0; i < list->n; i++) {
		const struct pmu_evsel *e = &list->v[i];
		struct perf_event_attr at;
		pmu_record_attr(list, i, o, &at);
		char pmc[16] = "";
		if (e->kind == PMU_EVSEL_CORE && core < held->n)
			snprintf(pmc, sizeof pmc, " PMC%d", held->pmc[core++]);
		tool_line("%s%s: type %u config 0x%" PRIx64 " %s %" PRIu64 "%s",
			  e->leader == i ? "" : "  ", e->name, at.type, (uint64_t)at.config,
			  at.freq ? "freq" : "period", (uint64_t)at.sample_period, pmc);
	}
}

/* --- recording ------------------------------------------------------------------------ */

/* AUXTRACE records come with their payload by pointer (aux.h). */
static int write_record(void *arg, const struct perf_event_header *rec, struct pmurt_error *err)
{
	if (rec->type == PMU_RECORD_AUXTRACE)
		return pd_writer_add_auxtrace(arg, rec, ((const struct pmu_auxtrace *)rec)->data, err);
	return pd_writer_add(arg, rec, err);
}

/* PERF_RECORD_AUXTRACE_INFO (tools/perf/util/auxtrace.c
 * perf_event__synthesize_auxtrace_info): u32 type, u32 reserved, then the
 * PMU's priv[]; for vpa_dtl (powerpc-vpadtl.h) priv[0] is the PMU type. */
static int write_auxtrace_info(struct pd_writer *w, uint32_t auxtrace_type, uint64_t pmu_type,
			       struct pmurt_error *err)
{
	uint64_t rec[3];
	struct perf_event_header h = {.type = PD_RECORD_AUXTRACE_INFO, .size = sizeof rec};
	memcpy(rec, &h, sizeof h);
	rec[1] = auxtrace_type; /* and reserved 0 */
	rec[2] = pmu_type;
	return pd_writer_add(w, rec, err);
}

/* The rings' records, written as the kernel laid them out (perf record's
 * way), each noted by the writer from the session's walk over them. */
static int note_span_record(void *arg, const struct perf_event_header *rec,
			    struct pmurt_error *err)
{
	(void)err;
	pd_writer_note(arg, rec);
	return 0;
}

static int write_span(void *arg, const void *recs, size_t len, struct pmurt_error *err)
{
	return pd_writer_add_noted_span(arg, recs, len, err);
}

static int open_writer(const struct tool *t, const char *path, const struct pmu_session *s,
		       const struct pmu_host *host, const struct pmu_evlist *list,
		       struct pd_writer **w)
{
	struct pd_event *ev = calloc((size_t)list->n, sizeof *ev);
	if (!ev) {
		tool_error(t, "record: out of memory");
		return EXIT_INTERNAL;
	}
	for (int i = 0; i < list->n; i++) {
		ev[i].attr = *pmu_session_attr(s, i);
		ev[i].ids = pmu_session_ids(s, i, &ev[i].nids);
		ev[i].name = list->v[i].name;
		ev[i].group_size = list->v[i].leader == i ? list->v[i].group_size : 0;
	}
	struct pmurt_error err = {0};
	int rc = pd_writer_open(w, path, ev, list->n, &err);
	free(ev);
	/* perf reads tracepoint samples only with their formats */
	if (rc == 0 && (rc = pd_writer_add_tracing(*w, pmu_host_tracefs(host, NULL), &err)) < 0) {
		pd_writer_finish(*w, NULL);
		*w = NULL;
	}
	if (rc < 0) {
		tool_error(t, "record: %s", err.message);
		return EXIT_INTERNAL;
	}
	return EXIT_OK;
}

static void install_handlers(struct pmu_session *s, bool workload)
{
	stop_target = s;
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
 * event hung up), then drain what is left. */
static int record_loop(struct pmu_session *s, struct pd_writer *w,
		       const struct pmu_workload *wl, struct pmurt_error *err)
{
	int rc = 0;
	while (rc == 0 && !pmu_session_stopped(s)) {
		rc = pmu_session_poll(s, POLL_MS, write_record, w, err);
		if (pmu_workload_exited(wl))
			pmu_session_stop(s);
	}
	if (rc == 0)
		rc = pmu_session_disable(s, err);
	if (rc == 0)
		rc = pmu_session_drain(s, write_record, w, err);
	return rc;
}

static void print_summary(const struct tool *t, const struct pmu_session *s, const char *path)
{
	const struct pmu_record_stats *st = pmu_session_stats(s);
	if (st->lost || st->lost_samples)
		fprintf(stderr, "%s: warning: lost %" PRIu64 " records in %" PRIu64 " PERF_RECORD_LOST "
			"and %" PRIu64 " samples in PERF_RECORD_LOST_SAMPLES (a larger -m or period "
			"helps)\n", t->prog, st->lost, st->lost_records, st->lost_samples);
	fprintf(stderr, "[ pmutool record: %" PRIu64 " samples, %" PRIu64 " lost, %" PRIu64
		" lost samples; %.3f MB written to %s ]\n", st->samples, st->lost,
		st->lost_samples, (double)st->bytes / 1e6, path);
}

/* The AUX side: what was drained, skipped and lost (aux.h). */
static void print_aux_summary(const struct tool *t, const struct pmu_session *s)
{
	const struct pmu_record_stats *st = pmu_session_stats(s);
	const struct pmu_aux_stats *a = &st->aux;
	if (a->lost_entries || a->lost_headers || a->overruns || a->torn_bytes)
		fprintf(stderr, "%s: warning: the AUX area filled %" PRIu64 " times (the reader was "
			"slow: a larger --aux-pages helps): %" PRIu64 " DTL entries "
			"overwritten before they were read%s, %" PRIu64 " bytes possibly torn; the "
			"kernel disables the event when the area is full, so entries of those "
			"intervals are lost too\n", t->prog, a->overruns, a->lost_entries,
			a->lost_headers ? " (and the header)" : "", a->torn_bytes);
	if (a->wrap_polls)
		fprintf(stderr, "%s: warning: the vpa_dtl driver lost %" PRIu64 " to %" PRIu64 " DTL "
			"entries at its wraps (%" PRIu64 " polls whose entries it never reported), and "
			"up to %" PRIu64 " more from batches that reached a wrap (vpa-dtl.c; a larger "
			"--aux-pages makes wraps rarer, a shorter -c makes each poll smaller)\n",
			t->prog, a->wrap_lost_min, a->wrap_lost_max, a->wrap_polls, a->cut_lost_max);
	if (a->full_polls)
		fprintf(stderr, "%s: warning: %" PRIu64 " polls of the vpa_dtl driver took 84 "
			"entries, all it takes between two polls: the hypervisor's buffer may have "
			"dropped more, unseen (a shorter -c helps)\n", t->prog, a->full_polls);
	if (a->reopens)
		fprintf(stderr, "%s: warning: vpa_dtl was closed and opened anew %" PRIu64 " times "
			"(its area filled and the kernel disabled it; enabling it again would crash "
			"the kernel): the dispatches in between are not in the file\n", t->prog,
			a->reopens);
	if (st->aux_truncated || st->aux_partial || st->aux_collision)
		fprintf(stderr, "%s: warning: PERF_RECORD_AUX flags: %" PRIu64 " truncated, %" PRIu64
			" partial, %" PRIu64 " collision\n", t->prog, st->aux_truncated,
			st->aux_partial, st->aux_collision);
	fprintf(stderr, "[ AUX: %" PRIu64 " PERF_RECORD_AUX, %" PRIu64 " AUXTRACE records, %"
		PRIu64 " bytes (%" PRIu64 " slots), %" PRIu64 " stale bytes skipped at wraps, %"
		PRIu64 " entries lost ]\n", st->aux_records, a->chunks, a->bytes,
		a->bytes / PMURT_DTL_SLOT_SIZE, a->stale_bytes, a->lost_entries);
}

static int session_opts(const struct tool *t, const struct record_args *a, pid_t workload,
			struct pmu_record_opts *o, int **cpus)
{
	*o = (struct pmu_record_opts){.pid = a->pid, .period = a->period, .freq = a->freq,
				      .callchain = a->callchain, .data_pages = a->data_pages,
				      .aux_pages = a->aux_pages, .no_inherit = a->no_inherit};
	if (a->cpu_list) {
		struct pmurt_error err = {0};
		int rc = pmu_cpulist_parse(a->cpu_list, cpus, &o->ncpus, &err);
		if (rc < 0) {
			tool_error(t, "record: -C: %s", err.message);
			return EXIT_USAGE;
		}
		if (tool_check_cpus(t, "record: ", a->cpu_list, *cpus, o->ncpus))
			return EXIT_USAGE;
		o->cpus = *cpus;
	}
	if (workload > 0 && !a->all_cpus && !a->cpu_list) {
		o->pid = workload;
		o->workload = true;
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
static int record_active(const struct tool *t, const struct record_args *a,
			 struct pmu_session *s, struct pd_writer *w, struct pmu_workload *wl,
			 bool per_workload)
{
	struct pmurt_error err = {0};
	int rc = EXIT_OK;
	install_handlers(s, wl->pid > 0);
	if (!per_workload && pmu_session_enable(s, &err) < 0)
		rc = fail(t, &err, EXIT_INTERNAL);
	if (rc == EXIT_OK && wl->pid > 0 && pmu_workload_start(wl, a->cmd[0], &err) < 0)
		rc = fail(t, &err, EXIT_USAGE);
	if (rc == EXIT_OK && record_loop(s, w, wl, &err) < 0)
		rc = fail(t, &err, EXIT_INTERNAL);
	remove_handlers();
	return rc;
}

/* The DSOs the finished file records, kept in perf's build-id cache as
 * perf record keeps them (builtin-record.c record__finish_output), so that
 * report and script, pmutool's and perf's, find their symbols by build id
 * after a rebuild, and perf finds the vDSO's at all.  As in perf, what
 * cannot be kept is passed over silently. */
static void cache_build_ids(const char *path)
{
	char dir[4096];
	struct pmurt_perf_file *f = NULL;
	struct pmurt_error err = {0};
	if (pd_build_id_cache_dir(dir, sizeof(dir)) < 0 || pmurt_perf_open(&f, path, &err) < 0)
		return;
	pd_build_id_cache_add_recorded(dir, "", f);
	pmurt_perf_close(f);
}

/* Open, synthesize, start, loop, finish: the recording proper. */
int record_run(const struct tool *t, const struct record_args *a,
		      const struct pmu_host *host, const struct pmu_evlist *list)
{
	struct pmu_workload wl = {.pid = 0, .go_fd = -1, .err_fd = -1};
	int *cpus = NULL;
	struct pmu_session *s = NULL;
	struct pd_writer *w = NULL;
	struct pmurt_error err = {0};
	struct pmu_record_opts o;
	int rc = EXIT_OK;
	if (a->cmd && pmu_workload_prepare(&wl, a->cmd, &err) < 0)
		rc = fail(t, &err, EXIT_INTERNAL);
	if (rc == EXIT_OK)
		rc = session_opts(t, a, wl.pid, &o, &cpus);
	int open_rc = rc == EXIT_OK ? pmu_session_open(&s, host, list, &o, &err) : 0;
	if (open_rc < 0)   /* -p of a process that does not exist: a usage error */
		rc = fail(t, &err, open_rc == -ESRCH ? EXIT_USAGE
				   : strncmp(err.message, "cannot open", 11) == 0 ? EXIT_OPEN_FAILED
										  : EXIT_INTERNAL);
	if (rc == EXIT_OK)
		rc = open_writer(t, a->output, s, host, list, &w);
	if (rc == EXIT_OK && a->aux_pages &&
	    write_auxtrace_info(w, a->auxtrace_type, a->auxtrace_pmu, &err) < 0)
		rc = fail(t, &err, EXIT_INTERNAL);
	if (s)
		pmu_session_noted_span_sink(s, note_span_record, write_span);
	if (rc == EXIT_OK && pmu_session_synthesize(s, write_record, w, &err) < 0)
		rc = fail(t, &err, EXIT_INTERNAL);
	if (rc == EXIT_OK)
		rc = record_active(t, a, s, w, &wl, o.workload);
	int status = pmu_workload_finish(&wl);
	if (w && pd_writer_finish(w, &err) < 0 && rc == EXIT_OK)
		rc = fail(t, &err, EXIT_INTERNAL);
	if (rc == EXIT_OK && !a->no_buildid_cache)
		cache_build_ids(a->output);
	if (rc == EXIT_OK)
		print_summary(t, s, a->output);
	if (rc == EXIT_OK && a->aux_pages)
		print_aux_summary(t, s);
	pmu_session_close(s);
	free(cpus);
	return rc != EXIT_OK ? rc : status;
}

/* stat's options before "record" would be ignored: refuse them. */
static int refuse_stat_options(const struct tool *t)
{
	if (!t->nevents && !t->all_cpus && !t->cpu_list && !t->interval_ms && !t->repeat &&
	    !t->sep && !t->dry_run && !t->json && !t->batch)
		return EXIT_OK;
	tool_error(t, "record takes its options after its name (pmutool record -e EVENT ...); "
		   "before it go --pmu, --sysfs and --tracefs only");
	return EXIT_USAGE;
}

/* --dry-run: the attrs the options give, nothing opened; refused as the run
 * would refuse them before opening anything (a command stands for the
 * workload it would fork: per task). */
static int dry_run(const struct tool *t, const struct record_args *a,
		   const struct pmu_evlist *list, const struct pmurt_group_result *held)
{
	struct pmu_record_opts o;
	struct pmurt_error err = {0};
	int *cpus = NULL;
	int rc = session_opts(t, a, 0, &o, &cpus);
	if (a->cmd && !a->all_cpus && !a->cpu_list)
		o.pid = 0; /* the command's task */
	if (rc == EXIT_OK && pmu_record_refusal(&t->host->h, list, &o, &err) < 0)
		rc = fail(t, &err, EXIT_OPEN_FAILED);
	if (rc == EXIT_OK)
		print_dry_run(list, &o, held);
	free(cpus);
	return rc;
}

int cmd_record(struct tool *t)
{
	struct record_args a;
	bool done = false;
	int rc = refuse_stat_options(t);
	if (rc == EXIT_OK)
		rc = parse_record_args(t, t->nargs + 1, t->args - 1, &a, &done);
	if (rc == EXIT_OK && !done)
		rc = check_record_args(t, &a);
	if (rc || done)
		return rc;
	const struct pmu_host *host = &t->host->h;
	struct pmu_evlist list = {0};
	struct pmurt_group_result held = PMURT_OPTS_INIT(pmurt_group_result);
	rc = build_evlist(t, &a, host, &list);
	if (rc == EXIT_OK)
		rc = check_cpc_rules(t, &a, &list, &held);
	if (rc == EXIT_OK)
		rc = a.dry_run ? dry_run(t, &a, &list, &held) : record_run(t, &a, host, &list);
	pmu_evlist_free(&list);
	return rc;
}
