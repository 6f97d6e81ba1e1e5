/*
 * buildid_public.c - the build-id functions of pmurt_tool.h (PMURT_0.6):
 * the public face of buildid.c (an ELF file's, the kernel's and the vDSO's
 * build ids), reader.c (what a perf.data file records) and buildid_cache.c
 * (perf's build-id cache), with the argument and options checks and the
 * messages a public function owes its caller.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "errors.h"
#include "opts.h"
#include "perfdata.h"
#include "pmurt_tool.h"

_Static_assert(PMURT_BUILD_ID_MAX == PD_BUILD_ID_MAX, "one build-id size");

/* The message for a failed read of path's build id (rc from buildid.c,
 * which answers -ENOENT both for a missing file and for one without a
 * note). */
static int build_id_failed(struct pmurt_error *err, int rc, const char *path)
{
	if (rc == -ENOEXEC)
		pmurt_set_error(err, rc, "%s: not an ELF file", path);
	else if (rc == -ENOENT && access(path, F_OK) == 0)
		pmurt_set_error(err, rc, "%s: no GNU build-id note", path);
	else
		pmurt_set_error(err, rc, "%s: %s", path, strerror(-rc));
	return rc;
}

static int missing_argument(struct pmurt_error *err, const char *fn)
{
	pmurt_set_error(err, -EINVAL, "%s: missing argument", fn);
	return -EINVAL;
}

int pmurt_build_id_elf(const char *path, struct pmurt_build_id *id, struct pmurt_error *err)
{
	pmurt_clear_error(err);
	if (!path || !id)
		return missing_argument(err, "pmurt_build_id_elf");
	int rc = pd_elf_build_id(path, id->id, &id->len);
	return rc ? build_id_failed(err, rc, path) : 0;
}

/* opts over their defaults into *o: 0, or -EINVAL with err saying why. */
static int take_opts(struct pmurt_build_id_opts *o, const struct pmurt_build_id_opts *opts,
		     const char *fn, struct pmurt_error *err)
{
	*o = PMURT_OPTS_INIT(pmurt_build_id_opts);
	if (pmu_opts_valid(opts, sizeof(*o), fn, err))
		return -EINVAL;
	pmu_opts_take(o, sizeof(*o), opts);
	return 0;
}

int pmurt_build_id_kernel(struct pmurt_build_id *id, const struct pmurt_build_id_opts *opts,
			  struct pmurt_error *err)
{
	struct pmurt_build_id_opts o;
	pmurt_clear_error(err);
	if (!id)
		return missing_argument(err, "pmurt_build_id_kernel");
	if (take_opts(&o, opts, "pmurt_build_id_kernel", err))
		return -EINVAL;
	const char *root = o.root ? o.root : "";
	int rc = pd_kernel_build_id(root, id->id, &id->len);
	if (rc) {
		char notes[4096];
		snprintf(notes, sizeof(notes), "%s/sys/kernel/notes", root);
		return build_id_failed(err, rc, notes);
	}
	return 0;
}

int pmurt_build_id_vdso(struct pmurt_build_id *id)
{
	return id ? pd_vdso_build_id(id->id, &id->len) : -EINVAL;
}

const void *pmurt_vdso_image(size_t *size)
{
	return size ? pd_vdso_image(size) : NULL;
}

int pmurt_perf_build_id(const struct pmurt_perf_file *f, const char *dso,
			struct pmurt_build_id *id)
{
	return f && dso && id ? pd_recorded_build_id(f, dso, id->id, &id->len) : -EINVAL;
}

int pmurt_build_id_cache_dir(char *buf, size_t len, struct pmurt_error *err)
{
	pmurt_clear_error(err);
	if (!buf || !len)
		return missing_argument(err, "pmurt_build_id_cache_dir");
	int rc = pd_build_id_cache_dir(buf, len);
	if (rc == -ENOENT)
		pmurt_set_error(err, rc, "no build-id cache: neither $PERF_BUILDID_DIR, perf "
				"config's buildid.dir nor $HOME is set");
	else if (rc)
		pmurt_set_error(err, rc, "the build-id cache's path is longer than %zu bytes", len);
	return rc;
}

int pmurt_build_id_cache_find(const char *dso, const struct pmurt_build_id *id, char *path,
			      size_t len, const struct pmurt_build_id_opts *opts,
			      struct pmurt_error *err)
{
	struct pmurt_build_id_opts o;
	char dir[4096];
	pmurt_clear_error(err);
	if (!dso || !id || !path || !len)
		return missing_argument(err, "pmurt_build_id_cache_find");
	path[0] = 0;
	if (take_opts(&o, opts, "pmurt_build_id_cache_find", err))
		return -EINVAL;
	if (!o.cache_dir) {
		int rc = pmurt_build_id_cache_dir(dir, sizeof(dir), err);
		if (rc)
			return rc;
		o.cache_dir = dir;
	}
	int rc = pd_build_id_cache_find(o.cache_dir, dso, id->id, id->len, path, len);
	if (rc == -ENOENT)
		pmurt_set_error(err, rc, "%s: %s is not in the build-id cache (%s)", dso, path,
				o.cache_dir);
	else if (rc == -EINVAL)
		pmurt_set_error(err, rc, "%s: a build id of %zu bytes (1 to %d)", dso, id->len,
				PMURT_BUILD_ID_MAX);
	else if (rc)
		pmurt_set_error(err, rc, "%s: the path in the build-id cache %s is longer than "
				"%zu bytes", dso, o.cache_dir, len);
	return rc;
}
