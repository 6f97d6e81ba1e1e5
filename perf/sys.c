/*
 * sys.c - the real kernel behind struct pmurt_sys (sys.h): thin wrappers that
 * turn -1/errno into a negative errno.
 */
#include <errno.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sys.h"

static int real_event_open(void *ctx, struct perf_event_attr *attr, pid_t pid,
			   int cpu, int group_fd, unsigned long flags)
{
	(void)ctx;
	long fd = syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, flags);
	return fd < 0 ? -errno : (int)fd;
}

static int real_ioctl(void *ctx, int fd, unsigned long request, unsigned long arg)
{
	(void)ctx;
	int rc = ioctl(fd, request, arg);
	return rc < 0 ? -errno : rc;
}

static ssize_t real_read(void *ctx, int fd, void *buf, size_t len)
{
	(void)ctx;
	ssize_t n;
	do
		n = read(fd, buf, len);
	while (n < 0 && errno == EINTR);
	return n < 0 ? -errno : n;
}

static void *real_mmap(void *ctx, int fd, size_t len, off_t offset, int *err)
{
	(void)ctx;
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, offset);
	if (p == MAP_FAILED) {
		*err = -errno;
		return NULL;
	}
	*err = 0;
	return p;
}

static int real_munmap(void *ctx, void *addr, size_t len)
{
	(void)ctx;
	return munmap(addr, len) < 0 ? -errno : 0;
}

static int real_close(void *ctx, int fd)
{
	(void)ctx;
	return close(fd) < 0 ? -errno : 0;
}

static int real_poll(void *ctx, struct pollfd *fds, nfds_t nfds, int timeout_ms)
{
	(void)ctx;
	int n = poll(fds, nfds, timeout_ms);
	return n < 0 ? -errno : n;
}

static const struct pmurt_sys real_sys = {
	.event_open = real_event_open,
	.ioctl = real_ioctl,
	.read = real_read,
	.mmap = real_mmap,
	.munmap = real_munmap,
	.close = real_close,
	.poll = real_poll,
};

const struct pmurt_sys *pmu_sys_real(void)
{
	return &real_sys;
}
