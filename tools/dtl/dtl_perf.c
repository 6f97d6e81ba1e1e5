/*
 * dtl_perf.c - vpa_dtl data in perf.data files (read with pmurt_perf_*):
 * recognising it by PERF_RECORD_AUXTRACE_INFO of auxtrace type 7
 * (PERF_AUXTRACE_VPA_DTL, tools/perf/util/auxtrace.h), whose priv[0] is the
 * PMU type, with or without an event description; `pmutool dtl dump`, which
 * prints for each AUXTRACE record what `perf report -D` prints for it; and
 * the AUXTRACE payloads, queued per CPU, for `dtl report -i`.
 */
#include <errno.h>
#include <inttypes.h>
#include <linux/perf_event.h>
#include <string.h>

#include "dtl_perf.h"

#define AUXTRACE_TYPE_VPA_DTL 7
#define RECORD_AUXTRACE_INFO 70
#define RECORD_AUXTRACE 71
#define AUXTRACE_RECORD_SIZE 48

static uint64_t field64(const uint8_t *p, size_t off)
{
	uint64_t v;
	memcpy(&v, p + off, sizeof(v));
	return v;
}

static uint32_t field32(const uint8_t *p, size_t off)
{
	uint32_t v;
	memcpy(&v, p + off, sizeof(v));
	return v;
}

int dtl_perf_open(struct dtl_perf *d, const char *path, struct pmurt_error *err)
{
	struct pmurt_perf_file *file;
	int rc = pmurt_perf_open(&file, path, err);
	memset(d, 0, sizeof(*d));
	if (rc < 0)
		return rc;
	dtl_perf_attach(d, path, file);
	return 0;
}

void dtl_perf_attach(struct dtl_perf *d, const char *path, struct pmurt_perf_file *file)
{
	memset(d, 0, sizeof(*d));
	d->path = path;
	d->file = file;
	struct pmurt_perf_info info = {.sz = sizeof(info)};
	pmurt_perf_info(d->file, &info);
	for (int i = 0; i < info.nevents; i++) {
		struct pmurt_perf_event_info ev = {.sz = sizeof(ev)};
		if (pmurt_perf_event(d->file, i, &ev) < 0)
			continue;
		d->sample_type |= ev.sample_type;
		if (i == 0)
			d->sample_id_all = ev.sample_id_all;
	}
}

void dtl_perf_close(struct dtl_perf *d)
{
	pmurt_perf_close(d->file);
	d->file = NULL;
}

/* PERF_RECORD_AUXTRACE_INFO: u32 type, u32 reserved, u64 priv[]; perf's
 * reader needs 16 bytes and reads priv[0] (powerpc-vpadtl.c). */
static void note_info(struct dtl_perf *d, const struct pmurt_perf_record *rec)
{
	const uint8_t *p = rec->data;
	if (rec->size < 16 || field32(p, 8) != AUXTRACE_TYPE_VPA_DTL)
		return;
	d->is_dtl = true;
	d->pmu_type = rec->size >= 24 ? field64(p, 16) : 0;
}

int dtl_perf_next(struct dtl_perf *d, struct dtl_chunk *chunk, struct pmurt_error *err)
{
	struct pmurt_perf_record rec = {.sz = sizeof(rec)};
	int rc;
	while ((rc = pmurt_perf_next(d->file, &rec, err)) > 0) {
		if (rec.type == RECORD_AUXTRACE_INFO)
			note_info(d, &rec);
		if (rec.type == PERF_RECORD_SAMPLE && d->on_sample &&
		    (rc = d->on_sample(d->ctx, &rec)) < 0)
			return rc;
		if (rec.type != RECORD_AUXTRACE || !d->is_dtl)
			continue;
		const uint8_t *p = rec.data;   /* 48 bytes at least: the reader's fixed part */
		*chunk = (struct dtl_chunk){
			.file_offset = rec.offset, .header_size = rec.size, .record = p,
			.data = rec.payload, .size = field64(p, 8), .aux_offset = field64(p, 16),
			.reference = field64(p, 24), .idx = field32(p, 32),
			.tid = (int32_t)field32(p, 36), .cpu = (int32_t)field32(p, 40),
		};
		if (chunk->size > rec.payload_size) /* the reader checked it; never trust twice */
			chunk->size = rec.payload_size;
		return 1;
	}
	return rc;
}

