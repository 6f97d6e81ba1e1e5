/*
 * mem_kernel.h - a kernel in memory for the recording tests and the ring
 * bench: perf_event_open hands out numbered fds and remembers each attr,
 * PERF_EVENT_IOC_ID gives id 1000 + fd, SET_OUTPUT and ENABLE are
 * remembered, and mmap returns zeroed memory laid out as the kernel lays a
 * ring out.  The caller plays the kernel's writer with mem_ring_put.
 */
#ifndef PMU_TESTS_MEM_KERNEL_H
#define PMU_TESTS_MEM_KERNEL_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <sys/types.h>

#include "sys.h"

#define MEM_MAX_FDS 64

struct mem_kernel {
	struct pmurt_sys sys;
	int nfds;
	struct perf_event_attr attr[MEM_MAX_FDS];
	pid_t pid[MEM_MAX_FDS];
	int cpu[MEM_MAX_FDS];
	int group_fd[MEM_MAX_FDS];
	int output[MEM_MAX_FDS];   /* SET_OUTPUT target, -1 when none */
	int enabled[MEM_MAX_FDS];  /* ENABLE ioctls */
	void *map[MEM_MAX_FDS];    /* the ring mapped on this fd */
	int closed;                /* close calls */
	int unmapped;              /* munmap calls */
	int open_errno;            /* when non-zero, every open fails with it */
};

void mem_kernel_init(struct mem_kernel *k);
/* The kernel's side of a ring: copy a record at data_head (wrapping) and
 * publish it (a release store of data_head). */
void mem_ring_put(struct perf_event_mmap_page *ctl, const void *rec, size_t len);
/* Publish only the first len bytes of a record: data_head lands inside it. */
void mem_ring_put_partial(struct perf_event_mmap_page *ctl, const void *rec, size_t len,
			  size_t published);

#endif /* PMU_TESTS_MEM_KERNEL_H */
