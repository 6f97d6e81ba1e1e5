/*
 * aux.c - draining a vpa_dtl event's AUX area (aux.h).
 *
 * Positions are the kernel's free-running aux_head/aux_tail counters.  The
 * driver (arch/powerpc/perf/vpa-dtl.c, the version with the "buffer full"
 * logic) keeps its own write index in slots from the AUX base, wraps after
 * (aux_size - 32) / 48 slots and ends that output with aux_head on the next
 * multiple of aux_size; so every lap starts at a multiple of aux_size and
 * its slots lie at 48-byte steps from there.  It never looks at the free
 * space (handle->size): unread slots are overwritten, and only when
 * aux_head - aux_tail reaches aux_size does perf_aux_output_begin
 * (kernel/events/ring_buffer.c) refuse, disable the event and wake the
 * reader; the owner then reopens the event (record.c), since enabling it
 * again crashes the kernel.  It sets no PERF_AUX_FLAG_*; the
 * PERF_RECORD_AUX records in the data ring are passed through as the
 * kernel wrote them (and read for the wrap losses, pmu_aux_note_output),
 * and what the drain finds lost is written as a PERF_RECORD_AUXTRACE_ERROR,
 * so that the file says so (perf report warns of them, perf script prints
 * them).
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "aux.h"
#include "errors.h"

int pmu_aux_map(struct pmu_aux *aux, const struct pmu_ring *ring, unsigned aux_pages,
		size_t page_size, uint32_t idx, int cpu, struct pmurt_error *err)
{
	pmurt_clear_error(err);
	*aux = (struct pmu_aux){.sys = ring->sys, .fd = -1, .idx = idx, .cpu = cpu};
	if (aux_pages == 0 || (aux_pages & (aux_pages - 1)) != 0) {
		pmurt_set_error(err, -EINVAL, "AUX area: %u pages is not a power of two", aux_pages);
		return -EINVAL;
	}
	uint64_t size = (uint64_t)aux_pages * page_size;
	/* after the data ring, page aligned (perf's auxtrace_mmap__mmap) */
	uint64_t offset = ring->map_len;
	ring->ctl->aux_offset = offset;
	ring->ctl->aux_size = size;
	int rc = 0;
	void *p = ring->sys->mmap(ring->sys->ctx, ring->fd, (size_t)size, (off_t)offset, &rc);
	if (!p) {
		rc = rc ? rc : -EINVAL;
		pmurt_set_error(err, rc, "AUX area: mmap of %llu bytes (%u pages) at offset %llu "
				"failed: %s (the limit is /proc/sys/kernel/perf_event_mlock_kb)",
				(unsigned long long)size, aux_pages, (unsigned long long)offset,
				strerror(-rc));
		return rc;
	}
	aux->fd = ring->fd;
	aux->ctl = ring->ctl;
	aux->data = p;
	aux->size = size;
	aux->filled = pmu_aux_filled(size);
	return 0;
}

void pmu_aux_unmap(struct pmu_aux *aux)
{
	if (aux->data)
		aux->sys->munmap(aux->sys->ctx, (void *)aux->data, (size_t)aux->size);
	aux->data = NULL;
	aux->fd = -1;
}

uint64_t pmu_aux_pending(const struct pmu_aux *aux)
{
	return pmu_ring_load_head(&aux->ctl->aux_head) - aux->ctl->aux_tail;
}

/* The driver's slots among len bytes at from, all in one lap. */
static void count_lost_in_lap(struct pmu_aux *aux, uint64_t from, uint64_t len)
{
	uint64_t off = from & (aux->size - 1);
	uint64_t end = len < aux->filled - off ? off + len : aux->filled;
	if (off >= aux->filled || off >= end)
		return;
	uint64_t first = (off + PMURT_DTL_SLOT_SIZE - 1) / PMURT_DTL_SLOT_SIZE;
	uint64_t past = (end + PMURT_DTL_SLOT_SIZE - 1) / PMURT_DTL_SLOT_SIZE;
	bool header = from == 0; /* slot 0 of lap 0 */
	aux->stats.lost_entries += past - first - header;
	aux->stats.lost_headers += header;
}

/* The driver's slots among len bytes at from: per lap, the 48-byte steps
 * below the filled limit; the header is slot 0 of lap 0.  Whole laps in
 * between are counted at once.  Positions are free-running, so only their
 * differences are compared. */
static void count_lost(struct pmu_aux *aux, uint64_t from, uint64_t len)
{
	uint64_t to_lap_end = aux->size - (from & (aux->size - 1));
	if (len <= to_lap_end) {
		count_lost_in_lap(aux, from, len);
		return;
	}
	count_lost_in_lap(aux, from, to_lap_end);
	from += to_lap_end;
	len -= to_lap_end;
	uint64_t laps = len / aux->size;
	aux->stats.lost_entries += laps * (aux->filled / PMURT_DTL_SLOT_SIZE);
	if (len % aux->size)
		count_lost_in_lap(aux, from + laps * aux->size, len % aux->size);
}

