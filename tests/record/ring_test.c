/*
 * ring_test.c - the data ring reader and the recording session against a
 * kernel in memory (mem_kernel.h): records in order, a record wrapping the
 * ring's end handed over whole, a record not yet whole left for later, bad
 * sizes refused, a refusing sink keeping its record; the drain in spans
 * (runs cut where the ring ends, a wrapping record whole, every record
 * noted, a refused span left in the ring); and a session's attrs,
 * ids, ring redirection, loss counts and round markers.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "evsel.h"
#include "mem_kernel.h"
#include "record.h"
#include "ring.h"

static int failures;

/* A record of len bytes (a multiple of 8): header, then bytes counting up
 * from seed. */
static void make_record(unsigned char *buf, uint32_t type, size_t len, unsigned seed)
{
	struct perf_event_header h = {.type = type, .misc = 0, .size = (uint16_t)len};
	memcpy(buf, &h, sizeof h);
	for (size_t i = sizeof h; i < len; i++)
		buf[i] = (unsigned char)(seed + i);
}

struct collected {
	int n;
	uint32_t types[64];
	size_t sizes[64];
	unsigned char bytes[64][512];
	int refuse_at;  /* the sink refuses this record (-1: none) */
};

static int collect(void *arg, const struct perf_event_header *rec, struct pmurt_error *err)
{
	struct collected *c = arg;
	if (c->n == c->refuse_at) {
		snprintf(err->message, sizeof err->message, "sink full");
		return -ENOSPC;
	}
	if (c->n < 64) {
		c->types[c->n] = rec->type;
		c->sizes[c->n] = rec->size;
		memcpy(c->bytes[c->n], rec, rec->size < 512 ? rec->size : 512);
	}
	c->n++;
	return 0;
}

