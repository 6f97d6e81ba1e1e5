/*
 * workload.h - the command a recording runs, forked and held before its
 * exec until the events are open, as perf's evlist__prepare_workload and
 * evlist__start_workload do: events opened on its pid with enable_on_exec
 * start counting at the exec, not in the forked copy of the caller.
 */
#ifndef PMU_WORKLOAD_H
#define PMU_WORKLOAD_H

#include <stdbool.h>
#include <sys/types.h>

#include "pmurt.h"

struct pmu_workload {
	pid_t pid;     /* 0 when none */
	int go_fd;     /* the child execs when a byte arrives, gives up at EOF */
	int err_fd;    /* the child's exec errno, or EOF when the exec worked */
};

/* Fork argv[0] (searched in PATH), held before its exec. */
int pmu_workload_prepare(struct pmu_workload *w, char *const argv[], struct pmurt_error *err);
/* Let it exec; -errno of a failed exec, err naming the command. */
int pmu_workload_start(struct pmu_workload *w, const char *name, struct pmurt_error *err);
/* Whether it has exited (it stays a zombie for pmu_workload_finish). */
bool pmu_workload_exited(const struct pmu_workload *w);
/* Reap it, terminating it (SIGTERM) first if it still runs; its status as a
 * shell gives it (128 + signal when killed); 0 when there is none. */
int pmu_workload_finish(struct pmu_workload *w);

#endif /* PMU_WORKLOAD_H */
