/*
 * reader.c - reading perf.data (the public pmurt_perf_* API of pmurt.h).
 *
 * The file is mapped read-only and checked piece by piece against its size:
 * the header, the attrs and their ids, the feature sections
 * (tools/perf/util/header.c: do_write_string, write_nrcpus, write_cmdline,
 * write_event_desc) and, record by record, the data section.  A record's
 * event is found by its sample id as perf's evlist__event2evsel finds it.
 * The records of PERF_RECORD_COMPRESSED (perf record -z) are read from
 * where they are decompressed (compressed.c) in their place, with offsets
 * of their own (PMURT_PERF_OFFSET_DECOMPRESSED).  Every failure names the
 * path and the file offset.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "errors.h"
#include "perfdata.h"

#define PD_MAGIC 0x32454c4946524550ull     /* "PERFILE2" */
#define PD_MAGIC_SWAPPED 0x50455246494c4532ull
#define PD_HEADER_SIZE 104u
#define PD_PIPE_HEADER_SIZE 16u

struct file_event {
	struct perf_event_attr attr;   /* zero-extended copy */
	const void *raw_attr;
	uint32_t raw_size;
	uint64_t *ids;
	int nids;
	char *name;
	/* HEADER_GROUP_DESC: its group's leader + 1 (0: alone, the file says
	 * no group), and for a leader its group's events and name */
	int leader_plus1;
	int nr_members;
	char *group_name;   /* NULL for perf's "{anon_group}" */
};

struct pmurt_perf_file {
	char *path;
	const uint8_t *map;
	size_t size;
	bool mapped;        /* map is our mapping (else the caller's bytes) */
	struct file_event *events;
	int nevents;
	/* sample id -> event index, open addressing */
	uint64_t *hash_ids;
	int *hash_events;
	size_t hash_cap;
	int sample_id_pos, trailer_id_pos;
	bool sample_id_all;
	uint64_t data_offset, data_end, pos;
	uint64_t features[4];
	char *strings[6];   /* hostname osrelease version arch cpudesc cpuid */
	char *cmdline;
	uint32_t nr_cpus_avail, nr_cpus_online;
	uint64_t sample_times[2];  /* HEADER_SAMPLE_TIME: first, last */
	uint64_t build_ids, build_ids_size;   /* the BUILD_ID feature's section */
	uint64_t tracing_at, tracing_size;  /* the tracing-data section */
	struct pd_decomp z;  /* perf record -z: the decompressed records */
	bool pipe;           /* perf's pipe format (perf record -o -) */
	void **copies;       /* records after a compressed one or in a pipe
	                        file, at unaligned offsets: copied to aligned
	                        memory, kept */
	size_t ncopies;
};

static const int string_features[6] = {
	PD_FEAT_HOSTNAME, PD_FEAT_OSRELEASE, PD_FEAT_VERSION,
	PD_FEAT_ARCH, PD_FEAT_CPUDESC, PD_FEAT_CPUID,
};

