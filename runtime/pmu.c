/*
 * pmu.c - opening a description from any source into a pmurt_pmu handle:
 * built-in tables, a DTB file or buffer, a live device-tree directory, or a
 * YAML file.  Untrusted sources pass the same semantic checks as pmugen's.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "opts.h"
#include "pmu_checks.h"
#include "pmu_load.h"

struct builtin {
	const char *name;
	const struct pmu_tables *tables;
};

static const struct builtin builtins[] = {
	{"power10", &pmu_tables_power10},
	{"power9", &pmu_tables_power9},
	{"power8", &pmu_tables_power8},
	{"power11", &pmu_tables_power11},
};

#define NBUILTINS ((int)(sizeof(builtins) / sizeof(builtins[0])))

const char *pmurt_builtin_name(int i)
{
	return i >= 0 && i < NBUILTINS ? builtins[i].name : NULL;
}

const char *pmurt_builtin_for_pvr(uint32_t pvr)
{
	uint32_t version = pvr >> 16;
	for (int i = 0; pvr && i < NBUILTINS; i++) {
		const struct pmu_tables *t = builtins[i].tables;
		for (uint32_t k = 0; k < t->npvr_versions; k++)
			if (t->pvr_versions[k] == version)
				return builtins[i].name;
		if (!t->npvr_versions && t->pvr && t->pvr >> 16 == version)
			return builtins[i].name;
	}
	return NULL;
}

const char *pmurt_builtin_root(const char *platform)
{
	for (int i = 0; platform && i < NBUILTINS; i++) {
		if (strcasecmp(builtins[i].name, platform) != 0)
			continue;
		const struct pmu_tables *t = builtins[i].tables;
		for (int depth = 0; t->base && depth < NBUILTINS; depth++)
			t = t->base;
		return t->pool + t->platform;
	}
	return platform;
}

const struct pmu_tables *pmurt_builtin_tables(int i)
{
	return i >= 0 && i < NBUILTINS ? builtins[i].tables : NULL;
}

/* The engine, set in full by pmu_engine_init before any use, is not zeroed
 * here: it is most of the handle. */
static struct pmurt_pmu *pmu_alloc(void)
{
	struct pmurt_pmu *pmu = malloc(sizeof(*pmu));
	if (pmu) {
		memset(pmu, 0, offsetof(struct pmurt_pmu, engine));
		pmu_model_init(&pmu->model);
	}
	return pmu;
}

void pmurt_pmu_close(struct pmurt_pmu *pmu)
{
	if (!pmu)
		return;
	pmu_model_free(&pmu->model);
	free(pmu->owned_index);
	free(pmu);
}

/* Checks and engine set-up shared by every source. */
static int finish_open(struct pmurt_pmu *pmu, bool check, struct pmurt_error *err)
{
	if (pmu->pvr) /* the checks and the engine see the model at that revision */
		pmu->model.pvr = pmu->pvr;
	if (check) {
		struct pmu_diag d;
		pmu_diag_init(&d, NULL);
		d.level[PMU_CHK_KERNEL_LIMITS] = PMU_SEV_OFF;
		if (pmu_check_model(&pmu->model, &d, true)) {
			int rc = pmu_diag_rc(&d, -EINVAL);
			pmurt_set_error_from(err, rc, &d.first);
			return rc;
		}
	}
	struct pmurt_error e = {0};
	if (pmu_engine_init(&pmu->engine, &pmu->model, &e)) {
		pmurt_set_error_from(err, e.code, &e);
		return e.code;
	}
	int rc = pmu->name_index ? 0 : pmurt_build_name_index(pmu);
	if (rc) {
		pmurt_set_error(err, rc, "out of memory");
		return rc;
	}
	return 0;
}

static int open_builtin(struct pmurt_pmu *pmu, const struct builtin *b,
			struct pmurt_error *err)
{
	int rc = pmurt_model_from_tables(b->tables, &pmu->model);
	if (rc) {
		pmurt_set_error(err, rc, "built-in %s: %s", b->name,
				rc == -ENOMEM ? "out of memory" : "the tables are inconsistent");
		return rc;
	}
	const struct pmu_tables *events = b->tables;
	while (events->base) /* an extension's events are its base's */
		events = events->base;
	pmu->name_index = events->name_index;
	pmu->name_index_size = events->name_index_size;
	return finish_open(pmu, false, err);
}

