/*
 * sys.h - the narrow interface between libpmurt's perf side and the kernel.
 *
 * Every system call the perf side makes on a perf event goes through one
 * struct pmu_sys: the real one (sys.c) calls the kernel, the simulated one
 * (sys_sim.c) answers from a table of events and injected errnos, so that
 * the same code paths (opening, reading, mapping the ring, explaining an
 * errno) run on this x86 machine for POWER events and failures it cannot
 * produce.  Each operation returns what the system call returns, except that
 * failures come back as a negative errno instead of -1 and errno.
 */
#ifndef PMU_SYS_H
#define PMU_SYS_H

#include <linux/perf_event.h>
#include <poll.h>
#include <stddef.h>
#include <sys/types.h>

struct pmu_sys {
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

/* The kernel itself. */
const struct pmu_sys *pmu_sys_real(void);

#endif /* PMU_SYS_H */
