/*
 * pfm_perf_table.c - the events of libpfm4's generic "perf" PMU: perf's
 * hardware, software and cache events under the names libpfm4 gives them
 * (PERF_COUNT_HW_CPU_CYCLES and its aliases CYCLES, CPU-CYCLES; the cache
 * events PERF_COUNT_HW_CACHE_L1D with unit masks READ/WRITE/PREFETCH and
 * ACCESS/MISS and their aliases L1-DCACHE-LOADS ...), then the host's
 * tracepoints, one event per subsystem with a unit mask per tracepoint, read
 * where libpfm4 reads them (the debugfs mount in /proc/mounts, then
 * tracing/events).  Order and names follow libpfm4 4.13.0's
 * lib/events/perf_events.h and pfmlib_perf_event_pmu.c; the codes are
 * <linux/perf_event.h>'s.  libpfm4's optional x86 events (slots, topdown-*)
 * exist only where /sys/devices/cpu/events names them, never on POWER, and
 * are left out.
 */
#define _GNU_SOURCE /* asprintf */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include "pfm_priv.h"

/* hardware and software events: the canonical name, then its aliases */
struct perf_named {
	const char *canonical;
	uint32_t type;
	uint64_t id;
	bool precise;
	const char *aliases[3];
};

static const struct perf_named named_events[] = {
	{"PERF_COUNT_HW_CPU_CYCLES", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, true,
	 {"CYCLES", "CPU-CYCLES"}},
	{"PERF_COUNT_HW_INSTRUCTIONS", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, false,
	 {"INSTRUCTIONS"}},
	{"PERF_COUNT_HW_CACHE_REFERENCES", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES,
	 false, {"CACHE-REFERENCES"}},
	{"PERF_COUNT_HW_CACHE_MISSES", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES, false,
	 {"CACHE-MISSES"}},
	{"PERF_COUNT_HW_BRANCH_INSTRUCTIONS", PERF_TYPE_HARDWARE,
	 PERF_COUNT_HW_BRANCH_INSTRUCTIONS, false, {"BRANCH-INSTRUCTIONS", "BRANCHES"}},
	{"PERF_COUNT_HW_BRANCH_MISSES", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES, false,
	 {"BRANCH-MISSES"}},
	{"PERF_COUNT_HW_BUS_CYCLES", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES, false,
	 {"BUS-CYCLES"}},
	{"PERF_COUNT_HW_STALLED_CYCLES_FRONTEND", PERF_TYPE_HARDWARE,
	 PERF_COUNT_HW_STALLED_CYCLES_FRONTEND, false,
	 {"STALLED-CYCLES-FRONTEND", "IDLE-CYCLES-FRONTEND"}},
	{"PERF_COUNT_HW_STALLED_CYCLES_BACKEND", PERF_TYPE_HARDWARE,
	 PERF_COUNT_HW_STALLED_CYCLES_BACKEND, false,
	 {"STALLED-CYCLES-BACKEND", "IDLE-CYCLES-BACKEND"}},
	{"PERF_COUNT_HW_REF_CPU_CYCLES", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES, false,
	 {"REF-CYCLES"}},
	{"PERF_COUNT_SW_CPU_CLOCK", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, false,
	 {"CPU-CLOCK"}},
	{"PERF_COUNT_SW_TASK_CLOCK", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, false,
	 {"TASK-CLOCK"}},
	{"PERF_COUNT_SW_PAGE_FAULTS", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, false,
	 {"PAGE-FAULTS", "FAULTS"}},
	{"PERF_COUNT_SW_CONTEXT_SWITCHES", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES,
	 false, {"CONTEXT-SWITCHES", "CS"}},
	{"PERF_COUNT_SW_CPU_MIGRATIONS", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS, false,
	 {"CPU-MIGRATIONS", "MIGRATIONS"}},
	{"PERF_COUNT_SW_PAGE_FAULTS_MIN", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN, false,
	 {"MINOR-FAULTS"}},
	{"PERF_COUNT_SW_PAGE_FAULTS_MAJ", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ, false,
	 {"MAJOR-FAULTS"}},
	{"PERF_COUNT_SW_CGROUP_SWITCHES", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CGROUP_SWITCHES, false,
	 {"CGROUP-SWITCHES"}},
};

