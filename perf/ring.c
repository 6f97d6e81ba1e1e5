/*
 * ring.c - consuming a perf ring buffer (ring.h): mapping it through the
 * syscall layer, the head/tail protocol, and the walk over its records.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "errors.h"
#include "ring.h"

/* include/uapi/linux/perf_event.h: "User-space reading the @data_head value
 * should issue an smp_rmb(), after reading this value" - an acquire load. */
uint64_t pmu_ring_load_head(const volatile __u64 *head)
{
	return __atomic_load_n(head, __ATOMIC_ACQUIRE);
}

/* kernel/events/ring_buffer.c, perf_output_put_handle's pairing: the reader
 * "reads the data, then smp_mb(), then writes the tail" (D), so that no read
 * of the data moves past the store that lets the kernel overwrite it. */
void pmu_ring_store_tail(volatile __u64 *tail, uint64_t value)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	__atomic_store_n(tail, value, __ATOMIC_RELAXED);
}

void pmu_ring_copy(void *dst, const unsigned char *ring, uint64_t size,
		   uint64_t pos, size_t len)
{
	uint64_t off = pos & (size - 1);
	size_t first = len < size - off ? len : (size_t)(size - off);
	memcpy(dst, ring + off, first);
	if (first < len)
		memcpy((unsigned char *)dst + first, ring, len - first);
}

int pmu_ring_map(struct pmu_ring *ring, const struct pmurt_sys *sys, int fd,
		 unsigned data_pages, size_t page_size, struct pmurt_error *err)
{
	pmurt_clear_error(err);
	*ring = (struct pmu_ring){.sys = sys, .fd = -1};
	if (data_pages == 0 || (data_pages & (data_pages - 1)) != 0) {
		pmurt_set_error(err, -EINVAL, "ring buffer: %u data pages is not a power of two",
				data_pages);
		return -EINVAL;
	}
	size_t len = (size_t)(data_pages + 1) * page_size;
	int rc = 0;
	void *base = sys->mmap(sys->ctx, fd, len, 0, &rc);
	if (!base) {
		rc = rc ? rc : -EINVAL;
		pmurt_set_error(err, rc, "ring buffer: mmap of %zu bytes (1 + %u pages) failed: "
				"%s (the limit is /proc/sys/kernel/perf_event_mlock_kb)",
				len, data_pages, strerror(-rc));
		return rc;
	}
	ring->fd = fd;
	ring->base = base;
	ring->map_len = len;
	ring->ctl = base;
	/* data_offset/data_size are 0 on kernels before 4.1: the data then
	 * starts at the second page and fills the rest */
	uint64_t off = ring->ctl->data_offset ? ring->ctl->data_offset : page_size;
	uint64_t size = ring->ctl->data_size ? ring->ctl->data_size
					     : (uint64_t)data_pages * page_size;
	if (size == 0 || (size & (size - 1)) != 0 || off + size > len) {
		pmu_ring_unmap(ring);
		pmurt_set_error(err, -EINVAL, "ring buffer: the kernel's data_offset %llu and "
				"data_size %llu do not fit the mapping of %zu bytes",
				(unsigned long long)off, (unsigned long long)size, len);
		return -EINVAL;
	}
	ring->data = (const unsigned char *)base + off;
	ring->size = size;
	return 0;
}

void pmu_ring_unmap(struct pmu_ring *ring)
{
	if (ring->base)
		ring->sys->munmap(ring->sys->ctx, ring->base, ring->map_len);
	free(ring->bounce);
	*ring = (struct pmu_ring){.sys = ring->sys, .fd = -1};
}

uint64_t pmu_ring_pending(const struct pmu_ring *ring)
{
	return pmu_ring_load_head(&ring->ctl->data_head) - ring->ctl->data_tail;
}

/* The record at pos, contiguous: in place, or copied whole into the bounce
 * buffer when it wraps the end of the ring. */
static const struct perf_event_header *record_at(struct pmu_ring *ring, uint64_t pos,
						 size_t size)
{
	uint64_t off = pos & (ring->size - 1);
	if (off + size <= ring->size)
		return (const struct perf_event_header *)(ring->data + off);
	if (size > ring->bounce_cap) {
		unsigned char *b = realloc(ring->bounce, size);
		if (!b)
			return NULL;
		ring->bounce = b;
		ring->bounce_cap = size;
	}
	pmu_ring_copy(ring->bounce, ring->data, ring->size, pos, size);
	return (const struct perf_event_header *)ring->bounce;
}

static __attribute__((noinline)) int bad_size(const struct perf_event_header *h, uint64_t pos,
					      struct pmurt_error *err)
{
	pmurt_set_error(err, -EBADMSG, "ring buffer: record of type %u at ring position %llu "
			"has a bad size %u", h->type, (unsigned long long)pos, h->size);
	return -EBADMSG;
}

/* Whether the record at pos is whole: 1, 0 when it is not whole yet (or no
 * header is there), or -EBADMSG for a bad size.  Its header in *h.  The
 * walk's per-record cost, so kept small: records are multiples of 8 bytes
 * from position 0, so a header never wraps the end. */