static void test_in_order_and_wrap(struct mem_kernel *k)
{
	struct pmu_ring ring;
	struct pmurt_error err = {0};
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	int rc = pmu_ring_map(&ring, &k->sys, 0, 1, page, &err);
	CHECK(rc == 0, "map: %s", err.message);
	if (rc)
		return;
	CHECK(ring.size == page, "data size %llu", (unsigned long long)ring.size);
	unsigned char rec[512];
	struct collected c = {.refuse_at = -1};

	/* three records in order */
	for (unsigned i = 0; i < 3; i++) {
		make_record(rec, PERF_RECORD_SAMPLE, 64, i);
		mem_ring_put(ring.ctl, rec, 64);
	}
	long n = pmu_ring_drain(&ring, collect, &c, &err);
	CHECK(n == 3 && c.n == 3, "drained %ld, sink saw %d", n, c.n);
	CHECK(ring.ctl->data_tail == 192, "tail %llu", (unsigned long long)ring.ctl->data_tail);
	make_record(rec, PERF_RECORD_SAMPLE, 64, 2);
	CHECK(memcmp(c.bytes[2], rec, 64) == 0, "third record's bytes differ");

	/* fill up to 40 bytes before the end, then a 96-byte record wraps */
	while (ring.ctl->data_head + 40 < page) {
		size_t left = page - 40 - ring.ctl->data_head;
		size_t len = left > 504 ? 504 : left;
		make_record(rec, PERF_RECORD_COMM, len, 9);
		mem_ring_put(ring.ctl, rec, len);
	}
	c = (struct collected){.refuse_at = -1};
	n = pmu_ring_drain(&ring, collect, &c, &err);
	CHECK(n == c.n && n > 0, "filler drained %ld", n);
	make_record(rec, PERF_RECORD_MMAP2, 96, 77);
	mem_ring_put(ring.ctl, rec, 96);
	c = (struct collected){.refuse_at = -1};
	n = pmu_ring_drain(&ring, collect, &c, &err);
	CHECK(n == 1 && c.sizes[0] == 96 && c.types[0] == PERF_RECORD_MMAP2,
	      "wrapping record: n %ld size %zu", n, c.sizes[0]);
	CHECK(memcmp(c.bytes[0], rec, 96) == 0, "the wrapping record was not copied whole");
	CHECK(ring.ctl->data_tail == ring.ctl->data_head, "tail %llu head %llu",
	      (unsigned long long)ring.ctl->data_tail, (unsigned long long)ring.ctl->data_head);

	/* a record whose end is not yet published stays for the next drain */
	make_record(rec, PERF_RECORD_SAMPLE, 128, 5);
	uint64_t before = ring.ctl->data_tail;
	mem_ring_put_partial(ring.ctl, rec, 128, 4); /* not even a whole header */
	c = (struct collected){.refuse_at = -1};
	n = pmu_ring_drain(&ring, collect, &c, &err);
	CHECK(n == 0 && ring.ctl->data_tail == before, "4 bytes published: drained %ld", n);
	ring.ctl->data_head = before;
	mem_ring_put_partial(ring.ctl, rec, 128, 72);
	n = pmu_ring_drain(&ring, collect, &c, &err);
	CHECK(n == 0 && ring.ctl->data_tail == before, "72 of 128 bytes: drained %ld", n);
	ring.ctl->data_head = before + 128;
	n = pmu_ring_drain(&ring, collect, &c, &err);
	CHECK(n == 1 && c.sizes[0] == 128 && memcmp(c.bytes[0], rec, 128) == 0,
	      "completed record: drained %ld", n);

	/* a sink that refuses keeps its record in the ring */
	for (unsigned i = 0; i < 3; i++) {
		make_record(rec, PERF_RECORD_SAMPLE, 32, i);
		mem_ring_put(ring.ctl, rec, 32);
	}
	before = ring.ctl->data_tail;
	c = (struct collected){.refuse_at = 1};
	n = pmu_ring_drain(&ring, collect, &c, &err);
	CHECK(n == -ENOSPC && ring.ctl->data_tail == before + 32,
	      "refused second record: rc %ld, tail advanced %llu", n,
	      (unsigned long long)(ring.ctl->data_tail - before));
	c = (struct collected){.refuse_at = -1};
	n = pmu_ring_drain(&ring, collect, &c, &err);
	CHECK(n == 2, "after the refusal: drained %ld", n);

	/* sizes below the header or not a multiple of 8 are corrupt */
	const uint16_t bad[] = {0, 4, 12, (uint16_t)(page + 8)};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct perf_event_header h = {.type = PERF_RECORD_SAMPLE, .size = bad[i]};
		uint64_t at = ring.ctl->data_tail;
		mem_ring_put_partial(ring.ctl, &h, sizeof h, 64);
		n = pmu_ring_drain(&ring, collect, &c, &err);
		CHECK(n == -EBADMSG && strstr(err.message, "bad size"),
		      "size %u: rc %ld, '%s'", bad[i], n, err.message);
		ring.ctl->data_head = at; /* the next case writes over it */
		err = (struct pmurt_error){0};
	}
	pmu_ring_unmap(&ring);
	CHECK(k->unmapped == 1, "munmap calls %d", k->unmapped);
}

/* What the span drain handed out: the spans' bytes back to back, their
 * lengths, and the types note saw. */
struct spans {
	unsigned char bytes[8192];
	size_t len, lens[16];
	int n, noted, refuse_at;   /* refuse span refuse_at (-1: none) */
	int refuse_note_at;        /* refuse to note record refuse_note_at (0: none) */
	uint32_t types[64];
};

static int note_span_record(void *arg, const struct perf_event_header *rec,
			    struct pmurt_error *err)
{
	struct spans *sp = arg;
	if (sp->refuse_note_at && sp->noted == sp->refuse_note_at) {
		snprintf(err->message, sizeof err->message, "note refused");
		return -EPERM;
	}
	if (sp->noted < 64)
		sp->types[sp->noted] = rec->type;
	sp->noted++;
	return 0;
}

static int take_span(void *arg, const void *recs, size_t len, struct pmurt_error *err)
{
	struct spans *sp = arg;
	if (sp->n == sp->refuse_at) {
		snprintf(err->message, sizeof err->message, "span refused");
		return -ENOSPC;
	}
	if (sp->n < 16)
		sp->lens[sp->n] = len;
	if (sp->len + len <= sizeof sp->bytes)
		memcpy(sp->bytes + sp->len, recs, len);
	sp->len += len;
	sp->n++;
	return 0;
}

/* count records of len bytes written to the ring, and appended to want. */
static void put_records(struct perf_event_mmap_page *ctl, size_t count, size_t len,
			uint32_t type, unsigned char *want, size_t *want_len)
{
	unsigned char rec[512];
	for (size_t i = 0; i < count; i++) {
		make_record(rec, type, len, (unsigned)(*want_len + i));
		mem_ring_put(ctl, rec, len);
		memcpy(want + *want_len, rec, len);
		*want_len += len;
	}
}

