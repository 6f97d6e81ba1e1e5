/*
 * writer.c - writing perf.data as perf record does (tools/perf/util/header.c,
 * perf_session__write_header and perf_header__adds_write): the header's
 * place is zero while records are written and filled in last; after the
 * attrs' ids and the attrs come the records, then one section entry per
 * feature and the features' payloads.  Features written: tracing data
 * when asked for (tracing.c), build ids and sample times from what the
 * records showed as they were added (buildid.c: what perf record's pass
 * over its data finds), the host's description (features.c), cmdline,
 * event_desc, group_desc with groups, branch_stack when sampled, the
 * AUXTRACE index when AUXTRACE records were added, clockid when the events
 * use a clock.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "errors.h"
#include "perfdata.h"

#define PD_MAGIC 0x32454c4946524550ull     /* "PERFILE2" */
#define PD_HEADER_SIZE 104u
#define PD_NAME_ALIGN 64u                  /* header.c NAME_ALIGN */

/* The writer's own buffer (stdio's would be st_blksize, 4 KiB, and copy
 * every byte of a large piece once more); a piece of at least half of it,
 * such as a span of a ring, is written straight from the caller's memory. */
#define PD_WRITE_BUFFER (1u << 18)

struct pd_writer {
	int fd;
	uint8_t *buf;              /* PD_WRITE_BUFFER bytes, buffered of them */
	size_t buffered;
	char *path;
	struct pd_event *events;   /* ids and names copied */
	int nevents;
	uint64_t attrs_offset, data_offset, pos;
	uint64_t *aux_offsets;     /* AUXTRACE records, for the index feature */
	size_t naux, aux_cap;
	uint8_t *tracing;          /* the tracing-data feature, or NULL */
	size_t tracing_len;
	uint64_t features[4];
	char root[512];            /* where /proc and /sys are read ("" for /) */
	struct pd_hits *hits;      /* the records' DSOs and times, as they go by */
	struct pd_bytes build_ids; /* finish's BUILD_ID feature from them */
	uint64_t sample_times[2];  /* and the first and last sample times */
	bool round_pending;        /* records since the last FINISHED_ROUND */
	bool failed;
};

static int io_error(struct pd_writer *w, struct pmurt_error *err, const char *what)
{
	int rc = errno ? -errno : -EIO;
	w->failed = true;
	pmurt_set_error(err, rc, "%s: %s: %s", w->path, what, strerror(-rc));
	return rc;
}

