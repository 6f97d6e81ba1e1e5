/*
 * buildid_cache.c - perf's build-id cache, in perf 6.1's layout, so that
 * pmutool and perf share it (tools/perf/util/build-id.c
 * build_id_cache__add, build_id_cache__cachedir, build_id_cache__linkname,
 * build_id_cache__basename; util/config.c set_buildid_dir):
 *
 *   DIR/NAME/HEX/elf         a copy (or hard link) of the file NAME
 *   DIR/[vdso]/HEX/vdso      the vDSO's image
 *   DIR/[kernel.kallsyms]/HEX/kallsyms   a copy of /proc/kallsyms
 *   DIR/.build-id/HE/X...    a symlink to ../../NAME/HEX (the directory)
 *
 * DIR is where perf 6.1 puts it (util/config.c set_buildid_dir): perf
 * config's buildid.dir (/etc/perfconfig, then $PERF_CONFIG or
 * ~/.perfconfig), else $HOME/.debug; $PERF_BUILDID_DIR, which perf sets for
 * the commands it runs, first.  perf record adds the DSOs
 * whose build ids the file records, once the file is written; report and
 * script take a DSO's symbols from the cache by its recorded build id, so
 * that a rebuilt binary does not lend its symbols to an older recording.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "perfdata.h"

#define KERNEL_DSO "[kernel.kallsyms]"
#define VDSO_DSO "[vdso]"

/* perf's config files' "[buildid] dir = PATH" (util/config.c
 * perf_buildid_config), the later file winning: into out, else nothing. */
static void config_buildid_dir(const char *file, char *out, size_t len)
{
	FILE *f = fopen(file, "r");
	char line[4096], section[64] = "";
	while (f && fgets(line, sizeof(line), f)) {
		char *p = line + strspn(line, " \t"), key[64], value[4096];
		if (*p == '[') {
			sscanf(p, "[%63[^]]", section);
			continue;
		}
		if (strcmp(section, "buildid") || sscanf(p, "%63[^= \t] = %4095[^\n]", key, value) != 2 ||
		    strcmp(key, "dir"))
			continue;
		size_t n = strlen(value);
		while (n && (value[n - 1] == ' ' || value[n - 1] == '\t'))
			value[--n] = 0;
		snprintf(out, len, "%s", value);
	}
	if (f)
		fclose(f);
}

int pd_build_id_cache_dir(char *out, size_t len)
{
	const char *env = getenv("PERF_BUILDID_DIR"), *home = getenv("HOME");
	const char *user = getenv("PERF_CONFIG");
	char path[4096], found[4096] = "";
	out[0] = 0;
	if (env && *env)   /* what perf hands the commands it runs */
		return snprintf(out, len, "%s", env) < (int)len ? 0 : -ENAMETOOLONG;
	config_buildid_dir("/etc/perfconfig", found, sizeof(found));
	if (user && *user)
		config_buildid_dir(user, found, sizeof(found));
	else if (home && *home && snprintf(path, sizeof(path), "%s/.perfconfig", home) > 0)
		config_buildid_dir(path, found, sizeof(found));
	if (!found[0] && home && *home)
		snprintf(found, sizeof(found), "%s/.debug", home);
	if (!found[0])
		return -ENOENT;
	/* a path cut short would name another directory */
	if (snprintf(out, len, "%s", found) >= (int)len) {
		out[0] = 0;
		return -ENAMETOOLONG;
	}
	return 0;
}

static void to_hex(const uint8_t *id, size_t n, char out[2 * PD_BUILD_ID_MAX + 1])
{
	static const char digits[] = "0123456789abcdef";
	for (size_t i = 0; i < n; i++) {
		out[2 * i] = digits[id[i] >> 4];
		out[2 * i + 1] = digits[id[i] & 15];
	}
	out[2 * n] = 0;
}

/* build_id_cache__basename */
static const char *basename_for(const char *name)
{
	return !strcmp(name, KERNEL_DSO) ? "kallsyms" : !strcmp(name, VDSO_DSO) ? "vdso" : "elf";
}

/* mkdir -p of path's every component, 0755. */
static int make_dirs(char *path)
{
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		int rc = mkdir(path, 0755) == 0 || errno == EEXIST ? 0 : -errno;
		*p = '/';
		if (rc)
			return rc;
	}
	return mkdir(path, 0755) == 0 || errno == EEXIST ? 0 : -errno;
}

static int write_bytes(const char *path, const void *p, size_t n, mode_t mode)
{
	char tmp[PATH_MAX + 8];
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
	if (fd < 0)
		return -errno;
	const uint8_t *b = p;
	while (n) {
		ssize_t k = write(fd, b, n);
		if (k <= 0) {
			int rc = k < 0 ? -errno : -EIO;
			close(fd);
			unlink(tmp);
			return rc;
		}
		b += k;
		n -= (size_t)k;
	}
	if (close(fd) != 0 || rename(tmp, path) != 0) {
		int rc = -errno;
		unlink(tmp);
		return rc;
	}
	return 0;
}

/* The whole of a regular file or of /proc/kallsyms (whose size stat does
 * not tell), into a malloc'd buffer. */