static int fail_at(const struct pmurt_perf_file *f, struct pmurt_error *err,
		   uint64_t offset, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static int fail_at(const struct pmurt_perf_file *f, struct pmurt_error *err,
		   uint64_t offset, const char *fmt, ...)
{
	char what[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (offset & PMURT_PERF_OFFSET_DECOMPRESSED) {
		const struct pd_chunk *c = &f->z.chunks[offset >> 32 & 0x7fffffff];
		pmurt_set_error(err, -EINVAL, "%s: offset 0x%llx: compressed record, byte %llu "
				"of its decompressed data: %s", f->path,
				(unsigned long long)c->record,
				(unsigned long long)(offset & 0xffffffff), what);
	} else
		pmurt_set_error(err, -EINVAL, "%s: offset 0x%llx: %s", f->path,
				(unsigned long long)offset, what);
	return -EINVAL;
}



/* [offset, offset + len) lies inside the file (no wrap-around). */
static bool in_file(const struct pmurt_perf_file *f, uint64_t offset, uint64_t len)
{
	return offset <= f->size && len <= f->size - offset;
}

/* A {u64 offset, u64 size} section, read at at, that must fit the file. */
static int section(const struct pmurt_perf_file *f, uint64_t at, const char *what,
		   uint64_t *offset, uint64_t *size, struct pmurt_error *err)
{
	*offset = pd_get64(f->map + at);
	*size = pd_get64(f->map + at + 8);
	if (!in_file(f, *offset, *size))
		return fail_at(f, err, at, "%s [%#llx, +%#llx) runs past the end of the "
			       "file (%zu bytes): truncated?", what,
			       (unsigned long long)*offset, (unsigned long long)*size, f->size);
	return 0;
}

/* --- ids ------------------------------------------------------------------ */

static size_t hash_slot(const struct pmurt_perf_file *f, uint64_t id)
{
	return (size_t)((id * 0x9e3779b97f4a7c15ull) >> 17) & (f->hash_cap - 1);
}

static int event_of_id(const struct pmurt_perf_file *f, uint64_t id)
{
	for (size_t i = hash_slot(f, id);; i = (i + 1) & (f->hash_cap - 1)) {
		if (f->hash_events[i] < 0)
			return -1;
		if (f->hash_ids[i] == id)
			return f->hash_events[i];
	}
}

static int build_id_hash(struct pmurt_perf_file *f, struct pmurt_error *err)
{
	size_t total = 0;
	for (int e = 0; e < f->nevents; e++)
		total += (size_t)f->events[e].nids;
	f->hash_cap = 16;
	while (f->hash_cap < 2 * total)
		f->hash_cap *= 2;
	f->hash_ids = calloc(f->hash_cap, sizeof(*f->hash_ids));
	f->hash_events = malloc(f->hash_cap * sizeof(*f->hash_events));
	if (!f->hash_ids || !f->hash_events) {
		pmurt_set_error(err, -ENOMEM, "%s: out of memory", f->path);
		return -ENOMEM;
	}
	memset(f->hash_events, 0xff, f->hash_cap * sizeof(*f->hash_events));
	for (int e = 0; e < f->nevents; e++) {
		for (int k = 0; k < f->events[e].nids; k++) {
			uint64_t id = f->events[e].ids[k];
			size_t i = hash_slot(f, id);
			while (f->hash_events[i] >= 0 && f->hash_ids[i] != id)
				i = (i + 1) & (f->hash_cap - 1);
			if (f->hash_events[i] < 0) {
				f->hash_ids[i] = id;
				f->hash_events[i] = e;
			}
		}
	}
	return 0;
}

/* As perf's evlist__valid_sample_type and evlist__valid_sample_id_all:
 * with several events, every sample_type must put the id at one place. */
static int check_id_layout(struct pmurt_perf_file *f, struct pmurt_error *err)
{
	const struct perf_event_attr *first = &f->events[0].attr;
	f->sample_id_pos = pd_sample_id_pos(first->sample_type);
	f->trailer_id_pos = pd_trailer_id_pos(first->sample_type);
	f->sample_id_all = first->sample_id_all;
	if (f->nevents == 1)
		return 0;
	if (f->sample_id_pos < 0)
		return fail_at(f, err, PD_HEADER_SIZE, "%d events but their samples carry no id "
			       "(PERF_SAMPLE_ID or IDENTIFIER)", f->nevents);
	for (int e = 1; e < f->nevents; e++) {
		const struct perf_event_attr *a = &f->events[e].attr;
		if (pd_sample_id_pos(a->sample_type) != f->sample_id_pos ||
		    pd_trailer_id_pos(a->sample_type) != f->trailer_id_pos ||
		    (bool)a->sample_id_all != f->sample_id_all)
			return fail_at(f, err, PD_HEADER_SIZE, "event %d's sample_type %#llx puts "
				       "the sample id elsewhere than event 0's %#llx", e,
				       (unsigned long long)a->sample_type,
				       (unsigned long long)first->sample_type);
	}
	return 0;
}

/* --- header and attrs ---------------------------------------------------- */

static int read_ids(struct pmurt_perf_file *f, struct file_event *ev, uint64_t at,
		    struct pmurt_error *err)
{
	uint64_t offset, size;
	int rc = section(f, at, "the event's id array", &offset, &size, err);
	if (rc)
		return rc;
	if (size % 8 || size / 8 > INT32_MAX)
		return fail_at(f, err, at, "id array size %#llx is not a whole number of ids",
			       (unsigned long long)size);
	ev->nids = (int)(size / 8);
	ev->ids = malloc(size ? size : 1);
	if (!ev->ids) {
		pmurt_set_error(err, -ENOMEM, "%s: out of memory", f->path);
		return -ENOMEM;
	}
	memcpy(ev->ids, f->map + offset, size);
	return 0;
}

static int read_attrs(struct pmurt_perf_file *f, uint64_t attr_size, struct pmurt_error *err)
{
	uint64_t offset, size;
	int rc = section(f, 24, "the attrs section", &offset, &size, err);
	if (rc)
		return rc;
	if (attr_size < PERF_ATTR_SIZE_VER0 + 16 || attr_size > 4096)
		return fail_at(f, err, 16, "attr size %llu is not that of a perf_event_attr "
			       "and its id section", (unsigned long long)attr_size);
	if (size == 0 || size % attr_size)
		return fail_at(f, err, 24, "the attrs section's %llu bytes are not a whole "
			       "number (at least one) of %llu-byte attrs",
			       (unsigned long long)size, (unsigned long long)attr_size);
	if (size / attr_size > 65536)
		return fail_at(f, err, 24, "%llu attrs: more than 65536",
			       (unsigned long long)(size / attr_size));
	f->nevents = (int)(size / attr_size);
	f->events = calloc((size_t)f->nevents, sizeof(*f->events));
	if (!f->events) {
		pmurt_set_error(err, -ENOMEM, "%s: out of memory", f->path);
		return -ENOMEM;
	}
	for (int e = 0; e < f->nevents; e++) {
		struct file_event *ev = &f->events[e];
		uint64_t at = offset + (uint64_t)e * attr_size;
		ev->raw_attr = f->map + at;
		ev->raw_size = (uint32_t)(attr_size - 16);
		memcpy(&ev->attr, ev->raw_attr,
		       ev->raw_size < sizeof(ev->attr) ? ev->raw_size : sizeof(ev->attr));
		if ((rc = read_ids(f, ev, at + ev->raw_size, err)))
			return rc;
	}
	return 0;
}

/* --- features -------------------------------------------------------------- */

/* A feature string {u32 len, char[len]}, NUL-terminated within len. */
static int feature_string(struct pmurt_perf_file *f, uint64_t *at, uint64_t end,
			  char **out, struct pmurt_error *err)
{
	if (!in_file(f, *at, 4) || *at + 4 > end)
		return fail_at(f, err, *at, "string length runs past its feature section");
	uint32_t len = pd_get32(f->map + *at);
	if (len > end - *at - 4)
		return fail_at(f, err, *at, "string of %u bytes runs past its feature section", len);
	const char *s = (const char *)f->map + *at + 4;
	size_t n = strnlen(s, len);
	if (n == len)
		return fail_at(f, err, *at, "string of %u bytes is not NUL-terminated", len);
	*out = strndup(s, n);
	if (!*out) {
		pmurt_set_error(err, -ENOMEM, "%s: out of memory", f->path);
		return -ENOMEM;
	}
	*at += 4 + (uint64_t)len;
	return 0;
}

static int feature_cmdline(struct pmurt_perf_file *f, uint64_t at, uint64_t end,
			   struct pmurt_error *err)
{
	if (end - at < 4)
		return fail_at(f, err, at, "command-line feature shorter than its count");
	uint32_t n = pd_get32(f->map + at);
	at += 4;
	size_t len = 0;
	int rc = 0;
	for (uint32_t i = 0; i < n && !rc; i++) {
		char *arg = NULL;
		if ((rc = feature_string(f, &at, end, &arg, err)))
			break;
		char *joined = realloc(f->cmdline, len + strlen(arg) + 2);
		if (!joined) {
			free(arg);
			pmurt_set_error(err, -ENOMEM, "%s: out of memory", f->path);
			return -ENOMEM;
		}
		f->cmdline = joined;
		len += (size_t)sprintf(f->cmdline + len, "%s%s", i ? " " : "", arg);
		free(arg);
	}
	return rc;
}

/* The event description: names matched to events by their first id (as
 * perf's evlist__set_event_name), or by position when ids are absent. */
static int feature_event_desc(struct pmurt_perf_file *f, uint64_t at, uint64_t end,
			      struct pmurt_error *err)
{
	if (end - at < 8)
		return fail_at(f, err, at, "event-description feature shorter than its counts");
	uint32_t n = pd_get32(f->map + at), asz = pd_get32(f->map + at + 4);
	at += 8;
	for (uint32_t i = 0; i < n; i++) {
		if (end - at < (uint64_t)asz + 4)
			return fail_at(f, err, at, "event description %u runs past its section", i);
		uint32_t nids = pd_get32(f->map + at + asz);
		at += (uint64_t)asz + 4;
		char *name = NULL;
		int rc = feature_string(f, &at, end, &name, err);
		if (rc)
			return rc;
		if (nids > (end - at) / 8) {
			free(name);
			return fail_at(f, err, at, "event description %u's %u ids run past its "
				       "section", i, nids);
		}
		int e = nids ? event_of_id(f, pd_get64(f->map + at)) : (int)i;
		at += 8ull * nids;
		if (e >= 0 && e < f->nevents && !f->events[e].name)
			f->events[e].name = name;
		else
			free(name);
	}
	return 0;
}

/* One group of the group description: name, leader_idx, nr_members; 1
 * when it is one perf 6.1's process_group_desc takes (header.c: in event
 * order, no overlap, every event in the file), 0 when not, with *at past
 * it, or a negative errno when it runs past the section. */
static int group_desc_entry(struct pmurt_perf_file *f, uint64_t *at, uint64_t end, int *next,
			    char **name, struct pmurt_error *err)
{
	uint64_t start = *at;
	int rc = feature_string(f, at, end, name, err);
	if (rc)
		return rc;
	if (end - *at < 8)
		return fail_at(f, err, start, "group description runs past its section");
	uint32_t leader = pd_get32(f->map + *at), n = pd_get32(f->map + *at + 4);
	*at += 8;
	if (leader < (uint32_t)*next || leader >= (uint32_t)f->nevents || n < 1 ||
	    n > (uint32_t)f->nevents - leader)
		return 0;
	for (uint32_t m = 0; m < n; m++)
		f->events[leader + m].leader_plus1 = (int)leader + 1;
	f->events[leader].nr_members = (int)n;
	*next = (int)(leader + n);
	return 1;
}

static void forget_groups(struct pmurt_perf_file *f)
{
	for (int e = 0; e < f->nevents; e++) {
		free(f->events[e].group_name);
		f->events[e].group_name = NULL;
		f->events[e].leader_plus1 = f->events[e].nr_members = 0;
	}
}

/* HEADER_GROUP_DESC (header.c write_group_desc): u32 nr_groups, then per
 * group with more than one event its name ("{anon_group}" for none), its
 * leader's index and its number of events.  One whose groups are not the
 * file's events in order is none: perf 6.1 reads such a file without
 * groups (process_group_desc's "invalid group desc"). */
static int feature_group_desc(struct pmurt_perf_file *f, uint64_t at, uint64_t end,
			      struct pmurt_error *err)
{
	if (end - at < 4)
		return fail_at(f, err, at, "group-description feature shorter than its count");
	uint32_t n = pd_get32(f->map + at);
	at += 4;
	int next = 0, rc = 1;
	for (uint32_t i = 0; i < n && rc == 1; i++) {
		char *name = NULL;
		rc = group_desc_entry(f, &at, end, &next, &name, err);
		if (rc == 1 && strcmp(name, "{anon_group}")) {   /* a name perf's -e gave */
			f->events[f->events[next - 1].leader_plus1 - 1].group_name = name;
			name = NULL;
		}
		free(name);
	}
	if (rc != 1)
		forget_groups(f);
	return rc < 0 ? rc : 0;
}

static int read_feature(struct pmurt_perf_file *f, int bit, uint64_t at, uint64_t size,
			struct pmurt_error *err)
{
	uint64_t end = at + size;
	for (int k = 0; k < 6; k++)
		if (bit == string_features[k])
			return feature_string(f, &at, end, &f->strings[k], err);
	switch (bit) {
	case PD_FEAT_NRCPUS:
		if (size < 8)
			return fail_at(f, err, at, "CPU-count feature shorter than 8 bytes");
		f->nr_cpus_avail = pd_get32(f->map + at);
		f->nr_cpus_online = pd_get32(f->map + at + 4);
		return 0;
	case PD_FEAT_SAMPLE_TIME:   /* perf's write_sample_time: first, then last */
		if (size < 16)
			return fail_at(f, err, at, "sample-time feature shorter than 16 bytes");
		f->sample_times[0] = pd_get64(f->map + at);
		f->sample_times[1] = pd_get64(f->map + at + 8);
		return 0;
	case PD_FEAT_TRACING_DATA:
		f->tracing_at = at;
		f->tracing_size = size;
		return 0;
	case PD_FEAT_CMDLINE:
		return feature_cmdline(f, at, end, err);
	case PD_FEAT_EVENT_DESC:
		return feature_event_desc(f, at, end, err);
	case PD_FEAT_GROUP_DESC:
		return feature_group_desc(f, at, end, err);
	case PD_FEAT_COMPRESSED: {
		char why[160];
		return pd_decomp_feature(&f->z, f->map + at, size, why, sizeof(why))
			       ? fail_at(f, err, at, "%s", why) : 0;
	}
	case PD_FEAT_BUILD_ID:   /* read when asked (pd_recorded_build_id) */
		f->build_ids = at;
		f->build_ids_size = size;
		return 0;
	default:
		return 0;
	}
}

static int read_features(struct pmurt_perf_file *f, struct pmurt_error *err)
{
	uint64_t table = f->data_end;
	for (int bit = 0; bit < PD_FEAT_BITS; bit++) {
		if (!(f->features[bit / 64] >> (bit % 64) & 1))
			continue;
		if (!in_file(f, table, 16))
			return fail_at(f, err, table, "feature %d's section entry runs past the "
				       "end of the file (%zu bytes): truncated?", bit, f->size);
		uint64_t offset, size;
		int rc = section(f, table, "a feature section", &offset, &size, err);
		if (rc || (rc = read_feature(f, bit, offset, size, err)))
			return rc;
		table += 16;
	}
	return 0;
}

/* Events the file does not name (no event-description feature) get
 * "TYPE:CONFIG". */
static int name_unnamed(struct pmurt_perf_file *f, struct pmurt_error *err)
{
	for (int e = 0; e < f->nevents; e++) {
		struct file_event *ev = &f->events[e];
		char buf[48];
		if (ev->name)
			continue;
		snprintf(buf, sizeof(buf), "%u:%#llx", ev->attr.type,
			 (unsigned long long)ev->attr.config);
		if (!(ev->name = strdup(buf))) {
			pmurt_set_error(err, -ENOMEM, "%s: out of memory", f->path);
			return -ENOMEM;
		}
	}
	return 0;
}

static int read_pipe_header(struct pmurt_perf_file *f, struct pmurt_error *err);

static int read_header(struct pmurt_perf_file *f, struct pmurt_error *err)
{
	if (f->size < 16)
		return fail_at(f, err, 0, "%zu bytes: too short for a perf.data header", f->size);
	uint64_t magic = pd_get64(f->map), hsize = pd_get64(f->map + 8);
	if (magic == PD_MAGIC_SWAPPED)
		return fail_at(f, err, 0, "written in the other byte order: not supported");
	if (magic != PD_MAGIC)
		return fail_at(f, err, 0, "not a perf.data file (magic is not PERFILE2; an "
			       "unfinished recording has no header yet)");
	if (hsize == PD_PIPE_HEADER_SIZE)
		return read_pipe_header(f, err);
	if (hsize != PD_HEADER_SIZE || f->size < PD_HEADER_SIZE)
		return fail_at(f, err, 8, "header size %llu in a file of %zu bytes: expected %u",
			       (unsigned long long)hsize, f->size, PD_HEADER_SIZE);
	memcpy(f->features, f->map + 72, sizeof(f->features));
	uint64_t data_size;
	int rc = read_attrs(f, pd_get64(f->map + 16), err);
	if (rc || (rc = section(f, 40, "the data section", &f->data_offset, &data_size, err)))
		return rc;
	if (f->data_offset % 8)
		return fail_at(f, err, 40, "data section at %#llx is not 8-byte aligned",
			       (unsigned long long)f->data_offset);
	f->data_end = f->data_offset + data_size;
	f->pos = f->data_offset;
	if ((rc = build_id_hash(f, err)) || (rc = check_id_layout(f, err)) ||
	    (rc = read_features(f, err)))
		return rc;
	return name_unnamed(f, err);
}

/* --- open and close -------------------------------------------------------- */

static int map_file(struct pmurt_perf_file *f, struct pmurt_error *err)
{
	int fd = open(f->path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0) {
		int rc = -errno;
		if (fd >= 0)
			close(fd);
		pmurt_set_error(err, rc, "%s: %s", f->path, strerror(-rc));
		return rc;
	}
	f->size = (size_t)st.st_size;
	if (f->size) {
		void *map = mmap(NULL, f->size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (map == MAP_FAILED) {
			int rc = -errno;
			close(fd);
			pmurt_set_error(err, rc, "%s: mmap: %s", f->path, strerror(-rc));
			return rc;
		}
		f->map = map;
		f->mapped = true;
	}
	close(fd);
	return 0;
}

void pmurt_perf_close(struct pmurt_perf_file *f)
{
	if (!f)
		return;
	for (int e = 0; f->events && e < f->nevents; e++) {
		free(f->events[e].ids);
		free(f->events[e].name);
		free(f->events[e].group_name);
	}
	for (int k = 0; k < 6; k++)
		free(f->strings[k]);
	free(f->cmdline);
	free(f->events);
	free(f->hash_ids);
	free(f->hash_events);
	pd_decomp_free(&f->z);
	for (size_t i = 0; i < f->ncopies; i++)
		free(f->copies[i]);
	free(f->copies);
	if (f->mapped)
		munmap((void *)f->map, f->size);
	free(f->path);
	free(f);
}

static int new_file(struct pmurt_perf_file **out, const char *path, struct pmurt_error *err)
{
	pmurt_clear_error(err);
	*out = calloc(1, sizeof(**out));
	if (!*out || !((*out)->path = strdup(path))) {
		free(*out);
		*out = NULL;
		pmurt_set_error(err, -ENOMEM, "%s: out of memory", path);
		return -ENOMEM;
	}
	return 0;
}

static int opened(struct pmurt_perf_file **out, struct pmurt_perf_file *f, int rc)
{
	if (rc) {
		pmurt_perf_close(f);
		return rc;
	}
	*out = f;
	return 0;
}

int pmurt_perf_open(struct pmurt_perf_file **out, const char *path, struct pmurt_error *err)
{
	struct pmurt_perf_file *f;
	int rc = new_file(&f, path, err);
	*out = NULL;
	if (rc)
		return rc;
	rc = map_file(f, err);
	return opened(out, f, rc ? rc : read_header(f, err));
}

int pmurt_perf_open_mem(struct pmurt_perf_file **out, const char *name, const void *data,
			size_t size, struct pmurt_error *err)
{
	struct pmurt_perf_file *f;
	int rc = new_file(&f, name, err);
	*out = NULL;
	if (rc)
		return rc;
	f->map = data;
	f->size = size;
	return opened(out, f, read_header(f, err));
}

int pmurt_perf_info(const struct pmurt_perf_file *f, struct pmurt_perf_info *info)
{
	if (!f || !info || info->sz < sizeof(size_t))
		return -EINVAL;
	struct pmurt_perf_info i = {
		.sz = info->sz,
		.nevents = f->nevents,
		.data_offset = f->data_offset,
		.data_size = f->data_end - f->data_offset,
		.hostname = f->strings[0], .osrelease = f->strings[1],
		.version = f->strings[2], .arch = f->strings[3],
		.cpudesc = f->strings[4], .cpuid = f->strings[5],
		.cmdline = f->cmdline,
		.nr_cpus_avail = f->nr_cpus_avail,
		.nr_cpus_online = f->nr_cpus_online,
		.tracing_data = f->tracing_size ? f->map + f->tracing_at : NULL,
		.tracing_data_size = f->tracing_size,
		.first_sample_time = f->sample_times[0],
		.last_sample_time = f->sample_times[1],
		.pipe_format = f->pipe,
	};
	memcpy(i.features, f->features, sizeof(i.features));
	memcpy(info, &i, info->sz < sizeof(i) ? info->sz : sizeof(i));
	return 0;
}

int pmurt_perf_event(const struct pmurt_perf_file *f, int e, struct pmurt_perf_event_info *info)
{
	if (!f || !info || info->sz < sizeof(size_t))
		return -EINVAL;
	if (e < 0 || e >= f->nevents)
		return -ERANGE;
	const struct file_event *ev = &f->events[e];
	struct pmurt_perf_event_info i = {
		.sz = info->sz,
		.name = ev->name,
		.attr = ev->raw_attr,
		.attr_size = ev->raw_size,
		.type = ev->attr.type,
		.config = ev->attr.config,
		.sample_type = ev->attr.sample_type,
		.read_format = ev->attr.read_format,
		.sample_period = ev->attr.sample_period,
		.freq = ev->attr.freq,
		.sample_id_all = ev->attr.sample_id_all,
		.ids = ev->ids,
		.nids = ev->nids,
		.leader = ev->leader_plus1 ? ev->leader_plus1 - 1 : e,
		.nr_members = ev->nr_members ? ev->nr_members : 1,
		.group_name = ev->group_name,
	};
	memcpy(info, &i, info->sz < sizeof(i) ? info->sz : sizeof(i));
	return 0;
}

/* --- records --------------------------------------------------------------- */

/* The fixed part of each record type, header included: the fields before
 * any variable part (a name, an array, a payload) and before the
 * sample_id_all trailer (include/uapi/linux/perf_event.h, enum
 * perf_event_type; tools/lib/perf/include/perf/event.h, struct
 * perf_record_*).  A record smaller than that is refused, so that no user
 * of a record reads a field past its end.  0: no rule (the header only). */
static const uint8_t fixed_size[] = {
	[1] = 40,   /* MMAP: pid, tid, addr, len, pgoff */
	[2] = 24,   /* LOST: id, lost */
	[3] = 16,   /* COMM: pid, tid */
	[4] = 32,   /* EXIT: pid, ppid, tid, ptid, time */
	[5] = 32,   /* THROTTLE: time, id, stream_id */
	[6] = 32,   /* UNTHROTTLE */
	[7] = 32,   /* FORK, as EXIT */
	[8] = 24,   /* READ: pid, tid, a value */
	[10] = 72,  /* MMAP2: pid, tid, addr, len, pgoff, maj/min/ino or build id, prot, flags */
	[11] = 32,  /* AUX: aux_offset, aux_size, flags */
	[12] = 16,  /* ITRACE_START: pid, tid */
	[13] = 16,  /* LOST_SAMPLES: lost */
	[15] = 16,  /* SWITCH_CPU_WIDE: next_prev_pid, next_prev_tid */
	[16] = 24,  /* NAMESPACES: pid, tid, nr_namespaces */
	[17] = 24,  /* KSYMBOL: addr, len, ksym_type, flags */
	[18] = 24,  /* BPF_EVENT: type, flags, id, tag */
	[19] = 16,  /* CGROUP: id */
	[20] = 20,  /* TEXT_POKE: addr, old_len, new_len */
	[21] = 16,  /* AUX_OUTPUT_HW_ID: hw_id */
	[PD_RECORD_AUXTRACE_INFO] = 16,  /* type, reserved */
	[PD_RECORD_AUXTRACE] = 48,       /* size, offset, reference, idx, tid, cpu, reserved */
	[PD_RECORD_AUXTRACE_ERROR] = 48, /* type, code, cpu, pid, tid, fmt, ip, time */
	[PD_RECORD_TIME_CONV] = 32,      /* time_shift, time_mult, time_zero */
};

static unsigned record_fixed_size(uint32_t type)
{
	return type < sizeof(fixed_size) ? fixed_size[type] : 0;
}

/* A record decompressed from a compressed record: the chunk that holds its
 * end is the one whose reading emitted it, and the file goes on after
 * that chunk's compressed record. */
static int seek_decompressed(struct pmurt_perf_file *f, uint64_t offset)
{
	struct pd_decomp *z = &f->z;
	size_t k = offset >> 32 & 0x7fffffff, pos = offset & 0xffffffff;
	if (k >= z->n || pos % 8 || pos >= z->chunks[k].len || z->chunks[k].len - pos < 8)
		return -EINVAL;
	z->cur = k;
	z->pos = pos;
	z->inside = true;
	f->pos = z->chunks[k].next;
	return 0;
}

int pmurt_perf_seek(struct pmurt_perf_file *f, uint64_t offset)
{
	if (f && (offset & PMURT_PERF_OFFSET_DECOMPRESSED))
		return seek_decompressed(f, offset);
	/* perf pads every record to 8 bytes but its compressed ones */
	if (!f || offset < f->data_offset || offset > f->data_end ||
	    (offset % 8 && !f->z.described && !f->pipe))
		return -EINVAL;
	f->pos = offset;
	f->z.inside = false;
	if (f->z.n)   /* what a chunk left unread belongs to the position left */
		f->z.pos = f->z.chunks[f->z.cur].len;
	return 0;
}

/* The event of a sample, found by its id (perf's evlist__event2evsel). */
static int sample_event(const struct pmurt_perf_file *f, const uint8_t *body, size_t len,
			uint64_t at, struct pmurt_error *err)
{
	if (f->nevents == 1)
		return 0;
	size_t pos = (size_t)f->sample_id_pos * 8;
	if (len < pos + 8)
		return fail_at(f, err, at, "sample of %zu bytes too short for its id", len + 8);
	uint64_t id = pd_get64(body + pos);
	int e = event_of_id(f, id);
	if (e < 0)
		return fail_at(f, err, at, "sample id %llu names no event of the file",
			       (unsigned long long)id);
	return e;
}

/* The event of another kernel record: by its trailer's id, the first event
 * when the id is 0 or there is no trailer. */
static int trailer_event(const struct pmurt_perf_file *f, const uint8_t *body, size_t len,
			 uint64_t at, struct pmurt_error *err)
{
	if (f->nevents == 1 || !f->sample_id_all)
		return 0;
	size_t back = (size_t)f->trailer_id_pos * 8;
	if (len < back)
		return fail_at(f, err, at, "record of %zu bytes too short for its "
			       "sample_id_all trailer", len + 8);
	uint64_t id = pd_get64(body + len - back);
	int e = id ? event_of_id(f, id) : 0;
	if (e < 0)
		return fail_at(f, err, at, "record's trailer id %llu names no event of the "
			       "file", (unsigned long long)id);
	return e;
}

static int parse_body(struct pmurt_perf_file *f, struct pmurt_perf_record *rec,
		      struct pmurt_error *err)
{
	const uint8_t *body = (const uint8_t *)rec->data + 8;
	size_t len = rec->size - 8u;
	const char *why = "the record";
	int e;
	if (rec->type >= PD_RECORD_USER_START)
		return 0;
	if (rec->type == PERF_RECORD_SAMPLE) {
		if ((e = sample_event(f, body, len, rec->offset, err)) < 0)
			return e;
		rec->event = e;
		if (pd_parse_sample(&f->events[e].attr, body, len, rec, &why))
			return fail_at(f, err, rec->offset, "%s runs past the end of the "
				       "%u-byte sample", why, rec->size);
		return 0;
	}
	if ((e = trailer_event(f, body, len, rec->offset, err)) < 0)
		return e;
	rec->event = e;
	size_t trailer = f->sample_id_all ? pd_trailer_size(f->events[e].attr.sample_type) : 0;
	if (rec->size < record_fixed_size(rec->type) + trailer)
		return fail_at(f, err, rec->offset, "record type %u of %u bytes is shorter than "
			       "its fixed part (%u bytes) and its %zu-byte sample_id_all trailer",
			       rec->type, rec->size, record_fixed_size(rec->type), trailer);
	if (f->sample_id_all && pd_parse_trailer(f->events[e].attr.sample_type, body, len, rec, &why))
		return fail_at(f, err, rec->offset, "%s does not fit the %u-byte record",
			       why, rec->size);
	return 0;
}

/* AUXTRACE: header.size excludes the payload whose size the record gives. */
static int auxtrace_payload(struct pmurt_perf_file *f, struct pmurt_perf_record *rec,
			    struct pmurt_error *err)
{
	uint64_t size = pd_get64((const uint8_t *)rec->data + 8);
	uint64_t start = rec->offset + rec->size;
	if (size % 8 || size > f->data_end - start)
		return fail_at(f, err, rec->offset, "AUXTRACE payload of %#llx bytes %s",
			       (unsigned long long)size, size % 8 ? "is not 8-byte padded"
			       : "runs past the data section's end: truncated?");
	rec->payload = f->map + start;
	rec->payload_size = size;
	return 0;
}

/* A record's header at p (offset at): its fields in rec, checked. */
static int header_fields(const struct pmurt_perf_file *f, struct pmurt_perf_record *rec,
			 const uint8_t *p, uint64_t at, struct pmurt_error *err)
{
	rec->offset = at;
	rec->data = p;
	rec->type = pd_get32(p);
	memcpy(&rec->misc, p + 4, 2);
	memcpy(&rec->size, p + 6, 2);
	/* perf pads every record to 8 bytes but its compressed ones
	 * (zstd.c zstd_compress_stream_to_records) and, in a pipe, its
	 * synthesized ones (HEADER_FEATURE) */
	if (rec->size < 8 || (rec->size % 8 && rec->type != PD_RECORD_COMPRESSED && !f->pipe))
		return fail_at(f, err, at, "record size %u is %s", rec->size,
			       rec->size < 8 ? "smaller than its header" : "not a multiple of 8");
	return 0;
}

static int user_record_size(const struct pmurt_perf_file *f, const struct pmurt_perf_record *rec,
			    struct pmurt_error *err)
{
	if (rec->type >= PD_RECORD_USER_START && rec->size < record_fixed_size(rec->type))
		return fail_at(f, err, rec->offset, "record type %u of %u bytes is shorter than "
			       "its fixed part (%u bytes)", rec->type, rec->size,
			       record_fixed_size(rec->type));
	return 0;
}

/* A record after a compressed one lies at an unaligned offset: its copy in
 * aligned memory, kept until the file is closed, so that the arrays a
 * sample points into are aligned. */
static int align_record(struct pmurt_perf_file *f, struct pmurt_perf_record *rec,
			struct pmurt_error *err)
{
	if (!((uintptr_t)rec->data % 8))
		return 0;
	void **copies = realloc(f->copies, (f->ncopies + 1) * sizeof(*copies));
	void *copy = copies ? malloc(rec->size) : NULL;
	if (copies)
		f->copies = copies;
	if (!copy) {
		pmurt_set_error(err, -ENOMEM, "%s: out of memory", f->path);
		return -ENOMEM;
	}
	rec->data = memcpy(copy, rec->data, rec->size);
	f->copies[f->ncopies++] = copy;
	return 0;
}

static int record_header(struct pmurt_perf_file *f, struct pmurt_perf_record *rec,
			 struct pmurt_error *err)
{
	uint64_t at = f->pos;
	if (f->data_end - at < 8)
		return fail_at(f, err, at, "record header runs past the data section's end "
			       "at %#llx: truncated?", (unsigned long long)f->data_end);
	int rc = header_fields(f, rec, f->map + at, at, err);
	if (rc)
		return rc;
	if (rec->size > f->data_end - at)
		return fail_at(f, err, at, "record of %u bytes runs past the data section's "
			       "end at %#llx: truncated?", rec->size,
			       (unsigned long long)f->data_end);
	if (rec->type == PD_RECORD_COMPRESSED)
		return 0;
	return (rc = user_record_size(f, rec, err)) ? rc : align_record(f, rec, err);
}

/* The current chunk's next record: 1, 0 when the chunk's rest holds no
 * whole record (its beginning waits for the next compressed record), or an
 * error. */
static int chunk_record(struct pmurt_perf_file *f, struct pmurt_perf_record *rec,
			struct pmurt_error *err)
{
	struct pd_decomp *z = &f->z;
	const struct pd_chunk *c = &z->chunks[z->cur];
	size_t avail = c->len - z->pos;
	if (avail < 8)
		return 0;
	uint64_t at = PMURT_PERF_OFFSET_DECOMPRESSED | (uint64_t)z->cur << 32 | z->pos;
	int rc = header_fields(f, rec, c->buf + z->pos, at, err);
	if (rc)
		return rc;
	if (rec->size > avail)
		return 0;
	if (rec->type == PD_RECORD_COMPRESSED || rec->type == PD_RECORD_AUXTRACE)
		return fail_at(f, err, at, "%s record inside compressed data",
			       rec->type == PD_RECORD_AUXTRACE ? "an AUXTRACE" : "a compressed");
	return (rc = user_record_size(f, rec, err)) ? rc : 1;
}

/* A compressed record met in the file: its chunk, decompressed now or, met
 * again after a seek, as it was; its records are read next. */
static int enter_compressed(struct pmurt_perf_file *f, const struct pmurt_perf_record *rec,
			    struct pmurt_error *err)
{
	struct pd_decomp *z = &f->z;
	uint64_t next = rec->offset + rec->size;
	long k = pd_decomp_find(z, rec->offset);
	if (k >= 0) {
		z->cur = (size_t)k;
		z->pos = 0;
	} else if (z->n && rec->offset < z->chunks[z->n - 1].record) {
		/* the stream runs through the records in file order */
		return fail_at(f, err, rec->offset, "compressed record reached by a seek past "
			       "the compressed records before it");
	} else {
		char why[200];
		int rc = pd_decomp_add(z, rec->offset, next, (const uint8_t *)rec->data + 8,
				       rec->size - 8u, why, sizeof(why));
		if (rc == -ENOMEM) {
			pmurt_set_error(err, rc, "%s: out of memory", f->path);
			return rc;
		}
		if (rc)
			return fail_at(f, err, rec->offset, "%s", why);
	}
	z->inside = true;
	f->pos = next;
	return 0;
}

/* At the data section's end: nothing of a record left in a chunk. */
static int finished(const struct pmurt_perf_file *f, struct pmurt_error *err)
{
	const struct pd_decomp *z = &f->z;
	if (!z->n || z->pos >= z->chunks[z->cur].len)
		return 0;
	return fail_at(f, err, PMURT_PERF_OFFSET_DECOMPRESSED | (uint64_t)z->cur << 32 | z->pos,
		       "the compressed records end inside a record (%zu bytes of it): truncated?",
		       z->chunks[z->cur].len - z->pos);
}

/* The next record, from the current chunk or the file. */
static int next_record(struct pmurt_perf_file *f, struct pmurt_perf_record *rec,
		       struct pmurt_error *err)
{
	for (;;) {
		int rc;
		if (f->z.inside) {
			if ((rc = chunk_record(f, rec, err)) != 0)
				return rc;
			f->z.inside = false;
		}
		if (f->pos >= f->data_end)
			return finished(f, err);
		if ((rc = record_header(f, rec, err)) < 0)
			return rc;
		if (rec->type != PD_RECORD_COMPRESSED)
			return 1;
		if ((rc = enter_compressed(f, rec, err)) < 0)
			return rc;
	}
}

/* HEADER_TRACING_DATA: {header, u32 size, pad}, its size bytes after it. */
static int tracing_payload(struct pmurt_perf_file *f, struct pmurt_perf_record *rec,
			   struct pmurt_error *err)
{
	uint64_t start = rec->offset + rec->size;
	uint32_t size = rec->size >= 16 ? pd_get32((const uint8_t *)rec->data + 8) : 0;
	if (rec->size < 16 || size > f->data_end - start)
		return fail_at(f, err, rec->offset, "tracing data %s", rec->size < 16
			       ? "record shorter than 16 bytes"
			       : "runs past the end of the stream: truncated?");
	rec->payload = f->map + start;
	rec->payload_size = size;
	return 0;
}

int pmurt_perf_next(struct pmurt_perf_file *f, struct pmurt_perf_record *out,
		    struct pmurt_error *err)
{
	pmurt_clear_error(err);
	if (!f || !out || out->sz < sizeof(size_t))
		return -EINVAL;
	/* a copy of a blank record: GCC clears 248 bytes with rep stos, whose
	 * start-up cost was half of this function's time */
	static const struct pmurt_perf_record blank;
	struct pmurt_perf_record local, *rec = out->sz >= sizeof(local) ? out : &local;
	size_t sz = out->sz;
	*rec = blank;
	rec->sz = sz < sizeof(*rec) ? sz : sizeof(*rec);
	rec->event = -1;
	int rc = next_record(f, rec, err);
	if (rc <= 0)
		return rc;
	bool inside = rec->offset & PMURT_PERF_OFFSET_DECOMPRESSED;
	rc = 0;
	if (!inside && rec->type == PD_RECORD_AUXTRACE)
		rc = auxtrace_payload(f, rec, err);
	else if (!inside && rec->type == PD_RECORD_HEADER_TRACING_DATA && f->pipe)
		rc = tracing_payload(f, rec, err);
	if (!rc)
		rc = parse_body(f, rec, err);
	if (rc)
		return rc;
	if (inside)
		f->z.pos += rec->size;
	else
		f->pos += rec->size + rec->payload_size;
	if (rec != out)
		memcpy(out, rec, sz);
	return 1;
}

/* --- perf's pipe format ------------------------------------------------------ */

/* perf record -o - (util/header.c perf_header__write_pipe, and
 * perf_event__synthesize_attrs/features/event_update_name): a 16-byte
 * header, then records only; the attrs come as HEADER_ATTR records, the
 * features as HEADER_FEATURE records (the section bytes of a file's
 * feature), the names as EVENT_UPDATE ones, the tracepoints' formats after
 * a HEADER_TRACING_DATA record.  Records need not be 8-byte padded.  Read
 * in two passes over the records' headers: the attrs, then what names them. */

/* HEADER_ATTR: {header, attr (attr.size bytes), u64 ids[]}. */
static int pipe_attr(struct pmurt_perf_file *f, const struct pmurt_perf_record *rec,
		     struct pmurt_error *err)
{
	const uint8_t *p = (const uint8_t *)rec->data + 8;
	uint32_t len = rec->size - 8u, asz = len >= 8 ? pd_get32(p + 4) : 0;
	asz = asz ? asz : PERF_ATTR_SIZE_VER0;
	if (len < asz || asz < PERF_ATTR_SIZE_VER0 || (len - asz) % 8)
		return fail_at(f, err, rec->offset, "attr record of %u bytes does not hold its "
			       "%u-byte attr and whole ids", rec->size, asz);
	if (f->nevents >= 65536)
		return fail_at(f, err, rec->offset, "more than 65536 attrs");
	struct file_event *v = realloc(f->events, (size_t)(f->nevents + 1) * sizeof(*v));
	if (!v)
		goto nomem;
	f->events = v;
	struct file_event *ev = &v[f->nevents++];
	*ev = (struct file_event){.raw_attr = p, .raw_size = asz, .nids = (int)((len - asz) / 8)};
	memcpy(&ev->attr, p, asz < sizeof(ev->attr) ? asz : sizeof(ev->attr));
	if (!(ev->ids = malloc(len - asz ? len - asz : 1)))
		goto nomem;
	memcpy(ev->ids, p + asz, len - asz);
	return 0;
nomem:
	pmurt_set_error(err, -ENOMEM, "%s: out of memory", f->path);
	return -ENOMEM;
}

/* EVENT_UPDATE {header, u64 type, u64 id, ...}: type 2 (NAME) names the
 * event of id, as perf's evsel__process_event_update. */
static int pipe_event_update(struct pmurt_perf_file *f, const struct pmurt_perf_record *rec,
			     struct pmurt_error *err)
{
	const uint8_t *p = (const uint8_t *)rec->data + 8;
	if (rec->size < 24 || pd_get64(p) != 2)
		return 0;
	int e = event_of_id(f, pd_get64(p + 8));
	size_t len = strnlen((const char *)p + 16, rec->size - 24u);
	if (e < 0 || f->events[e].name)
		return 0;
	if (!(f->events[e].name = strndup((const char *)p + 16, len))) {
		pmurt_set_error(err, -ENOMEM, "%s: out of memory", f->path);
		return -ENOMEM;
	}
	return 0;
}

/* HEADER_FEATURE {header, u64 feature, the section's bytes}. */
static int pipe_feature(struct pmurt_perf_file *f, const struct pmurt_perf_record *rec,
			struct pmurt_error *err)
{
	if (rec->size < 16)
		return fail_at(f, err, rec->offset, "feature record shorter than 16 bytes");
	uint64_t bit = pd_get64((const uint8_t *)rec->data + 8);
	if (bit >= PD_FEAT_BITS)
		return 0;
	f->features[bit / 64] |= 1ull << (bit % 64);
	/* a feature's reader reads f->map: the record in place, not its copy */
	return read_feature(f, (int)bit, rec->offset + 16, rec->size - 16u, err);
}

/* The record at f->pos in place (unaligned: its fields read bytewise). */
static int pipe_record(struct pmurt_perf_file *f, struct pmurt_perf_record *rec,
		       struct pmurt_error *err)
{
	if (f->data_end - f->pos < 8)
		return fail_at(f, err, f->pos, "record header runs past the end of the stream: "
			       "truncated?");
	int rc = header_fields(f, rec, f->map + f->pos, f->pos, err);
	if (!rc && rec->size > f->data_end - f->pos)
		return fail_at(f, err, f->pos, "record of %u bytes runs past the end of the "
			       "stream: truncated?", rec->size);
	return rc;
}

/* One pass over the stream's records: attrs (first pass) or the rest. */
static int pipe_pass(struct pmurt_perf_file *f, bool attrs, struct pmurt_error *err)
{
	struct pmurt_perf_record rec = {.sz = sizeof(rec)};
	int rc = 0;
	for (f->pos = f->data_offset; !rc && f->pos < f->data_end;) {
		rec.payload_size = 0;
		if ((rc = pipe_record(f, &rec, err)) ||
		    (rec.type == PD_RECORD_HEADER_TRACING_DATA &&
		     (rc = tracing_payload(f, &rec, err))))
			return rc;
		if (attrs && rec.type == PD_RECORD_HEADER_ATTR)
			rc = pipe_attr(f, &rec, err);
		else if (!attrs && rec.type == PD_RECORD_HEADER_FEATURE)
			rc = pipe_feature(f, &rec, err);
		else if (!attrs && rec.type == PD_RECORD_EVENT_UPDATE)
			rc = pipe_event_update(f, &rec, err);
		else if (!attrs && rec.type == PD_RECORD_HEADER_TRACING_DATA) {
			f->tracing_at = rec.offset + rec.size;
			f->tracing_size = rec.payload_size;
		}
		f->pos += rec.size + rec.payload_size;
	}
	f->pos = f->data_offset;
	return rc;
}

static int read_pipe_header(struct pmurt_perf_file *f, struct pmurt_error *err)
{
	f->pipe = true;
	f->data_offset = f->pos = PD_PIPE_HEADER_SIZE;
	f->data_end = f->size;
	int rc = pipe_pass(f, true, err);
	if (!rc && !f->nevents)
		return fail_at(f, err, PD_PIPE_HEADER_SIZE, "perf's pipe format without an attr "
			       "record: not a recording");
	if (rc || (rc = build_id_hash(f, err)) || (rc = check_id_layout(f, err)) ||
	    (rc = pipe_pass(f, false, err)))
		return rc;
	return name_unnamed(f, err);
}

int pmurt_perf_read_value(const struct pmurt_perf_file *f, const struct pmurt_perf_record *rec,
			  uint64_t i, struct pmurt_perf_read_value *v)
{
	if (!f || !rec || !v || v->sz < sizeof(size_t) ||
	    rec->sz < offsetof(struct pmurt_perf_record, read_size) + sizeof(rec->read_size) ||
	    rec->type != PERF_RECORD_SAMPLE || rec->event < 0 || rec->event >= f->nevents ||
	    !(rec->has & PERF_SAMPLE_READ) || !rec->read)
		return -EINVAL;
	struct pd_read_value got;
	int rc = pd_read_value(f->events[rec->event].attr.read_format, rec->read, rec->read_size,
			       i, &got);
	if (rc <= 0)
		return rc;
	struct pmurt_perf_read_value out = {.sz = v->sz, .value = got.value, .id = got.id,
					    .lost = got.lost, .event = -1};
	/* perf's evlist__id2sid: a value without PERF_FORMAT_ID has id 0,
	 * which names no event */
	if (got.id)
		out.event = event_of_id(f, got.id);
	memcpy(v, &out, v->sz < sizeof(out) ? v->sz : sizeof(out));
	return 1;
}

/* build-id.c perf_header__read_build_ids: records of {header, pid, 20
 * bytes of id, its size (with PERF_RECORD_MISC_BUILD_ID_SIZE), 3
 * reserved, the name}, each header.size long. */
int pd_recorded_build_ids(const struct pmurt_perf_file *f,
			  int (*fn)(void *arg, const char *name, const uint8_t *id,
				    size_t id_len),
			  void *arg)
{
	const uint8_t *p = f->map + f->build_ids, *end = p + f->build_ids_size;
	while (end - p >= 36) {
		uint16_t misc, size;
		memcpy(&misc, p + 4, 2);
		memcpy(&size, p + 6, 2);
		if (size < 36 || size > end - p)
			break;
		const char *name = (const char *)p + 36;
		size_t id_len = misc & (1u << 15) && p[32] <= PD_BUILD_ID_MAX ? p[32]
									  : PD_BUILD_ID_MAX;
		int rc = memchr(name, 0, size - 36u) ? fn(arg, name, p + 12, id_len) : 0;
		if (rc)
			return rc;
		p += size;
	}
	return 0;
}

struct wanted_id {
	const char *dso;
	uint8_t *id;
	size_t *id_len;
};

static int take_id(void *arg, const char *name, const uint8_t *id, size_t id_len)
{
	struct wanted_id *w = arg;
	if (strcmp(name, w->dso))
		return 0;
	memcpy(w->id, id, id_len);
	*w->id_len = id_len;
	return 1;
}

int pd_recorded_build_id(const struct pmurt_perf_file *f, const char *dso,
			 uint8_t id[PD_BUILD_ID_MAX], size_t *id_len)
{
	struct wanted_id w = {dso, id, id_len};
	return pd_recorded_build_ids(f, take_id, &w) == 1 ? 0 : -ENOENT;
}