static int hand_out(struct pmu_aux *aux, uint64_t pos, uint64_t len, pmu_record_fn fn,
		    void *arg, struct pmurt_error *err)
{
	struct pmu_auxtrace rec = {
		.header = {.type = PMU_RECORD_AUXTRACE, .size = PMU_AUXTRACE_RECORD_SIZE},
		.size = len, .offset = pos, .idx = aux->idx, .tid = (uint32_t)-1,
		.cpu = (uint32_t)aux->cpu, .data = aux->data + (pos & (aux->size - 1)),
	};
	int rc = fn(arg, &rec.header, err);
	if (rc < 0)
		return rc;
	aux->stats.chunks++;
	aux->stats.bytes += len;
	return 0;
}

/* tools/lib/perf/include/perf/event.h struct perf_record_auxtrace_error,
 * fmt 1 (with time): the message ends the record, padded to 8. */
struct auxtrace_error {
	struct perf_event_header header;
	uint32_t type, code, cpu, pid, tid, fmt;
	uint64_t ip, time;
	char msg[64];
};
#define AUXTRACE_ERROR_ITRACE 1   /* PERF_AUXTRACE_ERROR_ITRACE */

static int report(struct pmu_aux *aux, const char *msg, pmu_record_fn fn, void *arg,
		  struct pmurt_error *err)
{
	struct auxtrace_error e = {.header = {.type = PMU_RECORD_AUXTRACE_ERROR},
				   .type = AUXTRACE_ERROR_ITRACE, .code = PMU_AUX_LOST_CODE,
				   .cpu = (uint32_t)aux->cpu, .pid = (uint32_t)-1,
				   .tid = (uint32_t)-1, .fmt = 1};
	snprintf(e.msg, sizeof(e.msg), "%s", msg);
	size_t size = offsetof(struct auxtrace_error, msg) + strlen(e.msg) + 1;
	e.header.size = (uint16_t)((size + 7) & ~(size_t)7);
	return fn(arg, &e.header, err);
}

/* The losses noted and not yet said, each said once: what fn refused stays
 * pending for the next drain (the counts themselves were taken already). */
static int report_pending(struct pmu_aux *aux, pmu_record_fn fn, void *arg,
			  struct pmurt_error *err)
{
	char msg[64];
	int rc = 0;
	if (aux->pending_full || aux->pending_overwritten) {
		if (aux->pending_overwritten)
			snprintf(msg, sizeof msg, "vpa_dtl: %llu entries overwritten unread",
				 (unsigned long long)aux->pending_overwritten);
		else
			snprintf(msg, sizeof msg, "vpa_dtl: AUX area full, output dropped");
		if ((rc = report(aux, msg, fn, arg, err)) < 0)
			return rc;
		aux->pending_full = false;
		aux->pending_overwritten = 0;
	}
	if (aux->pending_polls) {
		snprintf(msg, sizeof msg, "vpa_dtl: wrap lost %llu-%llu entries in %llu polls",
			 (unsigned long long)aux->pending_min, (unsigned long long)aux->pending_max,
			 (unsigned long long)aux->pending_polls);
		if ((rc = report(aux, msg, fn, arg, err)) < 0)
			return rc;
		aux->pending_polls = aux->pending_min = aux->pending_max = 0;
	}
	return 0;
}

/* vpa-dtl.c vpa_dtl_dump_sample_data / vpa_dtl_capture_aux: once a batch
 * reaches the threshold (head + n >= threshold), the driver sets head to 0
 * but keeps head_size; the next poll copies its m entries to slots
 * 0..m-1 and, since m * 48 + head_size exceeds the area, reports only
 * aux_size - head_size bytes of the stale tail and resets head: those m
 * entries are never reported.  With a 64-byte tail, one entry (48 bytes
 * still fit) is reported as a 48-byte output at the threshold, and the
 * next poll then reports the last 16 bytes.  So an output inside the stale
 * tail is a poll that lost 1 entry (the 48-byte one) or 1 to 84; an output
 * ending at the threshold dropped the rest of its batch, at most 84 less
 * the entries it carried (the header, slot 0 of position 0, excluded).  An
 * output of 84 entries took all the driver takes from the hypervisor's
 * buffer (last_idx + 85 <= cur_idx): more may have come, and gone. */
