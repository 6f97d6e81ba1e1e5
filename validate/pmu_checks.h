/*
 * pmu_checks.h - semantic checks of a loaded description, shared by pmugen
 * and libpmurt's DTB and device-tree loaders.  Each check has a name
 * (pmu_check_name) and reports through struct pmu_diag.
 */
#ifndef PMU_CHECKS_H
#define PMU_CHECKS_H

#include <stdint.h>

#include "pmu_diag.h"
#include "pmu_model.h"

/* Run every enabled check; returns 0, or -EINVAL when any error was reported.
 * all_events: the output will hold every event (kernel-limits counts them). */
int pmu_check_model(const struct pmu_model *m, struct pmu_diag *d,
		    bool all_events);

/* Where an event stands in the group being built, for the group checks. */
struct pmu_group_place {
	uint64_t leader_config; /* the leader's code (the event's own when it leads) */
	int index;              /* 0 for the leader */
};

/* What the per-event checks need, computed once per model. */
struct pmu_check_ctx {
	uint64_t covered;    /* bits some config field covers */
	uint64_t linux_bits; /* linux-defined bits, ignored for fixed counters */
	int pmc_field;       /* the role-pmc field, -1 if none */
};

void pmu_check_ctx_init(struct pmu_check_ctx *ctx, const struct pmu_model *m);

/*
 * Per-event validity as the kernel's event_init and get_constraint see it:
 * the description's checks in order.  Returns -1 when valid, else the index
 * of the first failing check in m->checks (its name is the reason).
 */
int pmu_event_first_failing_check(const struct pmu_model *m,
				  const struct pmu_check_ctx *ctx, uint64_t config,
				  uint64_t config1, const struct pmu_group_place *place);

#endif /* PMU_CHECKS_H */