static void test_spans(struct mem_kernel *k)
{
	struct pmu_ring ring;
	struct pmurt_error err = {0};
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	if (pmu_ring_map(&ring, &k->sys, 0, 1, page, &err) < 0) {
		CHECK(0, "map: %s", err.message);
		return;
	}
	ring.ctl->data_head = ring.ctl->data_tail = 0;
	struct spans sp = {.refuse_at = -1};
	unsigned char want[8192];
	size_t want_len = 0;
	/* two records, drained: one span */
	put_records(ring.ctl, 2, 256, PERF_RECORD_SAMPLE, want, &want_len);
	long n = pmu_ring_drain_spans(&ring, note_span_record, take_span, &sp, &err);
	CHECK(n == 2 && sp.noted == 2 && sp.n == 1 && sp.len == 512 &&
	      memcmp(sp.bytes, want, 512) == 0, "two records: %ld, %d spans", n, sp.n);
	/* records up to the ring's end and past it: cut where the ring ends */
	want_len = 0;
	put_records(ring.ctl, (page - 512) / 256 + 2, 256, PERF_RECORD_SAMPLE, want, &want_len);
	sp = (struct spans){.refuse_at = -1};
	n = pmu_ring_drain_spans(&ring, note_span_record, take_span, &sp, &err);
	CHECK(n == sp.noted && sp.n == 2 && sp.lens[0] == page - 512 && sp.lens[1] == 512 &&
	      sp.len == want_len && memcmp(sp.bytes, want, want_len) == 0,
	      "to the end: %ld records, %d spans (%zu, %zu)", n, sp.n, sp.lens[0], sp.lens[1]);
	/* up to 48 bytes before the end, a record wrapping it, one after it */
	want_len = 0;
	size_t upto = page - 48 - 512;   /* the tail is at page + 512 */
	put_records(ring.ctl, upto / 136, 136, PERF_RECORD_SAMPLE, want, &want_len);
	CHECK(upto % 136 == 0 && ring.ctl->data_head == 2 * page - 48, "layout: head %llu",
	      (unsigned long long)ring.ctl->data_head);
	put_records(ring.ctl, 1, 96, PERF_RECORD_MMAP2, want, &want_len);
	put_records(ring.ctl, 1, 64, PERF_RECORD_SAMPLE, want, &want_len);
	sp = (struct spans){.refuse_at = -1};
	n = pmu_ring_drain_spans(&ring, note_span_record, take_span, &sp, &err);
	long runs = (long)(upto / 136);
	CHECK(n == runs + 2 && sp.noted == n, "%ld records, %d noted", n, sp.noted);
	CHECK(sp.n == 3 && sp.lens[0] == upto && sp.lens[1] == 96 && sp.lens[2] == 64,
	      "spans: %d: %zu %zu %zu", sp.n, sp.lens[0], sp.lens[1], sp.lens[2]);
	CHECK(sp.len == want_len && memcmp(sp.bytes, want, want_len) == 0,
	      "spans' bytes differ from the records' (%zu of %zu)", sp.len, want_len);
	CHECK(sp.types[runs] == PERF_RECORD_MMAP2, "the wrapping record noted as type %u",
	      sp.types[runs]);
	CHECK(ring.ctl->data_tail == ring.ctl->data_head, "tail %llu head %llu",
	      (unsigned long long)ring.ctl->data_tail, (unsigned long long)ring.ctl->data_head);

	/* the drain's first record ends exactly at the ring's end, more follow
	 * at its start: two spans, the first not running past the end (issue
	 * 23 item 1: the run went on from the ring's start, its bytes read
	 * from beyond the mapping) */
	size_t filler = page - 64 - (ring.ctl->data_head & (page - 1));
	want_len = 0;
	put_records(ring.ctl, filler / 16, 16, PERF_RECORD_SAMPLE, want, &want_len);
	sp = (struct spans){.refuse_at = -1};
	n = pmu_ring_drain_spans(&ring, NULL, take_span, &sp, &err);
	CHECK(n == (long)(filler / 16) && (ring.ctl->data_tail & (page - 1)) == page - 64,
	      "filler: %ld records, tail at %llu", n,
	      (unsigned long long)(ring.ctl->data_tail & (page - 1)));
	want_len = 0;
	put_records(ring.ctl, 1, 64, PERF_RECORD_SAMPLE, want, &want_len);
	put_records(ring.ctl, 2, 32, PERF_RECORD_MMAP2, want, &want_len);
	sp = (struct spans){.refuse_at = -1};
	n = pmu_ring_drain_spans(&ring, NULL, take_span, &sp, &err);
	CHECK(n == 3 && sp.n == 2 && sp.lens[0] == 64 && sp.lens[1] == 64 && sp.len == 128 &&
	      memcmp(sp.bytes, want, 128) == 0,
	      "a record ending at the ring's end: %ld records, %d spans (%zu, %zu)", n, sp.n,
	      sp.lens[0], sp.lens[1]);

	/* a refused span stays in the ring, with what follows it */
	want_len = 0;
	put_records(ring.ctl, 3, 32, PERF_RECORD_SAMPLE, want, &want_len);
	uint64_t before = ring.ctl->data_tail;
	sp = (struct spans){.refuse_at = 0};
	n = pmu_ring_drain_spans(&ring, NULL, take_span, &sp, &err);
	CHECK(n == -ENOSPC && ring.ctl->data_tail == before && !strcmp(err.message, "span refused"),
	      "refused span: rc %ld, tail advanced %llu", n,
	      (unsigned long long)(ring.ctl->data_tail - before));
	sp = (struct spans){.refuse_at = -1};
	n = pmu_ring_drain_spans(&ring, NULL, take_span, &sp, &err);
	CHECK(n == 3 && sp.n == 1 && sp.len == 96, "after the refusal: %ld records, %zu bytes", n,
	      sp.len);
	/* a record note refuses (the third, within a run) stays in the ring,
	 * with what follows it; the two before it go out */
	want_len = 0;
	put_records(ring.ctl, 4, 32, PERF_RECORD_SAMPLE, want, &want_len);
	before = ring.ctl->data_tail;
	sp = (struct spans){.refuse_at = -1, .refuse_note_at = 2};
	n = pmu_ring_drain_spans(&ring, note_span_record, take_span, &sp, &err);
	CHECK(n == -EPERM && sp.noted == 2 && sp.n == 1 && sp.len == 64 &&
	      memcmp(sp.bytes, want, 64) == 0 && ring.ctl->data_tail == before + 64 &&
	      !strcmp(err.message, "note refused"),
	      "refused note: rc %ld, %d noted, %zu bytes out, tail advanced %llu", n, sp.noted,
	      sp.len, (unsigned long long)(ring.ctl->data_tail - before));
	sp = (struct spans){.refuse_at = -1};
	n = pmu_ring_drain_spans(&ring, note_span_record, take_span, &sp, &err);
	CHECK(n == 2 && sp.noted == 2 && sp.len == 64 && memcmp(sp.bytes, want + 64, 64) == 0,
	      "after the refused note: %ld records, %zu bytes", n, sp.len);
	/* a record not yet whole is left; one of a bad size stops the drain
	 * after the good ones before it */
	size_t ignored = 0;
	put_records(ring.ctl, 1, 64, PERF_RECORD_SAMPLE, want, &ignored);
	before = ring.ctl->data_head;
	struct perf_event_header bad = {.type = PERF_RECORD_SAMPLE, .size = 12};
	mem_ring_put_partial(ring.ctl, &bad, sizeof bad, 16);
	sp = (struct spans){.refuse_at = -1};
	n = pmu_ring_drain_spans(&ring, NULL, take_span, &sp, &err);
	CHECK(n == -EBADMSG && sp.len == 64 && ring.ctl->data_tail == before,
	      "bad size after a good record: rc %ld, %zu bytes out", n, sp.len);
	pmu_ring_unmap(&ring);
}

