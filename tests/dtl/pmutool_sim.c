/*
 * pmutool_sim.c - pmutool's own code (pmutool_main, tools/) on the simulated
 * kernel with the vpa_dtl driver (tests/support/sys_sim.c, tests/support/sim_dtl.c), for the
 * tests of `pmutool dtl record` (tests/dtl/check_record.py).  A test
 * program, never installed: the shipped pmutool links no simulator.
 *
 * usage: pmutool_sim TYPE SEED,ENTRIES,POLLS[,EXPIRIES] PMUTOOL-ARGS...
 * TYPE is vpa_dtl's perf type in the sysfs tree the arguments name; each
 * poll of the recording is EXPIRIES (default 1; more makes a slow reader)
 * hrtimer expiries, each bringing ENTRIES new dispatches per CPU, and after
 * POLLS polls a SIGINT stops the recording, as a user's ^C does.  At the
 * end the driver's own counts go to stderr:
 *   [ simulated vpa_dtl: N logged, N reported, N lost at wraps, ... ]
 */
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

#include "pmutool.h"
#include "sim_dtl.h"
#include "sys_sim.h"

struct sim_run {
	struct pmu_sim_dtl *dtl;
	unsigned entries, polls, expiries, done;
};

static void on_poll(void *arg)
{
	struct sim_run *r = arg;
	if (r->done >= r->polls)
		return;
	for (unsigned i = 0; i < r->expiries; i++)
		pmu_sim_dtl_tick(r->dtl, r->entries);
	if (++r->done == r->polls)
		raise(SIGINT);
}

static void print_counts(const struct pmu_sim_dtl_stats *s)
{
	fprintf(stderr, "[ simulated vpa_dtl: %" PRIu64 " logged, %" PRIu64 " reported, %" PRIu64
		" lost at wraps, %" PRIu64 " dropped at wraps, %" PRIu64 " by the hypervisor "
		"buffer, %" PRIu64 " while full or disabled; %" PRIu64 " headers, %" PRIu64
		" wraps, %" PRIu64 " refused ]\n", s->generated, s->reported, s->wrap_lost,
		s->batch_dropped, s->hv_dropped, s->core_dropped, s->headers, s->wraps,
		s->refused);
}

int main(int argc, char **argv)
{
	unsigned type;
	unsigned long long seed;
	struct sim_run r = {.expiries = 1};
	if (argc < 4 || sscanf(argv[1], "%u", &type) != 1 ||
	    sscanf(argv[2], "%llu,%u,%u,%u", &seed, &r.entries, &r.polls, &r.expiries) < 3 ||
	    r.polls == 0 || r.expiries == 0) {
		fprintf(stderr, "usage: pmutool_sim TYPE SEED,ENTRIES,POLLS[,EXPIRIES] ARGS...\n");
		return 2;
	}
	const struct pmu_sim_pmu pmus[] = {
		{.type = type, .name = "vpa_dtl", .vpa_dtl = true},
		{.type = PERF_TYPE_TRACEPOINT, .name = "tracepoint"},
		{.type = PERF_TYPE_SOFTWARE, .name = "software"},
	};
	struct pmu_sim *sim = NULL;
	struct pmu_sim_dtl_opts o = {.seed = seed};
	if (pmu_sim_new(&sim, pmus, 3) < 0 || pmu_sim_dtl_new(&r.dtl, sim, type, &o) < 0) {
		fprintf(stderr, "pmutool_sim: out of memory\n");
		return 1;
	}
	pmu_sim_on_poll(sim, on_poll, &r);
	argv[2] = argv[0];
	int rc = pmutool_main(argc - 2, argv + 2, pmu_sim_sys(sim));
	print_counts(pmu_sim_dtl_stats(r.dtl));
	pmu_sim_dtl_free(r.dtl);
	pmu_sim_free(sim);
	return rc;
}
