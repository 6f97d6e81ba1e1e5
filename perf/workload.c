/*
 * workload.c - a recording's command, held before its exec (workload.h).
 */
#define _GNU_SOURCE /* pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "errors.h"
#include "pmurt_tool.h"
#include "workload.h"

/* The child: wait for the go byte, exec, or report why it could not. */
static void run_child(int go, int report, char *const argv[])
{
	char c;
	if (read(go, &c, 1) != 1)
		_exit(127);
	execvp(argv[0], argv);
	int e = errno;
	if (write(report, &e, sizeof e) < 0)
		_exit(127);
	_exit(127);
}

int pmu_workload_prepare(struct pmu_workload *w, char *const argv[], struct pmurt_error *err)
{
	int go[2], report[2];
	*w = (struct pmu_workload){.pid = 0, .go_fd = -1, .err_fd = -1};
	if (pipe2(go, O_CLOEXEC) < 0) {
		int rc = -errno;
		pmurt_set_error(err, rc, "workload '%s': pipe: %s", argv[0], strerror(-rc));
		return rc;
	}
	if (pipe2(report, O_CLOEXEC) < 0) {
		int rc = -errno;
		close(go[0]);
		close(go[1]);
		pmurt_set_error(err, rc, "workload '%s': pipe: %s", argv[0], strerror(-rc));
		return rc;
	}
	pid_t pid = fork();
	if (pid == 0) {
		close(go[1]);
		close(report[0]);
		run_child(go[0], report[1], argv);
	}
	int rc = pid < 0 ? -errno : 0;
	close(go[0]);
	close(report[1]);
	if (rc < 0) {
		close(go[1]);
		close(report[0]);
		pmurt_set_error(err, rc, "workload '%s': fork: %s", argv[0], strerror(-rc));
		return rc;
	}
	*w = (struct pmu_workload){.pid = pid, .go_fd = go[1], .err_fd = report[0]};
	return 0;
}

int pmu_workload_start(struct pmu_workload *w, const char *name, struct pmurt_error *err)
{
	char c = 1;
	int e = 0;
	if (write(w->go_fd, &c, 1) != 1)
		e = errno;
	close(w->go_fd);
	w->go_fd = -1;
	/* the report pipe closes on a successful exec (O_CLOEXEC) */
	if (e == 0 && read(w->err_fd, &e, sizeof e) != (ssize_t)sizeof e)
		e = 0;
	close(w->err_fd);
	w->err_fd = -1;
	if (e == 0)
		return 0;
	pmurt_set_error(err, -e, "cannot run '%s': %s", name, strerror(e));
	return -e;
}

bool pmu_workload_exited(const struct pmu_workload *w)
{
	siginfo_t info = {.si_pid = 0};
	return w->pid > 0 &&
	       waitid(P_PID, (id_t)w->pid, &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
	       info.si_pid == w->pid;
}

int pmu_workload_finish(struct pmu_workload *w)
{
	if (w->go_fd >= 0)
		close(w->go_fd);
	if (w->err_fd >= 0)
		close(w->err_fd);
	w->go_fd = w->err_fd = -1;
	if (w->pid <= 0)
		return 0;
	int status = 0;
	pid_t r = waitpid(w->pid, &status, WNOHANG);
	if (r == 0) {
		kill(w->pid, SIGTERM);
		do
			r = waitpid(w->pid, &status, 0);
		while (r < 0 && errno == EINTR);
	}
	w->pid = 0;
	if (r < 0)
		return 0;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* --- the public handle (pmurt_tool.h) ------------------------------------------------ */

struct pmurt_workload {
	struct pmu_workload w;
	char *name;    /* argv[0], for the start's message */
};

int pmurt_workload_prepare(struct pmurt_workload **out, char *const argv[],
			   struct pmurt_error *err)
{
	pmurt_clear_error(err);
	if (!out || !argv || !argv[0]) {
		pmurt_set_error(err, -EINVAL, "pmurt_workload_prepare: missing argument");
		return -EINVAL;
	}
	*out = NULL;
	struct pmurt_workload *w = calloc(1, sizeof(*w));
	char *name = strdup(argv[0]);
	if (!w || !name) {
		free(w);
		free(name);
		pmurt_set_error(err, -ENOMEM, "pmurt_workload_prepare: out of memory");
		return -ENOMEM;
	}
	w->name = name;
	int rc = pmu_workload_prepare(&w->w, argv, err);
	if (rc < 0) {
		free(w->name);
		free(w);
		return rc;
	}
	*out = w;
	return 0;
}

pid_t pmurt_workload_pid(const struct pmurt_workload *w)
{
	return w ? w->w.pid : 0;
}

int pmurt_workload_start(struct pmurt_workload *w, struct pmurt_error *err)
{
	pmurt_clear_error(err);
	if (!w) {
		pmurt_set_error(err, -EINVAL, "pmurt_workload_start: missing argument");
		return -EINVAL;
	}
	return pmu_workload_start(&w->w, w->name, err);
}

bool pmurt_workload_exited(const struct pmurt_workload *w)
{
	return w && pmu_workload_exited(&w->w);
}

int pmurt_workload_finish(struct pmurt_workload *w)
{
	if (!w)
		return 0;
	int status = pmu_workload_finish(&w->w);
	free(w->name);
	free(w);
	return status;
}
