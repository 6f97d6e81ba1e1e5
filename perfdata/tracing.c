/*
 * tracing.c - the HEADER_TRACING_DATA feature of perf.data: what perf's
 * readers need to decode tracepoint samples, in the layout perf record
 * writes (tools/perf/util/trace-event-info.c, tracing_data_get; read back
 * by trace-event-read.c, trace_report):
 *
 *   "\027\010\104tracing"  "0.6\0"  u8 big-endian?  u8 sizeof(long)  u32 page size
 *   "header_page\0"  u64 size, events/header_page
 *   "header_event\0" u64 size, events/header_event
 *   u32 count, then per ftrace event recorded: u64 size, its format
 *   u32 systems, then per system: "name\0", u32 count, per event: u64 size, format
 *   u32 size, kallsyms (perf writes 0 bytes since 5.x; so do we)
 *   u32 size, printk_formats (0 when tracefs lacks it)
 *   u64 size, saved_cmdlines (0 when tracefs lacks it; version 0.6)
 *
 * Only the recorded tracepoints' formats are written, found by the id in
 * attr.config as perf's tracepoint_id_to_path finds them.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "errors.h"
#include "perfdata.h"


/* A tracefs file, whole (tracefs files report size 0: read to the end),
 * preceded by its size in size_bytes (4 or 8) as record_file writes it.
 * A missing file with optional set: size 0; otherwise -errno. */
static int put_file(struct pd_bytes *b, const char *path, int size_bytes, bool optional,
		    struct pmurt_error *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int rc = -errno;
		if (optional && rc == -ENOENT) {
			uint64_t zero = 0;
			pd_bytes_put(b, &zero, (size_t)size_bytes);
			return 0;
		}
		pmurt_set_error(err, rc, "tracing data: cannot read %s: %s", path, strerror(-rc));
		return rc;
	}
	size_t at = b->n;
	uint64_t size = 0;
	pd_bytes_put(b, &size, (size_t)size_bytes);
	char chunk[8192];
	ssize_t got;
	while ((got = read(fd, chunk, sizeof chunk)) > 0) {
		pd_bytes_put(b, chunk, (size_t)got);
		size += (uint64_t)got;
	}
	int rc = got < 0 ? -errno : 0;
	close(fd);
	if (rc) {
		pmurt_set_error(err, rc, "tracing data: reading %s: %s", path, strerror(-rc));
		return rc;
	}
	if (size_bytes == 4 && size > UINT32_MAX) {
		pmurt_set_error(err, -EFBIG, "tracing data: %s is over 4 GiB", path);
		return -EFBIG;
	}
	if (!b->nomem) {
		uint32_t size32 = (uint32_t)size;
		memcpy(b->p + at, size_bytes == 4 ? (void *)&size32 : (void *)&size,
		       (size_t)size_bytes);
	}
	return 0;
}

/* A recorded tracepoint: its system and name under tracefs events/. */
struct tp_path {
	char sys[128], name[128];
};

static bool id_matches(const char *tracefs, const char *sys, const char *name, uint64_t id)
{
	char path[1024], text[32];
	snprintf(path, sizeof path, "%s/events/%s/%s/id", tracefs, sys, name);
	FILE *fp = fopen(path, "re");
	if (!fp)
		return false;
	bool ok = fgets(text, sizeof text, fp) && strtoull(text, NULL, 10) == id;
	fclose(fp);
	return ok;
}

/* "sys:name[:mods]" as the event was named: the cheap first guess. */
static bool path_from_name(const char *tracefs, const char *evname, uint64_t id,
			   struct tp_path *tp)
{
	const char *colon = evname ? strchr(evname, ':') : NULL;
	if (!colon || (size_t)(colon - evname) >= sizeof tp->sys)
		return false;
	snprintf(tp->sys, sizeof tp->sys, "%.*s", (int)(colon - evname), evname);
	snprintf(tp->name, sizeof tp->name, "%.*s", (int)strcspn(colon + 1, ":/"), colon + 1);
	return id_matches(tracefs, tp->sys, tp->name, id);
}

/* Every events/SYS/NAME/id, as tracepoint_id_to_path walks them. */
static bool path_from_id(const char *tracefs, uint64_t id, struct tp_path *tp)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/events", tracefs);
	DIR *top = opendir(path);
	bool found = false;
	struct dirent *s, *e;
	while (top && !found && (s = readdir(top))) {
		if (s->d_name[0] == '.' || strlen(s->d_name) >= sizeof tp->sys)
			continue;
		snprintf(path, sizeof path, "%s/events/%s", tracefs, s->d_name);
		DIR *sys = opendir(path);
		while (sys && !found && (e = readdir(sys))) {
			if (e->d_name[0] == '.' || strlen(e->d_name) >= sizeof tp->name)
				continue;
			if ((found = id_matches(tracefs, s->d_name, e->d_name, id))) {
				snprintf(tp->sys, sizeof tp->sys, "%s", s->d_name);
				snprintf(tp->name, sizeof tp->name, "%s", e->d_name);
			}
		}
		if (sys)
			closedir(sys);
	}
	if (top)
		closedir(top);
	return found;
}

/* Whether a tracepoint before i has i's system (and, unless by_system, its
 * name): each format and each system is written once. */
