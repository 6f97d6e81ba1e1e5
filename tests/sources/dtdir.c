/*
 * dtdir.c - a DTB written out as a /proc/device-tree style directory (see
 * dtdir.h), with libfdt, as the kernel's proc_device_tree does it: a
 * directory per node, a file per property with the raw bytes, and a "name"
 * file per node (the node name without its unit address, NUL-terminated).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <libfdt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dtdir.h"

#define MAX_CHILDREN 4096

int dtdir_put(const char *dir, const char *rel, const void *data, size_t len)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	ssize_t n = fd >= 0 ? write(fd, data, len) : -1;
	if (fd < 0 || n != (ssize_t)len || close(fd)) {
		fprintf(stderr, "dtdir: cannot write %s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

int dtdir_remove(const char *dir, const char *rel)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	if (nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS)) {
		fprintf(stderr, "dtdir: cannot remove %s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

void *dtdir_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n = -1;
	if (f && fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0)
		buf = malloc(n > 0 ? (size_t)n : 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	if (f)
		fclose(f);
	if (!buf)
		fprintf(stderr, "dtdir: cannot read %s\n", path);
	*len = buf ? (size_t)n : 0;
	return buf;
}

/* A fixed pseudo-random permutation (Fisher-Yates over a small LCG), so the
 * children are created neither in DTB order nor in name order. */
static void scramble(int *order, int n)
{
	unsigned seed = 0x2545f491u ^ (unsigned)n;
	for (int i = 0; i < n; i++)
		order[i] = i;
	for (int i = n - 1; i > 0; i--) {
		seed = seed * 1103515245u + 12345u;
		int j = (int)((seed >> 8) % (unsigned)(i + 1));
		int t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
}

static int write_properties(const void *fdt, int node, const char *dir)
{
	int prop, nprops = 0, offsets[MAX_CHILDREN], order[MAX_CHILDREN];
	fdt_for_each_property_offset(prop, fdt, node) {
		if (nprops == MAX_CHILDREN)
			return -1;
		offsets[nprops++] = prop;
	}
	scramble(order, nprops);
	for (int i = 0; i < nprops; i++) {
		const char *name;
		int len;
		const void *val = fdt_getprop_by_offset(fdt, offsets[order[i]], &name, &len);
		if (!val || dtdir_put(dir, name, val, (size_t)len))
			return -1;
	}
	return 0;
}

/* The "name" pseudo-property: the node name up to '@', NUL-terminated. */
static int write_name(const void *fdt, int node, const char *dir)
{
	if (fdt_getprop(fdt, node, "name", NULL))
		return 0;
	const char *full = fdt_get_name(fdt, node, NULL);
	size_t len = full ? strcspn(full, "@") : 0;
	char name[256];
	snprintf(name, sizeof(name), "%.*s", (int)len, full ? full : "");
	return dtdir_put(dir, "name", name, len + 1);
}

static int write_node(const void *fdt, int node, const char *dir, int depth)
{
	if (depth > 32 || (mkdir(dir, 0755) && errno != EEXIST)) {
		fprintf(stderr, "dtdir: cannot create %s: %s\n", dir, strerror(errno));
		return -1;
	}
	if (write_properties(fdt, node, dir) || write_name(fdt, node, dir))
		return -1;
	int child, nchildren = 0, offsets[MAX_CHILDREN], order[MAX_CHILDREN];
	fdt_for_each_subnode(child, fdt, node) {
		if (nchildren == MAX_CHILDREN)
			return -1;
		offsets[nchildren++] = child;
	}
	scramble(order, nchildren);
	for (int i = 0; i < nchildren; i++) {
		char sub[4096];
		snprintf(sub, sizeof(sub), "%s/%s", dir, fdt_get_name(fdt, offsets[order[i]], NULL));
		if (write_node(fdt, offsets[order[i]], sub, depth + 1))
			return -1;
	}
	return 0;
}

int dtdir_write(const void *fdt, const char *node_path, const char *dir)
{
	int node = fdt_path_offset(fdt, node_path);
	if (node < 0) {
		fprintf(stderr, "dtdir: no node %s: %s\n", node_path, fdt_strerror(node));
		return -1;
	}
	return write_node(fdt, node, dir, 0);
}
