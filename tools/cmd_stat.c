/*
 * cmd_stat.c - `pmutool stat`: count events while a command runs, as
 * `perf stat` does (builtin-stat.c): the command is forked and held until
 * the counters are open on it (enable_on_exec, inherit), or the CPUs are
 * counted (-a, -C) while it runs; -r repeats it, -I prints every interval.
 * The command's exit status is pmutool's.
 */
#define _GNU_SOURCE /* pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "perf_int.h"
#include "record.h"
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

/* "0,2-3" (pmu_cpulist_parse) or every configured CPU for -a; *n CPUs in a
 * malloc'd array, each below the number of configured CPUs. */
static int *cpu_list(const struct tool *t, int *n)
{
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	int *cpus;
	*n = 0;
	if (!t->cpu_list) {
		cpus = malloc((size_t)(ncpu > 0 ? ncpu : 1) * sizeof(int));
		for (int c = 0; cpus && c < ncpu; c++)
			cpus[(*n)++] = c;
		return cpus;
	}
	struct pmurt_error err = {0};
	if (pmu_cpulist_parse(t->cpu_list, &cpus, n, &err) < 0) {
		tool_error(t, "-C: %s", err.message);
		return NULL;
	}
	if (tool_check_cpus(t, "", t->cpu_list, cpus, *n)) {
		free(cpus);
		*n = 0;
		return NULL;
	}
	return cpus;
}

static int open_counters(struct tool *t, const char *events, pid_t pid, const int *cpus, int ncpus,
			 struct pmurt_counter **c)
{
	struct pmurt_error err = {0};
	/* an event the host lacks is <not supported>, the others counted */
	struct pmurt_counter_opts o = PMURT_OPTS_INIT(pmurt_counter_opts, .pid = cpus ? 0 : pid,
						      .inherit = !cpus, .cpus = cpus,
						      .ncpus = ncpus, .enable_on_exec = !cpus,
						      .skip_unsupported = true);
	int rc = pmurt_counter_open(c, t->host, events, &o, &err);
	if (rc == 0 && cpus)
		rc = pmurt_counter_enable(*c, &err);
	if (rc < 0) {
		tool_error(t, "%s", err.message);
		/* the list parsed already: -EINVAL without a refused open is the
		 * group check's refusal */
		if (strncmp(err.message, "cannot open", 11) == 0)
			return EXIT_OPEN_FAILED;
		return rc == -EINVAL ? EXIT_REJECTED : EXIT_INTERNAL;
	}
	return EXIT_OK;
}

static int read_counts(const struct tool *t, struct pmurt_counter *c, struct pmurt_count *out,
		       int n)
{
	struct pmurt_error err = {0};
	if (pmurt_counter_read(c, out, n, sizeof(out[0]), &err) < 0) {
		tool_error(t, "%s", err.message);
		return EXIT_INTERNAL;
	}
	return EXIT_OK;
}

/* Sleeps until the command ends or `seconds` pass, whichever is first;
 * true when it ended (*status filled).  SIGCHLD is blocked by the caller,
 * so its arrival ends the wait (perf's nanosleep is cut short by its SIGCHLD
 * handler, builtin-stat.c dispatch_events). */
static bool wait_ended(pid_t pid, double seconds, const sigset_t *chld, int *status)
{
	double until = now_s() + seconds;
	for (;;) {
		if (waitpid(pid, status, WNOHANG) == pid)
			return true;
		double left = until - now_s();
		if (left <= 0)
			return false;
		struct timespec ts = {(time_t)left, (long)((left - (double)(time_t)left) * 1e9)};
		sigtimedwait(chld, NULL, &ts); /* SIGCHLD, a timeout or EINTR: look again */
	}
}

/* Waits for the command, printing an interval every -I milliseconds and a
 * last one when it ends, stamped then (as perf stat -I does). */
static int wait_workload(const struct tool *t, pid_t pid, struct pmurt_counter *c,
			 struct pmurt_count *now, struct pmurt_count *prev, int n,
			 double start, json_t *intervals, const sigset_t *chld, int *status)
{
	if (!t->interval_ms) {
		while (waitpid(pid, status, 0) < 0 && errno == EINTR)
			;
		return EXIT_OK;
	}
	for (;;) {
		bool done = wait_ended(pid, (double)t->interval_ms / 1000, chld, status);
		if (read_counts(t, c, now, n))
			return EXIT_INTERNAL;
		stat_print_interval(t, now_s() - start, now, prev, n, intervals);
		memcpy(prev, now, (size_t)n * sizeof(*now));
		if (done)
			return EXIT_OK;
	}
}

struct run_state {
	const char *events;
	char **argv;
	int *cpus, ncpus;
	struct pmurt_count *now, *prev;
	json_t *intervals;
};

