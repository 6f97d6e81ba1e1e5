/*
 * host.c - the live host: sysfs and tracefs roots, the syscall layer, and the
 * core PMU's description, picked as a POWER host offers it: the device
 * tree's pmus node (the RFC's layout, what skiboot builds), else the built-in
 * description whose platform matches the cpu PMU's pmu_name (core-book3s.c's
 * caps/pmu_name, "POWER10", "Power11"), whose processor versions hold the
 * PVR's in /proc/cpuinfo, or whose platform matches AT_PLATFORM, in that
 * order; and the check that the host's core PMU is the description's before
 * a raw code of it is opened.
 *
 * The kernel picks its PMU driver by the real PVR (init_power11_pmu() tests
 * PVR_VER(mfspr(SPRN_PVR))), while AT_PLATFORM names the ISA level the
 * partition runs at: a Power11 LPAR in POWER10 compatibility mode (QEMU's
 * pseries guests, PowerVM's POWER10 mode) has AT_PLATFORM "power10" and the
 * Power11 PMU.  So what counts, pmu_name, comes first.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include "perf_int.h"
#include "sysfs.h"

static bool is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static void lower(char *s)
{
	for (; *s; s++)
		*s = (char)tolower((unsigned char)*s);
}

/* The PVR /proc/cpuinfo shows ("revision : 2.0 (pvr 0082 0200)"), 0 when
 * it gives none, and its text ("0082 0200"). */
static uint32_t cpuinfo_pvr(const char *cpuinfo, char *text, size_t len)
{
	FILE *f = cpuinfo ? fopen(cpuinfo, "re") : NULL;
	char line[256];
	unsigned version = 0, revision = 0;
	text[0] = 0;
	while (f && fgets(line, sizeof(line), f)) {
		const char *p = strstr(line, "(pvr ");
		if (p && sscanf(p, "(pvr %x %x)", &version, &revision) == 2 &&
		    version <= 0xffff && revision <= 0xffff) {
			snprintf(text, len, "%04x %04x", version, revision);
			break;
		}
		version = 0;
	}
	if (f)
		fclose(f);
	return version << 16 | revision;
}

/* The built-in description of that platform, or NULL.  Built-in
 * descriptions are named after their platform: only the one of that name is
 * opened (opening one builds its model), and its platform confirmed.  pvr:
 * the host's processor revision, for the checks that depend on it (0: the
 * description's own). */
static int builtin_for(const char *platform, uint32_t pvr, struct pmurt_pmu **pmu,
		       struct pmurt_error *err)
{
	struct pmurt_open_opts o = PMURT_OPTS_INIT(pmurt_open_opts, .pvr = pvr);
	for (int i = 0; platform && pmurt_builtin_name(i); i++) {
		if (strcasecmp(pmurt_builtin_name(i), platform) != 0)
			continue;
		struct pmurt_pmu_info info = {.sz = sizeof(info)};
		int rc = pmurt_pmu_open(pmu, pmurt_builtin_name(i), &o, err);
		if (rc)
			return rc;
		if (pmurt_pmu_info(*pmu, &info) == 0 && info.platform &&
		    strcasecmp(info.platform, platform) == 0)
			return 0;
		pmurt_pmu_close(*pmu);
		*pmu = NULL;
	}
	return 1;
}

void pmu_builtin_names(char *out, size_t len)
{
	size_t n = 0;
	out[0] = 0;
	for (int i = 0; pmurt_builtin_name(i) && n < len; i++)
		n += (size_t)snprintf(out + n, len - n, "%s%s", i ? ", " : "", pmurt_builtin_name(i));
}

