/*
 * bench_pack.c - packing metrics' events into groups (events/pack.c)
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
 * pmurt_pack.  Then the median time of packing all core metrics.  The
 * metrics' error from multiplexing, ours against perf's grouping, is
 * bench_mux.c's (the simulated kernel's multiplexing).  Prints, asserts
 * nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_metrics.h"
#include "bench_stats.h"
#include "pmurt.h"

#define RUNS 21

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
	int ng = core_metric_groups(pmu, groups, 64), ncore = 0;
	for (int i = 0; i < ng; i++)
		names[i] = groups[i];
	for (int m = 0; m < pmurt_metric_count(pmu); m++) {
		struct pmurt_metric_info info = {.sz = sizeof(info)};
		ncore += pmurt_metric_get(pmu, m, &info) == 0 && !info.pmus;
	}
	printf("%s: %d metrics (%d core), %d core metric groups\n", spec,
	       pmurt_metric_count(pmu), ncore, ng);
	rc |= report(pmu, cpi, &cpi, 1, perf_cpi);
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
