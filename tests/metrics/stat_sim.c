/*
 * stat_sim.c - pmutool's own code (pmutool_main, tools/) on the simulated
 * kernel (perf/sys_sim.c) with a core PMU of perf type 4 (PERF_TYPE_RAW)
 * whose every event counts 1000 a millisecond of running time and which
 * multiplexes past 6 enabled events, for the test of `stat -M`'s counting
 * path (tests/metrics/pmutool_metrics.sh).  Events opened enable_on_exec
 * are opened enabled: the simulator has no exec to enable them.  Time advances 50 ms once, at
 * the first read of a count, so that every group has run its share.  A
 * test program, never installed.
 *
 * With --phases DONE, the core PMU multiplexes as the kernel does (struct
 * pmu_sim_mux: groups rotated every 4 ms, each running only while on) and
 * its events count at rates of their own, some changing every 100 ms of
 * simulated time: PM_RUN_INST_CMPL (0x500fa) 500 a ms, then 2000, then 250
 * from 200 ms on; PM_CYC (0x100f0, or 0x600f4 on PMC6) 4000; every other
 * event 1000 (a metric's events swapped changes its value).  Time advances
 * 100 ms at each round of reads
 * (a read of an event read since the last advance starts the next round),
 * so that each of stat -I's intervals is one phase whatever the machine's
 * pace; at the third round the file DONE is made, for the command to end
 * on (at least three intervals, each counted from the count alone).
 *
 * usage: stat_sim [--phases DONE] PMUTOOL-ARGS...
 */
#include <stdio.h>
#include <string.h>

#include "pmutool.h"
#include "sys_sim.h"

#define PHASE_NS 100000000ull
#define MAX_READS 256

struct wrap {
	struct pmu_sys sys;      /* the simulator's, read wrapped */
	const struct pmu_sys *inner;
	struct pmu_sim *sim;
	int advanced;
	const char *done;        /* --phases: made at the third round */
	int read[MAX_READS], nread;  /* --phases: the fds read this round */
};

/* --phases: an event's counts a ms in phase k (100 ms each). */
static uint64_t phase_rate(const struct perf_event_attr *a, uint64_t k)
{
	if (a->config == 0x500fa)   /* PM_RUN_INST_CMPL */
		return k == 0 ? 500 : k == 1 ? 2000 : 250;
	if (a->config == 0x100f0 || a->config == 0x600f4)   /* PM_CYC */
		return 4000;
	return 1000;
}

/* The counts of [from, to), the rates integrated phase by phase. */
static uint64_t phased_counts(void *arg, const struct perf_event_attr *a, uint64_t from,
			      uint64_t to)
{
	(void)arg;
	uint64_t n = 0;
	while (from < to) {
		uint64_t k = from / PHASE_NS, end = (k + 1) * PHASE_NS < to ? (k + 1) * PHASE_NS : to;
		n += (end - from) * phase_rate(a, k) / 1000000;
		from = end;
	}
	return n;
}

/* --phases: whether a read of fd starts a round (the first read, or fd
 * read already this round); fd noted. */
static bool new_round(struct wrap *w, int fd)
{
	bool again = w->advanced == 0;
	for (int i = 0; i < w->nread && !again; i++)
		again = w->read[i] == fd;
	if (again)
		w->nread = 0;
	if (w->nread < MAX_READS)
		w->read[w->nread++] = fd;
	return again;
}

static ssize_t read_after_advance(void *ctx, int fd, void *buf, size_t len)
{
	struct wrap *w = ctx;
	if (w->done && new_round(w, fd)) {
		pmu_sim_advance(w->sim, PHASE_NS);
		FILE *fp = ++w->advanced == 3 ? fopen(w->done, "w") : NULL;
		if (fp)
			fclose(fp);
	} else if (!w->done && !w->advanced++) {
		pmu_sim_advance(w->sim, 50000000);
	}
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
	const char *done = argc > 2 && !strcmp(argv[1], "--phases") ? argv[2] : NULL;
	if (done) {
		argv[2] = argv[0];
		argc -= 2;
		argv += 2;
	}
	const struct pmu_sim_mux mux = {.counts = phased_counts};
	const struct pmu_sim_pmu pmus[] = {
		{.type = 4, .name = "cpu", .counters = 6, .per_ms = 1000, .mux = done ? &mux : NULL},
		{.type = 1, .name = "software", .per_ms = 1000},
	};
	struct pmu_sim *sim = NULL;
	if (pmu_sim_new(&sim, pmus, 2) < 0) {
		fprintf(stderr, "stat_sim: out of memory\n");
		return 1;
	}
	struct wrap w = {.inner = pmu_sim_sys(sim), .sim = sim, .done = done};
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
