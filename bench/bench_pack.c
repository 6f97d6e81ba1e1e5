/*
 * bench_pack.c - packing metrics' events into groups (runtime/pack.c)
 * against perf's grouping, on the built-in POWER10 and POWER9 tables.
 *
 *   bench_pack [power10|power9 ...]
 *
 * For -M CPI (POWER10; POWER9: cpi_breakdown), all core metric groups
 * together, and every core metric one by one: the groups pmurt_pack finds,
 * the lower bound (POWER10's nine groups: 36 with the events shared by
 * metrics counted per group, 33 without), the metrics no group holds whole,
 * and perf 6.12's count as measured (schema notes in
 * ../shared/reference/perf-metrics.md: 59 for POWER10's CPI, 155 for its
 * nine groups); every group is proven by pmurt_group_check inside
 * pmurt_pack.  Then the median time of packing all core metrics.  Then,
 * for the CPI group, the metrics' error from multiplexing in a model of
 * the kernel's rotation (not sys_sim): a workload whose event rates change
 * in 50 phases of 37 ms (deterministic pseudo-random rates), one group on
 * the PMU per 4 ms tick in turn (every CPI group holds PM_RUN_INST_CMPL,
 * the one PMC5 event, so no two share a tick), each count scaled by
 * enabled/running as perf does; perf's grouping is each metric's events as
 * a group of their own (its 59 weak groups), a metric no group holds whole
 * as separate events in both.  Prints, asserts nothing.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_stats.h"
#include "pmurt.h"

#define RUNS 21

static int core_groups(const struct pmurt_pmu *pmu, char names[][64], int max)
{
	int n = 0;
	char buf[64];

	for (int i = 0; n < max && pmurt_metric_group_get(pmu, i, buf, sizeof(buf)) >= 0; i++) {
		/* a group of nest metrics only is not a core group */
		bool core = false;
		for (int m = 0; m < pmurt_metric_count(pmu) && !core; m++) {
			struct pmurt_metric_info info = {.sz = sizeof(info)};
			core = pmurt_metric_in_group(pmu, m, buf) &&
			       pmurt_metric_get(pmu, m, &info) == 0 && !info.pmus;
		}
		if (core)
			snprintf(names[n++], 64, "%s", buf);
	}
	return n;
}

static int report(const struct pmurt_pmu *pmu, const char *what, const char *const *names,
		  int n, const char *perf)
{
	struct pmurt_pack *pk = NULL;
	struct pmurt_error err;
	struct pmurt_pack_info info = {.sz = sizeof(info)};

	if (pmurt_pack(pmu, names, n, NULL, &pk, &err)) {
		fprintf(stderr, "bench_pack: %s: %s\n", what, err.message);
		return 1;
	}
	pmurt_pack_info(pk, &info);
	printf("  %-28s %4d metrics %4d events: %3d groups (bound %3d; perf %s), "
	       "%d not whole:", what, info.nmetrics, info.nevents, info.ngroups, info.bound,
	       perf, info.napart);
	for (int i = 0; i < info.nmetrics; i++) {
		struct pmurt_pack_metric m = {.sz = sizeof(m)};
		if (pmurt_pack_metric_get(pk, i, &m) == 0 && m.apart && strcmp(m.reason, "other_pmu"))
			printf(" %s (%s)", m.name, m.reason);
	}
	putchar('\n');
	pmurt_pack_free(pk);
	return 0;
}

/* --- multiplexing error, in a model of the rotation ------------------------- */
#define PHASES 50
#define PHASE_NS 37000000ull
#define TICK_NS 4000000ull
#define MAX_EV 512
#define MAX_GROUPS 512

struct mux_model {
	double rate[MAX_EV][PHASES];  /* counts per ns, by event and phase */
	int ngroups, size[MAX_GROUPS], ev[MAX_GROUPS][16];
};

static uint64_t lcg(uint64_t *x)
{
	*x = *x * 6364136223846793005ull + 1442695040888963407ull;
	return *x >> 33;
}

