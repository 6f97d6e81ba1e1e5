/*
 * mem_kernel.c - the in-memory kernel of mem_kernel.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mem_kernel.h"

static int mem_open(void *ctx, struct perf_event_attr *attr, pid_t pid, int cpu,
		    int group_fd, unsigned long flags)
{
	struct mem_kernel *k = ctx;
	(void)flags;
	if (k->open_errno)
		return -k->open_errno;
	if (k->nfds == MEM_MAX_FDS)
		return -EMFILE;
	int fd = k->nfds++;
	k->attr[fd] = *attr;
	k->pid[fd] = pid;
	k->cpu[fd] = cpu;
	k->group_fd[fd] = group_fd;
	k->output[fd] = -1;
	return fd;
}

static int mem_ioctl(void *ctx, int fd, unsigned long request, unsigned long arg)
{
	struct mem_kernel *k = ctx;
	if (fd < 0 || fd >= k->nfds)
		return -EBADF;
	switch (request) {
	case PERF_EVENT_IOC_ID:
		*(__u64 *)arg = 1000 + (__u64)fd;
		return 0;
	case PERF_EVENT_IOC_SET_OUTPUT:
		k->output[fd] = (int)arg;
		return 0;
	case PERF_EVENT_IOC_ENABLE:
		k->enabled[fd]++;
		return 0;
	case PERF_EVENT_IOC_DISABLE:
		return 0;
	}
	return -ENOTTY;
}

static ssize_t mem_read(void *ctx, int fd, void *buf, size_t len)
{
	(void)ctx, (void)fd, (void)buf, (void)len;
	return -EINVAL;
}

static void *mem_mmap(void *ctx, int fd, size_t len, off_t offset, int *err)
{
	struct mem_kernel *k = ctx;
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	if (fd < 0 || fd >= k->nfds || offset != 0 || len < 2 * page) {
		*err = -EINVAL;
		return NULL;
	}
	void *p = aligned_alloc(page, len);
	if (!p) {
		*err = -ENOMEM;
		return NULL;
	}
	memset(p, 0, len);
	struct perf_event_mmap_page *ctl = p;
	ctl->data_offset = page;
	ctl->data_size = len - page;
	k->map[fd] = p;
	*err = 0;
	return p;
}

static int mem_munmap(void *ctx, void *addr, size_t len)
{
	struct mem_kernel *k = ctx;
	(void)len;
	free(addr);
	k->unmapped++;
	return 0;
}

static int mem_close(void *ctx, int fd)
{
	struct mem_kernel *k = ctx;
	(void)fd;
	k->closed++;
	return 0;
}

void mem_kernel_init(struct mem_kernel *k)
{
	memset(k, 0, sizeof *k);
	k->sys = (struct pmurt_sys){.event_open = mem_open, .ioctl = mem_ioctl, .read = mem_read,
				  .mmap = mem_mmap, .munmap = mem_munmap, .close = mem_close,
				  .ctx = k};
}

void mem_ring_put_partial(struct perf_event_mmap_page *ctl, const void *rec, size_t len,
			  size_t published)
{
	unsigned char *data = (unsigned char *)ctl + ctl->data_offset;
	__u64 head = ctl->data_head;
	for (size_t i = 0; i < len; i++)
		data[(head + i) & (ctl->data_size - 1)] = ((const unsigned char *)rec)[i];
	__atomic_store_n(&ctl->data_head, head + published, __ATOMIC_RELEASE);
}

void mem_ring_put(struct perf_event_mmap_page *ctl, const void *rec, size_t len)
{
	mem_ring_put_partial(ctl, rec, len, len);
}