/* Loader diagnostics go to the error object, not to a stream. */
static int load_with_diag(struct pmurt_pmu *pmu, const char *spec, bool dtb,
			  const void *blob, size_t size, struct pmurt_error *err)
{
	struct pmu_diag d;
	pmu_diag_init(&d, NULL);
	int rc = dtb ? pmu_load_dtb(&pmu->model, spec, blob, size, &d)
		     : pmu_load_yaml_file(&pmu->model, spec, &d);
	if (rc && d.first.code)
		pmurt_set_error_from(err, rc, &d.first);
	else if (rc)
		pmurt_set_error(err, rc, "%s: %s", spec,
				rc == -ENOMEM ? "out of memory" : strerror(-rc));
	if (rc)
		return rc;
	return finish_open(pmu, true, err);
}

static int read_whole_file(const char *path, void **buf, size_t *size,
			   struct pmurt_error *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0) {
		int rc = -errno;
		if (fd >= 0)
			close(fd);
		pmurt_set_error(err, rc, "%s: %s", path, strerror(-rc));
		return rc;
	}
	size_t len = (size_t)st.st_size;
	char *b = malloc(len ? len : 1);
	size_t got = 0;
	while (b && got < len) {
		ssize_t n = read(fd, b + got, len - got);
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	if (!b) {
		pmurt_set_error(err, -ENOMEM, "%s: out of memory", path);
		return -ENOMEM;
	}
	if (got != len) {
		free(b);
		pmurt_set_error(err, -EIO, "%s: cannot read", path);
		return -EIO;
	}
	*buf = b;
	*size = len;
	return 0;
}

/* A DTB file or a device-tree directory: read it into a blob with `read`,
 * then through the checked DTB loader. */
static int open_as_dtb(struct pmurt_pmu *pmu, const char *spec,
		       int (*read)(const char *, void **, size_t *, struct pmurt_error *),
		       struct pmurt_error *err)
{
	void *blob = NULL;
	size_t size = 0;
	int rc = read(spec, &blob, &size, err);
	if (rc)
		return rc;
	rc = load_with_diag(pmu, spec, true, blob, size, err);
	free(blob);
	return rc;
}

/* The first bytes of a file (fewer when it is shorter or unreadable). */
static ssize_t file_start(const char *path, unsigned char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, buf, len);
	close(fd);
	return n;
}

static bool has_dtb_magic(const char *path)
{
	unsigned char magic[4] = {0};
	return file_start(path, magic, sizeof(magic)) == 4 && magic[0] == 0xd0 &&
	       magic[1] == 0x0d && magic[2] == 0xfe && magic[3] == 0xed;
}

/* Device-tree source is not read directly: dtc compiles it. */
static bool is_dts(const char *path)
{
	unsigned char start[8] = {0};
	return file_start(path, start, sizeof(start)) == 8 && memcmp(start, "/dts-v1/", 8) == 0;
}

static enum pmurt_source detect_source(const char *spec, const struct builtin **b)
{
	for (int i = 0; i < NBUILTINS; i++)
		if (strcmp(spec, builtins[i].name) == 0) {
			*b = &builtins[i];
			return PMURT_SOURCE_BUILTIN;
		}
	struct stat st;
	if (stat(spec, &st) == 0 && S_ISDIR(st.st_mode))
		return PMURT_SOURCE_DEVTREE;
	return has_dtb_magic(spec) ? PMURT_SOURCE_DTB : PMURT_SOURCE_YAML;
}

void pmu_builtin_names(char *buf, size_t len)
{
	size_t n = 0;
	buf[0] = 0;
	for (int i = 0; i < NBUILTINS && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? ", " : "", builtins[i].name);
}

/* A name that is neither a built-in description nor a file: say both. */
static int no_such_description(const char *spec, struct pmurt_error *err)
{
	char names[128];
	pmu_builtin_names(names, sizeof(names));
	pmurt_set_error(err, -ENOENT, "'%s' is neither a built-in description (%s) nor a file "
			"(a YAML description, a DTB or a device-tree directory)", spec, names);
	return -ENOENT;
}

