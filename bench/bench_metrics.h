/*
 * bench_metrics.h - what the metric benchmarks (bench_pack, bench_mux)
 * share: the metric groups that hold a core metric.
 */
#ifndef PMU_BENCH_METRICS_H
#define PMU_BENCH_METRICS_H

#include <stdbool.h>
#include <stdio.h>

#include "pmurt.h"

/* The metric groups with a core metric (a group of nest metrics only is not
 * a core group), at most max of them, into names; their number. */
static inline int core_metric_groups(const struct pmurt_pmu *pmu, char names[][64], int max)
{
	int n = 0;
	char buf[64];

	for (int i = 0; n < max && pmurt_metric_group_get(pmu, i, buf, sizeof(buf)) >= 0; i++) {
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

#endif /* PMU_BENCH_METRICS_H */