/* --- perf report -D ------------------------------------------------------------ */
/* tools/perf/util/debug.c trace_event: the record as hex and ASCII. */
static void dump_raw(FILE *out, const uint8_t *p, size_t n)
{
	fprintf(out, ".\n. ... raw event: size %zu bytes\n", n);
	for (size_t i = 0; i < n; i += 16) {
		fprintf(out, ".  %04zx: ", i);
		for (size_t j = i; j < i + 16; j++)
			if (j < n)
				fprintf(out, " %02x", p[j]);
			else
				fputs("   ", out);
		fputs("  ", out);
		for (size_t j = i; j < i + 16 && j < n; j++)
			fputc(p[j] >= 0x20 && p[j] < 0x7f ? p[j] : '.', out);
		fputc('\n', out);
	}
}

/* session.c evlist__print_tstamp for a record that is no sample: "-1 -1 "
 * without sample_id_all, else the cpu and time the evlist's sample types
 * ask for, zero (perf's sample of a user record is zeroed). */
static void dump_tstamp(const struct dtl_perf *d, FILE *out)
{
	if (!d->sample_id_all) {
		fputs("-1 -1 ", out);
		return;
	}
	if (d->sample_type & PERF_SAMPLE_CPU)
		fputs("0 ", out);
	if (d->sample_type & PERF_SAMPLE_TIME)
		fputs("0 ", out);
}

/* powerpc-vpadtl.c powerpc_vpadtl_dump: whole slots; the first two u64s in
 * host order when the raw timebase is zero.  Codes past perf's tables print
 * as our unknown_<code> (perf reads past its arrays there). */
static void dump_slots(FILE *out, const uint8_t *buf, size_t len)
{
	fprintf(out, ".\n. ... VPA DTL PMU data: size %zu bytes, entries is %zu\n", len,
		len / PMURT_DTL_SLOT_SIZE);
	for (size_t pos = 0; pos + PMURT_DTL_SLOT_SIZE <= len; pos += PMURT_DTL_SLOT_SIZE) {
		const uint8_t *p = buf + pos;
		fprintf(out, ".  %08zx: ", pos);
		if (field64(p, 16) == 0) {
			fprintf(out, "boot_tb: %" PRIu64 ", tb_freq: %" PRIu64 "\n", field64(p, 0),
				field64(p, 8));
			continue;
		}
		struct pmurt_dtl_entry e;
		char db[16], pb[16];
		pmurt_dtl_entry_decode(p, &e);
		fprintf(out, "dispatch_reason:%s, preempt_reason:%s, enqueue_to_dispatch_time:%d, "
			"ready_to_enqueue_time:%d, waiting_to_ready_time:%d\n",
			pmurt_dtl_reason_text(false, e.dispatch_reason, db),
			pmurt_dtl_reason_text(true, e.preempt_reason, pb),
			(int32_t)e.enqueue_to_dispatch_time, (int32_t)e.ready_to_enqueue_time,
			(int32_t)e.waiting_to_ready_time);
	}
}

void dtl_perf_dump(const struct dtl_perf *d, const struct dtl_chunk *c, FILE *out)
{
	fprintf(out, "\n%#" PRIx64 "@%s [%#x]: event: %d\n", c->file_offset, d->path,
		c->header_size, RECORD_AUXTRACE);
	dump_raw(out, c->record, c->header_size);
	fputc('\n', out);
	dump_tstamp(d, out);
	/* session.c dump_event, then auxtrace.c perf_event__process_auxtrace */
	fprintf(out, "%#" PRIx64 " [%#x]: PERF_RECORD_AUXTRACE", c->file_offset, c->header_size);
	fprintf(out, " size: %#" PRIx64 "  offset: %#" PRIx64 "  ref: %#" PRIx64
		"  idx: %u  tid: %d  cpu: %d\n", c->size, c->aux_offset, c->reference, c->idx,
		c->tid, c->cpu);
	dump_slots(out, c->data, c->size);
}