static int open_source(struct pmurt_pmu *pmu, const char *spec, enum pmurt_source src,
		       struct pmurt_error *err)
{
	const struct builtin *b = NULL;
	enum pmurt_source found = detect_source(spec, &b);
	if (src == PMURT_SOURCE_AUTO)
		src = found;
	switch (src) {
	case PMURT_SOURCE_BUILTIN:
		if (!b) {
			char names[128];
			pmu_builtin_names(names, sizeof(names));
			pmurt_set_error(err, -ENOENT, "no built-in description '%s' (built in: %s)",
					spec, names);
			return -ENOENT;
		}
		return open_builtin(pmu, b, err);
	case PMURT_SOURCE_DTB:
		return open_as_dtb(pmu, spec, read_whole_file, err);
	case PMURT_SOURCE_DEVTREE:
		return open_as_dtb(pmu, spec, pmurt_devtree_to_dtb, err);
	case PMURT_SOURCE_YAML:
		if (found == PMURT_SOURCE_YAML && access(spec, F_OK) != 0 && errno == ENOENT)
			return no_such_description(spec, err);
		if (is_dts(spec)) {
			pmurt_set_error(err, -EINVAL, "%s: device-tree source; compile it first "
					"(dtc -I dts -O dtb -o FILE.dtb %s)", spec, spec);
			return -EINVAL;
		}
		return load_with_diag(pmu, spec, false, NULL, 0, err);
	case PMURT_SOURCE_AUTO:
		break;
	}
	pmurt_set_error(err, -EINVAL, "unknown description source %d", (int)src);
	return -EINVAL;
}

int pmurt_pmu_open(struct pmurt_pmu **out, const char *spec,
		   const struct pmurt_open_opts *opts, struct pmurt_error *err)
{
	pmurt_clear_error(err);
	if (out)
		*out = NULL;
	if (!out || !spec) {
		pmurt_set_error(err, -EINVAL, "pmurt_pmu_open: no description named");
		return -EINVAL;
	}
	struct pmurt_open_opts o = PMURT_OPTS_INIT(pmurt_open_opts);
	if (pmu_opts_valid(opts, sizeof(struct pmurt_open_opts), "pmurt_pmu_open", err))
		return -EINVAL;
	pmu_opts_take(&o, sizeof(struct pmurt_open_opts), opts);
	struct pmurt_pmu *pmu = pmu_alloc();
	if (!pmu) {
		pmurt_set_error(err, -ENOMEM, "out of memory");
		return -ENOMEM;
	}
	pmu->pvr = o.pvr;
	int rc = open_source(pmu, spec, o.source, err);
	if (rc) {
		pmurt_pmu_close(pmu);
		return rc;
	}
	*out = pmu;
	return 0;
}

int pmurt_pmu_open_dtb(struct pmurt_pmu **out, const void *blob, size_t size,
		       const char *name, struct pmurt_error *err)
{
	pmurt_clear_error(err);
	if (out)
		*out = NULL;
	if (!out || !blob) {
		pmurt_set_error(err, -EINVAL, "pmurt_pmu_open_dtb: no blob");
		return -EINVAL;
	}
	struct pmurt_pmu *pmu = pmu_alloc();
	if (!pmu) {
		pmurt_set_error(err, -ENOMEM, "out of memory");
		return -ENOMEM;
	}
	int rc = load_with_diag(pmu, name ? name : "<dtb>", true, blob, size, err);
	if (rc) {
		pmurt_pmu_close(pmu);
		return rc;
	}
	*out = pmu;
	return 0;
}

static int count_fixed(const struct pmu_model *m)
{
	int n = 0;
	for (int i = 0; i < m->ncounters; i++)
		n += !m->counters[i].programmable;
	return n;
}

int pmurt_pmu_info(const struct pmurt_pmu *pmu, struct pmurt_pmu_info *info)
{
	if (!pmu || !info || info->sz < offsetof(struct pmurt_pmu_info, ncounters))
		return -EINVAL;
	const struct pmu_model *m = &pmu->model;
	size_t sz = info->sz < sizeof(*info) ? info->sz : sizeof(*info);
	struct pmurt_pmu_info full = {
		.sz = sz,
		.name = m->name,
		.version = m->version,
		.platform = m->platform,
		.source = m->source,
		.ncounters = m->ncounters,
		.nregisters = m->nregisters,
		.nevents = m->nevents,
		.max_group = (int)m->max_group,
		.overflow_counter_unknown = m->overflow_counter_unknown,
		.npresets = m->npresets,
		.extends = m->extends,
		.nfixed = count_fixed(m),
	};
	memcpy(info, &full, sz); /* a caller built against an older, smaller struct */
	return 0;
}

const char *pmurt_register_name(const struct pmurt_pmu *pmu, int i)
{
	if (!pmu || i < 0 || i >= pmu->model.nregisters)
		return NULL;
	return pmu->model.registers[i].name;
}
