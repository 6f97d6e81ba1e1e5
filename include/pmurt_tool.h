/*
 * pmurt_tool.h - what a tool built on libpmurt needs beyond pmurt.h, as
 * pmutool does: the kernel interface the perf side calls (to run a tool's
 * own code on a simulated kernel in its tests), and the kernel's CPU list
 * format.  Versioned with pmurt.h: its functions are in libpmurt.map's
 * nodes too, under the release that brought them.
 */
#ifndef PMURT_TOOL_H
#define PMURT_TOOL_H

#include <linux/perf_event.h>
#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "pmurt.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The narrow interface between libpmurt's perf side and the kernel
 * (PMURT_0.5): every system call it makes on a perf event goes through one
 * struct pmurt_sys, the kernel's own by default (pmurt_host_opts.sys NULL).
 * A tool's tests hand in a simulated kernel instead, which answers from a
 * table of events and injected errnos, so that the tool's own paths
 * (opening, reading, mapping the ring, explaining an errno) run where the
 * real kernel cannot produce what they need.  Each operation returns what
 * the system call returns, except that failures come back as a negative
 * errno instead of -1 and errno.  The struct is never extended: a new
 * operation would come as a new struct and version node.
 */
struct pmurt_sys {
	/* perf_event_open(2): a file descriptor or -errno */
	int (*event_open)(void *ctx, struct perf_event_attr *attr, pid_t pid,
			  int cpu, int group_fd, unsigned long flags);
	/* ioctl(2) on an event fd (PERF_EVENT_IOC_*): >= 0 or -errno */
	int (*ioctl)(void *ctx, int fd, unsigned long request, unsigned long arg);
	/* read(2): bytes read or -errno */
	ssize_t (*read)(void *ctx, int fd, void *buf, size_t len);
	/* mmap(2) of an event fd (shared, read/write): NULL with *err = -errno
	 * on failure */
	void *(*mmap)(void *ctx, int fd, size_t len, off_t offset, int *err);
	int (*munmap)(void *ctx, void *addr, size_t len);
	int (*close)(void *ctx, int fd);
	/* poll(2) on event fds (a ring with data past its wakeup mark is
	 * readable; a task event whose task exited gives POLLHUP): the number
	 * of ready fds or -errno.  May be NULL: a recording then drains on a
	 * timer instead of waiting for the kernel's wake-up. */
	int (*poll)(void *ctx, struct pollfd *fds, nfds_t nfds, int timeout_ms);
	void *ctx;
};

/* The kernel's CPU list format ("0-3,8,10-11"), as -C and
 * /sys/devices/system/cpu/online write it, into a malloc'd array (*cpus,
 * *ncpus; the caller frees it).  0, -EINVAL with err quoting the text, or
 * -ENOMEM.  (PMURT_0.5) */
PMURT_API int pmurt_cpulist_parse(const char *text, int **cpus, int *ncpus,
				  struct pmurt_error *err);

/* One event of pmu decoded against its description, as pmutool describe
 * prints it (PMURT_0.6): the counter it gets alone in a group (checked
 * under opts, NULL: the defaults), every field of its code and config1 with
 * its value and where it lands (the register field and bits for that
 * counter, under which condition, with its transform), the privilege
 * filters of that counter and which of them the event's exclude bits set,
 * and each constraint's part of the kernel's constraint word with their
 * total and the adder slots.  Lines of text into *text (malloc'd, the
 * caller frees it; their layout is for people and may change).  0, or
 * -EINVAL / -ENOMEM with err. */
PMURT_API int pmurt_event_describe(const struct pmurt_pmu *pmu,
				   const struct pmurt_event_spec *ev,
				   const struct pmurt_check_opts *opts, char **text,
				   struct pmurt_error *err);

/*
 * A command a tool profiles, forked and held before its exec until its
 * events are open (PMURT_0.6), as perf's evlist__prepare_workload and
 * evlist__start_workload hold theirs: events opened on its pid with
 * enable_on_exec (pmurt_record_opts, pmurt_counter_opts) start at the exec,
 * not in the forked copy of the tool.
 */
struct pmurt_workload;

/* Fork argv[0] (searched in PATH, as execvp), held before its exec.  *w
 * NULL on failure. */
PMURT_API int pmurt_workload_prepare(struct pmurt_workload **w, char *const argv[],
				     struct pmurt_error *err);
/* Its process id. */
PMURT_API pid_t pmurt_workload_pid(const struct pmurt_workload *w);
/* Let it exec: 0, or the failed exec's -errno with err naming the
 * command. */
PMURT_API int pmurt_workload_start(struct pmurt_workload *w, struct pmurt_error *err);
/* Whether it has exited (it stays a zombie for pmurt_workload_finish). */
PMURT_API bool pmurt_workload_exited(const struct pmurt_workload *w);
/* Reap it, terminating it (SIGTERM) first if it still runs, and free w: its
 * status as a shell gives it (128 + signal when killed); 0 for NULL. */
PMURT_API int pmurt_workload_finish(struct pmurt_workload *w);

#ifdef __cplusplus
}
#endif

#endif /* PMURT_TOOL_H */