/* True counts and, for each event, the scaled count of the rotation. */
static void run_model(const struct mux_model *mm, int nev, double *truth, double *scaled)
{
	double got[MAX_EV] = {0}, running[MAX_EV] = {0};
	uint64_t total = PHASES * PHASE_NS;
	for (int e = 0; e < nev; e++)
		truth[e] = 0;
	for (uint64_t t = 0, tick = 0; t < total; t += TICK_NS, tick++) {
		int g = (int)(tick % (uint64_t)mm->ngroups);
		uint64_t end = t + TICK_NS < total ? t + TICK_NS : total;
		for (uint64_t a = t; a < end;) { /* split the tick at phase edges */
			int ph = (int)(a / PHASE_NS);
			uint64_t b = (uint64_t)(ph + 1) * PHASE_NS < end ? (uint64_t)(ph + 1) * PHASE_NS : end;
			for (int e = 0; e < nev; e++)
				truth[e] += mm->rate[e][ph] * (double)(b - a);
			for (int i = 0; i < mm->size[g]; i++) {
				int e = mm->ev[g][i];
				got[e] += mm->rate[e][ph] * (double)(b - a);
				running[e] += (double)(b - a);
			}
			a = b;
		}
	}
	for (int e = 0; e < nev; e++)
		scaled[e] = running[e] > 0 ? got[e] * (double)total / running[e] : 0;
}

/* The event's index in names (added when new). */
static int ev_id(const char **names, int *n, const char *name)
{
	for (int i = 0; i < *n; i++)
		if (strcmp(names[i], name) == 0)
			return i;
	names[*n] = name;
	return (*n)++;
}

static void accuracy(const struct pmurt_pmu *pmu, const char *group)
{
	struct pmurt_pack *pk = NULL;
	struct pmurt_error err;
	if (pmurt_pack(pmu, &group, 1, NULL, &pk, &err))
		return;
	static struct mux_model ours, perf;
	const char *names[MAX_EV];
	int nev = 0;
	struct pmurt_pack_info info = {.sz = sizeof(info)};
	pmurt_pack_info(pk, &info);
	ours.ngroups = perf.ngroups = 0;
	for (int g = 0; g < info.ngroups && g < MAX_GROUPS; g++) {
		const struct pmurt_event_spec *ev;
		int n;
		pmurt_pack_group(pk, g, &ev, &n, NULL);
		ours.size[ours.ngroups] = n;
		for (int i = 0; i < n; i++)
			ours.ev[ours.ngroups][i] = ev_id(names, &nev, ev[i].name);
		ours.ngroups++;
	}
	/* perf: each metric's events as a group; a metric apart, its events alone */
	int mev[256][PMURT_METRIC_MAX_EVENTS], mn[256], nm = 0;
	for (int i = 0; i < info.nmetrics && nm < 256; i++) {
		struct pmurt_pack_metric m = {.sz = sizeof(m)};
		struct pmurt_metric_info mi = {.sz = sizeof(mi)};
		if (pmurt_pack_metric_get(pk, i, &m) || m.index < 0 ||
		    pmurt_metric_get(pmu, m.index, &mi) || mi.pmus)
			continue;
		mn[nm] = mi.nevents;
		for (int k = 0; k < mi.nevents; k++) {
			struct pmurt_event_info e = {.sz = sizeof(e)};
			pmurt_event_get(pmu, mi.event_index[k], &e);
			mev[nm][k] = ev_id(names, &nev, e.name);
			if (m.apart) {
				perf.size[perf.ngroups] = 1;
				perf.ev[perf.ngroups++][0] = mev[nm][k];
			}
		}
		if (!m.apart) {
			perf.size[perf.ngroups] = mi.nevents;
			memcpy(perf.ev[perf.ngroups++], mev[nm], (size_t)mi.nevents * sizeof(int));
		}
		nm++;
	}
	uint64_t x = 18;
	for (int e = 0; e < nev; e++) {
		double base = 0.05 + (double)(lcg(&x) % 1000) / 400.0;
		for (int p = 0; p < PHASES; p++)
			ours.rate[e][p] = perf.rate[e][p] = base * (0.2 + (double)(lcg(&x) % 1000) / 350.0);
	}
	static double truth[MAX_EV], s_ours[MAX_EV], s_perf[MAX_EV];
	run_model(&ours, nev, truth, s_ours);
	run_model(&perf, nev, truth, s_perf);
	double sum_o = 0, sum_p = 0, max_o = 0, max_p = 0;
	int worse = 0, counted = 0;
	for (int i = 0; i < nm; i++) {
		if (mn[i] != 2)
			continue; /* the CPI ratios: X / PM_RUN_INST_CMPL */
		int a = mev[i][0], b = mev[i][1];
		double t = truth[a] / truth[b];
		double eo = fabs(s_ours[a] / s_ours[b] - t) / t, ep = fabs(s_perf[a] / s_perf[b] - t) / t;
		sum_o += eo, sum_p += ep, counted++;
		max_o = eo > max_o ? eo : max_o;
		max_p = ep > max_p ? ep : max_p;
		worse += eo > ep;
	}
	printf("  %s multiplexing error (model of the rotation, %d ratios): ours %d groups, "
	       "mean %.2f%% max %.2f%%; perf's way (a group per metric) %d groups, mean %.2f%% max %.2f%%; ours worse on %d ratios\n",
	       group, counted, ours.ngroups, 100 * sum_o / counted, 100 * max_o, perf.ngroups,
	       100 * sum_p / counted, 100 * max_p, worse);
	pmurt_pack_free(pk);
}

