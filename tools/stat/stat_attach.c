/*
 * stat_attach.c - the counters of one `pmutool stat` run as one: a single
 * set (a command's, or CPUs'), or for `stat -p PID` one set per thread the
 * process has when stat starts (/proc/PID/task), each inherited by the
 * threads and children that thread makes afterwards, as perf stat opens a
 * process (a thread map from /proc/PID/task, inherit).  The sets are read
 * as perf aggregates them (util/stat.c process_counter_values, AGGR_GLOBAL):
 * values, enabled and running times summed, then scaled.
 */
#define _GNU_SOURCE /* syscall */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "stat.h"

int stat_open_error(const struct tool *t, int rc, const struct pmurt_error *err)
{
	tool_error(t, "%s", err->message);
	/* the list parsed already: -EINVAL without a refused open is the
	 * group check's refusal */
	if (strncmp(err->message, "cannot open", 11) == 0)
		return EXIT_OPEN_FAILED;
	return rc == -EINVAL ? EXIT_REJECTED : EXIT_INTERNAL;
}

int stat_counters_add(const struct tool *t, struct stat_counters *c, struct pmurt_counter *set)
{
	struct pmurt_counter **v = realloc(c->sets, (size_t)(c->nsets + 1) * sizeof(*v));
	if (!v) {
		pmurt_counter_close(set);
		tool_error(t, "out of memory");
		return EXIT_INTERNAL;
	}
	c->sets = v;
	c->sets[c->nsets++] = set;
	c->nevents = pmurt_counter_nevents(set);
	return EXIT_OK;
}

/* value * enabled / running, saturating; 0 when it never ran */
static uint64_t scale_count(uint64_t value, uint64_t enabled, uint64_t running)
{
	if (!running)
		return 0;
	unsigned __int128 v = (unsigned __int128)value * enabled / running;
	return v > UINT64_MAX ? UINT64_MAX : (uint64_t)v;
}

static void add_count(struct pmurt_count *sum, const struct pmurt_count *one)
{
	if (strcmp(one->pmu, "tool") == 0)
		return;   /* measured once, not per set (the first set's) */
	sum->value += one->value;
	sum->time_enabled += one->time_enabled;
	sum->time_running += one->time_running;
}

int stat_counters_read(const struct tool *t, struct stat_counters *c, struct pmurt_count *out)
{
	struct pmurt_error err = {0};
	struct pmurt_count *one = c->nsets > 1 ? calloc((size_t)c->nevents, sizeof(*one)) : NULL;
	if (c->nsets > 1 && !one) {
		tool_error(t, "out of memory");
		return EXIT_INTERNAL;
	}
	if (c->aggr)
		stat_aggr_begin(c->aggr);
	for (int s = 0; s < c->nsets; s++) {
		struct pmurt_count *into = s ? one : out;
		if (pmurt_counter_read(c->sets[s], into, c->nevents, sizeof(into[0]), &err) < 0) {
			tool_error(t, "%s", err.message);
			free(one);
			return EXIT_INTERNAL;
		}
		if (c->aggr)
			stat_aggr_add(c->aggr, s, into);
		for (int i = 0; s && i < c->nevents; i++)
			add_count(&out[i], &one[i]);
	}
	if (c->aggr)
		stat_aggr_end(c->aggr);
	for (int i = 0; c->nsets > 1 && i < c->nevents; i++)
		out[i].scaled = scale_count(out[i].value, out[i].time_enabled, out[i].time_running);
	free(one);
	return EXIT_OK;
}

void stat_counters_close(struct stat_counters *c)
{
	for (int s = 0; s < c->nsets; s++)
		pmurt_counter_close(c->sets[s]);
	free(c->sets);
	*c = (struct stat_counters){0};
}

/* Opens and enables the events on one thread: EXIT_OK, -1 when the thread
 * ended since it was listed, or an exit code (said). */
static int attach_thread(const struct tool *t, const struct pmurt_evlist *list, int tid,
			 struct stat_counters *c)
{
	struct pmurt_error err = {0};
	struct pmurt_counter *set = NULL;
	struct pmurt_counter_opts o = PMURT_OPTS_INIT(pmurt_counter_opts, .pid = tid,
						      .inherit = true, .skip_unsupported = true);
	int rc = pmurt_counter_open_list(&set, list, &o, &err);
	if (rc == -ESRCH)
		return -1;
	if (rc == 0) {
		rc = stat_counters_add(t, c, set);
		if (rc)
			return rc;
		rc = pmurt_counter_enable(set, &err);
	}
	return rc < 0 ? stat_open_error(t, rc, &err) : EXIT_OK;
}

int stat_attach(const struct tool *t, const struct stat_opts *opts, const struct pmurt_evlist *list,
		struct stat_counters *c)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/task", opts->pid);
	DIR *d = opendir(path);
	if (!d) {
		tool_error(t, "-p %d: %s", opts->pid, errno == ENOENT ? "no such process"
			   : strerror(errno));
		return EXIT_USAGE;
	}
	int rc = EXIT_OK;
	struct dirent *e;
	while (rc == EXIT_OK && (e = readdir(d)) != NULL) {
		char *end;
		long tid = strtol(e->d_name, &end, 10);
		if (*end || tid <= 0)
			continue;   /* "." and ".." */
		int got = attach_thread(t, list, (int)tid, c);
		rc = got < 0 ? EXIT_OK : got;
	}
	closedir(d);
	if (rc == EXIT_OK && !c->nsets) {
		tool_error(t, "-p %d: the process ended before its counters opened", opts->pid);
		rc = EXIT_USAGE;
	}
	if (rc)
		stat_counters_close(c);
	return rc;
}

int stat_pidfd(const struct tool *t, pid_t pid)
{
	int fd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (fd < 0)
		tool_error(t, "-p %d: %s (pidfd_open, Linux 5.3 or later)", (int)pid,
			   errno == ESRCH ? "no such process" : strerror(errno));
	return fd;
}
