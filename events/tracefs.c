/*
 * tracefs.c - the host's tracefs: where it is (mounted as perf mounts it),
 * and its tracepoints, walked once for event lists' globs (evparse.c) and
 * for pmutool list (listing.c).
 */
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include "evsel.h"
#include "tracefs.h"

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
	struct stat st;
	for (int i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/events", roots[i]);
		if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
			return roots[i];
	}
	if (mount("nodev", roots[0], "tracefs", 0, NULL) == 0)
		return roots[0];
	if (mount_errno)
		*mount_errno = errno;
	return "";
}

bool pmu_tracefs_has(const char *tracefs, const char *sys, const char *name)
{
	char path[800];
	struct stat st;
	snprintf(path, sizeof(path), "%s/events/%s%s%s", tracefs, sys, name ? "/" : "",
		 name ? name : "");
	return tracefs[0] && stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Whether directory dir holds a file named name. */
static bool holds(const char *dir, const char *name)
{
	char path[1200];
	struct stat st;
	int n = snprintf(path, sizeof(path), "%s/%s", dir, name);
	return n > 0 && (size_t)n < sizeof(path) && stat(path, &st) == 0;
}

/* The entries of dir matching pattern, "." ones aside, that are
 * directories holding a file named holding: fn(ctx, entry). */
static int each_dir(const char *dir, const char *pattern, const char *holding,
		    int (*fn)(void *ctx, const char *entry), void *ctx)
{
	DIR *d = opendir(dir);
	int rc = 0;
	for (struct dirent *e; !rc && d && (e = readdir(d));) {
		char path[1024];
		struct stat st;
		if (e->d_name[0] == '.' || fnmatch(pattern, e->d_name, 0))
			continue;
		int n = snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (n > 0 && (size_t)n < sizeof(path) && stat(path, &st) == 0 &&
		    S_ISDIR(st.st_mode) && (!holding || holds(path, holding)))
			rc = fn(ctx, e->d_name);
	}
	if (d)
		closedir(d);
	return rc;
}

struct tracefs_walk {
	const char *events;     /* TRACEFS/events */
	const char *sys, *name; /* the patterns */
	const char *subsystem;  /* the one being walked */
	int (*fn)(void *ctx, const char *sys, const char *name);
	void *ctx;
};

static int tracefs_event(void *ctx, const char *name)
{
	struct tracefs_walk *w = ctx;
	return w->fn(w->ctx, w->subsystem, name);
}

static int tracefs_subsystem(void *ctx, const char *sys)
{
	struct tracefs_walk *w = ctx;
	char dir[1024];
	int n = snprintf(dir, sizeof(dir), "%s/%s", w->events, sys);
	if (n < 0 || (size_t)n >= sizeof(dir))
		return 0;
	w->subsystem = sys;
	return each_dir(dir, w->name, "id", tracefs_event, w);
}

int pmu_tracefs_each(const char *tracefs, const char *sys, const char *name,
		     int (*fn)(void *ctx, const char *sys, const char *name), void *ctx)
{
	char events[600];
	int n = snprintf(events, sizeof(events), "%s/events", tracefs);
	if (!tracefs[0] || n < 0 || (size_t)n >= sizeof(events))
		return 0;
	struct tracefs_walk w = {.events = events, .sys = sys, .name = name, .fn = fn, .ctx = ctx};
	return each_dir(events, sys, NULL, tracefs_subsystem, &w);
}
