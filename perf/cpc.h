/*
 * cpc.h - the DTrace cpc provider's rules for a recording, checked before
 * anything is opened.
 *
 * Oracle's cpc provider (usr/src/uts/common/dtrace/dcpc.c; Oracle Linux
 * DTrace's libdtrace/dt_prov_cpc.c) samples on counter overflow with:
 * - a minimum overflow count, dcpc_min_overflow (5000): a probe with a
 *   smaller COUNT is refused, so that a typo cannot flood the machine with
 *   interrupts;
 * - counters first come, first served: an enabling holds its counters
 *   until it ends, nothing is multiplexed, and an enabling that cannot get
 *   a counter fails, naming what holds them;
 * - on CPUs whose overflow interrupt does not say which counter overflowed,
 *   one enabling at a time (dcpc_enable's "dcpc_enablings == 1" rule).
 * Here an enabling is one -e group (an event alone, or {A,B}); only events
 * of the core PMU hold counters.
 */
#ifndef PMU_CPC_H
#define PMU_CPC_H

#include <stdbool.h>
#include <stdint.h>

#include "evsel.h"

/* The minimum period is pmurt.h's PMURT_CPC_MIN_PERIOD (dcpc_min_overflow). */

/* Every event's period (period when non-zero, as -c gives it, else the
 * event's own, a probe's COUNT) at least min_period; frequency-driven events
 * have none, and a tracepoint's own period (1: every hit) is not an
 * overflow count.  -EINVAL naming the event and the minimum. */
int pmu_cpc_check_periods(const struct pmu_evlist *list, uint64_t period,
			  uint64_t min_period, struct pmurt_error *err);

/* Counters first come, first served among list's core enablings, in order:
 * each must fit (pmurt_group_check) together with the ones before it, and
 * with single_overflow (the PMU cannot tell which counter overflowed) there
 * may be only one.  -EBUSY naming the refused enabling and the holders.
 * held, when not NULL, gets the check of all of them together (n 0 when
 * there are no core events): the counter of each core event, in order. */
int pmu_cpc_check_counters(const struct pmurt_pmu *core, const struct pmu_evlist *list,
			   bool per_task, bool single_overflow, struct pmurt_group_result *held,
			   struct pmurt_error *err);

#endif /* PMU_CPC_H */