/* One run of the command; its counts into the report's run k. */
static int run_once(struct tool *t, struct run_state *s, struct stat_report *r, int k)
{
	struct workload w;
	struct pmurt_counter *c = NULL;
	if (spawn(t, s->argv, &w))
		return EXIT_INTERNAL;
	int rc = open_counters(t, s->events, w.pid, s->cpus, s->ncpus, &c);
	if (rc) {
		abandon(&w);
		return rc;
	}
	int n = pmurt_counter_nevents(c), status = 0;
	memset(s->prev, 0, (size_t)n * sizeof(*s->prev));
	double start = now_s();
	/* Ctrl-C stops the command, not the count (builtin-stat.c skip_signal);
	 * SIGCHLD is held pending for wait_ended from before the command runs */
	void (*old_int)(int) = signal(SIGINT, SIG_IGN);
	sigset_t chld, old_mask;
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, &old_mask);
	if (release(t, &w, s->argv[0])) {
		waitpid(w.pid, &status, 0);
		sigprocmask(SIG_SETMASK, &old_mask, NULL);
		signal(SIGINT, old_int);
		pmurt_counter_close(c);
		return EXIT_USAGE;
	}
	rc = wait_workload(t, w.pid, c, s->now, s->prev, n, start, s->intervals, &chld, &status);
	sigprocmask(SIG_SETMASK, &old_mask, NULL);
	signal(SIGINT, old_int);
	r->elapsed[k] = now_s() - start;
	if (!rc)
		rc = read_counts(t, c, s->now, n);
	pmurt_counter_close(c);
	r->status = exit_status(status);
	for (int i = 0; !rc && i < n; i++) {
		struct stat_event *e = &r->ev[i];
		e->values[k] = (double)s->now[i].scaled * s->now[i].scale;
		e->enabled = s->now[i].time_enabled;
		e->running = s->now[i].time_running;
		e->not_counted |= !s->now[i].time_running;
		e->not_supported |= s->now[i].skipped && s->now[i].skipped != ECANCELED;
	}
	if (!rc)
		stat_compute_derived(t, r, s->now, k);
	return rc;
}

/* Names and units of the events, from their parse. */
static int describe_events(const struct pmu_evlist *list, struct stat_report *r)
{
	r->nevents = list->n;
	r->ev = calloc((size_t)list->n + 1, sizeof(*r->ev));
	for (int i = 0; r->ev && i < list->n; i++) {
		r->ev[i] = (struct stat_event){.name = list->v[i].name, .unit = list->v[i].unit,
					       .pmu = list->v[i].pmu, .scale = list->v[i].scale,
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

static void print_report(struct tool *t, struct stat_report *r, json_t *intervals)
{
	if (t->json) {
		json_t *o = stat_report_json(r);
		if (intervals)
			json_object_set(o, "intervals", intervals);
		stat_print_json(o, t->stat_out ? t->stat_out : stderr);
	} else if (!t->interval_ms) {
		if (t->sep)
			stat_print_csv(t, r);
		else
			stat_print_text(t, r);
	}
}

static int run_all(struct tool *t, const char *events, struct stat_report *r)
{
	struct run_state s = {.events = events, .argv = t->args};
	int rc = EXIT_OK;
	s.now = calloc((size_t)r->nevents, sizeof(*s.now));
	s.prev = calloc((size_t)r->nevents, sizeof(*s.prev));
	s.intervals = t->json && t->interval_ms ? json_array() : NULL;
	if (t->all_cpus || t->cpu_list) {
		s.cpus = cpu_list(t, &s.ncpus);
		if (!s.cpus)
			rc = EXIT_USAGE;
	}
	if (!s.now || !s.prev)
		rc = EXIT_INTERNAL;
	for (int k = 0; !rc && k < r->runs; k++)
		rc = run_once(t, &s, r, k);
	if (!rc)
		print_report(t, r, s.intervals);
	json_decref(s.intervals);
	free(s.cpus);
	free(s.now);
	free(s.prev);
	return rc ? rc : r->status;
}

/* -o FILE: created (truncated) before the command runs, as perf stat -o
 * does; the workload's own output stays where it was. */
static int open_output(struct tool *t)
{
	if (!t->output)
		return EXIT_OK;
	t->stat_out = fopen(t->output, "w");
	if (!t->stat_out) {
		tool_error(t, "-o %s: %s", t->output, strerror(errno));
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* rc, or EXIT_INTERNAL when writing -o's file failed. */
static int close_output(struct tool *t, int rc)
{
	if (!t->stat_out)
		return rc;
	bool failed = ferror(t->stat_out) != 0;
	failed |= fclose(t->stat_out) != 0;
	t->stat_out = NULL;
	if (failed) {
		tool_error(t, "-o %s: writing failed", t->output);
		return EXIT_INTERNAL;
	}
	return rc;
}

int cmd_stat(struct tool *t)
{
	struct pmu_evlist list = {0};
	struct stat_report r = {.runs = t->repeat ? (int)t->repeat : 1};
	char *events = NULL;
	int rc = stat_events(t, &list, &events, &r);
	if (!rc)
		rc = describe_events(&list, &r);
	if (!rc && t->dry_run) {
		rc = t->nargs ? (tool_error(t, "--dry-run runs no command"), EXIT_USAGE)
		     : t->output ? (tool_error(t, "-o: --dry-run prints on standard output"),
				    EXIT_USAGE)
			      : stat_dry_run(t, &list, &r);
	} else if (!rc && !t->nargs) {
		tool_error(t, "stat: no command to run (pmutool stat -e EVENTS -- CMD)");
		rc = EXIT_USAGE;
	} else if (!rc && !(rc = open_output(t))) {
		r.command = command_line(t->args, t->nargs);
		r.elapsed = calloc((size_t)r.runs, sizeof(double));
		rc = r.command && r.elapsed ? run_all(t, events, &r) : EXIT_INTERNAL;
		rc = close_output(t, rc);
	}
	for (int i = 0; r.ev && i < r.nevents; i++)
		free(r.ev[i].values);
	for (int i = 0; i < r.nderived; i++)
		free(r.derived[i].values);
	free(r.ev);
	free(r.derived);
	free(r.elapsed);
	free((char *)r.command);
	pmu_evlist_free(&list);
	free(events);
	return rc;
}