static void test_map_errors(struct mem_kernel *k)
{
	struct pmu_ring ring;
	struct pmurt_error err = {0};
	int rc = pmu_ring_map(&ring, &k->sys, 0, 3, 4096, &err);
	CHECK(rc == -EINVAL && strstr(err.message, "not a power of two"), "3 pages: %d '%s'", rc,
	      err.message);
	rc = pmu_ring_map(&ring, &k->sys, 99, 2, 4096, &err);
	CHECK(rc == -EINVAL && strstr(err.message, "mmap of 12288 bytes"), "bad fd: %d '%s'", rc,
	      err.message);
}

/* A session over list on k; NULL (counted as a failure) when it fails. */
static struct pmu_session *open_session(struct mem_kernel *k, const struct pmu_evlist *list,
					const struct pmu_record_opts *opts)
{
	struct pmu_host host = {.sys = &k->sys};
	struct pmu_session *s;
	struct pmurt_error err = {0};
	int rc = pmu_session_open(&s, &host, list, opts, &err);
	CHECK(rc == 0, "open: %s", err.message);
	return rc == 0 ? s : NULL;
}

/* Two software events, CPU-wide on CPUs 0 and 1: four fds, each event on
 * each CPU; a CPU's second event writes into the ring of its first. */
static void test_session(void)
{
	struct mem_kernel k;
	mem_kernel_init(&k);
	struct pmu_evsel ev[2] = {
		{.attr = {.type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_CPU_CLOCK},
		 .kind = PMU_EVSEL_SOFTWARE, .name = "cpu-clock", .leader = 0, .group_size = 1},
		{.attr = {.type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_TASK_CLOCK},
		 .kind = PMU_EVSEL_SOFTWARE, .name = "task-clock", .leader = 1, .group_size = 1},
	};
	struct pmu_evlist list = {.v = ev, .n = 2, .cap = 2};
	const int cpus[] = {0, 1};
	struct pmu_record_opts opts = {.pid = -1, .cpus = cpus, .ncpus = 2, .period = 10000,
				       .callchain = true, .data_pages = 2};
	struct pmu_session *s = open_session(&k, &list, &opts);
	struct pmurt_error err = {0};
	if (!s)
		return;
	CHECK(k.nfds == 4, "%d fds", k.nfds);
	/* fds in order: cpu0 ev0, cpu0 ev1, cpu1 ev0, cpu1 ev1 */
	CHECK(k.output[1] == 0 && k.output[3] == 2 && k.output[0] == -1 && k.output[2] == -1,
	      "SET_OUTPUT %d %d %d %d", k.output[0], k.output[1], k.output[2], k.output[3]);
	CHECK(k.map[0] && k.map[2] && !k.map[1] && !k.map[3], "rings on fds 0 and 2 only");
	const struct perf_event_attr *a0 = pmu_session_attr(s, 0), *a1 = pmu_session_attr(s, 1);
	uint64_t want = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |
			PERF_SAMPLE_CALLCHAIN;
	CHECK(a0->sample_type == want && a1->sample_type == want, "sample_type %llx",
	      (unsigned long long)a0->sample_type);
	CHECK(a0->sample_period == 10000 && !a0->freq && a0->sample_id_all && a0->disabled &&
	      !a0->inherit && !a0->enable_on_exec, "attr 0 flags");
	CHECK(a0->mmap && a0->mmap2 && a0->comm && a0->task && a0->comm_exec,
	      "side-band bits on the first event");
	CHECK(!a1->mmap && !a1->mmap2 && !a1->comm && !a1->task, "no side-band on the second");
	CHECK(k.pid[0] == -1 && k.cpu[0] == 0 && k.cpu[2] == 1, "targets");
	int nids;
	const uint64_t *ids = pmu_session_ids(s, 1, &nids);
	CHECK(nids == 2 && ids[0] == 1001 && ids[1] == 1003, "ids of event 1: %d, %llu %llu", nids,
	      (unsigned long long)ids[0], (unsigned long long)ids[1]);
	CHECK(pmu_session_id_hdr_size(s) == 32, "id_hdr_size %zu", pmu_session_id_hdr_size(s));

	int rc = pmu_session_enable(s, &err);
	CHECK(rc == 0 && k.enabled[0] == 1 && k.enabled[1] == 1 && k.enabled[2] == 1,
	      "enable: %s", err.message);

	/* CPU 0: a sample and a LOST of 7; CPU 1: a LOST_SAMPLES of 5 */
	unsigned char rec[64];
	make_record(rec, PERF_RECORD_SAMPLE, 48, 1);
	mem_ring_put(k.map[0], rec, 48);
	struct {
		struct perf_event_header h;
		uint64_t id, lost;
	} lost = {{PERF_RECORD_LOST, 0, sizeof lost}, 1000, 7};
	mem_ring_put(k.map[0], &lost, sizeof lost);
	struct {
		struct perf_event_header h;
		uint64_t lost;
	} lost_samples = {{PERF_RECORD_LOST_SAMPLES, 0, sizeof lost_samples}, 5};
	mem_ring_put(k.map[2], &lost_samples, sizeof lost_samples);

	struct collected c = {.refuse_at = -1};
	rc = pmu_session_poll(s, 0, collect, &c, &err);
	CHECK(rc == 0 && c.n == 4, "poll drained %d records: %s", c.n, err.message);
	CHECK(c.types[3] == 68 && c.sizes[3] == 8, "FINISHED_ROUND last (type %u)", c.types[3]);
	const struct pmu_record_stats *st = pmu_session_stats(s);
	CHECK(st->samples == 1 && st->lost == 7 && st->lost_records == 1 &&
	      st->lost_samples == 5 && st->records == 4, "stats: %llu samples, %llu lost, "
	      "%llu lost samples", (unsigned long long)st->samples,
	      (unsigned long long)st->lost, (unsigned long long)st->lost_samples);
	c = (struct collected){.refuse_at = -1};
	rc = pmu_session_drain(s, collect, &c, &err);
	CHECK(rc == 0 && c.n == 0, "an empty pass writes no round marker (%d records)", c.n);
	CHECK(!pmu_session_stopped(s), "stopped before asked");
	pmu_session_stop(s);
	CHECK(pmu_session_stopped(s), "not stopped after pmu_session_stop");
	pmu_session_close(s);
	CHECK(k.closed == 4 && k.unmapped == 2, "closed %d fds, %d rings", k.closed, k.unmapped);
}

