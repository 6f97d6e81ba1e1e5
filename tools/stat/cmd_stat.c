/*
 * cmd_stat.c - `pmutool stat`: count events while a command runs, as
 * `perf stat` does (builtin-stat.c): the command is forked and held until
 * the counters are open on it (enable_on_exec, inherit), or the CPUs are
 * counted (-a, -C) while it runs, or a running process (-p PID, until it
 * ends, Ctrl-C or the end of a command given); -r repeats it, -I prints
 * every interval; -M adds metrics (stat_metrics.c).
 * The command's exit status is pmutool's.
 */
#define _GNU_SOURCE /* pipe2, ppoll */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "stat.h"

/* A forked command waiting for "go" (builtin-stat.c's workload). */
struct workload {
	pid_t pid;
	int go, exec_err;   /* write end of the go pipe, read end of exec's errno */
};

static int spawn(const struct tool *t, char **argv, struct workload *w)
{
	int go[2], err[2];
	if (pipe2(go, O_CLOEXEC) || pipe2(err, O_CLOEXEC)) {
		tool_error(t, "pipe: %s", strerror(errno));
		return -1;
	}
	fflush(NULL);
	w->pid = fork();
	if (w->pid < 0) {
		tool_error(t, "fork: %s", strerror(errno));
		return -1;
	}
	if (w->pid == 0) {
		char c;
		close(go[1]);
		close(err[0]);
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		execvp(argv[0], argv);
		int e = errno;
		if (write(err[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(err[1]);
	w->go = go[1];
	w->exec_err = err[0];
	return 0;
}

/* Lets the command exec; -1 when exec failed. */
static int release(const struct tool *t, struct workload *w, const char *cmd)
{
	int e = 0;
	ssize_t n = write(w->go, "g", 1);
	close(w->go);
	if (n == 1 && read(w->exec_err, &e, sizeof(e)) == (ssize_t)sizeof(e)) {
		tool_error(t, "cannot run '%s': %s", cmd, strerror(e));
		n = -1;
	}
	close(w->exec_err);
	return n == 1 ? 0 : -1;
}

/* Ends a command that will not run (the counters failed). */
static void abandon(struct workload *w)
{
	close(w->go);
	close(w->exec_err);
	waitpid(w->pid, NULL, 0);
}

static int exit_status(int status)
{
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* "0,2-3" (pmurt_cpulist_parse) or every configured CPU for -a; *n CPUs in a
 * malloc'd array, each below the number of configured CPUs. */
static int *cpu_list(const struct tool *t, const struct stat_opts *opts, int *n)
{
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	int *cpus;
	*n = 0;
	if (!opts->cpu_list) {
		cpus = malloc((size_t)(ncpu > 0 ? ncpu : 1) * sizeof(int));
		for (int c = 0; cpus && c < ncpu; c++)
			cpus[(*n)++] = c;
		return cpus;
	}
	struct pmurt_error err = {0};
	if (pmurt_cpulist_parse(opts->cpu_list, &cpus, n, &err) < 0) {
		tool_error(t, "-C: %s", err.message);
		return NULL;
	}
	if (tool_check_cpus(t, "", opts->cpu_list, cpus, *n)) {
		free(cpus);
		*n = 0;
		return NULL;
	}
	return cpus;
}

static int open_set(const struct tool *t, const struct pmurt_evlist *list, pid_t pid,
		    const int *cpus, int ncpus, struct stat_counters *c)
{
	struct pmurt_error err = {0};
	struct pmurt_counter *set = NULL;
	/* an event the host lacks is <not supported>, the others counted */
	struct pmurt_counter_opts o = PMURT_OPTS_INIT(pmurt_counter_opts, .pid = cpus ? 0 : pid,
						      .inherit = !cpus, .cpus = cpus,
						      .ncpus = ncpus, .enable_on_exec = !cpus,
						      .skip_unsupported = true);
	int rc = pmurt_counter_open_list(&set, list, &o, &err);
	if (rc == 0)
		rc = stat_counters_add(t, c, set) ? -ENOMEM : 0;
	if (rc == 0 && cpus)
		rc = pmurt_counter_enable(set, &err);
	if (rc == -ENOMEM && !err.message[0])
		return EXIT_INTERNAL;   /* said */
	return rc < 0 ? stat_open_error(t, rc, &err) : EXIT_OK;
}

/* One set on the command or the CPUs, or split (c->aggr) one set per CPU,
 * each read on its own, as perf reads each CPU's counters. */
static int open_counters(const struct tool *t, const struct pmurt_evlist *list, pid_t pid,
			 const int *cpus, int ncpus, struct stat_counters *c)
{
	if (!c->aggr)
		return open_set(t, list, pid, cpus, ncpus, c);
	int rc = EXIT_OK;
	for (int k = 0; !rc && k < ncpus; k++)
		rc = open_set(t, list, pid, &cpus[k], 1, c);
	if (rc)
		stat_counters_close(c);
	return rc;
}

/* What a run waits for: its command (child), or with -p and no command the
 * process's end (pidfd) or Ctrl-C; SIGCHLD and SIGINT arrive through sigfd
 * (blocked from before the command runs). */
struct waiter {
	pid_t child;        /* 0: none */
	int pidfd, sigfd;   /* -1: none */
	int status;         /* the child's wait status */
};

enum wait_end { WAIT_TIMEOUT, WAIT_ENDED };

/* Until the run ends or `seconds` pass (< 0: no limit).  The end cuts the
 * wait short, as perf's SIGCHLD handler cuts its nanosleep short
 * (builtin-stat.c dispatch_events). */
static enum wait_end wait_until(struct waiter *w, double seconds)
{
	double until = now_s() + seconds;
	for (;;) {
		if (w->child > 0 && waitpid(w->child, &w->status, WNOHANG) == w->child)
			return WAIT_ENDED;
		double left = until - now_s();
		if (seconds >= 0 && left <= 0)
			return WAIT_TIMEOUT;
		struct timespec ts = {(time_t)left, (long)((left - (double)(time_t)left) * 1e9)};
		struct pollfd fds[2] = {{.fd = w->sigfd, .events = POLLIN},
					{.fd = w->pidfd, .events = POLLIN}};
		int n = ppoll(fds, w->pidfd >= 0 ? 2 : 1, seconds >= 0 ? &ts : NULL, NULL);
		if (n > 0 && (fds[1].revents & POLLIN))
			return WAIT_ENDED;     /* the -p process ended */
		struct signalfd_siginfo si;
		if (n > 0 && (fds[0].revents & POLLIN) &&
		    read(w->sigfd, &si, sizeof(si)) == (ssize_t)sizeof(si) && si.ssi_signo == SIGINT)
			return WAIT_ENDED;     /* Ctrl-C (-p, -a, -C without a command) */
	}
}

/* duration_time's count: the run's elapsed time as stat measures it, so
 * that it equals "seconds time elapsed" and each interval's stamp, as perf
 * 6.1's read_single_counter takes the time read_counters is given. */
static void fill_duration(const struct stat_report *r, struct pmurt_count *now, int n,
			  double seconds)
{
	uint64_t ns = (uint64_t)(seconds * 1e9 + 0.5);
	const struct stat_aggr *a = r->aggr;
	for (int i = 0; i < n && i < r->nevents; i++) {
		if (!r->ev[i].duration)
			continue;
		now[i].value = now[i].time_enabled = now[i].time_running = now[i].scaled = ns;
		for (int u = 0; a && u < a->nunits; u++)
			if (a->units[u].first_cpu)
				a->now[(size_t)u * (size_t)n + (size_t)i] = now[i];
	}
}

/* Waits for the end, printing an interval every -I milliseconds and a last
 * one at the end, stamped then (as perf stat -I does). */
static int wait_run(const struct tool *t, const struct stat_opts *opts, struct stat_report *r,
		    struct waiter *w, struct stat_counters *c, struct pmurt_count *now,
		    struct pmurt_count *prev, double start, json_t *intervals)
{
	if (!opts->interval_ms) {
		wait_until(w, -1);
		return EXIT_OK;
	}
	for (int index = 0;; index++) {
		bool done = wait_until(w, (double)opts->interval_ms / 1000) == WAIT_ENDED;
		if (stat_counters_read(t, c, now))
			return EXIT_INTERNAL;
		double when = now_s() - start;
		fill_duration(r, now, c->nevents, when);
		if (opts->openmetrics && stat_om_interval(t, r, now, prev, c->nevents))
			return EXIT_INTERNAL;
		if (!opts->metric_only && !opts->openmetrics &&
		    stat_print_interval(opts, r, index, when, now, prev, c->nevents, intervals)) {
			tool_error(t, "out of memory: the interval's lines were not printed");
			return EXIT_INTERNAL;
		}
		if (!opts->openmetrics)
			stat_metrics_interval(t, opts, r, when, now, prev);
		memcpy(prev, now, (size_t)c->nevents * sizeof(*now));
		if (r->aggr)
			memcpy(r->aggr->prev, r->aggr->now,
			       (size_t)r->aggr->nunits * (size_t)c->nevents * sizeof(*now));
		if (done)
			return EXIT_OK;
	}
}

struct run_state {
	const struct pmurt_evlist *list;
	char **argv;
	int *cpus, ncpus;
	struct pmurt_count *now, *prev;
	json_t *intervals;
};

/* The counters of a run: on the -p process's threads, on the CPUs, or on
 * the command (held until they are open). */
static int open_run(const struct tool *t, const struct stat_opts *opts, struct run_state *s,
		    struct workload *w, struct stat_counters *c)
{
	if (t->nargs && spawn(t, s->argv, w))
		return EXIT_INTERNAL;
	int rc = opts->pid ? stat_attach(t, opts, s->list, c)
			   : open_counters(t, s->list, w->pid, s->cpus, s->ncpus, c);
	if (rc && w->pid)
		abandon(w);
	return rc;
}

/* SIGCHLD, and SIGINT when Ctrl-C ends the run (-p without a command; with
 * a command Ctrl-C stops the command, not the count: builtin-stat.c
 * skip_signal), into a signalfd; *old gets the mask to restore. */
static int block_signals(const struct tool *t, bool sigint, sigset_t *old)
{
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	if (sigint)
		sigaddset(&set, SIGINT);
	sigprocmask(SIG_BLOCK, &set, old);
	int fd = signalfd(-1, &set, SFD_CLOEXEC);
	if (fd < 0) {
		tool_error(t, "signalfd: %s", strerror(errno));
		sigprocmask(SIG_SETMASK, old, NULL);
	}
	return fd;
}

/* The counts of run k into the report. */
static void keep_counts(const struct tool *t, struct stat_report *r, const struct pmurt_count *now,
			int n, int k)
{
	for (int i = 0; i < n; i++)
		stat_event_keep(&r->ev[i], &now[i], k);
	if (r->aggr)
		stat_aggr_keep(r->aggr, k);
	stat_compute_derived(t, r, now, k);
	stat_metrics_compute(t, r, now, k);
}

static double seconds(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

/* The command's user and sys times, perf's "seconds user" and "seconds
 * sys" (builtin-stat.c wait4's rusage): what the children reaped since
 * before took. */
static void children_times(struct stat_report *r, const struct rusage *before, bool command)
{
	struct rusage after;
	r->rusage = command && r->runs == 1 && !getrusage(RUSAGE_CHILDREN, &after);
	if (r->rusage) {
		r->user_s = seconds(after.ru_utime) - seconds(before->ru_utime);
		r->sys_s = seconds(after.ru_stime) - seconds(before->ru_stime);
	}
}

/* One run; its counts into the report's run k. */
static int run_once(const struct tool *t, const struct stat_opts *opts, struct run_state *s,
		    struct stat_report *r, int k)
{
	struct workload w = {0};
	struct stat_counters c = {.aggr = r->aggr};
	int rc = open_run(t, opts, s, &w, &c);
	if (rc)
		return rc;
	memset(s->prev, 0, (size_t)c.nevents * sizeof(*s->prev));
	if (r->aggr)
		memset(r->aggr->prev, 0, (size_t)r->aggr->nunits * (size_t)c.nevents * sizeof(*s->prev));
	/* ignored throughout, and when it ends the run also blocked, so that
	 * the signalfd reads it (Linux queues a blocked signal even when it is
	 * ignored) and a second Ctrl-C cannot kill stat before it prints */
	/* -p, -a or -C without a command count until Ctrl-C, as perf stat */
	bool sigint_ends = !t->nargs && (opts->pid || opts->all_cpus || opts->cpu_list);
	void (*old_int)(int) = signal(SIGINT, SIG_IGN);
	sigset_t old_mask;
	struct waiter wt = {.child = w.pid, .pidfd = -1,
			    .sigfd = block_signals(t, sigint_ends, &old_mask)};
	if (wt.sigfd < 0 || (sigint_ends && opts->pid && (wt.pidfd = stat_pidfd(t, opts->pid)) < 0))
		rc = EXIT_INTERNAL;
	struct rusage before;
	getrusage(RUSAGE_CHILDREN, &before);
	double start = now_s();
	if (!rc && w.pid && release(t, &w, s->argv[0])) {
		waitpid(w.pid, &wt.status, 0);
		rc = EXIT_USAGE;
	} else if (rc && w.pid) {
		abandon(&w);
	}
	if (!rc)
		rc = wait_run(t, opts, r, &wt, &c, s->now, s->prev, start, s->intervals);
	r->elapsed[k] = now_s() - start;
	/* perf shows them only when the command is what was counted (not -a, -C, -p) */
	children_times(r, &before, w.pid > 0 && !opts->all_cpus && !opts->cpu_list && !opts->pid);
	if (wt.sigfd >= 0) {
		close(wt.sigfd);
		sigprocmask(SIG_SETMASK, &old_mask, NULL);
	}
	if (wt.pidfd >= 0)
		close(wt.pidfd);
	signal(SIGINT, old_int);
	if (!rc)
		rc = stat_counters_read(t, &c, s->now);
	fill_duration(r, s->now, c.nevents, r->elapsed[k]);
	r->status = w.pid ? exit_status(wt.status) : 0;
	if (!rc)
		keep_counts(t, r, s->now, c.nevents, k);
	stat_counters_close(&c);
	return rc;
}

/* A raw code another processor generation gives another event: say so
 * (tool_generations.c), as check does. */
static void note_raw_codes(const struct tool *t, const struct pmurt_evlist *list)
{
	const struct pmurt_pmu *pmu = pmurt_host_pmu(t->host);
	for (int i = 0, n = pmurt_evlist_nevents(list); pmu && i < n; i++) {
		struct pmurt_evsel_info e = PMURT_OPTS_INIT(pmurt_evsel_info);
		if (pmurt_evlist_event(list, i, &e) == 0 && e.kind == PMURT_EVSEL_CORE && e.spec)
			tool_note_raw_codes(pmu, e.spec, 1);
	}
}

/* Names and units of the events, from their parse. */
static int describe_events(const struct pmurt_evlist *list, struct stat_report *r)
{
	r->nevents = pmurt_evlist_nevents(list);
	r->ev = calloc((size_t)r->nevents + 1, sizeof(*r->ev));
	for (int i = 0; r->ev && i < r->nevents; i++) {
		struct pmurt_evsel_info e = PMURT_OPTS_INIT(pmurt_evsel_info);
		pmurt_evlist_event(list, i, &e);
		r->ev[i] = (struct stat_event){.name = e.name, .unit = e.unit, .pmu = e.pmu,
					       .scale = e.scale, .type = e.attr->type,
					       .config = e.attr->config,
					       .duration = e.tool == PMURT_TOOL_DURATION_TIME,
					       .values = calloc((size_t)r->runs, sizeof(double))};
		if (!r->ev[i].values)
			return EXIT_INTERNAL;
	}
	return r->ev ? EXIT_OK : EXIT_INTERNAL;
}

/* The command line as perf prints it: words separated by blanks. */
static char *command_line(char **argv, int n)
{
	size_t len = 1;
	for (int i = 0; i < n; i++)
		len += strlen(argv[i]) + 1;
	char *s = malloc(len);
	if (!s)
		return NULL;
	s[0] = 0;
	for (int i = 0; i < n; i++) {
		if (i)
			strcat(s, " ");
		strcat(s, argv[i]);
	}
	return s;
}

/* The run's report; EXIT_OK, or EXIT_INTERNAL said. */
static int print_report(const struct tool *t, const struct stat_opts *opts, struct stat_report *r,
			json_t *intervals)
{
	int rc = 0;
	if (opts->openmetrics)
		return stat_om_print(t, opts, r);
	if (opts->json_report) {
		json_t *o = stat_report_json(r);
		if (intervals)
			json_object_set(o, "intervals", intervals);
		if (r->metrics)
			json_object_set_new(o, "metrics", stat_metrics_json(r));
		stat_print_json(o, opts->out ? opts->out : stderr);
	} else if (!opts->interval_ms) {
		if (opts->metric_only)
			; /* the metrics alone */
		else if (opts->json)
			rc = stat_print_json_lines(opts, r);
		else if (opts->sep)
			rc = stat_print_csv(opts, r);
		else
			rc = stat_print_text(opts, r);
		if (rc) {
			tool_error(t, "out of memory: the counts were not printed");
			return EXIT_INTERNAL;
		}
		stat_metrics_print(opts, r);
	}
	return EXIT_OK;
}

static int run_all(const struct tool *t, const struct stat_opts *opts,
		   const struct pmurt_evlist *list, struct stat_report *r)
{
	struct run_state s = {.list = list, .argv = t->args};
	int rc = EXIT_OK;
	s.now = calloc((size_t)r->nevents, sizeof(*s.now));
	s.prev = calloc((size_t)r->nevents, sizeof(*s.prev));
	s.intervals = opts->json_report && opts->interval_ms ? json_array() : NULL;
	if (opts->all_cpus || opts->cpu_list) {
		s.cpus = cpu_list(t, opts, &s.ncpus);
		if (!s.cpus)
			rc = EXIT_USAGE;
	}
	if (!rc && opts->aggr)
		rc = stat_aggr_plan(t, (enum stat_aggr_mode)opts->aggr, s.cpus, s.ncpus, r);
	if (!s.now || !s.prev)
		rc = EXIT_INTERNAL;
	for (int k = 0; !rc && k < r->runs; k++)
		rc = run_once(t, opts, &s, r, k);
	if (!rc)
		rc = print_report(t, opts, r, s.intervals);
	json_decref(s.intervals);
	free(s.cpus);
	free(s.now);
	free(s.prev);
	return rc ? rc : r->status;
}

/* -o FILE: created (truncated) before the command runs, as perf stat -o
 * does; the workload's own output stays where it was. */
/* -o FILE, created or, with --append, appended to; "# started on DATE"
 * first, as perf stat writes it there (builtin-stat.c cmd_stat), but in
 * --json-report's document, which stays one JSON value, and in
 * --openmetrics' exposition, which has no such line. */
static int open_output(const struct tool *t, struct stat_opts *opts)
{
	if (!opts->output)
		return EXIT_OK;
	opts->out = fopen(opts->output, opts->append ? "a" : "w");
	if (!opts->out) {
		tool_error(t, "-o %s: %s", opts->output, strerror(errno));
		return EXIT_USAGE;
	}
	time_t now = time(NULL);
	char date[64];
	if (!opts->json_report && !opts->openmetrics && ctime_r(&now, date))
		fprintf(opts->out, "# started on %s\n", date);
	return EXIT_OK;
}

/* rc, or EXIT_INTERNAL when writing -o's file failed. */
static int close_output(const struct tool *t, struct stat_opts *opts, int rc)
{
	if (!opts->out)
		return rc;
	bool failed = ferror(opts->out) != 0;
	failed |= fclose(opts->out) != 0;
	opts->out = NULL;
	if (failed) {
		tool_error(t, "-o %s: writing failed", opts->output);
		return EXIT_INTERNAL;
	}
	return rc;
}

int cmd_stat(const struct tool *t, struct stat_opts *opts)
{
	struct pmurt_evlist *list = NULL;
	struct stat_report r = {.runs = opts->repeat ? (int)opts->repeat : 1};
	int rc = EXIT_OK;
	if (opts->metric_only && !opts->metric_names) {
		tool_error(t, "--metric-only needs -M");
		rc = EXIT_USAGE;
	}
	if (!rc && opts->openmetrics)
		rc = stat_om_check(t, opts);
	if (!rc && (opts->json || opts->json_report) && opts->sep) {
		/* perf 6.1 prints a mix of both; one format or the other here */
		tool_error(t, "-x and --json%s: one output format, not both",
			   opts->json_report ? "-report" : "");
		rc = EXIT_USAGE;
	}
	if (!rc && opts->append && !opts->output) {
		tool_error(t, "--append appends to -o's FILE: give -o FILE");
		rc = EXIT_USAGE;
	}
	if (!rc && opts->aggr && !opts->all_cpus && !opts->cpu_list) {
		/* perf 6.1: "no-aggregation modes only available in system-wide mode" */
		tool_error(t, "%s splits the counts of CPUs: give -a or -C CPUS", opts->aggr_option);
		rc = EXIT_USAGE;
	}
	if (!rc && opts->aggr && (opts->json_report || opts->metric_names)) {
		tool_error(t, "%s: not with %s (its counts are the CPUs' together)",
			   opts->aggr_option, opts->json_report ? "--json-report" : "-M");
		rc = EXIT_USAGE;
	}
	if (!rc && opts->json && opts->json_report) {
		tool_error(t, "--json (perf's lines) and --json-report (one document): one or the "
			   "other");
		rc = EXIT_USAGE;
	}
	if (!rc && opts->metric_names)
		rc = stat_metrics_plan(t, opts, &r);
	if (!rc)
		rc = stat_events(t, opts, &list, &r);
	if (!rc) {
		note_raw_codes(t, list);
		rc = describe_events(list, &r);
	}
	if (!rc && opts->dry_run) {
		rc = t->nargs ? (tool_error(t, "--dry-run runs no command"), EXIT_USAGE)
		     : opts->output ? (tool_error(t, "-o: --dry-run prints on standard output"),
				       EXIT_USAGE)
			      : stat_dry_run(t, opts, list, &r);
	} else if (!rc && !t->nargs && !opts->pid && !opts->all_cpus && !opts->cpu_list) {
		tool_error(t, "stat: no command to run (pmutool stat -e EVENTS -- CMD, -p PID, or -a "
			   "or -C CPUS until Ctrl-C)");
		rc = EXIT_USAGE;
	} else if (!rc && opts->pid && (opts->all_cpus || opts->cpu_list || opts->repeat)) {
		tool_error(t, "stat: -p counts a process; %s", opts->repeat ? "-r repeats a command"
			   : "-a and -C count CPUs: give one or the other");
		rc = EXIT_USAGE;
	} else if (!rc && !t->nargs && opts->repeat) {
		tool_error(t, "stat: -r repeats a command: give one");
		rc = EXIT_USAGE;
	} else if (!rc && !(rc = open_output(t, opts))) {
		r.command = t->nargs ? command_line(t->args, t->nargs) : NULL;
		r.pid = opts->pid;
		r.elapsed = calloc((size_t)r.runs, sizeof(double));
		rc = (r.command || !t->nargs) && r.elapsed ? run_all(t, opts, list, &r) : EXIT_INTERNAL;
		rc = close_output(t, opts, rc);
	}
	for (int i = 0; r.ev && i < r.nevents; i++)
		free(r.ev[i].values);
	for (int i = 0; i < r.nderived; i++)
		free(r.derived[i].values);
	free(r.ev);
	free(r.derived);
	stat_metrics_free(&r);
	stat_om_free(&r);
	stat_aggr_free(r.aggr);
	free(r.elapsed);
	free((char *)r.command);
	pmurt_evlist_free(list);
	return rc;
}