int pmu_host_pick(const struct pmu_pick_inputs *in, struct pmurt_pmu **pmu, char *looked,
		  size_t len, struct pmurt_error *err)
{
	char path[512], name[64] = "", pvr_text[32], builtins[128];
	const char *devtree = in->devtree ? in->devtree : "/proc/device-tree";
	uint32_t host_pvr = cpuinfo_pvr(in->cpuinfo, pvr_text, sizeof(pvr_text));
	/* whichever description is picked, the host's own revision chooses its
	 * revision-dependent checks */
	uint32_t pvr = in->pvr ? in->pvr : host_pvr;
	*pmu = NULL;
	snprintf(path, sizeof(path), "%s/pmus", devtree);
	if (is_dir(path)) {
		snprintf(looked, len, "the device tree's pmus node (%.200s)", path);
		return pmurt_pmu_open(pmu, devtree,
				      &PMURT_OPTS_INIT(pmurt_open_opts, .source = PMURT_SOURCE_DEVTREE,
						       .pvr = pvr),
				      err);
	}
	int rc;
	snprintf(path, sizeof(path), "%s/bus/event_source/devices/cpu/caps/pmu_name",
		 in->sysfs ? in->sysfs : "/sys");
	if (pmu_read_small(path, name, sizeof(name)) == 0 &&
	    (rc = builtin_for(name, pvr, pmu, err)) <= 0) {
		snprintf(looked, len, "the cpu PMU's pmu_name '%s' (%.200s)", name, path);
		return rc;
	}
	if ((rc = builtin_for(pmurt_builtin_for_pvr(host_pvr), pvr, pmu, err)) <= 0) {
		snprintf(looked, len, "the PVR '%s' (%s)", pvr_text, in->cpuinfo);
		return rc;
	}
	char at[64] = "";
	if (in->at_platform)
		snprintf(at, sizeof(at), "%s", in->at_platform);
	if ((rc = builtin_for(at[0] ? at : NULL, pvr, pmu, err)) <= 0) {
		snprintf(looked, len, "AT_PLATFORM '%s'", at);
		return rc;
	}
	lower(at);
	lower(name);
	pmu_builtin_names(builtins, sizeof(builtins));
	snprintf(looked, len, "looked for %s/pmus (absent), then a built-in description (%s) for "
		 "the cpu PMU's pmu_name '%s', the PVR '%s' and AT_PLATFORM '%s': none matches; "
		 "give --pmu", devtree, builtins, name,
		 pvr_text[0] ? pvr_text : "none in /proc/cpuinfo", at);
	return 1;
}

/* Whether the PMU the kernel named (caps/pmu_name) is the description's:
 * its platform or name, or the same PMU under another name: one of them
 * extends the other, as power11 extends power10 (init_power11_pmu()
 * registers a copy of power10_pmu). */
static bool same_pmu(const struct pmu_model *m, const char *name)
{
	if ((m->platform && strcasecmp(name, m->platform) == 0) ||
	    (m->name && strcasecmp(name, m->name) == 0))
		return true;
	const char *mine = pmurt_builtin_root(m->extends ? m->extends : m->platform);
	const char *theirs = pmurt_builtin_root(name);
	return mine && theirs && strcasecmp(mine, theirs) == 0;
}

/* Whether the host's core PMU (the sysfs cpu PMU, which takes perf type 4)
 * is another than the description's: its caps/pmu_name (core-book3s.c
 * registers ppmu->name: "POWER10", "POWER9", "Power11"; "ISAv3..." for the
 * generic compat PMU, a POWER all the same) names another, or it has none on
 * a machine that is not POWER (x86's cpu PMU).  1 with why[] filled. */
static int core_pmu_foreign(const struct pmu_host *host, char *why, size_t len)
{
	const struct pmu_model *m = &host->core->model;
	char path[600], name[64] = "";
	struct utsname u;

	snprintf(path, sizeof(path), "%s/bus/event_source/devices/cpu/caps/pmu_name", host->sysfs);
	if (pmu_read_small(path, name, sizeof(name)) == 0) {
		if (strncmp(name, "ISAv", 4) == 0 || same_pmu(m, name))
			return 0;
		snprintf(why, len, "its caps/pmu_name is '%s' (%.300s)", name, path);
		return 1;
	}
	snprintf(path, sizeof(path), "%s/bus/event_source/devices/cpu", host->sysfs);
	if (!is_dir(path) || uname(&u) != 0 || strncmp(u.machine, "ppc", 3) == 0)
		return 0;
	snprintf(why, len, "it is the cpu PMU of an %s machine (%.300s)", u.machine, path);
	return 1;
}

int pmu_refuse_foreign_core(const struct pmu_host *host, const struct pmu_evlist *list,
			    struct pmurt_error *err)
{
	char why[400];
	int i = 0;

	while (i < list->n && list->v[i].kind != PMU_EVSEL_CORE)
		i++;
	if (i == list->n || !host->core || !core_pmu_foreign(host, why, sizeof(why)))
		return 0;
	pmurt_set_error(err, -ENOENT, "cannot open '%s' on this host: it is an event of the "
			"description '%s' (%s), and this host's core PMU is another: %s; its kernel "
			"would count code 0x%llx as that PMU's own event (nothing was opened; "
			"pmutool stat --dry-run shows the attr)", list->v[i].name,
			host->core->model.platform ? host->core->model.platform : "loaded",
			host->core->model.name ? host->core->model.name : "its PMU", why,
			(unsigned long long)list->v[i].attr.config);
	return -ENOENT;
}

