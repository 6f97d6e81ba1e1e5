/*
 * ring.h - the perf ring buffer as user space consumes it.
 *
 * A sampling event's fd is mapped as one control page (struct
 * perf_event_mmap_page) followed by 2^n data pages.  The kernel advances
 * data_head after writing whole records; the reader loads data_head with
 * acquire semantics, copies [data_tail, data_head) modulo the size, and
 * stores data_tail after a full barrier, so that the kernel never
 * overwrites what is still being read (include/uapi/linux/perf_event.h,
 * the comment on data_head; kernel/events/ring_buffer.c, the barrier
 * pairing A..D).
 *
 * The head/tail protocol and the modulo copy are separate functions so that
 * the AUX area (aux_head/aux_tail, a byte stream, not records) reuses them;
 * pmu_ring_drain walks the data area's records.
 */
#ifndef PMU_RING_H
#define PMU_RING_H

#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>

#include "pmurt.h"
#include "sys.h"

/* The protocol on any head/tail pair (data_head/data_tail, aux_head/aux_tail). */
uint64_t pmu_ring_load_head(const volatile __u64 *head);
void pmu_ring_store_tail(volatile __u64 *tail, uint64_t value);
/* Copy len bytes starting at free-running position pos out of a ring of
 * size bytes (a power of two), in two pieces when they wrap its end. */
void pmu_ring_copy(void *dst, const unsigned char *ring, uint64_t size,
		   uint64_t pos, size_t len);

struct pmu_ring {
	const struct pmurt_sys *sys;
	int fd;
	void *base;           /* the mapping: control page, then the data */
	size_t map_len;
	struct perf_event_mmap_page *ctl;
	const unsigned char *data;
	uint64_t size;        /* data bytes, a power of two */
	unsigned char *bounce;  /* a record that wraps the end, copied whole */
	size_t bounce_cap;
};

/* Map fd's ring: one control page and data_pages (a power of two) pages of
 * page_size bytes.  Returns 0 or a negative errno, err naming the cause. */
int pmu_ring_map(struct pmu_ring *ring, const struct pmurt_sys *sys, int fd,
		 unsigned data_pages, size_t page_size, struct pmurt_error *err);
void pmu_ring_unmap(struct pmu_ring *ring);

/* Called for each record, which is contiguous and aligned in memory for the
 * duration of the call; a negative return stops the drain with that code. */
typedef int (*pmu_record_fn)(void *arg, const struct perf_event_header *rec,
			     struct pmurt_error *err);

/* Hand every whole record in [data_tail, data_head) to fn and advance
 * data_tail past them.  A record not yet whole (head inside it) stays for
 * the next call.  Returns the number of records, or a negative errno: fn's
 * error (data_tail then stays before the record fn refused), -EBADMSG for a
 * record whose size is below its header or above the ring (err says where),
 * -ENOMEM. */
long pmu_ring_drain(struct pmu_ring *ring, pmu_record_fn fn, void *arg,
		    struct pmurt_error *err);

/* Called with whole records laid out back to back, len the sum of their
 * sizes: a run of the ring as the kernel wrote it, or one record that
 * wrapped its end, copied whole.  A negative return stops the drain. */
typedef int (*pmu_span_fn)(void *arg, const void *recs, size_t len,
			   struct pmurt_error *err);

/* As pmu_ring_drain, but the records leave in spans, as perf record writes
 * the ring (builtin-record.c record__pushfn: whole contiguous pieces): note
 * (NULL: none) sees each record, contiguous, for per-record accounting
 * (its negative return stops the drain before that record); span gets the
 * runs.  A span is cut where the ring wraps.  data_tail stays before the
 * span that was refused.  Returns the number of records, or a negative
 * errno as pmu_ring_drain. */
long pmu_ring_drain_spans(struct pmu_ring *ring, pmu_record_fn note, pmu_span_fn span,
			  void *arg, struct pmurt_error *err);

/* Bytes waiting in the data area. */
uint64_t pmu_ring_pending(const struct pmu_ring *ring);

#endif /* PMU_RING_H */
