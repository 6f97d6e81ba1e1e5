/*
 * bench_dtl_loss.c - what the vpa_dtl driver loses, by its poll interval and
 * AUX area size, captured by libpmurt (pmurt_dtl_capture_*) from the
 * simulated driver (tests/support/sim_dtl.c, which follows arch/powerpc/perf/
 * vpa-dtl.c line for line; tests/dtl/check_driver_model.py).  One CPU
 * logs RATE dispatches a second, evenly; the driver polls every PERIOD ms
 * (its hrtimer: each expiry brings the dispatches since the last); the
 * reader drains every 100 ms of simulated time (pmutool dtl record's poll
 * timeout; before the area's watermark for every size here at this rate).
 * For SECONDS simulated seconds it prints the share of the dispatches that
 * never reached the reader, and where they went: the hypervisor's buffer
 * (more than 84 between two polls), the driver's wraps (the rest of a batch
 * at the threshold, and the polls after it whose entries it copies but never
 * reports), and the drain's own count (overwritten: a slow reader).
 * Simulated time: the figures do not depend on the machine.  It shows the
 * loss growing with the poll interval (entries per poll) and shrinking with
 * the area (wraps per second); the defaults of pmutool dtl record and
 * pmurt_dtl_capture_open are chosen from it (README).
 *
 * usage: bench_dtl_loss [RATE [SECONDS]]   (default 10000 60)
 *        bench_dtl_loss --defaults           the defaults at 10,000 a second
 *                                            for 60 s: exit 1 at 0.1% or more
 *                                            (the test dtl/loss-defaults)
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perf_int.h"
#include "sim_dtl.h"

#define DTL_TYPE 14
#define READER_MS 100

struct run {
	struct pmu_sim_dtl *drv;
	uint64_t entries;
};

static int count(void *arg, int cpu, uint64_t aux_offset, const void *data, size_t len)
{
	struct run *r = arg;
	struct pmurt_dtl_cursor c;
	struct pmurt_dtl_slot s;
	struct pmurt_error err = {0};
	(void)cpu;
	pmurt_dtl_cursor_init(&c, data, len, aux_offset, 0, aux_offset == 0);
	while (pmurt_dtl_next(&c, &s, &err) > 0)
		r->entries += s.kind == PMURT_DTL_ENTRY || s.kind == PMURT_DTL_SKIPPED;
	return 0;
}

/* The sysfs the host reads vpa_dtl's type from: a tree of its own. */
static int make_sysfs(char *dir, size_t len)
{
	snprintf(dir, len, "%s/bench-dtl-loss.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir))
		return -1;
	char cmd[2048];
	snprintf(cmd, sizeof cmd, "mkdir -p %s/bus/event_source/devices/vpa_dtl/format "
		 "%s/devices/system/cpu && echo %d > %s/bus/event_source/devices/vpa_dtl/type && "
		 "echo config:0-7 > %s/bus/event_source/devices/vpa_dtl/format/event && "
		 "echo 0 > %s/devices/system/cpu/online", dir, dir, DTL_TYPE, dir, dir, dir);
	return system(cmd) == 0 ? 0 : -1;
}

static double measure(const char *sysfs, double rate, unsigned period_ms, unsigned aux_kib,
		    unsigned seconds)
{
	static const struct pmu_sim_pmu pmu = {.type = DTL_TYPE, .name = "vpa_dtl", .vpa_dtl = true};
	struct pmu_sim *sim = NULL;
	struct run r = {0};
	struct pmu_sim_dtl_opts o = {.seed = 1};
	struct pmurt_host *host = NULL;
	struct pmurt_error err = {0};
	struct pmurt_host_opts ho = PMURT_OPTS_INIT(pmurt_host_opts, .sysfs = sysfs);
	if (pmu_sim_new(&sim, &pmu, 1) < 0 || pmu_sim_dtl_new(&r.drv, sim, DTL_TYPE, &o) < 0 ||
	    pmurt_host_open(&host, &ho, &err) < 0) {
		fprintf(stderr, "bench_dtl_loss: setup: %s\n", err.message);
		exit(1);
	}
	host->h.sys = pmu_sim_sys(sim);
	struct pmurt_dtl_capture *c = NULL;
	struct pmurt_dtl_capture_opts co = PMURT_OPTS_INIT(pmurt_dtl_capture_opts,
		.period_ns = period_ms * 1000000ull, .aux_pages = aux_kib * 1024 / 4096);
	if (pmurt_dtl_capture_open(&c, host, &co, &err) < 0 || pmurt_dtl_capture_enable(c, &err) < 0) {
		fprintf(stderr, "bench_dtl_loss: %s\n", err.message);
		exit(1);
	}
	double logged = 0;
	uint64_t polls = (uint64_t)seconds * 1000 / period_ms, given = 0;
	for (uint64_t p = 1; p <= polls; p++) {
		logged += rate * period_ms / 1000.0;
		unsigned n = (unsigned)((uint64_t)logged - given);
		given += n;
		pmu_sim_dtl_tick(r.drv, n);
		if (p * period_ms % READER_MS == 0 && pmurt_dtl_capture_poll(c, 0, count, &r, &err) < 0)
			fprintf(stderr, "bench_dtl_loss: %s\n", err.message);
	}
	pmurt_dtl_capture_poll(c, 0, count, &r, &err);
	const struct pmu_sim_dtl_stats *ds = pmu_sim_dtl_stats(r.drv);
	struct pmurt_dtl_capture_stats st = PMURT_OPTS_INIT(pmurt_dtl_capture_stats);
	pmurt_dtl_capture_stats(c, &st);
	double lost = (double)(ds->generated - r.entries);
	printf("%6u ms %6u KiB  %8.4f%%  hypervisor %7llu  wraps %7llu + %7llu  overwritten %6llu"
	       "  (said: %llu-%llu at %llu wraps, cut <= %llu)\n", period_ms, aux_kib,
	       100.0 * lost / (double)ds->generated, (unsigned long long)ds->hv_dropped,
	       (unsigned long long)ds->batch_dropped, (unsigned long long)ds->wrap_lost,
	       (unsigned long long)st.lost_entries, (unsigned long long)st.wrap_lost_min,
	       (unsigned long long)st.wrap_lost_max, (unsigned long long)st.wrap_polls,
	       (unsigned long long)st.cut_lost_max);
	double share = lost / (double)ds->generated;
	if (st.wrap_lost_min > ds->wrap_lost ||
	    ds->wrap_lost + ds->batch_dropped > st.wrap_lost_max + st.cut_lost_max) {
		printf("  the drain's bounds do not hold the driver's losses\n");
		share = 1;   /* fails --defaults */
	}
	pmurt_dtl_capture_close(c);
	pmurt_host_close(host);
	pmu_sim_dtl_free(r.drv);
	pmu_sim_free(sim);
	return share;
}

int main(int argc, char **argv)
{
	bool defaults = argc == 2 && strcmp(argv[1], "--defaults") == 0;
	double rate = argc > 1 && !defaults ? atof(argv[1]) : 10000;
	unsigned seconds = argc > 2 ? (unsigned)atoi(argv[2]) : 60;
	char dir[256];
	if (rate <= 0 || seconds == 0 || make_sysfs(dir, sizeof dir) < 0) {
		fprintf(stderr, "usage: bench_dtl_loss [RATE [SECONDS]]\n");
		return 2;
	}
	printf("vpa_dtl loss at %.0f dispatches/s on one CPU, %u simulated s, the reader every "
	       "%d ms (defaults: -c %llu ms, %u KiB)\n", rate, seconds, READER_MS,
	       PMURT_DTL_DEFAULT_PERIOD_NS / 1000000, PMURT_DTL_AUX_DEFAULT_BYTES / 1024);
	printf("period    AUX        lost       where\n");
	if (defaults) {
		double loss = measure(dir, rate, PMURT_DTL_DEFAULT_PERIOD_NS / 1000000,
				      PMURT_DTL_AUX_DEFAULT_BYTES / 1024, seconds);
		char cmd[300];
		snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
		int rc = system(cmd);
		return loss < 0.001 && rc == 0 ? 0 : 1;
	}
	static const unsigned periods[] = {1, 2, 5, 8, 10, 20};
	static const unsigned sizes[] = {128, 256, 512, 1024, 2048, 4096};
	for (size_t p = 0; p < sizeof periods / sizeof periods[0]; p++)
		for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
			measure(dir, rate, periods[p], sizes[s], seconds);
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : 1;
}