/* cache events: ops READ, WRITE, PREFETCH (the ones a cache has), then the
 * results ACCESS and MISS; READ and MISS are the groups' defaults */
#define OP(name, desc, op, dflt) {name, desc, (uint64_t)(op) << 8, 0, dflt}
#define RESULT(name, desc, r, dflt) {name, desc, (uint64_t)(r) << 16, 1, dflt}
#define RESULTS RESULT("ACCESS", "hit access", PERF_COUNT_HW_CACHE_RESULT_ACCESS, false), \
	RESULT("MISS", "miss access", PERF_COUNT_HW_CACHE_RESULT_MISS, true)
static const struct pfm_umask umasks_rwp[] = {
	OP("READ", "read access", PERF_COUNT_HW_CACHE_OP_READ, true),
	OP("WRITE", "write access", PERF_COUNT_HW_CACHE_OP_WRITE, false),
	OP("PREFETCH", "prefetch access", PERF_COUNT_HW_CACHE_OP_PREFETCH, false),
	RESULTS,
};
static const struct pfm_umask umasks_rp[] = {
	OP("READ", "read access", PERF_COUNT_HW_CACHE_OP_READ, true),
	OP("PREFETCH", "prefetch access", PERF_COUNT_HW_CACHE_OP_PREFETCH, false),
	RESULTS,
};
static const struct pfm_umask umasks_r[] = {
	OP("READ", "read access", PERF_COUNT_HW_CACHE_OP_READ, true),
	RESULTS,
};

enum { OPS_R = 1, OPS_RP = 2, OPS_RWP = 3 };

struct perf_cache {
	const char *canonical, *desc;
	uint64_t id;
	const char *alias_prefix, *alias_desc; /* "L1-DCACHE", "L1 cache" */
	int ops;
};

static const struct perf_cache cache_events[] = {
	{"PERF_COUNT_HW_CACHE_L1D", "L1 data cache", PERF_COUNT_HW_CACHE_L1D, "L1-DCACHE",
	 "L1 cache", OPS_RWP},
	{"PERF_COUNT_HW_CACHE_L1I", "L1 instruction cache", PERF_COUNT_HW_CACHE_L1I, "L1-ICACHE",
	 "L1I cache", OPS_RP},
	{"PERF_COUNT_HW_CACHE_LL", "Last level cache", PERF_COUNT_HW_CACHE_LL, "LLC",
	 "Last level cache", OPS_RWP},
	{"PERF_COUNT_HW_CACHE_DTLB", "Data Translation Lookaside Buffer", PERF_COUNT_HW_CACHE_DTLB,
	 "DTLB", "Data TLB", OPS_RWP},
	{"PERF_COUNT_HW_CACHE_ITLB", "Instruction Translation Lookaside Buffer",
	 PERF_COUNT_HW_CACHE_ITLB, "ITLB", "Instruction TLB", OPS_R},
	{"PERF_COUNT_HW_CACHE_BPU", "Branch Prediction Unit", PERF_COUNT_HW_CACHE_BPU, "BRANCH",
	 "Branch ", OPS_R},
	{"PERF_COUNT_HW_CACHE_NODE", "Node memory access", PERF_COUNT_HW_CACHE_NODE, "NODE",
	 "Node ", OPS_RWP},
};

/* the aliases of a cache event, per op: "-LOADS" is op READ with ACCESS; a
 * cache has the alias when its ops include the op (OPS_RWP has every op,
 * OPS_RP READ and PREFETCH) */
static const struct {
	const char *suffix, *what, *umasks;
	int min_ops;
} cache_aliases[] = {
	{"-LOADS", "load accesses", "READ:ACCESS", OPS_R},
	{"-LOAD-MISSES", "load misses", "READ:MISS", OPS_R},
	{"-STORES", "store accesses", "WRITE:ACCESS", OPS_RWP},
	{"-STORE-MISSES", "store misses", "WRITE:MISS", OPS_RWP},
	{"-PREFETCHES", "prefetch accesses", "PREFETCH:ACCESS", OPS_RP},
	{"-PREFETCH-MISSES", "prefetch misses", "PREFETCH:MISS", OPS_RP},
};