/* A workload: per task on each CPU, inherited, enabled at its exec; an
 * open failure names the event and the target, and leaves nothing open. */
static void test_workload_and_failure(void)
{
	struct mem_kernel k;
	mem_kernel_init(&k);
	struct pmu_host host = {.sys = &k.sys};
	struct pmu_evsel ev[2] = {
		{.attr = {.type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_CPU_CLOCK,
			  .sample_period = 20000},
		 .kind = PMU_EVSEL_SOFTWARE, .name = "{cpu-clock", .leader = 0, .group_size = 2},
		{.attr = {.type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_PAGE_FAULTS},
		 .kind = PMU_EVSEL_SOFTWARE, .name = "page-faults}", .leader = 0},
	};
	struct pmu_evlist list = {.v = ev, .n = 2, .cap = 2};
	const int cpus[] = {3};
	struct pmu_record_opts opts = {.pid = 4242, .workload = true, .cpus = cpus, .ncpus = 1};
	struct pmu_session *s = open_session(&k, &list, &opts);
	if (!s)
		return;
	CHECK(k.nfds == 2 && k.pid[0] == 4242 && k.cpu[0] == 3 && k.group_fd[1] == 0,
	      "workload fds: %d, pid %d, group_fd %d", k.nfds, (int)k.pid[0], k.group_fd[1]);
	CHECK(k.attr[0].inherit && k.attr[0].enable_on_exec && k.attr[0].disabled,
	      "leader: inherit, enable_on_exec, disabled");
	CHECK(!k.attr[1].disabled && !k.attr[1].enable_on_exec, "member follows its leader");
	CHECK(k.attr[0].sample_period == 20000 && !k.attr[0].freq, "the event's own period kept");
	CHECK(k.attr[1].freq && k.attr[1].sample_freq == 4000, "no period: perf's 4000 Hz");
	pmu_session_close(s);

	mem_kernel_init(&k);
	k.open_errno = EACCES;
	opts = (struct pmu_record_opts){.pid = -1, .cpus = cpus, .ncpus = 1};
	struct pmurt_error err = {0};
	int rc = pmu_session_open(&s, &host, &list, &opts, &err);
	CHECK(rc == -EACCES && s == NULL, "open failure: %d", rc);
	CHECK(strstr(err.message, "cannot open '{cpu-clock' on CPU 3") &&
	      strstr(err.message, "EACCES"), "message: %s", err.message);
}

int main(void)
{
	struct mem_kernel k;
	mem_kernel_init(&k);
	struct perf_event_attr attr = {.type = PERF_TYPE_SOFTWARE};
	k.sys.event_open(k.sys.ctx, &attr, -1, 0, -1, 0); /* fd 0 to map */
	test_in_order_and_wrap(&k);
	test_spans(&k);
	test_map_errors(&k);
	test_session();
	test_workload_and_failure();
	if (failures)
		fprintf(stderr, "%d checks failed\n", failures);
	return failures ? 1 : 0;
}
