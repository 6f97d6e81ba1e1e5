/*
 * dtl_script.c - `pmutool dtl script`: the Dispatch Trace Log entries of a
 * perf.data file between its other samples, in time order, as perf script
 * shows them with 6.18's vpa-dtl decoder (tools/perf/util/powerpc-vpadtl.c,
 * builtin-script.c perf_sample__fprintf_synth_vpadtl):
 *
 *  - one queue per CPU holds that CPU's AUXTRACE payloads in file order; a
 *    min-heap of the queues by their next entry's time picks the next entry;
 *  - before each sample of time T, every entry earlier than T is printed; a
 *    queue stops at its first entry not earlier and resumes there (the
 *    cursor keeps the position inside a partly processed buffer);
 *  - entry times are perf's conversion with the CPU's header (the first
 *    slot of its first buffer): ns = (tb - boot_tb) / tb_freq * 1e9 in
 *    double precision; entries perf skips (timebase <= 0 as signed) are
 *    skipped;
 *  - unlike perf, whose flush is a no-op, the entries later than the last
 *    sample are printed at the end rather than dropped.
 * A vpa-dtl line: comm and tid of the idle task (perf leaves the sample's
 * pid/tid unset; its idle thread is "swapper" 0), the CPU, the time, the
 * event "vpa-dtl", the entry, srr0 as ip with its kernel symbol.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "dtl_perf.h"
#include "report/tool_session.h"

struct dtl_queue {
	int cpu;
	struct dtl_chunk *chunks;
	size_t nchunks, next;          /* next: the chunk after the cursor's */
	struct pmurt_dtl_cursor cursor;
	struct pmurt_dtl_header header;
	struct pmurt_dtl_entry head;   /* the entry to print next */
	uint64_t head_time;
};

struct dtl_script {
	struct dtl_perf file;          /* open while the chunks point into it */
	struct dtl_queue *queues;
	size_t nqueues;
	size_t *heap;                  /* queue indices, by head_time */
	size_t nheap;
	int name_width;
	struct session *session;
};

static struct dtl_queue *queue_of(struct dtl_script *d, int cpu)
{
	for (size_t i = 0; i < d->nqueues; i++)
		if (d->queues[i].cpu == cpu)
			return &d->queues[i];
	struct dtl_queue *q = realloc(d->queues, (d->nqueues + 1) * sizeof(*q));
	if (!q)
		return NULL;
	d->queues = q;
	q = &q[d->nqueues++];
	*q = (struct dtl_queue){.cpu = cpu,
				.header = {.tb_freq = PMURT_DTL_DEFAULT_TB_FREQ}};
	return q;
}