static bool seen_before(const struct tp_path *tps, int i, bool by_system)
{
	for (int j = 0; j < i; j++)
		if (!strcmp(tps[j].sys, tps[i].sys) &&
		    (by_system || !strcmp(tps[j].name, tps[i].name)))
			return true;
	return false;
}

/* The formats of the tracepoints of one system, as copy_event_system
 * writes them: a count, then each format with its size. */
static int put_system(struct pd_bytes *b, const char *tracefs, const struct tp_path *tps, int n,
		      const char *sys, struct pmurt_error *err)
{
	uint32_t count = 0;
	for (int i = 0; i < n; i++)
		count += !strcmp(tps[i].sys, sys) && !seen_before(tps, i, false);
	pd_bytes_u32(b, count);
	char path[1024];
	int rc = 0;
	for (int i = 0; i < n && !rc; i++) {
		if (strcmp(tps[i].sys, sys) || seen_before(tps, i, false))
			continue;
		snprintf(path, sizeof path, "%s/events/%s/%s/format", tracefs, sys, tps[i].name);
		rc = put_file(b, path, 8, false, err);
	}
	return rc;
}

/* read_event_files: every system but ftrace that holds a recorded
 * tracepoint, each once with its name. */
static int put_event_systems(struct pd_bytes *b, const char *tracefs, const struct tp_path *tps,
			     int n, struct pmurt_error *err)
{
	uint32_t nsys = 0;
	for (int i = 0; i < n; i++)
		nsys += strcmp(tps[i].sys, "ftrace") && !seen_before(tps, i, true);
	pd_bytes_u32(b, nsys);
	int rc = 0;
	for (int i = 0; i < n && !rc; i++) {
		if (!strcmp(tps[i].sys, "ftrace") || seen_before(tps, i, true))
			continue;
		pd_bytes_put(b, tps[i].sys, strlen(tps[i].sys) + 1);
		rc = put_system(b, tracefs, tps, n, tps[i].sys, err);
	}
	return rc;
}

static void put_preamble(struct pd_bytes *b)
{
	static const char magic[10] = {23, 8, 68, 't', 'r', 'a', 'c', 'i', 'n', 'g'};
	const uint16_t probe = 1;
	uint8_t endian = *(const uint8_t *)&probe == 0, long_size = sizeof(long);
	pd_bytes_put(b, magic, sizeof magic);
	pd_bytes_put(b, "0.6", 4);
	pd_bytes_put(b, &endian, 1);
	pd_bytes_put(b, &long_size, 1);
	pd_bytes_u32(b, (uint32_t)sysconf(_SC_PAGESIZE));
}

static int put_tracing(struct pd_bytes *b, const char *tracefs, const struct tp_path *tps, int n,
		       struct pmurt_error *err)
{
	char path[1024];
	put_preamble(b);
	static const char *const headers[] = {"header_page", "header_event"};
	int rc = 0;
	for (int i = 0; i < 2 && !rc; i++) {
		pd_bytes_put(b, headers[i], strlen(headers[i]) + 1);
		snprintf(path, sizeof path, "%s/events/%s", tracefs, headers[i]);
		rc = put_file(b, path, 8, false, err);
	}
	if (!rc)
		rc = put_system(b, tracefs, tps, n, "ftrace", err);
	if (!rc)
		rc = put_event_systems(b, tracefs, tps, n, err);
	if (rc)
		return rc;
	pd_bytes_u32(b, 0); /* kallsyms: record_proc_kallsyms writes none */
	snprintf(path, sizeof path, "%s/printk_formats", tracefs);
	rc = put_file(b, path, 4, true, err);
	snprintf(path, sizeof path, "%s/saved_cmdlines", tracefs);
	return rc ? rc : put_file(b, path, 8, true, err);
}

int pd_tracing_data(const char *tracefs, const struct pd_event *events, int nevents,
		    uint8_t **data, size_t *len, struct pmurt_error *err)
{
	*data = NULL;
	*len = 0;
	int n = 0;
	for (int e = 0; e < nevents; e++)
		n += events[e].attr.type == PERF_TYPE_TRACEPOINT;
	if (!n)
		return 0;
	struct tp_path *tps = calloc((size_t)n, sizeof *tps);
	if (!tps) {
		pmurt_set_error(err, -ENOMEM, "tracing data: out of memory");
		return -ENOMEM;
	}
	int k = 0, rc = 0;
	for (int e = 0; e < nevents && !rc; e++) {
		const struct pd_event *ev = &events[e];
		if (ev->attr.type != PERF_TYPE_TRACEPOINT)
			continue;
		uint64_t id = ev->attr.config;
		if (!path_from_name(tracefs, ev->name, id, &tps[k]) &&
		    !path_from_id(tracefs, id, &tps[k])) {
			rc = -ENOENT;
			pmurt_set_error(err, rc, "tracing data: no tracepoint of id %" PRIu64
					" (event %s) under %s/events", id,
					ev->name ? ev->name : "unnamed", tracefs);
		}
		k++;
	}
	struct pd_bytes b = {0};
	if (!rc)
		rc = put_tracing(&b, tracefs, tps, n, err);
	free(tps);
	if (!rc && b.nomem) {
		rc = -ENOMEM;
		pmurt_set_error(err, rc, "tracing data: out of memory");
	}
	if (rc) {
		free(b.p);
		return rc;
	}
	*data = b.p;
	*len = b.n;
	return 0;
}