static int write_all(struct pd_writer *w, const void *p, size_t n, struct pmurt_error *err)
{
	const uint8_t *at = p;
	while (n) {
		errno = 0;
		ssize_t k = write(w->fd, at, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return io_error(w, err, "write");
		at += k;
		n -= (size_t)k;
	}
	return 0;
}

static int flush(struct pd_writer *w, struct pmurt_error *err)
{
	int rc = write_all(w, w->buf, w->buffered, err);
	w->buffered = 0;
	return rc;
}

static int put(struct pd_writer *w, const void *p, size_t n, struct pmurt_error *err)
{
	int rc = 0;
	bool large = n >= PD_WRITE_BUFFER / 2;
	if (large || w->buffered + n > PD_WRITE_BUFFER)
		rc = flush(w, err);   /* what came before goes first */
	if (!rc && large)
		rc = write_all(w, p, n, err);
	else if (!rc) {
		memcpy(w->buf + w->buffered, p, n);
		w->buffered += n;
	}
	w->pos += rc ? 0 : n;
	return rc;
}

/* Continue writing at offset (the buffer flushed first). */
static int seek_to(struct pd_writer *w, uint64_t offset, struct pmurt_error *err)
{
	int rc = flush(w, err);
	errno = 0;
	if (!rc && lseek(w->fd, (off_t)offset, SEEK_SET) < 0)
		rc = io_error(w, err, "seek");
	return rc;
}

static int put_zeros(struct pd_writer *w, size_t n, struct pmurt_error *err)
{
	static const uint8_t zeros[PD_NAME_ALIGN];
	int rc = 0;
	while (n && !rc) {
		size_t k = n < sizeof(zeros) ? n : sizeof(zeros);
		rc = put(w, zeros, k, err);
		n -= k;
	}
	return rc;
}

static int no_memory(struct pd_writer *w, struct pmurt_error *err)
{
	w->failed = true;
	pmurt_set_error(err, -ENOMEM, "%s: out of memory", w->path);
	return -ENOMEM;
}

/* --- opening: ids, attrs, the start of the data section ------------------- */

static int copy_events(struct pd_writer *w, const struct pd_event *events, int n,
		       struct pmurt_error *err)
{
	w->events = calloc((size_t)n, sizeof(*w->events));
	if (!w->events)
		return no_memory(w, err);
	w->nevents = n;
	for (int e = 0; e < n; e++) {
		struct pd_event *ev = &w->events[e];
		ev->attr = events[e].attr;
		ev->attr.size = sizeof(ev->attr);
		ev->nids = events[e].nids;
		ev->group_size = events[e].group_size;
		uint64_t *ids = malloc(((size_t)ev->nids + 1) * sizeof(*ids));
		ev->name = strdup(events[e].name ? events[e].name : "");
		ev->ids = ids;
		if (!ids || !ev->name)
			return no_memory(w, err);
		if (ev->nids)
			memcpy(ids, events[e].ids, (size_t)ev->nids * sizeof(*ids));
	}
	return 0;
}

/* perf_session__write_header's order: each attr's ids, then the attrs,
 * each followed by the section of its ids. */
static int write_attrs(struct pd_writer *w, struct pmurt_error *err)
{
	uint64_t id_offset = PD_HEADER_SIZE;
	int rc = put_zeros(w, PD_HEADER_SIZE, err);
	for (int e = 0; e < w->nevents && !rc; e++)
		rc = put(w, w->events[e].ids, (size_t)w->events[e].nids * 8, err);
	w->attrs_offset = w->pos;
	for (int e = 0; e < w->nevents && !rc; e++) {
		uint64_t ids[2] = {id_offset, (uint64_t)w->events[e].nids * 8};
		id_offset += ids[1];
		rc = put(w, &w->events[e].attr, sizeof(w->events[e].attr), err);
		if (!rc)
			rc = put(w, ids, sizeof(ids), err);
	}
	w->data_offset = w->pos;
	return rc;
}

static void free_writer(struct pd_writer *w)
{
	if (!w)
		return;
	if (w->fd >= 0)
		close(w->fd);
	free(w->buf);
	for (int e = 0; w->events && e < w->nevents; e++) {
		free((void *)w->events[e].ids);
		free((void *)w->events[e].name);
	}
	free(w->events);
	free(w->aux_offsets);
	free(w->tracing);
	pd_bytes_free(&w->build_ids);
	pd_hits_free(w->hits);
	free(w->path);
	free(w);
}

int pd_writer_open(struct pd_writer **out, const char *path, const struct pd_event *events,
		   int nevents, struct pmurt_error *err)
{
	pmurt_clear_error(err);
	*out = NULL;
	if (nevents < 1 || !events) {
		pmurt_set_error(err, -EINVAL, "%s: a perf.data file needs at least one event", path);
		return -EINVAL;
	}
	for (int e = 0; e < nevents; e++) {
		if (events[e].group_size < 0 || events[e].group_size > nevents - e) {
			pmurt_set_error(err, -EINVAL, "%s: event %d leads a group of %d: past the "
					"%d events", path, e, events[e].group_size, nevents);
			return -EINVAL;
		}
		if (events[e].nids < 1 || !events[e].ids) {
			/* perf derives synthesised events' ids from the first */
			pmurt_set_error(err, -EINVAL, "%s: event %d (%s) has no sample id", path, e,
					events[e].name ? events[e].name : "unnamed");
			return -EINVAL;
		}
	}
	struct pd_writer *w = calloc(1, sizeof(*w));
	if (w)
		w->fd = -1;
	if (!w || !(w->path = strdup(path))) {
		free(w);
		pmurt_set_error(err, -ENOMEM, "%s: out of memory", path);
		return -ENOMEM;
	}
	int rc = copy_events(w, events, nevents, err);
	if (!rc && pd_hits_new(&w->hits, w->events, nevents) < 0)
		rc = no_memory(w, err);
	if (!rc) {
		/* owner-only, as perf creates it (tools/perf/util/data.c
		 * open_file_write: S_IRUSR | S_IWUSR): samples show what ran */
		w->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		w->buf = w->fd >= 0 ? malloc(PD_WRITE_BUFFER) : NULL;
		if (w->fd < 0)
			rc = io_error(w, err, "cannot create");
		else if (!w->buf) {
			rc = -ENOMEM;
			pmurt_set_error(err, rc, "%s: out of memory", path);
		}
	}
	if (!rc)
		rc = write_attrs(w, err);
	if (rc) {
		free_writer(w);
		return rc;
	}
	*out = w;
	return 0;
}

int pd_writer_add_tracing(struct pd_writer *w, const char *tracefs, struct pmurt_error *err)
{
	pmurt_clear_error(err);
	free(w->tracing);
	w->tracing = NULL;
	w->tracing_len = 0;
	return pd_tracing_data(tracefs, w->events, w->nevents, &w->tracing, &w->tracing_len,
			       err);
}

/* --- records ---------------------------------------------------------------- */

static int note_auxtrace(struct pd_writer *w, struct pmurt_error *err)
{
	if (w->naux == w->aux_cap) {
		size_t cap = w->aux_cap ? 2 * w->aux_cap : 64;
		uint64_t *v = realloc(w->aux_offsets, cap * sizeof(*v));
		if (!v)
			return no_memory(w, err);
		w->aux_offsets = v;
		w->aux_cap = cap;
	}
	w->aux_offsets[w->naux++] = w->pos;
	return 0;
}

int pd_writer_add(struct pd_writer *w, const void *rec, struct pmurt_error *err)
{
	pmurt_clear_error(err);
	struct perf_event_header h;
	memcpy(&h, rec, sizeof(h));
	if (h.size < sizeof(h) || h.size % 8) {
		pmurt_set_error(err, -EINVAL, "%s: record type %u of size %u: the size must be a "
				"multiple of 8 covering the header", w->path, h.type, h.size);
		return -EINVAL;
	}
	uint64_t payload = 0;
	if (h.type == PD_RECORD_AUXTRACE) {
		if (h.size < 48) {   /* readers refuse it (reader.c's fixed parts) */
			pmurt_set_error(err, -EINVAL, "%s: AUXTRACE record of %u bytes: shorter "
					"than its 48", w->path, h.size);
			return -EINVAL;
		}
		memcpy(&payload, (const uint8_t *)rec + 8, 8);
		if (payload % 8) {
			pmurt_set_error(err, -EINVAL, "%s: AUXTRACE payload of %llu bytes is not "
					"padded to 8", w->path, (unsigned long long)payload);
			return -EINVAL;
		}
		int rc = note_auxtrace(w, err);
		if (rc)
			return rc;
	}
	w->round_pending = h.type != PD_RECORD_FINISHED_ROUND;
	pd_hits_add(w->hits, rec);
	return put(w, rec, h.size + (size_t)payload, err);
}

int pd_writer_add_auxtrace(struct pd_writer *w, const void *rec, const void *payload,
			   struct pmurt_error *err)
{
	pmurt_clear_error(err);
	uint8_t head[48];
	struct perf_event_header h;
	memcpy(&h, rec, sizeof(h));
	if (h.type != PD_RECORD_AUXTRACE || h.size != sizeof(head)) {
		pmurt_set_error(err, -EINVAL, "%s: record type %u of size %u is no 48-byte "
				"AUXTRACE record", w->path, h.type, h.size);
		return -EINVAL;
	}
	memcpy(head, rec, sizeof(head));
	uint64_t size = pd_get64(head + 8), padded = (size + 7) & ~7ull;
	memcpy(head + 8, &padded, 8); /* perf's record writes the padded size too */
	int rc = note_auxtrace(w, err);
	if (!rc)
		rc = put(w, head, sizeof(head), err);
	if (!rc)
		rc = put(w, payload, (size_t)size, err);
	if (!rc)
		rc = put_zeros(w, (size_t)(padded - size), err);
	w->round_pending = true;
	return rc;
}

void pd_writer_note(struct pd_writer *w, const void *rec)
{
	pd_hits_add(w->hits, rec);
}

int pd_writer_add_noted_span(struct pd_writer *w, const void *recs, size_t len,
			     struct pmurt_error *err)
{
	pmurt_clear_error(err);
	if (len % 8) {
		pmurt_set_error(err, -EINVAL, "%s: a span of records of %zu bytes: not a multiple "
				"of 8", w->path, len);
		return -EINVAL;
	}
	w->round_pending |= len != 0;
	return put(w, recs, len, err);
}

int pd_writer_add_span(struct pd_writer *w, const void *recs, size_t len,
		       struct pmurt_error *err)
{
	if (len % 8 == 0)
		pd_hits_add_span(w->hits, recs, len);
	return pd_writer_add_noted_span(w, recs, len, err);
}

int pd_writer_add_synth(struct pd_writer *w, const void *rec, const struct pd_sample_id *id,
			struct pmurt_error *err)
{
	const struct pd_event *first = &w->events[0];
	uint64_t st = first->attr.sample_id_all ? first->attr.sample_type : 0;
	uint8_t buf[65536];
	struct perf_event_header h;
	memcpy(&h, rec, sizeof(h));
	size_t trailer = pd_trailer_size(st);
	if (h.size < sizeof(h) || h.size + trailer > UINT16_MAX) {
		pmurt_clear_error(err);
		pmurt_set_error(err, -EINVAL, "%s: synthesised record type %u of size %u: too "
				"small or too large for its trailer", w->path, h.type, h.size);
		return -EINVAL;
	}
	memcpy(buf, rec, h.size);
	uint8_t *p = buf + h.size;
	struct pd_sample_id none = {0};
	const struct pd_sample_id *s = id ? id : &none;
	uint64_t time = s->time, ident = id ? first->ids[0] : 0;
	uint32_t pid_tid[2] = {s->pid, s->tid}, cpu_res[2] = {s->cpu, 0};
	if (st & PERF_SAMPLE_TID)
		p = (uint8_t *)memcpy(p, pid_tid, 8) + 8;
	if (st & PERF_SAMPLE_TIME)
		p = (uint8_t *)memcpy(p, &time, 8) + 8;
	if (st & PERF_SAMPLE_ID)
		p = (uint8_t *)memcpy(p, &ident, 8) + 8;
	if (st & PERF_SAMPLE_STREAM_ID)
		p = (uint8_t *)memcpy(p, &ident, 8) + 8;
	if (st & PERF_SAMPLE_CPU)
		p = (uint8_t *)memcpy(p, cpu_res, 8) + 8;
	if (st & PERF_SAMPLE_IDENTIFIER)
		p = (uint8_t *)memcpy(p, &ident, 8) + 8;
	h.size = (uint16_t)(p - buf);
	memcpy(buf, &h, sizeof(h));
	return pd_writer_add(w, buf, err);
}

/* --- features and the header ------------------------------------------------ */

/* write_cmdline: the recording program's path (/proc/self/exe, as
 * perf_exe), then its arguments after argv[0]. */
static void cmdline_feature(struct pd_bytes *b)
{
	char buf[8192], exe[4096];
	size_t n = 0;
	FILE *fp = fopen("/proc/self/cmdline", "re");
	if (fp) {
		n = fread(buf, 1, sizeof(buf) - 1, fp);
		fclose(fp);
	}
	buf[n] = 0;
	ssize_t k = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	exe[k > 0 ? k : 0] = 0;
	size_t first = n ? strlen(buf) + 1 : 0;   /* argv[1] */
	uint32_t count = 1;
	for (size_t i = first; i < n; i += strlen(buf + i) + 1)
		count++;
	pd_bytes_u32(b, count);
	pd_bytes_string(b, k > 0 ? exe : buf);
	for (size_t i = first; i < n; i += strlen(buf + i) + 1)
		pd_bytes_string(b, buf + i);
}

/* write_event_desc: nr, attr size, then per event its attr, the number
 * of ids, its name and its ids. */
static void event_desc_feature(const struct pd_writer *w, struct pd_bytes *b)
{
	pd_bytes_u32(b, (uint32_t)w->nevents);
	pd_bytes_u32(b, sizeof(struct perf_event_attr));
	for (int e = 0; e < w->nevents; e++) {
		const struct pd_event *ev = &w->events[e];
		pd_bytes_put(b, &ev->attr, sizeof(ev->attr));
		pd_bytes_u32(b, (uint32_t)ev->nids);
		pd_bytes_string(b, ev->name);
		pd_bytes_put(b, ev->ids, (size_t)ev->nids * 8);
	}
}

/* write_group_desc: the groups of two or more, each "{anon_group}" (perf's
 * name of a group not named on its command line), its leader's index and
 * its number of members; none: no feature (record__init_features). */
static int group_desc_feature(const struct pd_writer *w, struct pd_bytes *b)
{
	uint32_t n = 0;
	for (int e = 0; e < w->nevents; e++)
		n += w->events[e].group_size > 1;
	if (!n)
		return 0;
	pd_bytes_u32(b, n);
	for (int e = 0; e < w->nevents; e++) {
		if (w->events[e].group_size < 2)
			continue;
		pd_bytes_string(b, "{anon_group}");
		pd_bytes_u32(b, (uint32_t)e);
		pd_bytes_u32(b, (uint32_t)w->events[e].group_size);
	}
	return 1;
}

/* write_branch_stack: an empty section, there when the events sample the
 * branch stack (perf record -b or -j). */
static int branch_stack_feature(const struct pd_writer *w)
{
	for (int e = 0; e < w->nevents; e++)
		if (w->events[e].attr.sample_type & PERF_SAMPLE_BRANCH_STACK)
			return 1;
	return 0;
}

/* auxtrace_index__write: the count, then each AUXTRACE record's offset and
 * its header's size. */
static void auxtrace_index_feature(const struct pd_writer *w, struct pd_bytes *b)
{
	pd_bytes_u64(b, w->naux);
	for (size_t i = 0; i < w->naux; i++) {
		pd_bytes_u64(b, w->aux_offsets[i]);
		pd_bytes_u64(b, 48);
	}
}

/* write_clockid: the resolution of the clock the events use, written when
 * they use one (perf record -k). */
static int clockid_feature(const struct pd_writer *w, struct pd_bytes *b)
{
	struct timespec res;
	const struct perf_event_attr *a = &w->events[0].attr;
	if (!a->use_clockid || clock_getres(a->clockid, &res) < 0)
		return 0;
	pd_bytes_u64(b, (uint64_t)res.tv_sec * 1000000000u + (uint64_t)res.tv_nsec);
	return 1;
}

/* One feature's bytes: 1, or 0 when the file goes without it. */
static int build_feature(const struct pd_writer *w, int bit, struct pd_bytes *b)
{
	char text[64];
	switch (bit) {
	case PD_FEAT_TRACING_DATA:
		pd_bytes_put(b, w->tracing, w->tracing_len);
		return w->tracing != NULL;
	case PD_FEAT_BUILD_ID:
		pd_bytes_put(b, w->build_ids.p, w->build_ids.n);
		return w->build_ids.n > 0;
	case PD_FEAT_VERSION:
		snprintf(text, sizeof(text), "libpmurt %d.%d.%d", PMURT_VERSION_MAJOR,
			 PMURT_VERSION_MINOR, PMURT_VERSION_PATCH);
		pd_bytes_string(b, text);
		return 1;
	case PD_FEAT_CMDLINE: cmdline_feature(b); return 1;
	case PD_FEAT_EVENT_DESC: event_desc_feature(w, b); return 1;
	case PD_FEAT_GROUP_DESC: return group_desc_feature(w, b);
	case PD_FEAT_BRANCH_STACK: return branch_stack_feature(w);
	case PD_FEAT_AUXTRACE: auxtrace_index_feature(w, b); return w->naux > 0;
	case PD_FEAT_SAMPLE_TIME: /* write_sample_time: first, then last */
		pd_bytes_u64(b, w->sample_times[0]);
		pd_bytes_u64(b, w->sample_times[1]);
		return 1;
	case PD_FEAT_CLOCKID: return clockid_feature(w, b);
	case PD_FEAT_BPF_PROG_INFO:   /* write_bpf_prog_info, write_bpf_btf: none */
	case PD_FEAT_BPF_BTF:         /* (no PERF_RECORD_BPF_EVENT recorded) */
		pd_bytes_u32(b, 0);
		return 1;
	default: return pd_host_feature(bit, w->root, b);
	}
}

/* perf_header__adds_write: one section entry per feature in bit order,
 * then their payloads. */
static int write_features(struct pd_writer *w, struct pmurt_error *err)
{
	static const int bits[] = {
		PD_FEAT_TRACING_DATA, PD_FEAT_BUILD_ID, PD_FEAT_HOSTNAME, PD_FEAT_OSRELEASE,
		PD_FEAT_VERSION, PD_FEAT_ARCH, PD_FEAT_NRCPUS, PD_FEAT_CPUDESC, PD_FEAT_CPUID,
		PD_FEAT_TOTAL_MEM, PD_FEAT_CMDLINE, PD_FEAT_EVENT_DESC, PD_FEAT_CPU_TOPOLOGY,
		PD_FEAT_NUMA_TOPOLOGY, PD_FEAT_BRANCH_STACK, PD_FEAT_PMU_MAPPINGS,
		PD_FEAT_GROUP_DESC, PD_FEAT_AUXTRACE,
		PD_FEAT_CACHE, PD_FEAT_SAMPLE_TIME, PD_FEAT_MEM_TOPOLOGY, PD_FEAT_CLOCKID,
		PD_FEAT_BPF_PROG_INFO, PD_FEAT_BPF_BTF, PD_FEAT_CPU_PMU_CAPS, PD_FEAT_PMU_CAPS,
	};
	enum { NBITS = sizeof(bits) / sizeof(bits[0]) };
	struct pd_bytes payload[NBITS] = {{0}};
	int has[NBITS], n = 0, rc = 0;
	bool nomem = false;
	for (int i = 0; i < NBITS; i++) {
		has[i] = build_feature(w, bits[i], &payload[i]);
		nomem |= payload[i].nomem;
		n += has[i];
	}
	uint64_t offset = w->pos + (uint64_t)n * 16;
	for (int i = 0; i < NBITS && !rc && !nomem; i++) {
		if (!has[i])
			continue;
		uint64_t section[2] = {offset, payload[i].n};
		w->features[bits[i] / 64] |= 1ull << (bits[i] % 64);
		offset += payload[i].n;
		rc = put(w, section, sizeof(section), err);
	}
	for (int i = 0; i < NBITS && !rc && !nomem; i++)
		if (has[i] && payload[i].n)   /* an empty one (BRANCH_STACK) has no bytes */
			rc = put(w, payload[i].p, payload[i].n, err);
	for (int i = 0; i < NBITS; i++)
		pd_bytes_free(&payload[i]);
	return nomem ? no_memory(w, err) : rc;
}

static int write_header(struct pd_writer *w, uint64_t data_size, struct pmurt_error *err)
{
	uint64_t h[13] = {
		PD_MAGIC, PD_HEADER_SIZE, sizeof(struct perf_event_attr) + 16,
		w->attrs_offset, (uint64_t)w->nevents * (sizeof(struct perf_event_attr) + 16),
		w->data_offset, data_size,
		0, 0,   /* event_types: unused */
		w->features[0], w->features[1], w->features[2], w->features[3],
	};
	uint64_t pos = w->pos;
	int rc = seek_to(w, 0, err);
	if (!rc)
		rc = put(w, h, sizeof(h), err);
	if (!rc)
		rc = flush(w, err);
	w->pos = pos;
	return rc;
}

void pd_writer_host_root(struct pd_writer *w, const char *root)
{
	snprintf(w->root, sizeof(w->root), "%s", root ? root : "");
}

int pd_writer_finish(struct pd_writer *w, struct pmurt_error *err)
{
	pmurt_clear_error(err);
	if (!w)
		return -EINVAL;
	int rc = 0;
	if (w->failed) {
		pmurt_set_error(err, -EIO, "%s: an earlier write failed: the file is incomplete",
				w->path);
		rc = -EIO;
	}
	if (!rc && w->round_pending) {
		struct perf_event_header round = {PD_RECORD_FINISHED_ROUND, 0, sizeof(round)};
		rc = pd_writer_add(w, &round, err);
	}
	uint64_t data_size = w->pos - w->data_offset;
	if (!rc && pd_hits_finish(w->hits, w->root, &w->build_ids, w->sample_times) < 0)
		rc = no_memory(w, err);
	if (!rc)
		rc = write_features(w, err);
	if (!rc)
		rc = write_header(w, data_size, err);
	if (!rc) {
		errno = 0;
		int closed = close(w->fd);
		w->fd = -1;
		if (closed != 0)
			rc = io_error(w, err, "close");
	}
	free_writer(w);
	return rc;
}
