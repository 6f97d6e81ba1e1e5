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

/*
 * Per-event validity as the kernel's event_init and get_constraint see it:
 * the description's checks in order.  Returns -1 when valid, else the index
 * of the first failing check in m->checks (its name is the reason).
 * leader_config is the group leader's code (for group-agree checks), or the
 * event's own code when it leads.
 */
int pmu_event_first_failing_check(const struct pmu_model *m, uint64_t config,
				  uint64_t config1, uint64_t leader_config);

#endif /* PMU_CHECKS_H */
