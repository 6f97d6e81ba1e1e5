/*
 * tracefs.h - the host's tracefs (tracefs.c), inside libpmurt.  Not
 * installed.
 */
#ifndef PMU_TRACEFS_H
#define PMU_TRACEFS_H

#include <stdbool.h>

struct pmu_host;   /* evsel.h */

/* The host's tracefs root, or "" when it has none: h->tracefs when set,
 * else, on the running system (tracefs_mountable), the tracefs mounted
 * since, or mounted now at /sys/kernel/tracing as perf mounts it when a
 * tracepoint is named (tools/lib/api/fs/tracing_path.c tracing_path_mount;
 * root only).  *mount_errno (may be NULL): the mount's errno, 0 when none
 * was tried or it succeeded. */
const char *pmu_host_tracefs(const struct pmu_host *h, int *mount_errno);

/* Every tracepoint TRACEFS/events/SYS/NAME with an id (ftrace's own
 * events have a format only) whose SYS and NAME match the fnmatch(3)
 * patterns sys and name, in tracefs's order: fn(ctx, SYS, NAME), a non-zero
 * return stopping the walk and returned; 0. */
int pmu_tracefs_each(const char *tracefs, const char *sys, const char *name,
		     int (*fn)(void *ctx, const char *sys, const char *name), void *ctx);

/* Whether TRACEFS/events/SYS (name NULL) or TRACEFS/events/SYS/NAME is a
 * directory; false without a tracefs (""). */
bool pmu_tracefs_has(const char *tracefs, const char *sys, const char *name);

#endif /* PMU_TRACEFS_H */
