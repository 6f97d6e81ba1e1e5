/*
 * listing.c - pmurt_host_events: the events a host names beyond its core
 * description, as perf list shows them (tools/perf/util/print-events.c):
 * perf's software events, each sysfs PMU's named events (PMU/EVENT/, the
 * core PMU's aside: those are the description's) and the tracepoints
 * (SYS:NAME, tracefs mounted as for a tracepoint named in an event list),
 * each kind sorted by name.
 */
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "errors.h"
#include "evsel.h"
#include "tracefs.h"

struct names {
	char **v;
	size_t n, cap;
};

static int add_name(struct names *l, const char *a, const char *b)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 256;
		char **v = realloc(l->v, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		l->v = v;
		l->cap = cap;
	}
	size_t len = strlen(a) + strlen(b) + 3;
	if (!(l->v[l->n] = malloc(len)))
		return -ENOMEM;
	snprintf(l->v[l->n++], len, "%s%s", a, b);
	return 0;
}

static void free_names(struct names *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Subdirectories (dirs) or files (!dirs) of path, "." ones aside. */
static int entries(const char *path, bool dirs, const char *prefix, const char *suffix,
		   struct names *out)
{
	DIR *d = opendir(path);
	if (!d)
		return 0;   /* none: nothing to list */
	int rc = 0;
	for (struct dirent *e; !rc && (e = readdir(d));) {
		char full[1024];
		struct stat st;
		if (e->d_name[0] == '.')
			continue;
		snprintf(full, sizeof(full), "%s/%s", path, e->d_name);
		if (stat(full, &st) || (bool)S_ISDIR(st.st_mode) != dirs)
			continue;
		char name[600];
		snprintf(name, sizeof(name), "%s%s", prefix, e->d_name);
		rc = add_name(out, name, suffix);
	}
	closedir(d);
	return rc;
}

/* DEVICES/PMU/events/EVENT as "PMU/EVENT/": not the .scale, .unit, ...
 * files beside an event, nor the core PMU's ("cpu"). */
static int pmu_events(const struct pmu_host *h, struct names *out)
{
	char path[600];
	struct names pmus = {0};
	snprintf(path, sizeof(path), "%s/bus/event_source/devices", h->sysfs);
	int rc = entries(path, true, "", "", &pmus);
	for (size_t i = 0; !rc && i < pmus.n; i++) {
		if (!strcmp(pmus.v[i], "cpu"))
			continue;
		char dir[900], prefix[300];
		snprintf(dir, sizeof(dir), "%s/%s/events", path, pmus.v[i]);
		snprintf(prefix, sizeof(prefix), "%s/", pmus.v[i]);
		struct names ev = {0};
		rc = entries(dir, false, prefix, "/", &ev);
		for (size_t k = 0; !rc && k < ev.n; k++)
			if (!strchr(ev.v[k] + strlen(prefix), '.'))
				rc = add_name(out, ev.v[k], "");
		free_names(&ev);
	}
	free_names(&pmus);
	return rc;
}

static int add_tracepoint_name(void *ctx, const char *sys, const char *name)
{
	char full[600];
	snprintf(full, sizeof(full), "%s:%s", sys, name);
	return add_name(ctx, full, "");
}

/* The tracepoints as "SYS:NAME" (perf 6.1's print_tracepoint_events). */
static int tracepoints(const char *tracefs, struct names *out)
{
	return pmu_tracefs_each(tracefs, "*", "*", add_tracepoint_name, out);
}

static int each_sorted(struct names *l, enum pmurt_listed_kind kind,
		       int (*fn)(void *ctx, const struct pmurt_listed_event *e), void *ctx)
{
	if (l->n)
		qsort(l->v, l->n, sizeof(*l->v), by_name);
	for (size_t i = 0; i < l->n; i++) {
		struct pmurt_listed_event e = {.sz = sizeof(e), .kind = kind, .name = l->v[i]};
		int rc = fn(ctx, &e);
		if (rc)
			return rc;
	}
	return 0;
}

static int by_listed_name(const void *a, const void *b)
{
	const struct pmurt_listed_event *x = a, *y = b;
	return strcmp(x->name, y->name);
}

/* perf's software events by name, each with its alias ("cs"). */
static int software(int (*fn)(void *ctx, const struct pmurt_listed_event *e), void *ctx)
{
	struct pmurt_listed_event events[32];
	const char *alias;
	int n = 0;
	for (const char *name; n < 32 && (name = pmu_software_event(n, &alias)); n++)
		events[n] = (struct pmurt_listed_event){.sz = sizeof(events[n]),
							.kind = PMURT_LISTED_SOFTWARE,
							.name = name, .alias = alias};
	qsort(events, (size_t)n, sizeof(*events), by_listed_name);
	for (int i = 0; i < n; i++) {
		int rc = fn(ctx, &events[i]);
		if (rc)
			return rc;
	}
	return 0;
}

int pmurt_host_events(const struct pmurt_host *host,
		      int (*fn)(void *ctx, const struct pmurt_listed_event *e), void *ctx,
		      struct pmurt_error *err)
{
	pmurt_clear_error(err);
	if (!host || !fn) {
		pmurt_set_error(err, -EINVAL, "pmurt_host_events: missing argument");
		return -EINVAL;
	}
	struct names pmu = {0}, tp = {0};
	int rc = software(fn, ctx);
	if (!rc && (rc = pmu_events(&host->h, &pmu)) == 0)
		rc = each_sorted(&pmu, PMURT_LISTED_PMU_EVENT, fn, ctx);
	if (!rc && (rc = tracepoints(pmu_host_tracefs(&host->h, NULL), &tp)) == 0)
		rc = each_sorted(&tp, PMURT_LISTED_TRACEPOINT, fn, ctx);
	free_names(&pmu);
	free_names(&tp);
	if (rc == -ENOMEM)
		pmurt_set_error(err, rc, "pmurt_host_events: out of memory");
	return rc;
}