void pmu_aux_note_output(struct pmu_aux *aux, uint64_t offset, uint64_t size)
{
	uint64_t off = offset & (aux->size - 1), gap = aux->size - aux->filled;
	if (size == 0 || aux->filled == aux->size)
		return;
	if (off >= aux->filled) {
		bool one = size == PMURT_DTL_SLOT_SIZE && off == aux->filled &&
			   gap > PMURT_DTL_SLOT_SIZE;
		uint64_t max = one ? 1 : PMU_DTL_MAX_PER_POLL;
		aux->stats.wrap_polls++;
		aux->stats.wrap_lost_min++;
		aux->stats.wrap_lost_max += max;
		aux->pending_polls++;
		aux->pending_min++;
		aux->pending_max += max;
	} else if (size / PMURT_DTL_SLOT_SIZE - (offset == 0) == PMU_DTL_MAX_PER_POLL &&
		   off + size != aux->filled) {
		aux->stats.full_polls++;
	} else if (off + size == aux->filled) {
		uint64_t carried = size / PMURT_DTL_SLOT_SIZE - (offset == 0);
		aux->stats.cut_polls++;
		aux->stats.cut_lost_max += carried < PMU_DTL_MAX_PER_POLL
					   ? PMU_DTL_MAX_PER_POLL - carried : 0;
	}
}

/* The first slots of a lap once the driver went past its threshold there
 * (aux_head beyond it): each poll after the threshold copied its entries
 * to the lap's first slots (up to 84 of them) without reporting them, over
 * slots reported before.  Those the reader has not read yet may hold such
 * entries: counted lost (as overwritten) and skipped, never handed out as
 * what their position says.  A reader less than a lap behind, less 84
 * slots, never meets them. */
static uint64_t skip_rewritten(struct pmu_aux *aux, uint64_t pos, uint64_t head)
{
	uint64_t lap = pos & ~(aux->size - 1);
	uint64_t slots = aux->filled / PMURT_DTL_SLOT_SIZE;
	uint64_t end = lap + (slots < PMU_DTL_MAX_PER_POLL ? slots : PMU_DTL_MAX_PER_POLL) *
				  PMURT_DTL_SLOT_SIZE;
	if (head - lap <= aux->filled || pos >= end)
		return pos;
	uint64_t stop = head - pos < end - pos ? head : end;
	uint64_t lost_before = aux->stats.lost_entries;
	count_lost(aux, pos, stop - pos);
	aux->pending_overwritten += aux->stats.lost_entries - lost_before;
	pmu_ring_store_tail(&aux->ctl->aux_tail, stop);
	return stop;
}

long pmu_aux_drain(struct pmu_aux *aux, pmu_record_fn fn, void *arg, struct pmurt_error *err)
{
	uint64_t head = pmu_ring_load_head(&aux->ctl->aux_head);
	uint64_t pos = aux->ctl->aux_tail, start;
	if ((int64_t)(head - pos) < 0) {
		pmurt_set_error(err, -EBADMSG, "AUX area of CPU %d: aux_head %llu is behind aux_tail "
				"%llu", aux->cpu, (unsigned long long)head, (unsigned long long)pos);
		return -EBADMSG;
	}
	aux->found_full = head - pos >= aux->size;
	if (aux->found_full) {
		uint64_t lost_before = aux->stats.lost_entries;
		aux->stats.overruns++;
		aux->pending_full = true;
		if (head - pos > aux->size) { /* the driver wrote over what was unread */
			count_lost(aux, pos, head - aux->size - pos);
			pos = head - aux->size;
			/* counted once: those bytes are gone whatever fn says */
			pmu_ring_store_tail(&aux->ctl->aux_tail, pos);
		}
		aux->pending_overwritten += aux->stats.lost_entries - lost_before;
	}
	pos = skip_rewritten(aux, pos, head);
	start = pos;
	long n = 0;
	int rc = report_pending(aux, fn, arg, err);
	if (rc < 0)
		return rc;
	while (pos != head) {
		uint64_t left = head - pos, off = pos & (aux->size - 1);
		if (off >= aux->filled) { /* the stale tail up to the next lap */
			uint64_t skip = aux->size - off < left ? aux->size - off : left;
			aux->stats.stale_bytes += skip;
			pos += skip;
			continue;
		}
		if (off % PMURT_DTL_SLOT_SIZE) { /* never from this driver: resynchronise */
			uint64_t skip = PMURT_DTL_SLOT_SIZE - off % PMURT_DTL_SLOT_SIZE;
			if (skip > left)
				break;
			count_lost(aux, pos, skip);
			pos += skip;
			continue;
		}
		uint64_t room = aux->filled - off;
		uint64_t len = (left < room ? left : room) / PMURT_DTL_SLOT_SIZE * PMURT_DTL_SLOT_SIZE;
		if (len == 0)
			break; /* a slot not whole yet */
		if ((rc = hand_out(aux, pos, len, fn, arg, err)) < 0)
			break;
		pos += len;
		n++;
	}
	/* what a concurrent writer may have overwritten while it was read */
	uint64_t now = pmu_ring_load_head(&aux->ctl->aux_head);
	if (now - start > aux->size)
		aux->stats.torn_bytes += now - aux->size - start < pos - start
					 ? now - aux->size - start : pos - start;
	if (pos != aux->ctl->aux_tail)
		pmu_ring_store_tail(&aux->ctl->aux_tail, pos);
	return rc < 0 ? rc : n;
}