static inline int whole_record(const struct pmu_ring *ring, uint64_t pos, uint64_t head,
			       struct perf_event_header *h, struct pmurt_error *err)
{
	if (head - pos < sizeof *h)
		return 0;
	memcpy(h, ring->data + (pos & (ring->size - 1)), sizeof *h);
	if (h->size < sizeof *h || h->size > ring->size || (h->size & 7) != 0)
		return bad_size(h, pos, err);
	return head - pos >= h->size; /* else not whole yet */
}

static int no_memory(const struct perf_event_header *h, struct pmurt_error *err)
{
	pmurt_set_error(err, -ENOMEM, "ring buffer: no memory for a record of %u bytes",
			h->size);
	return -ENOMEM;
}

long pmu_ring_drain(struct pmu_ring *ring, pmu_record_fn fn, void *arg,
		    struct pmurt_error *err)
{
	uint64_t head = pmu_ring_load_head(&ring->ctl->data_head);
	uint64_t pos = ring->ctl->data_tail;
	long n = 0;
	int rc;
	struct perf_event_header h;
	while ((rc = whole_record(ring, pos, head, &h, err)) > 0) {
		const struct perf_event_header *rec = record_at(ring, pos, h.size);
		if (!rec) {
			rc = no_memory(&h, err);
			break;
		}
		rc = fn(arg, rec, err);
		if (rc < 0)
			break;
		pos += h.size;
		n++;
	}
	if (pos != ring->ctl->data_tail)
		pmu_ring_store_tail(&ring->ctl->data_tail, pos);
	return rc < 0 ? rc : n;
}

/* The run of records not yet handed out: ring positions [start, end). */
struct run {
	uint64_t start, end;
};

static int flush_run(struct pmu_ring *ring, struct run *r, pmu_span_fn span, void *arg,
		     struct pmurt_error *err)
{
	int rc = 0;
	if (r->end != r->start)
		rc = span(arg, ring->data + (r->start & (ring->size - 1)),
			  (size_t)(r->end - r->start), err);
	if (rc >= 0)
		r->start = r->end;
	return rc;
}

/* The walk's common case, kept tight: from pos on, the records whole, of a
 * good size and before the ring's end, each to note (*rc its refusal);
 * returns their bytes.  It stops at the first other one, for the caller's
 * loop to judge. */
static inline size_t walk_in_place(const struct pmu_ring *ring, uint64_t pos, uint64_t head,
				   pmu_record_fn note, void *arg, long *n, int *rc,
				   struct pmurt_error *err)
{
	uint64_t off = pos & (ring->size - 1);
	size_t room = (size_t)(head - pos < ring->size - off ? head - pos : ring->size - off);
	const unsigned char *p = ring->data + off;
	size_t at = 0;
	while (room - at >= sizeof(struct perf_event_header)) {
		struct perf_event_header h;
		memcpy(&h, p + at, sizeof h);
		if (h.size < sizeof h || (h.size & 7) != 0 || h.size > room - at)
			break;
		if (note && (*rc = note(arg, (const struct perf_event_header *)(p + at), err)) < 0)
			break;
		at += h.size;
		(*n)++;
	}
	return at;
}

long pmu_ring_drain_spans(struct pmu_ring *ring, pmu_record_fn note, pmu_span_fn span,
			  void *arg, struct pmurt_error *err)
{
	uint64_t head = pmu_ring_load_head(&ring->ctl->data_head);
	struct run r = {ring->ctl->data_tail, ring->ctl->data_tail};
	long n = 0;
	int rc;
	bool refused = false;   /* by span: what it refused stays in the ring */
	struct perf_event_header h;
	while ((rc = whole_record(ring, r.end, head, &h, err)) > 0) {
		uint64_t off = r.end & (ring->size - 1);
		bool wraps = off + h.size > ring->size;
		/* a run ends where the ring does: the next record is at its start */
		if ((wraps || off == 0) && (rc = flush_run(ring, &r, span, arg, err)) < 0) {
			refused = true;
			break;
		}
		const struct perf_event_header *rec = record_at(ring, r.end, h.size);
		if (!rec) {
			rc = no_memory(&h, err);
			break;
		}
		if (note && (rc = note(arg, rec, err)) < 0)
			break;
		n++;
		if (wraps && (rc = span(arg, rec, h.size, err)) < 0) {
			refused = true;
			break;
		}
		r.end += h.size;
		if (wraps)
			r.start = r.end;
		else if ((r.end & (ring->size - 1)) != 0) {
			/* the records after it, in place up to the ring's end; a
			 * record that ended exactly there leaves the next one at
			 * the ring's start, for the loop to flush the run first */
			r.end += walk_in_place(ring, r.end, head, note, arg, &n, &rc, err);
			if (rc < 0)
				break;
		}
	}
	/* the records before a bad or refused one still go out */
	if (!refused) {
		int flushed = flush_run(ring, &r, span, arg, err);
		rc = rc < 0 ? rc : flushed;
	}
	if (r.start != ring->ctl->data_tail)
		pmu_ring_store_tail(&ring->ctl->data_tail, r.start);
	return rc < 0 ? rc : n;
}
