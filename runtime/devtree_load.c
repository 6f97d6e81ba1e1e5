/*
 * devtree_load.c - reads a live device tree in the /proc/device-tree layout
 * (a directory per node, a file per property) into a flattened tree, which
 * then goes through the same checked DTB loader as a .dtb file.
 *
 * Children are taken in natural name order (strverscmp: "check-9" before
 * "check-10"): kernfs lists a directory in hash order, so the order nodes
 * were created in cannot be recovered; the description gives meaning to
 * order only where node names carry an index.  The per-node "name" pseudo
 * property and symbolic links are skipped.  Sizes and depth are bounded.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libfdt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

#define MAX_DEPTH 16
#define MAX_PROP_SIZE (1u << 20)
#define MAX_TREE_SIZE (64u << 20)
#define MAX_ENTRIES 4096

struct builder {
	void *fdt;
	size_t size;
	struct pmurt_error *err;
	const char *root;
};

/* Run a libfdt sequential-write call, growing the buffer when it is full;
 * a libfdt error becomes -EINVAL with a message naming the node, a failed
 * growth its own code (-ENOMEM, -E2BIG). */
#define FDT_CALL(b, path, call)                                               \
	({                                                                    \
		int rc_, grow_ = 0;                                           \
		while ((rc_ = (call)) == -FDT_ERR_NOSPACE && !(grow_ = grow(b))) \
			;                                                     \
		grow_ ? grow_ : fdt_result(b, path, rc_);                      \
	})

static int grow(struct builder *b)
{
	size_t bigger = b->size * 2;
	if (bigger > MAX_TREE_SIZE)
		return -E2BIG;
	void *p = realloc(b->fdt, bigger);
	if (!p)
		return -ENOMEM;
	int rc = fdt_resize(p, p, (int)bigger);
	b->fdt = p;
	b->size = bigger;
	return rc ? -EINVAL : 0;
}

static int fdt_result(struct builder *b, const char *path, int rc)
{
	if (rc >= 0)
		return 0;
	pmurt_set_error(b->err, -EINVAL, "%s: cannot build the tree: %s", path, fdt_strerror(rc));
	return -EINVAL;
}

static int cmp_names(const void *x, const void *y)
{
	return strverscmp(*(char *const *)x, *(char *const *)y);
}

/* Names of the entries of a directory of the given type, sorted. */
static int list_entries(int dirfd, bool dirs, char ***out, int *n)
{
	int fd = dup(dirfd);
	DIR *dir = fd >= 0 ? fdopendir(fd) : NULL;
	if (!dir) {
		if (fd >= 0)
			close(fd);
		return -errno;
	}
	rewinddir(dir);
	char **names = NULL;
	int count = 0, rc = 0;
	struct dirent *de;
	while ((de = readdir(dir)) != NULL) {
		struct stat st;
		if (de->d_name[0] == '.' || fstatat(dirfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW))
			continue;
		if (dirs ? !S_ISDIR(st.st_mode) : (!S_ISREG(st.st_mode) || !strcmp(de->d_name, "name")))
			continue;
		char **grown = count < MAX_ENTRIES ? realloc(names, (count + 1) * sizeof(*names)) : NULL;
		char *copy = grown ? strdup(de->d_name) : NULL;
		if (grown)
			names = grown;
		if (!copy) {
			rc = count < MAX_ENTRIES ? -ENOMEM : -E2BIG;
			break;
		}
		names[count++] = copy;
	}
	closedir(dir);
	if (!rc && count > 1) /* names is NULL for an empty directory */
		qsort(names, count, sizeof(*names), cmp_names);
	*out = names;
	*n = count;
	return rc;
}