static const char *const tracefs_places[] = {"kernel/tracing", "kernel/debug/tracing"};

static void default_tracefs(const char *sysfs, char *out, size_t len)
{
	char path[600];
	out[0] = 0;
	for (int i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/%s/events", sysfs, tracefs_places[i]);
		if (is_dir(path)) {
			snprintf(out, len, "%s/%s", sysfs, tracefs_places[i]);
			return;
		}
	}
}

/* The running system's tracefs as perf 6.1 finds it (tools/lib/api/fs/
 * tracing_path.c tracing_path_mount, fs.c fs__mount): where it is mounted
 * now, else mounted at /sys/kernel/tracing (needs CAP_SYS_ADMIN). */
const char *pmu_host_tracefs(const struct pmu_host *h, int *mount_errno)
{
	static const char *const roots[] = {"/sys/kernel/tracing", "/sys/kernel/debug/tracing"};
	if (mount_errno)
		*mount_errno = 0;
	if (h->tracefs[0] || !h->tracefs_mountable)
		return h->tracefs;
	char path[64];
	for (int i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/events", roots[i]);
		if (is_dir(path))
			return roots[i];
	}
	if (mount("nodev", roots[0], "tracefs", 0, NULL) == 0)
		return roots[0];
	if (mount_errno)
		*mount_errno = errno;
	return "";
}

static int set_root(char *dst, size_t size, const char *src, const char *what,
		    struct pmurt_error *err)
{
	if (strlen(src) >= size) {
		pmurt_set_error(err, -ENAMETOOLONG, "%s root '%.60s...' is longer than %zu bytes",
				what, src, size - 1);
		return -ENAMETOOLONG;
	}
	strcpy(dst, src);
	return 0;
}

static int load_core(struct pmurt_host *h, const struct pmurt_host_opts *o, struct pmurt_error *err)
{
	if (o && o->pmu)
		return pmurt_pmu_open(&h->owned, o->pmu, NULL, err);
	const char *at = (const char *)getauxval(AT_PLATFORM);
	struct pmu_pick_inputs in = {.sysfs = h->h.sysfs, .devtree = o ? o->devtree : NULL,
				     .at_platform = at, .cpuinfo = "/proc/cpuinfo"};
	int rc = pmu_host_pick(&in, &h->owned, h->h.pick, sizeof(h->h.pick), err);
	return rc > 0 ? 0 : rc;
}

int pmurt_host_open(struct pmurt_host **host, const struct pmurt_host_opts *opts,
		    struct pmurt_error *err)
{
	pmurt_clear_error(err);
	if (!host) {
		pmurt_set_error(err, -EINVAL, "pmurt_host_open: missing argument");
		return -EINVAL;
	}
	*host = NULL;
	const struct pmurt_host_opts *o = opts && opts->sz >= sizeof(*opts) ? opts : NULL;
	if (opts && !o) {
		pmurt_set_error(err, -EINVAL, "pmurt_host_open: opts->sz is %zu; set it with "
				"PMURT_OPTS_INIT", opts->sz);
		return -EINVAL;
	}
	struct pmurt_host *h = calloc(1, sizeof(*h));
	if (!h) {
		pmurt_set_error(err, -ENOMEM, "pmurt_host_open: out of memory");
		return -ENOMEM;
	}
	const char *sysfs = o && o->sysfs ? o->sysfs : getenv("PMURT_SYSFS");
	int rc = set_root(h->h.sysfs, sizeof(h->h.sysfs), sysfs && *sysfs ? sysfs : "/sys",
			  "sysfs", err);
	if (!rc && o && o->tracefs)
		rc = set_root(h->h.tracefs, sizeof(h->h.tracefs), o->tracefs, "tracefs", err);
	else if (!rc) {
		default_tracefs(h->h.sysfs, h->h.tracefs, sizeof(h->h.tracefs));
		h->h.tracefs_mountable = !strcmp(h->h.sysfs, "/sys");
	}
	h->h.sys = pmu_sys_real();
	if (!rc)
		rc = load_core(h, o, err);
	if (rc) {
		pmurt_host_close(h);
		return rc;
	}
	h->h.core = h->owned;
	*host = h;
	return 0;
}

const struct pmurt_pmu *pmurt_host_pmu(const struct pmurt_host *host)
{
	return host ? host->h.core : NULL;
}

void pmurt_host_close(struct pmurt_host *host)
{
	if (!host)
		return;
	pmurt_pmu_close(host->owned);
	free(host);
}
