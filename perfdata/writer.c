/*
 * writer.c - writing perf.data as perf record does (tools/perf/util/header.c,
 * perf_session__write_header and perf_header__adds_write): the header's
 * place is zero while records are written and filled in last; after the
 * attrs' ids and the attrs come the records, then one section entry per
 * feature and the features' payloads.  Features written: tracing data
 * when asked for (tracing.c), hostname, osrelease, version, arch, nrcpus,
 * cpudesc, cmdline, event_desc, and the AUXTRACE index when AUXTRACE
 * records were added.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "internal.h"
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
		if (h.size < 16) {
			pmurt_set_error(err, -EINVAL, "%s: AUXTRACE record of %u bytes lacks "
					"its payload size", w->path, h.size);
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

int pd_writer_add_span(struct pd_writer *w, const void *recs, size_t len,
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

/* A feature section being written: where its payload starts. */
struct feature_out {
	int bit;
	uint64_t offset, size;
};

/* header.c do_write_string: u32 length padded to NAME_ALIGN, the string,
 * NUL and padding. */
static int put_string(struct pd_writer *w, const char *s, struct pmurt_error *err)
{
	size_t n = strlen(s) + 1;
	uint32_t len = (uint32_t)((n + PD_NAME_ALIGN - 1) / PD_NAME_ALIGN * PD_NAME_ALIGN);
	int rc = put(w, &len, 4, err);
	if (!rc)
		rc = put(w, s, n, err);
	return rc ? rc : put_zeros(w, len - n, err);
}

/* /proc/self/cmdline: the process that recorded, as perf's cmdline. */
static int put_cmdline(struct pd_writer *w, struct pmurt_error *err)
{
	char buf[8192];
	size_t n = 0;
	FILE *fp = fopen("/proc/self/cmdline", "re");
	if (fp) {
		n = fread(buf, 1, sizeof(buf) - 1, fp);
		fclose(fp);
	}
	buf[n] = 0;
	uint32_t count = 0;
	for (size_t i = 0; i < n; i += strlen(buf + i) + 1)
		count++;
	int rc = put(w, &count, 4, err);
	for (size_t i = 0; i < n && !rc; i += strlen(buf + i) + 1)
		rc = put_string(w, buf + i, err);
	return rc;
}

/* header.c write_event_desc: nr, attr size, then per event its attr, the
 * number of ids, its name and its ids. */
static int put_event_desc(struct pd_writer *w, struct pmurt_error *err)
{
	uint32_t head[2] = {(uint32_t)w->nevents, sizeof(struct perf_event_attr)};
	int rc = put(w, head, sizeof(head), err);
	for (int e = 0; e < w->nevents && !rc; e++) {
		const struct pd_event *ev = &w->events[e];
		uint32_t nids = (uint32_t)ev->nids;
		rc = put(w, &ev->attr, sizeof(ev->attr), err);
		if (!rc)
			rc = put(w, &nids, 4, err);
		if (!rc)
			rc = put_string(w, ev->name, err);
		if (!rc)
			rc = put(w, ev->ids, (size_t)ev->nids * 8, err);
	}
	return rc;
}

static int put_auxtrace_index(struct pd_writer *w, struct pmurt_error *err)
{
	uint64_t n = w->naux;
	int rc = put(w, &n, 8, err);
	for (size_t i = 0; i < w->naux && !rc; i++) {
		uint64_t entry[2] = {w->aux_offsets[i], 48};
		rc = put(w, entry, sizeof(entry), err);
	}
	return rc;
}

/* The first line of /proc/cpuinfo's "model name" (x86) or "cpu" (POWER). */
static void cpu_description(char *out, size_t len)
{
	char line[512];
	snprintf(out, len, "unknown");
	FILE *fp = fopen("/proc/cpuinfo", "re");
	if (!fp)
		return;
	while (fgets(line, sizeof(line), fp)) {
		char *colon = strchr(line, ':');
		if (!colon || (strncmp(line, "model name", 10) && strncmp(line, "cpu\t", 4)))
			continue;
		colon += 1 + (colon[1] == ' ');
		colon[strcspn(colon, "\n")] = 0;
		snprintf(out, len, "%s", colon);
		break;
	}
	fclose(fp);
}

static int put_feature(struct pd_writer *w, int bit, struct pmurt_error *err)
{
	struct utsname u;
	char text[256];
	uname(&u);
	switch (bit) {
	case PD_FEAT_HOSTNAME: return put_string(w, u.nodename, err);
	case PD_FEAT_OSRELEASE: return put_string(w, u.release, err);
	case PD_FEAT_ARCH: return put_string(w, u.machine, err);
	case PD_FEAT_VERSION:
		snprintf(text, sizeof(text), "libpmurt %d.%d.%d", PMURT_VERSION_MAJOR,
			 PMURT_VERSION_MINOR, PMURT_VERSION_PATCH);
		return put_string(w, text, err);
	case PD_FEAT_NRCPUS: {
		/* header.c write_nrcpus: available (present), then online */
		uint32_t n[2] = {(uint32_t)sysconf(_SC_NPROCESSORS_CONF),
				 (uint32_t)sysconf(_SC_NPROCESSORS_ONLN)};
		return put(w, n, sizeof(n), err);
	}
	case PD_FEAT_CPUDESC:
		cpu_description(text, sizeof(text));
		return put_string(w, text, err);
	case PD_FEAT_CMDLINE: return put_cmdline(w, err);
	case PD_FEAT_EVENT_DESC: return put_event_desc(w, err);
	case PD_FEAT_TRACING_DATA: return put(w, w->tracing, w->tracing_len, err);
	default: return put_auxtrace_index(w, err);
	}
}

static int write_features(struct pd_writer *w, struct pmurt_error *err)
{
	static const int bits[] = {    /* in bit order, as readers walk them */
		PD_FEAT_TRACING_DATA, PD_FEAT_HOSTNAME, PD_FEAT_OSRELEASE, PD_FEAT_VERSION, PD_FEAT_ARCH,
		PD_FEAT_NRCPUS, PD_FEAT_CPUDESC, PD_FEAT_CMDLINE, PD_FEAT_EVENT_DESC,
		PD_FEAT_AUXTRACE,
	};
	struct feature_out out[sizeof(bits) / sizeof(bits[0])];
	int n = 0, rc = 0;
	for (size_t i = 0; i < sizeof(bits) / sizeof(bits[0]); i++) {
		if ((bits[i] == PD_FEAT_AUXTRACE && !w->naux) ||
		    (bits[i] == PD_FEAT_TRACING_DATA && !w->tracing))
			continue;
		out[n++].bit = bits[i];
		w->features[bits[i] / 64] |= 1ull << (bits[i] % 64);
	}
	uint64_t table = w->pos;
	if ((rc = put_zeros(w, (size_t)n * 16, err)))
		return rc;
	for (int i = 0; i < n && !rc; i++) {
		out[i].offset = w->pos;
		rc = put_feature(w, out[i].bit, err);
		out[i].size = w->pos - out[i].offset;
	}
	if (!rc)
		rc = seek_to(w, table, err);
	for (int i = 0; i < n && !rc; i++)
		rc = put(w, &out[i].offset, 16, err);
	return rc;
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
	int rc = seek_to(w, 0, err);
	return rc ? rc : put(w, h, sizeof(h), err);
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
	if (!rc)
		rc = write_features(w, err);
	if (!rc)
		rc = write_header(w, data_size, err);
	if (!rc)
		rc = flush(w, err);
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