static int queue_chunk(struct dtl_queue *q, const struct dtl_chunk *c)
{
	struct dtl_chunk *grown = realloc(q->chunks, (q->nchunks + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	q->chunks = grown;
	q->chunks[q->nchunks++] = *c;
	return 0;
}

/* The queue's next usable entry into head: 1, or 0 when it has none left. */
static int queue_advance(struct dtl_queue *q)
{
	struct pmurt_dtl_slot slot;
	for (;;) {
		int rc = pmurt_dtl_next(&q->cursor, &slot, NULL);
		if (rc == 0) {
			if (q->next == q->nchunks)
				return 0;
			const struct dtl_chunk *c = &q->chunks[q->next];
			pmurt_dtl_cursor_init(&q->cursor, c->data, c->size, c->aux_offset, 0,
					      q->next == 0);
			q->next++;
			continue;
		}
		if (rc < 0 || slot.kind != PMURT_DTL_ENTRY) {
			if (rc > 0 && slot.kind == PMURT_DTL_HEADER)
				q->header = q->cursor.header;
			continue; /* a cut slot at a buffer's end: perf drops it too */
		}
		q->head = slot.entry;
		q->head_time = pmurt_dtl_time_perf(slot.entry.timebase, &q->header);
		return 1;
	}
}

/* --- the heap ------------------------------------------------------------------ */
static bool earlier(const struct dtl_script *d, size_t a, size_t b)
{
	const struct dtl_queue *x = &d->queues[d->heap[a]], *y = &d->queues[d->heap[b]];
	return x->head_time < y->head_time || (x->head_time == y->head_time && x->cpu < y->cpu);
}

static void heap_swap(struct dtl_script *d, size_t a, size_t b)
{
	size_t t = d->heap[a];
	d->heap[a] = d->heap[b];
	d->heap[b] = t;
}

static void heap_down(struct dtl_script *d, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		if (l < d->nheap && earlier(d, l, m))
			m = l;
		if (r < d->nheap && earlier(d, r, m))
			m = r;
		if (m == i)
			return;
		heap_swap(d, i, m);
		i = m;
	}
}

static void heap_push(struct dtl_script *d, size_t queue)
{
	size_t i = d->nheap++;
	d->heap[i] = queue;
	while (i && earlier(d, i, (i - 1) / 2)) {
		heap_swap(d, i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
}

/* --- printing ------------------------------------------------------------------ */
static int print_entry(struct dtl_script *d, const struct dtl_queue *q)
{
	struct resolved at;
	const struct pmurt_dtl_entry *e = &q->head;
	if (symbols_resolve(d->session->syms, 0, 0, e->srr0, PERF_RECORD_MISC_KERNEL, &at) < 0)
		return -ENOMEM;
	char db[16], pb[16];
	printf("%16s %5d [%03d] %5" PRIu64 ".%06" PRIu64 ": %*s: timebase: %" PRIu64
	       " dispatch_reason:%s, preempt_reason:%s,\nenqueue_to_dispatch_time:%d, "
	       "ready_to_enqueue_time:%d,waiting_to_ready_time:%d, processor_id: %d %16" PRIx64
	       " %s", "swapper", 0, q->cpu, q->head_time / 1000000000,
	       q->head_time % 1000000000 / 1000, d->name_width, "vpa-dtl", e->timebase,
	       pmurt_dtl_reason_text(false, e->dispatch_reason, db),
	       pmurt_dtl_reason_text(true, e->preempt_reason, pb),
	       (int32_t)e->enqueue_to_dispatch_time, (int32_t)e->ready_to_enqueue_time,
	       (int32_t)e->waiting_to_ready_time, e->processor_id, e->srr0, at.sym);
	if (at.sym[0] != '[')
		printf("+0x%" PRIx64, at.sym_offset);
	printf(" (%s)\n", at.dso);
	return 0;
}

/* Every entry earlier than limit, in time order. */
static int print_until(struct dtl_script *d, uint64_t limit)
{
	while (d->nheap) {
		struct dtl_queue *q = &d->queues[d->heap[0]];
		if (q->head_time >= limit)
			return 0;
		if (print_entry(d, q) < 0)
			return -ENOMEM;
		if (queue_advance(q)) {
			heap_down(d, 0);
		} else {
			d->heap[0] = d->heap[--d->nheap];
			heap_down(d, 0);
		}
	}
	return 0;
}

static int on_sample(void *ctx, struct session *s, const struct session_sample *smp)
{
	struct dtl_script *d = ctx;
	if ((smp->rec->has & PERF_SAMPLE_TIME) && print_until(d, smp->rec->time) < 0) {
		tool_error(s->tool, "out of memory");
		return EXIT_INTERNAL;
	}
	script_print_sample(smp, d->name_width);
	return 0;
}

/* The queues: every vpa_dtl AUXTRACE record, on its CPU. */
static int load_queues(struct dtl_script *d, const struct tool *t, const char *path)
{
	struct dtl_chunk chunk;
	struct pmurt_error err = {0};
	int rc = dtl_perf_open(&d->file, path, &err);
	while (rc >= 0 && (rc = dtl_perf_next(&d->file, &chunk, &err)) > 0) {
		struct dtl_queue *q = queue_of(d, chunk.cpu);
		if (!q || queue_chunk(q, &chunk) < 0)
			rc = -ENOMEM;
	}
	if (rc < 0) {
		tool_error(t, "%s", err.message[0] ? err.message : strerror(-rc));
		return rc == -ENOMEM ? EXIT_INTERNAL : EXIT_USAGE;
	}
	if (!d->file.is_dtl) {
		tool_error(t, "%s: no vpa_dtl data (no AUXTRACE_INFO of type 7)", path);
		return EXIT_USAGE;
	}
	d->heap = malloc((d->nqueues + 1) * sizeof(*d->heap));
	if (!d->heap)
		return EXIT_INTERNAL;
	for (size_t i = 0; i < d->nqueues; i++)
		if (queue_advance(&d->queues[i]))
			heap_push(d, i);
	return EXIT_OK;
}

static void free_script(struct dtl_script *d)
{
	for (size_t i = 0; i < d->nqueues; i++)
		free(d->queues[i].chunks);
	free(d->queues);
	free(d->heap);
	dtl_perf_close(&d->file);
}

int dtl_script(const struct tool *t, const char *path)
{
	struct dtl_script d = {.name_width = (int)strlen("vpa-dtl")};
	struct session s;
	int rc = load_queues(&d, t, path), opened = 0;
	if (!rc) {
		rc = session_open(&s, t, path, NULL, 0);
		opened = !rc;
	}
	/* event names right-aligned to the longest, the synthesised one too */
	for (int e = 0; !rc && e < s.info.nevents; e++)
		if ((int)strlen(s.event_names[e]) > d.name_width)
			d.name_width = (int)strlen(s.event_names[e]);
	d.session = &s;
	if (!rc)
		rc = session_run(&s, on_sample, &d);
	if (!rc && print_until(&d, UINT64_MAX) < 0)
		rc = EXIT_INTERNAL;
	while (!rc && d.nheap) { /* a time of UINT64_MAX, saturated */
		if (print_entry(&d, &d.queues[d.heap[0]]) < 0)
			rc = EXIT_INTERNAL;
		else if (!queue_advance(&d.queues[d.heap[0]]))
			d.heap[0] = d.heap[--d.nheap];
		heap_down(&d, 0);
	}
	if (opened)
		session_close(&s);
	free_script(&d);
	return rc;
}
