/*
 * fuzz_file.h - a fuzz input as a file (a memfd, named by its
 * /proc/self/fd path), for targets whose code under test opens files.
 */
#ifndef FUZZ_FILE_H
#define FUZZ_FILE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

/* The file's descriptor (close it when done); path[64] names it. */
static inline int fuzz_file(const uint8_t *data, size_t size, char path[64])
{
	int fd = memfd_create("perf.data", MFD_CLOEXEC);
	if (fd < 0 || (size && write(fd, data, size) != (ssize_t)size))
		abort();
	snprintf(path, 64, "/proc/self/fd/%d", fd);
	return fd;
}

#endif /* FUZZ_FILE_H */