static int read_whole(const char *path, uint8_t **out, size_t *len, mode_t *mode)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0) {
		int rc = -errno;
		if (fd >= 0)
			close(fd);
		return rc;
	}
	*mode = st.st_mode & 0777;
	size_t cap = st.st_size > 0 ? (size_t)st.st_size : 1u << 20, n = 0;
	uint8_t *b = malloc(cap);
	ssize_t k = 1;
	while (b && k > 0) {
		if (n == cap) {
			uint8_t *g = realloc(b, cap *= 2);
			if (!g)
				break;
			b = g;
		}
		k = read(fd, b + n, cap - n);
		n += k > 0 ? (size_t)k : 0;
	}
	close(fd);
	if (!b || k != 0) {
		free(b);
		return b ? -EIO : -ENOMEM;
	}
	*out = b;
	*len = n;
	return 0;
}

static int copy_file(const char *from, const char *to)
{
	uint8_t *b = NULL;
	size_t n = 0;
	mode_t mode = 0644;
	int rc = read_whole(from, &b, &n, &mode);
	if (rc)
		return rc;
	rc = write_bytes(to, b, n, mode);
	free(b);
	return rc;
}

/* What goes into the cache for name: the vDSO's image or a file (the
 * kernel's kallsyms, the DSO itself), when it still has build id id. */
static int fill(const char *file, const char *name, const char *root, const uint8_t *id,
		size_t id_len)
{
	uint8_t have[PD_BUILD_ID_MAX];
	size_t have_len = 0;
	char path[PATH_MAX];
	if (!strcmp(name, VDSO_DSO)) {
		size_t size;
		const void *image = pd_vdso_image(&size);
		if (!image || pd_vdso_build_id(have, &have_len) < 0 || have_len != id_len ||
		    memcmp(have, id, id_len))
			return -ESTALE;
		return write_bytes(file, image, size, 0644);
	}
	if (!strcmp(name, KERNEL_DSO)) {
		if (pd_kernel_build_id(root, have, &have_len) < 0 || have_len != id_len ||
		    memcmp(have, id, id_len))
			return -ESTALE;
		snprintf(path, sizeof(path), "%s/proc/kallsyms", root ? root : "");
		return copy_file(path, file);
	}
	if (pd_elf_build_id(name, have, &have_len) < 0 || have_len != id_len ||
	    memcmp(have, id, id_len))
		return -ESTALE;   /* replaced since the recording */
	return link(name, file) == 0 ? 0 : copy_file(name, file);
}

/* DIR/.build-id/HE/X... -> ../../NAME/HEX, unless it is there. */
static int link_id(const char *dir, const char *cached, const char *hex)
{
	char link_path[PATH_MAX], target[PATH_MAX + 8];
	int n = snprintf(link_path, sizeof(link_path), "%s/.build-id/%.2s", dir, hex);
	if (n < 0 || (size_t)n >= sizeof(link_path))
		return -ENAMETOOLONG;
	int rc = make_dirs(link_path);
	if (rc)
		return rc;
	snprintf(link_path + n, sizeof(link_path) - (size_t)n, "/%s", hex + 2);
	snprintf(target, sizeof(target), "../..%s", cached + strlen(dir));
	return symlink(target, link_path) == 0 || errno == EEXIST ? 0 : -errno;
}

int pd_build_id_cache_add(const char *dir, const char *root, const char *name,
			  const uint8_t *id, size_t id_len)
{
	char hex[2 * PD_BUILD_ID_MAX + 1], real[PATH_MAX], cached[PATH_MAX], file[PATH_MAX];
	if (!id_len || id_len > PD_BUILD_ID_MAX)
		return -EINVAL;
	to_hex(id, id_len, hex);
	const char *cache_name = name;
	if (name[0] == '/') {
		if (!realpath(name, real))
			return -errno;
		cache_name = real;
	} else if (strcmp(name, VDSO_DSO) && strcmp(name, KERNEL_DSO)) {
		return -EINVAL;   /* [anon], //anon and the like: nothing to keep */
	}
	int n = snprintf(cached, sizeof(cached), "%s%s%s/%s", dir, cache_name[0] == '/' ? "" : "/",
			 cache_name, hex);
	if (n < 0 || (size_t)n >= sizeof(cached) ||
	    snprintf(file, sizeof(file), "%s/%s", cached, basename_for(name)) >= (int)sizeof(file))
		return -ENAMETOOLONG;
	int rc = make_dirs(cached);
	if (!rc && access(file, F_OK) != 0)
		rc = fill(file, cache_name, root, id, id_len);
	return rc ? rc : link_id(dir, cached, hex);
}

int pd_build_id_cache_find(const char *dir, const char *name, const uint8_t *id,
			   size_t id_len, char *path, size_t len)
{
	char hex[2 * PD_BUILD_ID_MAX + 1];
	struct stat st;
	if (!id_len || id_len > PD_BUILD_ID_MAX)
		return -EINVAL;
	to_hex(id, id_len, hex);
	int n = snprintf(path, len, "%s/.build-id/%.2s/%s/%s", dir, hex, hex + 2,
			 basename_for(name));
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode) ? 0 : -ENOENT;
}

struct adding {
	const char *dir, *root;
	int added;
};

static int add_recorded(void *arg, const char *name, const uint8_t *id, size_t id_len)
{
	struct adding *a = arg;
	a->added += pd_build_id_cache_add(a->dir, a->root, name, id, id_len) == 0;
	return 0;   /* perf goes on past a DSO it cannot keep */
}

int pd_build_id_cache_add_recorded(const char *dir, const char *root,
				   const struct pmurt_perf_file *f)
{
	struct adding a = {dir, root, 0};
	pd_recorded_build_ids(f, add_recorded, &a);
	return a.added;
}
