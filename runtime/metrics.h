/*
 * metrics.h - what runtime/metrics.c shares with pack.c.  Not installed.
 */
#ifndef PMURT_METRICS_H
#define PMURT_METRICS_H

#include "internal.h"

/* Compile metric index (model/metric.c) for this handle: 0, or the error in
 * err; -E2BIG past PMURT_METRIC_MAX_EVENTS events. */
PMURT_HIDDEN int pmurt_metric_compile(const struct pmurt_pmu *pmu, int index,
				      struct pmu_metric_prog *prog, struct pmurt_error *err);

#endif /* PMURT_METRICS_H */