static void free_names(char **names, int n)
{
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

static int read_property(int dirfd, const char *name, void **data, size_t *len)
{
	int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st)) {
		int rc = -errno;
		if (fd >= 0)
			close(fd);
		return rc;
	}
	/* sysfs/proc report sizes that may be 0 or a page: read what is there */
	size_t cap = 256, got = 0;
	char *buf = malloc(cap);
	for (;;) {
		if (!buf) {
			close(fd);
			return -ENOMEM;
		}
		ssize_t r = read(fd, buf + got, cap - got);
		if (r < 0) {
			int rc = -errno;
			free(buf);
			close(fd);
			return rc;
		}
		if (r == 0)
			break;
		got += (size_t)r;
		if (got == cap) {
			if (cap >= MAX_PROP_SIZE) {
				free(buf);
				close(fd);
				return -EFBIG;
			}
			cap *= 2;
			char *p = realloc(buf, cap);
			if (!p)
				free(buf);
			buf = p;
		}
	}
	close(fd);
	*data = buf;
	*len = got;
	return 0;
}

static int add_node(struct builder *b, int dirfd, const char *name, const char *path,
		    int depth);

static int add_properties(struct builder *b, int dirfd, const char *path)
{
	char **names;
	int n, rc = list_entries(dirfd, false, &names, &n);
	for (int i = 0; !rc && i < n; i++) {
		void *data = NULL;
		size_t len = 0;
		rc = read_property(dirfd, names[i], &data, &len);
		if (rc) {
			pmurt_set_error(b->err, rc, "%s/%s: %s", path, names[i], strerror(-rc));
			break;
		}
		rc = FDT_CALL(b, path, fdt_property(b->fdt, names[i], data, (int)len));
		free(data);
	}
	free_names(names, n);
	return rc;
}

static int add_children(struct builder *b, int dirfd, const char *path, int depth)
{
	char **names;
	int n, rc = list_entries(dirfd, true, &names, &n);
	for (int i = 0; !rc && i < n; i++) {
		int fd = openat(dirfd, names[i], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0) {
			rc = -errno;
			break;
		}
		char child[4096];
		snprintf(child, sizeof(child), "%s/%s", path, names[i]);
		rc = add_node(b, fd, names[i], child, depth + 1);
		close(fd);
	}
	free_names(names, n);
	return rc;
}

static int add_node(struct builder *b, int dirfd, const char *name, const char *path,
		    int depth)
{
	if (depth > MAX_DEPTH) {
		pmurt_set_error(b->err, -ELOOP, "%s: nested deeper than %d nodes", path, MAX_DEPTH);
		return -ELOOP;
	}
	int rc = FDT_CALL(b, path, fdt_begin_node(b->fdt, name));
	if (!rc)
		rc = add_properties(b, dirfd, path);
	if (!rc)
		rc = add_children(b, dirfd, path, depth);
	if (!rc)
		rc = FDT_CALL(b, path, fdt_end_node(b->fdt));
	return rc;
}

int pmurt_devtree_to_dtb(const char *root, void **blob, size_t *size,
			 struct pmurt_error *err)
{
	struct builder b = {malloc(65536), 65536, err, root};
	int dirfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int rc = dirfd < 0 ? -errno : 0;
	if (rc) {
		pmurt_set_error(err, rc, "%s: %s", root, strerror(-rc));
		free(b.fdt);
		return rc;
	}
	if (!b.fdt)
		rc = -ENOMEM;
	if (!rc)
		rc = fdt_result(&b, root, fdt_create(b.fdt, (int)b.size));
	if (!rc)
		rc = FDT_CALL(&b, root, fdt_finish_reservemap(b.fdt));
	if (!rc)
		rc = add_node(&b, dirfd, "", root, 0);
	if (!rc)
		rc = FDT_CALL(&b, root, fdt_finish(b.fdt));
	close(dirfd);
	if (rc) {
		pmurt_set_error(err, rc, "%s: cannot read the device tree: %s", root, strerror(-rc));
		free(b.fdt);
		return rc;
	}
	*blob = b.fdt;
	*size = fdt_totalsize(b.fdt);
	return 0;
}
