/*
 * sys.h - the narrow interface between libpmurt's perf side and the kernel.
 *
 * Every system call the perf side makes on a perf event goes through one
 * struct pmurt_sys (pmurt_tool.h, public so that tools' tests can hand in
 * another): the real one (sys.c) calls the kernel, the simulated one
 * (tests/support/sys_sim.c) answers from a table of events and injected
 * errnos, so that the same code paths (opening, reading, mapping the ring,
 * explaining an errno) run on this x86 machine for POWER events and failures
 * it cannot produce.
 */
#ifndef PMU_SYS_H
#define PMU_SYS_H

#include "pmurt_tool.h"

/* The kernel itself. */
const struct pmurt_sys *pmu_sys_real(void);

#endif /* PMU_SYS_H */
