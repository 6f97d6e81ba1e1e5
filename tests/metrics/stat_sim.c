/*
 * stat_sim.c - pmutool's own code (pmutool_main, tools/) on the simulated
 * kernel (tests/support/sys_sim.c) with a core PMU of perf type 4 (PERF_TYPE_RAW)
 * whose every event counts 1000 a millisecond of running time and which
 * multiplexes past 6 enabled events, for the test of `stat -M`'s counting
 * path (tests/metrics/pmutool_metrics.sh).  Events opened enable_on_exec
 * are opened enabled: the simulator has no exec to enable them.  Time advances 50 ms once, at
 * the first read of a count, so that every group has run its share.  A
 * test program, never installed.
 *
 * usage: stat_sim PMUTOOL-ARGS...
 */
#include <stdio.h>

#include "pmutool.h"
#include "sys_sim.h"

struct wrap {
	struct pmurt_sys sys;      /* the simulator's, read wrapped */
	const struct pmurt_sys *inner;
	struct pmu_sim *sim;
	int advanced;
};

static ssize_t read_after_advance(void *ctx, int fd, void *buf, size_t len)
{
	struct wrap *w = ctx;
	if (!w->advanced++)
		pmu_sim_advance(w->sim, 50000000);
	return w->inner->read(w->inner->ctx, fd, buf, len);
}

/* The command's exec enables enable_on_exec events, as the kernel does
 * (the simulator has no exec): they are opened enabled. */
static int open_(void *ctx, struct perf_event_attr *a, pid_t pid, int cpu, int group, unsigned long f)
{
	const struct wrap *w = ctx;
	if (a->enable_on_exec)
		a->disabled = 0;
	return w->inner->event_open(w->inner->ctx, a, pid, cpu, group, f);
}

static int ioctl_(void *ctx, int fd, unsigned long req, unsigned long arg)
{
	const struct wrap *w = ctx;
	return w->inner->ioctl(w->inner->ctx, fd, req, arg);
}

static int close_(void *ctx, int fd)
{
	const struct wrap *w = ctx;
	return w->inner->close(w->inner->ctx, fd);
}

int main(int argc, char **argv)
{
	const struct pmu_sim_pmu pmus[] = {
		{.type = 4, .name = "cpu", .counters = 6, .per_ms = 1000},
		{.type = 1, .name = "software", .per_ms = 1000},
	};
	struct pmu_sim *sim = NULL;
	if (pmu_sim_new(&sim, pmus, 2) < 0) {
		fprintf(stderr, "stat_sim: out of memory\n");
		return 1;
	}
	struct wrap w = {.inner = pmu_sim_sys(sim), .sim = sim};
	w.sys = *w.inner;
	w.sys.ctx = &w;
	w.sys.read = read_after_advance;
	w.sys.event_open = open_;
	w.sys.ioctl = ioctl_;
	w.sys.close = close_;
	w.sys.mmap = NULL;
	w.sys.munmap = NULL;
	w.sys.poll = NULL;
	int rc = pmutool_main(argc, argv, &w.sys);
	pmu_sim_free(sim);
	return rc;
}