static int bench_pmu(const char *spec)
{
	struct pmurt_pmu *pmu = NULL;
	struct pmurt_error err;
	char groups[64][64];
	const char *names[64];
	const char *cpi = strcmp(spec, "power9") ? "CPI" : "cpi_breakdown";
	const char *perf_cpi = strcmp(spec, "power9") ? "59" : "not measured";
	const char *perf_all = strcmp(spec, "power9") ? "155" : "not measured";
	int rc = 0;

	if (pmurt_pmu_open(&pmu, spec, NULL, &err)) {
		fprintf(stderr, "bench_pack: %s: %s\n", spec, err.message);
		return 1;
	}
	int ng = core_groups(pmu, groups, 64), ncore = 0;
	for (int i = 0; i < ng; i++)
		names[i] = groups[i];
	for (int m = 0; m < pmurt_metric_count(pmu); m++) {
		struct pmurt_metric_info info = {.sz = sizeof(info)};
		ncore += pmurt_metric_get(pmu, m, &info) == 0 && !info.pmus;
	}
	printf("%s: %d metrics (%d core), %d core metric groups\n", spec,
	       pmurt_metric_count(pmu), ncore, ng);
	rc |= report(pmu, cpi, &cpi, 1, perf_cpi);
	accuracy(pmu, cpi);
	char what[64];
	snprintf(what, sizeof(what), "all %d core groups", ng);
	rc |= report(pmu, what, names, ng, perf_all);

	double t[RUNS];
	for (int r = 0; r < RUNS && !rc; r++) {
		struct pmurt_pack *pk = NULL;
		double t0 = now();
		rc = pmurt_pack(pmu, names, ng, NULL, &pk, &err);
		t[r] = now() - t0;
		pmurt_pack_free(pk);
	}
	if (!rc)
		printf("  packing the %d core groups: median %.2f ms over %d runs (goal <= 50 ms)\n",
		       ng, median(t, RUNS) * 1e3, RUNS);
	pmurt_pmu_close(pmu);
	return rc;
}

int main(int argc, char **argv)
{
	int rc = 0;
	if (argc < 2) {
		rc |= bench_pmu("power10");
		rc |= bench_pmu("power9");
	}
	for (int i = 1; i < argc; i++)
		rc |= bench_pmu(argv[i]);
	return rc;
}