static int grow(struct pfm_perf_table *t, int *cap)
{
	if (t->n < *cap)
		return 0;
	int ncap = *cap ? *cap * 2 : 128;
	struct pfm_perf_event *v = realloc(t->events, (size_t)ncap * sizeof(*v));
	if (!v)
		return -ENOMEM;
	t->events = v;
	*cap = ncap;
	return 0;
}

static int add(struct pfm_perf_table *t, int *cap, const struct pfm_perf_event *ev)
{
	if (grow(t, cap))
		return -ENOMEM;
	t->events[t->n++] = *ev;
	return 0;
}

/* keep a string the table owns (freed by pfm_perf_table_free) */
static char *own(struct pfm_perf_table *t, char *s)
{
	if (!s)
		return NULL;
	char **v = realloc(t->owned, (size_t)(t->nowned + 1) * sizeof(*v));
	if (!v) {
		free(s);
		return NULL;
	}
	t->owned = v;
	t->owned[t->nowned++] = s;
	return s;
}

static char *own_printf(struct pfm_perf_table *t, const char *fmt, const char *a, const char *b)
{
	char *s = NULL;
	if (asprintf(&s, fmt, a, b) < 0)
		return NULL;
	return own(t, s);
}

static int add_named(struct pfm_perf_table *t, int *cap)
{
	for (size_t i = 0; i < sizeof(named_events) / sizeof(named_events[0]); i++) {
		const struct perf_named *n = &named_events[i];
		struct pfm_perf_event ev = {.name = n->canonical, .desc = n->canonical,
					    .type = n->type, .id = n->id, .precise = n->precise};
		if (add(t, cap, &ev))
			return -ENOMEM;
		for (int a = 0; a < 3 && n->aliases[a]; a++) {
			struct pfm_perf_event al = {.name = n->aliases[a], .desc = n->canonical,
						    .equiv = n->canonical, .type = n->type,
						    .id = n->id};
			if (add(t, cap, &al))
				return -ENOMEM;
		}
	}
	return 0;
}

static int add_caches(struct pfm_perf_table *t, int *cap)
{
	for (size_t i = 0; i < sizeof(cache_events) / sizeof(cache_events[0]); i++) {
		const struct perf_cache *c = &cache_events[i];
		struct pfm_perf_event ev = {.name = c->canonical, .desc = c->desc,
					    .type = PERF_TYPE_HW_CACHE, .id = c->id, .ngroups = 2};
		ev.umasks = c->ops == OPS_RWP ? umasks_rwp : c->ops == OPS_RP ? umasks_rp : umasks_r;
		ev.numasks = c->ops == OPS_RWP ? 5 : c->ops == OPS_RP ? 4 : 3;
		if (add(t, cap, &ev))
			return -ENOMEM;
		for (size_t a = 0; a < sizeof(cache_aliases) / sizeof(cache_aliases[0]); a++) {
			if (c->ops < cache_aliases[a].min_ops)
				continue;
			struct pfm_perf_event al = {.type = PERF_TYPE_HW_CACHE, .id = c->id};
			al.name = own_printf(t, "%s%s", c->alias_prefix, cache_aliases[a].suffix);
			al.desc = own_printf(t, "%s %s", c->alias_desc, cache_aliases[a].what);
			al.equiv = own_printf(t, "%s:%s", c->canonical, cache_aliases[a].umasks);
			if (!al.name || !al.desc || !al.equiv || add(t, cap, &al))
				return -ENOMEM;
		}
	}
	return 0;
}

/* The debugfs mount point, from /proc/mounts, as libpfm4 finds it. */
static int debugfs_mount(char *out, size_t len)
{
	FILE *f = fopen("/proc/mounts", "re");
	char line[1024], dev[256], dir[512], fs[64];
	int rc = -ENOENT;
	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%255s %511s %63s", dev, dir, fs) == 3 && strcmp(fs, "debugfs") == 0) {
			snprintf(out, len, "%s", dir);
			rc = 0;
			break;
		}
	}
	if (f)
		fclose(f);
	return rc;
}

static int read_id(const char *path, uint64_t *id)
{
	char buf[32] = "";
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	*id = strtoull(buf, NULL, 0);
	return 0;
}

