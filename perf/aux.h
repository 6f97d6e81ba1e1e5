/*
 * aux.h - the AUX area of a perf event as user space drains it, for the
 * vpa_dtl PMU (arch/powerpc/perf/vpa-dtl.c) whose driver writes 48-byte
 * Dispatch Trace Log slots into it.
 *
 * The area is mapped after the data ring: aux_offset and aux_size are
 * written into the control page, then the same fd is mapped at aux_offset
 * read/write (normal mode: the reader owns aux_tail;
 * include/uapi/linux/perf_event.h).  Draining mirrors the data ring's
 * protocol (ring.h): aux_head loaded with acquire semantics, the bytes in
 * [aux_tail, aux_head) handed out, aux_tail stored after a full barrier.
 *
 * The driver's quirks shape the walk (see the notes in aux.c):
 *   - it fills (aux_size - 32) / 48 slots of each lap, then reports the
 *     rest of the lap (the stale tail: bytes it never wrote) so that
 *     aux_head lands on a multiple of aux_size: the drain splits there and
 *     never hands the stale bytes out, so every chunk is whole slots on the
 *     driver's grid;
 *   - at that wrap it loses entries and says nothing: the rest of the batch
 *     that reached the threshold is dropped, and the next poll(s) copy their
 *     entries to the next lap's first slots but report only the stale tail
 *     (head = 0 with head_size kept), so the following polls overwrite
 *     them.  The drain sees each such poll in its PERF_RECORD_AUX (an output
 *     inside the stale tail; pmu_aux_note_output) and counts the entries
 *     lost, exactly when the output says how many (one 48-byte output),
 *     else between 1 and 84 (the most one poll copies);
 *   - it never checks the free space: a slow reader finds aux_head more than
 *     aux_size past its tail.  The overwritten slots are counted as lost and
 *     skipped; when the area is full the perf core disables the event
 *     (perf_aux_output_begin).  The drain says so (found_full): the event
 *     must then be closed and opened anew, never enabled again (enabling a
 *     vpa_dtl event after a disable crashes Linux up to at least 7.2:
 *     vpa_dtl_event_add writes into the buffer vpa_dtl_event_del freed).
 * Each drain that found the area full, or losses at the wrap, hands a
 * PERF_RECORD_AUXTRACE_ERROR (type PERF_AUXTRACE_ERROR_ITRACE, code
 * PMU_AUX_LOST_CODE, the counts in its message) to the sink before the data.
 */
#ifndef PMU_AUX_H
#define PMU_AUX_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "aux_filled.h"
#include "pmurt.h"
#include "ring.h"
#include "sys.h"

/* PERF_RECORD_AUXTRACE as it reaches a sink (record.h): its 48 bytes as
 * the file holds them (tools/lib/perf/include/perf/event.h struct
 * perf_record_auxtrace; header.size excludes the payload), then where the
 * payload is: in the AUX area, valid during the sink's call only. */
struct pmu_auxtrace {
	struct perf_event_header header;
	uint64_t size, offset, reference;
	uint32_t idx, tid, cpu, reserved;
	const void *data;
};
#define PMU_AUXTRACE_RECORD_SIZE 48
#define PMU_RECORD_AUXTRACE 71
#define PMU_RECORD_AUXTRACE_ERROR 72
#define PMU_AUX_LOST_CODE 1       /* our code in its AUXTRACE_ERROR records */

struct pmu_aux_stats {
	uint64_t chunks;        /* AUXTRACE records handed out */
	uint64_t bytes;         /* their payload bytes */
	uint64_t stale_bytes;   /* stale tails skipped at the driver's wraps */
	uint64_t lost_entries;  /* slots overwritten before they were read */
	uint64_t lost_headers;  /* the header slot among them (0 or 1) */
	uint64_t overruns;      /* drains that found the area full or overrun */
	uint64_t torn_bytes;    /* bytes the driver overwrote while being read
	                           (a real kernel writing concurrently) */
	uint64_t wrap_polls;    /* outputs inside a stale tail: polls whose
	                           entries the driver wrote past its wrap and
	                           never reported */
	uint64_t wrap_lost_min, wrap_lost_max;  /* the entries they lost */
	uint64_t cut_polls;     /* outputs that reached the threshold: the rest
	                           of their batch was dropped */
	uint64_t cut_lost_max;  /* at most that many entries (84 a poll) */
	uint64_t reopens;       /* the event closed and opened anew */
	uint64_t full_polls;    /* outputs of 84 entries, the most a poll takes:
	                           the hypervisor's buffer may have dropped more
	                           (how many, no reader can know) */
};

/* The most entries one poll of the driver copies: lppaca's DTL ring holds
 * 85, and last_idx + 85 <= cur_idx keeps 84 (vpa_dtl_dump_sample_data). */
#define PMU_DTL_MAX_PER_POLL 84

struct pmu_aux {
	const struct pmurt_sys *sys;
	int fd;
	struct perf_event_mmap_page *ctl;
	const unsigned char *data;
	uint64_t size;          /* aux_size, a power of two */
	uint64_t filled;        /* bytes of slots the driver fills per lap */
	uint32_t idx;           /* the mmap index (AUXTRACE idx) */
	int cpu;
	bool found_full;        /* the last drain found the area full: the core
	                           may have disabled the event (reopen it) */
	uint64_t pending_polls, pending_min, pending_max;  /* wrap losses noted,
	                           not yet in an AUXTRACE_ERROR */
	uint64_t pending_overwritten;  /* likewise, slots overwritten unread */
	bool pending_full;      /* an area found full, not yet said */
	struct pmu_aux_stats stats;
};


/* Map the AUX area of ring's fd: aux_pages (a power of two) pages of
 * page_size bytes after the data ring.  idx and cpu go into the AUXTRACE
 * records.  Returns 0 or a negative errno, err naming the cause. */
int pmu_aux_map(struct pmu_aux *aux, const struct pmu_ring *ring, unsigned aux_pages,
		size_t page_size, uint32_t idx, int cpu, struct pmurt_error *err);
void pmu_aux_unmap(struct pmu_aux *aux);

/* Bytes waiting between aux_tail and aux_head. */
uint64_t pmu_aux_pending(const struct pmu_aux *aux);

/* A PERF_RECORD_AUX of this area's event (aux_offset, aux_size): an output
 * of the driver, classified by where it lies in its lap (wrap losses). */
void pmu_aux_note_output(struct pmu_aux *aux, uint64_t offset, uint64_t size);

/* Hand every whole-slot run of [aux_tail, aux_head) to fn as a
 * PERF_RECORD_AUXTRACE (rec->header.type PMU_RECORD_AUXTRACE, the record
 * a struct pmu_auxtrace), count what was stale or lost, advance aux_tail,
 * and set found_full.  The losses are counted before fn sees anything, and
 * once: if fn fails, the tail stays and the next drain counts nothing
 * again.  Returns the number of records, or a negative errno (fn's,
 * aux_tail then before the run fn refused). */
long pmu_aux_drain(struct pmu_aux *aux, pmu_record_fn fn, void *arg, struct pmurt_error *err);

#endif /* PMU_AUX_H */
