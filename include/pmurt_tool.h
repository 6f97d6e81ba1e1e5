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

#ifdef __cplusplus
}
#endif

#endif /* PMURT_TOOL_H */