/* One subsystem's tracepoints as unit masks (readdir order, as libpfm4). */
static int add_subsystem(struct pfm_perf_table *t, int *cap, const char *dir, const char *sys)
{
	char path[1280];
	snprintf(path, sizeof(path), "%s/%s", dir, sys);
	DIR *d = opendir(path);
	if (!d)
		return 0;
	struct pfm_umask *um = NULL;
	int n = 0, ucap = 0, rc = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		uint64_t id;
		char idpath[1600];
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		snprintf(idpath, sizeof(idpath), "%s/%s/id", path, de->d_name);
		if (read_id(idpath, &id))
			continue;
		if (n == ucap) {
			ucap = ucap ? ucap * 2 : 16;
			struct pfm_umask *v = realloc(um, (size_t)ucap * sizeof(*v));
			if (!v) {
				rc = -ENOMEM;
				break;
			}
			um = v;
		}
		char *name = own(t, strdup(de->d_name));
		if (!name) {
			rc = -ENOMEM;
			break;
		}
		um[n++] = (struct pfm_umask){.name = name, .desc = name, .code = id};
	}
	closedir(d);
	if (rc || n == 0) {
		free(um);
		return rc;
	}
	struct pfm_umask **o = realloc(t->owned_umasks, (size_t)(t->nowned_umasks + 1) * sizeof(*o));
	if (!o) {
		free(um);
		return -ENOMEM;
	}
	t->owned_umasks = o;
	t->owned_umasks[t->nowned_umasks++] = um;
	struct pfm_perf_event ev = {.name = own(t, strdup(sys)), .desc = "tracepoint",
				    .type = PERF_TYPE_TRACEPOINT, .id = 0, .ngroups = 1,
				    .numasks = n, .umasks = um};
	return ev.name ? add(t, cap, &ev) : -ENOMEM;
}

static int add_tracepoints(struct pfm_perf_table *t, int *cap)
{
	char dir[1024];
	if (debugfs_mount(dir, sizeof(dir) - 20))
		return 0;
	strcat(dir, "/tracing/events");
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	int rc = 0;
	struct dirent *de;
	while (!rc && (de = readdir(d))) {
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			rc = add_subsystem(t, cap, dir, de->d_name);
	}
	closedir(d);
	return rc;
}

int pfm_perf_table_init(struct pfm_perf_table *t)
{
	memset(t, 0, sizeof(*t));
	int rc = add_named(t, &t->cap);
	if (!rc)
		rc = add_caches(t, &t->cap);
	if (rc)
		pfm_perf_table_free(t);
	return rc;
}

int pfm_perf_table_add_tracepoints(struct pfm_perf_table *t)
{
	return add_tracepoints(t, &t->cap);
}

void pfm_perf_table_free(struct pfm_perf_table *t)
{
	for (int i = 0; i < t->nowned; i++)
		free(t->owned[i]);
	for (int i = 0; i < t->nowned_umasks; i++)
		free(t->owned_umasks[i]);
	free(t->owned);
	free(t->owned_umasks);
	free(t->events);
	memset(t, 0, sizeof(*t));
}

/* libpfm4's checks of its perf table (pfm_perf_validate_table): names,
 * descriptions, types and unit-mask groups; each problem a line on fp. */
int pfm_perf_table_check(const struct pfm_perf_table *t, const char *pmu, FILE *fp)
{
	int errors = 0;
	for (int i = 0; i < t->n; i++) {
		const struct pfm_perf_event *e = &t->events[i];
		const char *name = e->name ? e->name : "??";
		if (!e->name)
			errors += fprintf(fp, "pmu: %s event%d: :: no name\n", pmu, i) > 0;
		if (!e->desc)
			errors += fprintf(fp, "pmu: %s event%d: %s :: no description\n", pmu, i, name) > 0;
		if (e->type >= PERF_TYPE_MAX)
			errors += fprintf(fp, "pmu: %s event%d: %s :: invalid type\n", pmu, i, name) > 0;
		if ((e->numasks != 0) != (e->ngroups != 0))
			errors += fprintf(fp, "pmu: %s event%d: %s :: ngrp and numasks disagree\n", pmu,
					  i, name) > 0;
		for (int u = 0; u < e->numasks; u++) {
			if (!e->umasks[u].name || !e->umasks[u].desc || e->umasks[u].group >= e->ngroups)
				errors += fprintf(fp, "pmu: %s event%d: %s umask%d :: invalid\n", pmu, i,
						  name, u) > 0;
		}
	}
	return errors ? PFM_ERR_INVAL : PFM_SUCCESS;
}
